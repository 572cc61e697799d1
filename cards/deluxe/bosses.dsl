# Deluxe bosses (D-6..D-8): a boss is a monster with overrides, the last room of floor 5.
# The deluxe cards' numbers are not public: every number marked (r) is reconstructed from the
# classic cards (CARDS.md). Changing one never needs a code change.

# A boss resolves like a monster; one that deals no wounds need not say `wounds`.
kind boss : monster(wounds = 0) { }

boss tax-collector {
  name "Tax Collector"
  strength 14 / 18 / 23  # (r)
  instead of wound on attacked { lose 3 coins }
}

boss medusa {
  name "Medusa"
  strength 12 / 16 / 20  # (r)
  instead of wound on attacked { eliminate }
}

boss vampire {
  name "Vampire"
  strength 14 / 18 / 23  # (r)
  wounds 1
  after wound on attacked { lose 2 coins }
}

# The rulebook: "in addition, whoever played the highest value gains 2 coins ... if all played
# the same value and did not defeat the sphinx, nobody gains coins" -- so the bonus is paid
# whether or not the boss is beaten, except in that one case.
boss sphinx {
  name "Sphinx"
  strength 14 / 18 / 23  # (r)
  wounds 2
  after room {
    unless all_same and total < strength { highest: gain 2 coins }
  }
}

boss minotaur {
  name "Minotaur"
  strength 11 / 15 / 19  # (r)
  wounds 1
  after room {
    unless all_same and total < strength { highest: gain 1 coin }
  }
}

boss wolf-pack {
  name "Wolf Pack"
  strength 11 / 14 / 18  # (r)
  wounds 3               # (r)
  escape torch
}

boss necromancer {
  name "Necromancer"
  strength 12 / 15 / 19  # (r)
  wounds 2               # (r)
  escape crystal-ball    # the ball is the player's card: no second card
}

boss mega-dragon {
  name "Mega Dragon"
  strength never
  wounds 4  # (r)
  escape key
}

boss golem {
  name "Golem"
  strength never
  wounds 3  # (r)
  modify value of power 5 to 1
  modify value of sword to 1
}

boss mummy {
  name "Mummy"
  strength never
  wounds 4  # (r)
  target highest
}
