character pauper {
  coins -1
}
