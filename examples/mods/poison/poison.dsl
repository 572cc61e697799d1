# A lasting status: a dart trap poisons, and poison hurts at the end of every room until it
# wears off. `mark … lasting 2 rooms` counts from the room after this one.

status poisoned {
  name "Poisoned"
  after room { you: wound 1 }
}

trap poison-darts {
  name "Poison Darts"
  hits {
    1 -> lowest: wound 1
    2 -> lowest: mark poisoned lasting 1 room
    3 -> lowest: mark poisoned lasting 2 rooms
    4 -> everyone: mark poisoned lasting 1 room
    5 -> everyone: mark poisoned lasting 2 rooms
  }
}

# A healer's shrine cures poison: whoever plays the most is cured.
treasure antidote-spring {
  name "Antidote Spring"
  chest 2
  after room { highest: unmark poisoned }
}
