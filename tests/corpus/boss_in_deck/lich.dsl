boss lich { name "Lich"  strength 10 / 12 / 14  wounds 2 }
