boss leech {
  strength 9 / 11 / 13
  wounds 1
  after wond { attacked: lose 1 coin }
}
