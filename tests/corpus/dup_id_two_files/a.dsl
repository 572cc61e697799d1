treasure lucky-chest { chest 3 }
