treasure chest-x {
  chest 2 @
}
