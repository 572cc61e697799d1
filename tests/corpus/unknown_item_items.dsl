character bard { name "Bard"  coins 2  items torch, lute }
