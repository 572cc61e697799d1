kind altar(gift: int = 1) {
  resolve { highest: gain gift coins }
}
altar altar-of-gilt { gift 2 }
