kind altar(gift = 1) { }
