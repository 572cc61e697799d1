# Classic solo (C-11, C-12). These kinds replace the common ones for the solo variant only.

# C-12: reveal the top card of the monster deck (`threat`); only a strictly higher value
# avoids the attack, so a 5 cannot be beaten.
kind monster(strength: per_players, wounds: int, target: selector = lowest) {
  resolve {
    unless highest_value > threat {
      attack everyone { wound wounds }
    }
  }
}

# C-12: take one chest whose value is less than the card played.
# **Interpretation**: the largest such chest, since coins only help.
kind treasure(chest: int, second_chest: int = 0) {
  resolve {
    if chest < highest_value {
      everyone: gain chest coins
    } else {
      if second_chest < highest_value and second_chest > 0 {
        everyone: gain second_chest coins
      }
    }
  }
}
