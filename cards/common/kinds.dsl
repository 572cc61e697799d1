# The kinds every card builds on. A kind owns the procedure; a card fills in its numbers.
# The engine gives a role to three kinds (character, item, floor); every other kind is a room.

# ---- cards that are not rooms ---------------------------------------------------------

# A hero: what it starts with (X-1). Items come out of the supply.
kind character(coins: int = 0, wounds: int = 0, items: items = none) { }

# An item card. Without an ability it can only be played where a room says (`playable`).
kind item(ability: ability = none) { }

# A floor card (deluxe D-3): which of the five rooms lie face up.
kind floor(layout: facing) { }

# ---- rooms ---------------------------------------------------------------------------------

# Treasure room (X-4): the highest value(s) share the chest, the second-highest distinct
# value shares the second chest. Sharing rounds down; more sharers than coins gets nobody
# anything, which floor division already says.
kind treasure(chest: int, second_chest: int = 0) {
  playable key as 5
  resolve {
    share chest among highest
    share second_chest among second
  }
}

# Monster room (X-5): beaten when the sum reaches the strength for the player count;
# otherwise it attacks its target, by default the lowest value(s), each in full.
kind monster(strength: per_players, wounds: int, target: selector = lowest) {
  playable sword as 5
  resolve {
    unless total >= strength {
      attack target { wound wounds }
    }
  }
}

# Vault (X-6): each player gets the reward printed against the value they played.
# Players who claim the same item share the supply rule: too few left, none of them gets one.
kind vault(rewards: table) {
  resolve { for each value rewards }
}

# Trap (D-5, C-6): one row of its table, chosen by the highest value played unless the
# card says which value (`key lowest_value`).
kind trap(hits: table, key: number = highest_value) {
  resolve { table key hits }
}

# A status on a player (`mark poisoned`): a name and rules that run for whoever has it, for as
# long as it lasts. A status card with no rules is a plain counter (`marked(poisoned)`).
kind status() { }

# A house rule: in play the whole game, for every player (a ruleset's or a mod's `rules:`).
kind rule() { }
