monster bat {
  strength 5 / 6
  wounds 1
}
