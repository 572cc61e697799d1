"""AST → behaviour, in layers: runtime ← game ← records ← tools ← cli (docs/architecture.md)."""
