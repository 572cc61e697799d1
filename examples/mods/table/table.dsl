# The table beyond the players (docs/dsl.md, "What cards can name"): rooms that act on other
# rooms, the dungeon's own state, a card that keeps its own counters, hands, and moves that
# happen all at once.

# A status on the next room: in play while that room is played, once however often marked.
status trail { name "Trail"  modify strength to amount + 3 }

monster stalker {
  name "Stalker"
  strength 10 / 13 / 16
  wounds 1
  after room { next_room: mark trail }
}

# The next room, whatever it is, is fought as a horde. The horde is dealt in no deck.
monster horde { name "Horde"  strength 10 / 13 / 16  wounds 2 }

treasure war-horn {
  name "War Horn"
  chest 2
  after room { next_room: become horde }
}

# This room resolves as the room played just before it on this floor.
kind echo() { resolve { do previous_room } }
echo echo-chamber { name "Echo Chamber" }

# Fought again, at most three times, until it is beaten; then nobody plays another card.
monster labyrinth-beast {
  name "Labyrinth Beast"
  strength 8 / 10 / 12
  wounds 1
  rounds 3
  until total >= strength
}

# A status on the dungeon: every wound is one more, for the next two rooms.
status alarm { name "Alarm"  modify wound to amount + 1 }

trap tripwire {
  name "Tripwire"
  hits { 1 -> dungeon: mark alarm lasting 2 rooms }
}

# An item that keeps its own wear: stolen or passed, the card is as worn as it was.
status wear { name "Wear" }

item buckler {
  name "Buckler"
  instead of wound on you {
    wound amount - 1
    this_card: mark wear
    if marked(wear, this_card) >= 3 { you: take buckler }  # it breaks at its third save
  }
}

# Where a buckler comes from: the smithy's 5.
vault smithy { name "Smithy"  rewards { 5 -> give buckler } }

# Hands: the lowest take back their best power card played this floor.
kind second-wind() {
  resolve { lowest: give power your_best_played }
}

second-wind quiet-spring { name "Quiet Spring" }

# Hands read: a player with no 5 left in hand is hurt; the room discards their best card.
trap snare {
  name "Snare"
  hits {
    1 -> everyone {
      if not in_hand(5) { wound 1 }
      take power your_best_card
    }
  }
}

# Moves all at once: every key goes one seat left, none travels on.
kind carousel() {
  resolve { at once { holds(key): pass key to your_left } }
}

carousel spinning-hall { name "Spinning Hall" }

# Rooms for the scenarios (dealt in no deck).
kind pinprick() { resolve { everyone: wound 2 } }
pinprick needles { name "Needles" }
kind robbers() { resolve { lowest: steal buckler from holds(buckler) } }
robbers den { name "Den" }
