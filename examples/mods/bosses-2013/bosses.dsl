# The 2013 printing's eleven bosses (CARDS.md, appendix), as text only. The boss is the 25th
# room of a classic game, face up (mod.yaml). Against it each player plays two cards and their
# values are summed; "lowest", "second-lowest" and "highest" compare those sums, and the
# strength compares the total of all sums, as for any monster.

# Two cards each; any item may be one of them and counts 0 unless the boss says otherwise.
# A sword still counts 5 (the monster kind says so). A player with a single card left plays
# it and counts 0 for the other (`missing`, 0 by default).
kind boss-2013 : monster(cards = 2) {
  playable any as 0
}

# The attacked also lose coins equal to the highest single card played in the room.
boss-2013 tax-collector-2013 {
  name "Tax Collector (2013)"
  strength 14 / 18 / 23
  wounds 2
  after attack { attacked: lose highest_card coins }
}

# Crystal balls are worth 5 here (played as one of the two cards, not as a second card).
boss-2013 sphinx-2013 {
  name "Sphinx (2013)"
  strength 14 / 18 / 23
  wounds 4
  playable crystal-ball as 5
}

# Deals as many wounds as the highest single card played; swords cannot be played.
boss-2013 golem-2013 {
  name "Golem (2013)"
  strength 14 / 18 / 23
  wounds highest_card
  unplayable sword
}

# A player who plays a torch with a power card takes no wound; the attack does not pass on.
boss-2013 wolf-pack-2013 {
  name "Wolf Pack (2013)"
  strength 11 / 14 / 18
  wounds 3
  instead of wound on played(torch) { }
}

# The attacked are turned to stone: out of the game.
boss-2013 medusa-2013 {
  name "Medusa (2013)"
  strength 12 / 16 / 20
  wounds 0
  instead of wound on attacked { eliminate }
}

# Beaten, it resolves as a treasure room with a chest of 3 for the highest sum(s) (X-4).
boss-2013 mega-dragon-2013 {
  name "Mega Dragon (2013)"
  strength 17 / 23 / 29
  wounds 4
  after room { if total >= strength { share 3 among highest } }
}

# Hits the highest sum instead of the lowest.
boss-2013 minotaur-2013 {
  name "Minotaur (2013)"
  strength 11 / 15 / 19
  wounds 4
  target highest
}

# Torches are worth 5.
boss-2013 mummy-2013 {
  name "Mummy (2013)"
  strength 13 / 18 / 23
  wounds 4
  playable torch as 5
}

# Hits the lowest and the second-lowest sums; crystal balls cannot be played.
boss-2013 necromancer-2013 {
  name "Necromancer (2013)"
  strength 12 / 15 / 19
  wounds 2
  target lowest, second_lowest
  unplayable crystal-ball
}

# Torches are worth 3; hits the lowest and the second-lowest sums.
boss-2013 vampire-2013 {
  name "Vampire (2013)"
  strength 14 / 18 / 23
  wounds 3
  target lowest, second_lowest
  playable torch as 3
}

# Two heads fought in a row, one card each: each head is a monster of its own (8 / 10 / 13,
# 2 wounds). A player with a single card left plays it against the first head and counts 0
# against the second.
boss-2013 hydra-2013 {
  name "Hydra (2013)"
  strength 8 / 10 / 13
  wounds 2
  cards 1
  rounds 2
}
