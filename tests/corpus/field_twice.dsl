monster bat {
  strength 5 / 6 / 7
  wounds 1
  wounds 2
}
