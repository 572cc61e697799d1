boss pest {
  strength 10 / 12 / 14
  insted of wound on attacked { lose 1 coin }
}
