kind shrine2(gift: int = 1) {
  playble key as 5
  resolve { highest: gain gift coins }
}
