# Monster rooms (X-5). Strength for 3 / 4 / 5 players, wounds dealt to each player hit.
# Numbers from the classic cards (2013 printing); the deluxe edition uses the same cards.

monster snake           { name "Snake"            strength 8 / 10 / 13   wounds 3 }
monster zombie          { name "Zombie"           strength 11 / 14 / 18  wounds 1 }
monster skeleton        { name "Skeleton"         strength 11 / 14 / 18  wounds 3 }
monster gelatinous-cube { name "Gelatinous Cube"  strength 14 / 18 / 23  wounds 1 }
monster goblin          { name "Goblin"           strength 11 / 14 / 18  wounds 2 }
monster troll           { name "Troll"            strength 14 / 18 / 23  wounds 2 }
monster dragon          { name "Dragon"           strength 14 / 18 / 23  wounds 3 }
