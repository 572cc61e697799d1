kind well(depth: integer = 1) { }
