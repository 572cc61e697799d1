# Deluxe traps (D-5): read the HIGHEST value played (the trap kind's default key).
# Ties: every tied player takes the full penalty, which a selector already does.

trap lava {
  name "Lava"
  hits {
    5 -> richest: lose 3 coins
    4 -> richest: lose 2 coins
    3 -> richest: lose 1 coin
  }
}

trap magnet {
  name "Magnet"
  hits {
    5 -> richest: lose 2 coins
    4 -> richest: lose 2 coins
    3 -> richest: lose 1 coin
    2 -> richest: lose 1 coin
  }
}

trap spikes {
  name "Spikes"
  hits {
    5 -> least_wounded: wound 2
    4 -> least_wounded: wound 2
    3 -> least_wounded: wound 1
  }
}

trap boulder {
  name "Boulder"
  hits {
    5 -> least_wounded: wound 2
    4 -> least_wounded: wound 1
    3 -> least_wounded: wound 1
    2 -> least_wounded: wound 1
  }
}
