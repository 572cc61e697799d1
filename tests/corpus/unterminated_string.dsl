treasure chest-x {
  name "Chest X
  chest 2
}
