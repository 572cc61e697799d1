# A player's choice: `may "question" { … }` asks each player it is about; bots and --human
# seats answer, a log records the answers, a scenario gives them with `choices:`.

treasure wishing-well {
  name "Wishing Well"
  chest 4
  after room {
    lowest {
      may "Throw 1 coin in the well to heal 2 wounds?" { lose 1 coin  heal 2 }
    }
  }
}
