# Characters (X-1, CARDS.md). The same five heroes in both editions.

character warrior  { name "Warrior"   coins 2  wounds 0 }
character wizard   { name "Wizard"    coins 1  wounds 1  items crystal-ball, crystal-ball }
character thief    { name "Thief"     coins 2  wounds 2  items key }
character explorer { name "Explorer"  coins 3  wounds 2  items torch }
character knight   { name "Knight"    coins 1  wounds 1  items sword }
