boss brute {
  strength 9 / 11 / 13
  wounds 1
  modify value of power 7 to 1
}
