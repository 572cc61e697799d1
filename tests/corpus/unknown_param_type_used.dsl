kind well(depth: integer = 1) {
  resolve { lowest: wound depth }
}
