monster fickle {
  strength 5  wounds 1
  playable torch as 2
  unplayable torch
}
