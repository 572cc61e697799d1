monstr bat {
  strength 5 / 6 / 7
  wounds 1
}
