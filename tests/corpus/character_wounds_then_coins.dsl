# A valid character: fields in another order than the built-in cards use.
character pauper { wounds 1 coins 3 }
