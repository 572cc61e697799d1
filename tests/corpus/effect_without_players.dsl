kind altar(gift: int = 1) {
  resolve {
    gain gift coins
  }
}
