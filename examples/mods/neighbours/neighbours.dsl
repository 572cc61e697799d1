# Rules between neighbours (`left`, `right`), rules that name what an event is about
# (`mark(venom)`, `steal from you`), and a choice with two outcomes (`may … else`).

# A character who lifts a coin from the player to their left at the end of every floor
# (a rogue's life: they start more wounded than the others).
character cutpurse {
  name "Cutpurse"
  coins 0
  wounds 3
  after floor_end { you: steal 1 coin from left }
}

# Nobody can steal from its holder (the holder may still steal).
item lockbox {
  name "Lockbox"
  instead of steal from you { }
}

# Venom hurts after every room while it lasts; the antidote keeps it off its holder, and
# only it: other statuses still take.
status venom {
  name "Venom"
  after room { you: wound 1 }
}

item antidote {
  name "Antidote"
  instead of mark(venom) on you { }
}

# The lowest are bitten: venom for the next two rooms.
treasure viper-nest {
  name "Viper Nest"
  chest 1
  after room { lowest: mark venom lasting 2 rooms }
}

# The lowest choose: pay a coin, or take the wounds after all (the replacement does not
# apply to its own wounds).
monster toll-troll {
  name "Toll Troll"
  strength 9 / 11 / 14
  wounds 2
  instead of wound on lowest {
    may "Pay 1 coin instead of the wounds?" { lose 1 coin } else { wound amount }
  }
}

# Where the lockbox and the antidote come from: the supply holds one of each (mod.yaml), and
# this vault hands them out (X-6: two claimants of the one copy get none).
vault apothecary {
  name "Apothecary"
  rewards {
    1 -> give antidote
    2 -> give lockbox
    3 -> gain 1 coin
    4 -> gain 2 coins
    5 -> heal 1
  }
}
