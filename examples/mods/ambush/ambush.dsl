# Effects on the next room. Survivors of an ambush are shaken: in the next room their cards
# count 0. Whoever played lowest here is hunted: the next monster room is 3 stronger for
# everyone (a status read by the next room's `strength`).

status shaken {
  name "Shaken"
  modify value on you to 0
}

status hunted {
  name "Hunted"
  modify strength to amount + 3
}

monster ambush {
  name "Ambush"
  strength 10 / 13 / 16
  wounds 1
  after attack { attacked: mark shaken lasting 1 room }
  after room { lowest: mark hunted lasting 1 room }
}
