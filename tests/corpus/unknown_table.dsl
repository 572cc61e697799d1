trap pitfall2 {
  hits { 5 -> richest: lose 1 coin }
  resolve { table highest_value hitz }
}
