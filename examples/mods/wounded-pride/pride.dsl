# A scoring rule, in play the whole game (a card of kind `rule`): each wound a player
# has at the end costs them a point.

rule wounded-pride {
  name "Wounded Pride"
  modify score to amount - your_wounds
}
