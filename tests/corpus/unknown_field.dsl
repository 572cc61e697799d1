monster bat {
  strenght 5 / 6 / 7
  strength 5 / 6 / 7
  wounds 1
}
