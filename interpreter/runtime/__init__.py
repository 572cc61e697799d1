"""The compiled cards and the one event bus they play on: the contract
between them, legality, state."""
