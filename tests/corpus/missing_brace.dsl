kind altar(gift: int = 1) {
  resolve {
    highest: gain gift coins
  }
