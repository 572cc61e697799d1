"""The card language: text → AST (parser), AST → diagnostics (checker)."""
