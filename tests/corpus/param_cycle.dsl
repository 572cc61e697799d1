kind loopy : monster(strength = wounds + 1, wounds = strength) { }
loopy circle { name "Circle" }
monster selfish { strength 10  wounds wounds + 1 }
