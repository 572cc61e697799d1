# Dice from the game's seeded generator: `roll(N)` is one die for the whole table in this
# room; `your_roll(N)` one die per player. Scenarios pin them with `rolls:`, logs record them.

# A rolling boulder: a six-sided die picks the row of its table (a 6 hits nobody).
trap rolling-boulder {
  name "Rolling Boulder"
  key roll(6)
  hits {
    1 -> everyone: wound 1
    2 -> lowest: wound 2
    3 -> lowest: wound 1
    4 -> highest: wound 1
    5 -> highest: wound 2
  }
}

# A gambling troll: its strength is 8 plus a die; each player it beats rolls their own die and
# gains that many coins halved.
monster dice-troll {
  name "Dice Troll"
  strength 8 + roll(6)
  wounds 2
  after room {
    if total >= strength { everyone: gain half(your_roll(6)) coins }
  }
}
