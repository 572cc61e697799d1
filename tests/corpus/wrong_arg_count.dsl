kind toll2(cut: int = 1) {
  resolve {
    richest: lose min(your_coins) coins
  }
}
