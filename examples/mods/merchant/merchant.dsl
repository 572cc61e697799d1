# A character with a rule on a game-level event: the merchant earns a coin whenever a new
# floor is laid out.

character merchant {
  name "Merchant"
  coins 0
  wounds 1
  after floor_start { you: gain 1 coin }
}
