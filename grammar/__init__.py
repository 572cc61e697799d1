"""The grammar of the card language, shipped as package data (raiders.lark)."""
