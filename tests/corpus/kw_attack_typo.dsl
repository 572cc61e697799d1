kind pit(harm: int = 1) {
  resolve {
    atack lowest { wound harm }
  }
}
