kind altar(gift = 1) {
  resolve { highest: gain gift coins }
}
