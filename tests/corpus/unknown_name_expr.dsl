kind fountain(gift: int = 1) {
  resolve {
    highest: gain gift + bonnus coins
  }
}
