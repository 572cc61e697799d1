treasure Chest-X {
  chest 2
}
