# The Banshee: her wail hits whoever played the HIGHEST value, and each
# player it hits also drops a coin. A torch lets its player slip away.
boss banshee {
  name "Banshee"
  strength 13 / 17 / 21
  wounds 2
  target highest
  escape torch
  after attack { attacked: lose 1 coin }
}
