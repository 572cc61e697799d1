boss ghost {
  strength never
  wounds 2
  escape lantern
}
