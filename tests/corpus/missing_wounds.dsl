monster bat {
  name "Bat"
  strength 5 / 6 / 7
}
