item charm { name "Charm" }
vault charm-vault { rewards { 1 -> give charm } }
monster shade { strength threat + 2  wounds 1 }
