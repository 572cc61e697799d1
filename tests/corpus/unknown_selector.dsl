kind tollgate(toll: int = 2) {
  resolve {
    richets: lose toll coins
  }
}
