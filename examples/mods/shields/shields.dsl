# A mod that extends a built-in kind instead of copying it: every monster, the built-in
# ones included, now accepts a shield, which counts 3. Two shields join the supply, and an
# armoury hands them out.

item shield {
  name "Shield"
}

extend monster {
  playable shield as 3
}

vault armoury {
  name "Armoury"
  rewards {
    1 -> wound 1
    2 -> give shield
    3 -> give shield
    4 -> gain 1 coin
    5 -> gain 2 coins
  }
}
