trap pitfall {
  hits {
    5 richest: lose 1 coin
  }
}
