"""The files around the card language: reading what strangers wrote (bounded, confined, YAML
with positions), writing whole or not at all, the YAML formats that say which cards make a game
(rulesets, `mod.yaml`), what `raiders validate` checks, and the user's cache folder."""
