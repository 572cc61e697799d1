# Treasure rooms (X-4): the same ten cards in both editions.

treasure treasure-1   { name "Treasure 1"      chest 1 }
treasure treasure-2   { name "Treasure 2"      chest 2 }
treasure treasure-3   { name "Treasure 3"      chest 3 }
treasure treasure-4   { name "Treasure 4"      chest 4 }
treasure treasure-2-1 { name "Treasure 2 + 1"  chest 2  second_chest 1 }
treasure treasure-3-2 { name "Treasure 3 + 2"  chest 3  second_chest 2 }
treasure treasure-4-2 { name "Treasure 4 + 2"  chest 4  second_chest 2 }
