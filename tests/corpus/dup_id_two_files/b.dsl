# the same id again, in another file of the same mod
treasure lucky-chest { chest 4 }
