# Deluxe floor cards (D-3): U face up, D face down, rooms left to right.
# Layouts are reconstructed (r): the rulebook only says there are seven different ones.

floor floor-1 { layout "UDUDU" }  # (r)
floor floor-2 { layout "DUDUD" }  # (r)
floor floor-3 { layout "UUDDD" }  # (r)
floor floor-4 { layout "DDDUU" }  # (r)
floor floor-5 { layout "UDDDU" }  # (r)
floor floor-6 { layout "DUUUD" }  # (r)
floor floor-7 { layout "UUUDD" }  # (r)
