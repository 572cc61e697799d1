# A room in disguise: dealt as a treasure, it fights as a monster. Its kind derives from
# `treasure`, so the table sees a treasure (and a key counts 5 in it, X-3), and replaces the
# treasure's procedure with a monster's (X-5): beaten, the highest share the chest; not
# beaten, it bites the lowest. The narration calls it a treasure until it has been played.

kind mimic : treasure(strength: per_players = 10 / 13 / 16, wounds: int = 2) {
  resolve {
    if total >= strength { share chest among highest } else { attack lowest { wound wounds } }
  }
}

mimic chest-mimic { name "Treasure"  chest 3 }
