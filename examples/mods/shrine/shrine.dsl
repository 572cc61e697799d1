# A new room kind, text only: at a shrine the lowest value(s) lose 1 coin (an offering)
# and the highest value(s) heal 1 wound (a blessing).

kind shrine(offering: int = 1, blessing: int = 1) {
  resolve {
    lowest: lose offering coins
    highest: heal blessing
  }
}

shrine shrine-of-ash  { name "Shrine of Ash" }
shrine shrine-of-dawn { name "Shrine of Dawn"  blessing 2 }
