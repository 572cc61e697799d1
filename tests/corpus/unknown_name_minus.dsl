kind drain(gift: int = 1) {
  resolve {
    highest: lose total-gift coins
  }
}
