kind altar(gift: int = 1) {
  resolve {
    5 -> highest: gain gift coins
  }
}
