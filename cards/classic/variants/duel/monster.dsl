# Classic duel (C-9): monsters cannot be defeated and always attack the lower card; when both
# players play the same value the monster is confused and nobody is hurt.
# This kind replaces the common `monster` kind for the duel variant only.

kind monster(strength: per_players, wounds: int, target: selector = lowest) {
  playable sword as 5
  resolve {
    unless all_same {
      attack target { wound wounds }
    }
  }
}
