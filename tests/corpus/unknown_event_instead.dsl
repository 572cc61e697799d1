boss mimic {
  strength 9 / 11 / 13
  instead of atack { lowest: lose 1 coin }
}
