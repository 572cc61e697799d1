"""AST → behaviour: compiler, event bus, engine, bots, logs, CLI."""
