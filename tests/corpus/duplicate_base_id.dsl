monster dragon {
  strength 1 / 2 / 3
  wounds 1
}
