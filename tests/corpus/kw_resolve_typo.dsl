# `resolve` misspelt: it reads as a field
kind altar(gift: int = 1) {
  resolv {
    everyone: gain gift coins
  }
}
