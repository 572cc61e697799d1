kind altar(gift: int = 1, gift: int = 2) { }
