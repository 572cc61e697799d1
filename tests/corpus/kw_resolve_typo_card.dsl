treasure chest-x {
  chest 2
  resolv { everyone: gain 1 coin }
}
