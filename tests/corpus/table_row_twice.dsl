trap pitfall {
  hits {
    5 -> richest: lose 2 coins
    4 -> richest: lose 1 coin
    5 -> richest: lose 3 coins
  }
}
