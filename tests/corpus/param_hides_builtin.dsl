kind sneaky : monster(total: int = 3) { }
sneaky s1 { strength 5  wounds 1 }
