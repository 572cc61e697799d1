kind pit2(harm: int = 1) {
  resolve {
    attack lowset { wound harm }
  }
}
