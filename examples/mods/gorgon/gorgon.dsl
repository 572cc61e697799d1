# A new boss, text only: it attacks the players with the two lowest distinct values, and
# takes 1 coin from each player it hits in addition to its wounds.

boss gorgon {
  name "Gorgon"
  strength 12 / 16 / 20
  wounds 2
  target lowest, second_lowest
  after attack { attacked: lose 1 coin }
}
