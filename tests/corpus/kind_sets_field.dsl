kind altar(gift: int = 1) {
  gift 2
  resolve { highest: gain gift coins }
}
