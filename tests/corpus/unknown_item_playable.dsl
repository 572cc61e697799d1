kind gate(toll: int = 1) {
  playable kye as 5
  resolve { lowest: lose toll coins }
}
