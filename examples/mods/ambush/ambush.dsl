# Effects on the next room. Survivors of an ambush are shaken: in the next room their cards
# count 0. The ambush leaves a trail: the next room, if it is a monster, is 3 stronger for
# everyone - once, however many played lowest (a status on the next room, read by its
# `strength`; on each lowest player it would count once per player).

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
  after room { next_room: mark hunted }
}
