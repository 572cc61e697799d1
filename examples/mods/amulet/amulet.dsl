# An item with a rule: an amulet that soaks one wound of every hit its holder takes. The mod
# adds two amulets to the supply (mod.yaml) and a vault that hands them out.

item amulet {
  name "Amulet"
  modify wound on you to max(amount - 1, 0)
}

vault amulet-shrine {
  name "Amulet Shrine"
  rewards {
    1 -> give amulet
    2 -> gain 1 coin
    3 -> gain 2 coins
    4 -> gain 3 coins
    5 -> wound 1
  }
}
