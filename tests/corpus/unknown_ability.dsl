item lantern {
  name "Lantern"
  ability peak
}
