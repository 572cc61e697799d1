# Vaults (X-6): a reward for each value played.

vault item-vault {
  name "Item Vault"
  rewards {
    1 -> give torch
    2 -> give crystal-ball
    3 -> give key
    4 -> give sword
    5 -> heal 1  # potion 1
  }
}

vault coin-vault {
  name "Coin Vault"
  rewards {
    1 -> gain 1 coin
    2 -> gain 2 coins
    3 -> heal 1  # potion 1
    4 -> gain 3 coins
    5 -> heal 2  # potion 2
  }
}
