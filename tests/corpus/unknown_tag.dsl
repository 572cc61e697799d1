boss siren {
  strength 9 / 11 / 13
  instead of wound on atacked { lose 2 coins }
}
