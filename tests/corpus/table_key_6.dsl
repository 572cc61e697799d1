trap pitfall {
  hits {
    6 -> least_wounded: wound 3
    5 -> least_wounded: wound 2
  }
}
