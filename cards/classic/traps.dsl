# Classic traps (C-6). One-skull traps (magnet, boulder) hit the best placed by the HIGHEST
# value; two-skull traps (lava, spikes) hit everyone by the LOWEST value.

trap magnet {
  name "Magnet"
  hits {
    5 -> richest: lose 3 coins
    4 -> richest: lose 2 coins
    3 -> richest: lose 1 coin
  }
}

trap boulder {
  name "Boulder"
  hits {
    5 -> least_wounded: wound 3
    4 -> least_wounded: wound 2
    3 -> least_wounded: wound 1
  }
}

trap lava {
  name "Lava"
  key lowest_value
  hits {
    3 -> everyone: lose 1 coin
    2 -> everyone: lose 2 coins
    1 -> everyone: lose half(your_coins) coins  # 5 coins: loses 2
  }
}

trap spikes {
  name "Spikes"
  key lowest_value
  hits {
    3 -> everyone: wound 1
    2 -> everyone: wound 2
    1 -> everyone: wound half(death - your_wounds)  # 3 wounds: 7 left, takes 3
  }
}
