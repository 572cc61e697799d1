character pauper {
  coins 0 - 3
}
