kind altar(gift: int = 1) {
  resolve { highest: gain gift coins }
}
kind altar(gift: int = 2) {
  resolve { lowest: gain gift coins }
}
