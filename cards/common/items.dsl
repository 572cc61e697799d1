# Item cards (X-2, X-3). Supplies per edition are in the rulesets.
# Where a key or a sword may be played, and what it counts as, is said by the room kinds.

item torch {
  name "Torch"
  ability peek  # X-2: any time; look at the floor's face-down rooms; back at once
}

item crystal-ball {
  name "Crystal Ball"
  ability second_card  # X-3: play a second card after the reveal; back to the supply at once
}

item key {
  name "Key"  # counts 5 in treasure rooms (kind treasure)
}

item sword {
  name "Sword"  # counts 5 in monster rooms (kind monster)
}
