"""Imports go one way (docs/architecture.md): the language never imports the game, and the game
never imports its command line. Lazy imports inside functions count too."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FRONT_ENDS = {"raiders.interpreter.tools.lsp", "raiders.interpreter.tools.serve"}


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return "raiders." + ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved."""
    me = _module(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return found


FILES = sorted([*ROOT.glob("dsl/**/*.py"), *ROOT.glob("formats/**/*.py"),
                *ROOT.glob("interpreter/**/*.py")])


def test_the_rule_sees_every_module():
    assert len(FILES) > 40
    assert "raiders.interpreter.runtime.room" in {_module(f) for f in FILES}


def _violations(me: str, names: set[str]) -> list[str]:
    wrong = []
    for name in sorted(names):
        if me.startswith("raiders.dsl") and name.startswith("raiders.interpreter"):
            wrong.append(f"the language imports the game: {name}")
        if (me.startswith("raiders.interpreter") and not me.startswith("raiders.interpreter.cli")
                and me not in FRONT_ENDS and name.startswith("raiders.interpreter.cli")):
            wrong.append(f"the game imports its command line: {name}")
    return wrong


def test_imports_go_one_way():
    wrong = [f"{_module(path)}: {w}" for path in FILES
             for w in _violations(_module(path), _imports(path))]
    assert not wrong, "\n".join(wrong)


def test_the_rule_can_fail():
    assert _violations("raiders.dsl.checker", {"raiders.interpreter.game.engine"})
    assert _violations("raiders.interpreter.game.engine", {"raiders.interpreter.cli.common"})
    assert not _violations("raiders.interpreter.tools.lsp", {"raiders.interpreter.cli.cards"})
    # relative imports are resolved: the viewer commands' `from ..branch import …`
    viewer = ROOT / "interpreter" / "cli" / "viewer.py"
    assert "raiders.interpreter.records.branch" in _imports(viewer)
