treasure chest-x {
  chest 2
  playble key as 5
}
