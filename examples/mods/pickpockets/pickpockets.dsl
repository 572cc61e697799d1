# Transfers between players: what one player steals another loses. No coin or item is made or
# destroyed (a steal of more than the victim has takes what there is).

# The quickest hands rob the slowest: the highest value takes 2 coins from the lowest.
treasure thieves-den {
  name "Thieves' Den"
  chest 0
  after room { highest: steal 2 coins from lowest }
}

# A swordsmith's quarrel: the highest value takes a sword from whoever holds one, if nobody
# holding one played higher; the lowest gives a key back to the supply.
vault quarrel {
  name "Quarrel"
  rewards {
    1 -> take key
    5 -> steal sword from holds(sword)
  }
}
