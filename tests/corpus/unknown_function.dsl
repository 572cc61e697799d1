kind toll(cut: int = 1) {
  resolve {
    richest: lose hlf(your_coins) coins
  }
}
