vault odd-vault {
  rewards {
    1 -> give torch
    2 -> give lantern
  }
}
