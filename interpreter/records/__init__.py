"""What a game leaves behind and what is checked against it: logs, replays, scenarios, words."""
