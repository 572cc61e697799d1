treasure chest-x {
  chest "two"
}
