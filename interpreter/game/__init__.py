"""A whole game and who plays it: the engine, the dealt dungeon, the seats (bots and people)."""
