kind bigboss : montser(wounds = 5) { }
