trap pitfall {
  hits {
    5 -> richest: lose 2 coins
    0 -> richest: lose 1 coin
  }
}
