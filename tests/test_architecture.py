"""The house rules of docs/architecture.md, checked on the source: every module is on the map,
imports go one way between the layers and make no cycle (lazy imports inside functions count
too), and no module assigns to another module's attributes."""
import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"

# The layers, lowest first: a module may import its own layer and the ones below it, never one
# above. `raiders.interpreter` itself is only a package (a docstring).
LAYERS = [
    "raiders.dsl",                  # the card language: text → AST → checked library
    "raiders.formats",              # files, YAML formats, rulesets and mods, the cache
    "raiders.interpreter.runtime",  # compiled cards and the one bus
    "raiders.interpreter.game",     # a whole game, seats and bots
    "raiders.interpreter.records",  # logs, replays, scenarios, words about a game
    "raiders.interpreter.tools",    # many games or files: simulate, report, viewer, lsp, …
    "raiders.interpreter.cli",      # the `raiders` command
]

# Imports that go up, each with why. An entry no longer needed fails
# `test_every_exception_is_still_needed`: delete it.
UPWARD = {
    ("raiders.dsl.parser", "raiders.formats.grammarcache"):
        "the parser's tables are kept in the cache folder",
}

# Assignments to another module's attribute, each with why (tests may patch freely). None:
# the language server reads its buffers through the loader it passes (formats/loader.py).
PATCHES: dict[tuple[str, str, str], str] = {}


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return "raiders." + ".".join(parts)


def _package(path: Path) -> str:
    me = _module(path)
    return me if path.name == "__init__.py" else me.rsplit(".", 1)[0]


def _absolute(node: ast.ImportFrom, package: str) -> str:
    base = node.module or ""
    if node.level:
        anchor = package.split(".")
        anchor = anchor[:len(anchor) - (node.level - 1)]
        base = ".".join(anchor + ([base] if base else []))
    return base


@functools.lru_cache(maxsize=None)
def _facts(text: str, me: str,
           package: str) -> tuple[set[str], set[str], set[tuple[str, str, str]]]:
    """What the rules below read of a module's text (its imports, the modules of ours it
    imports, its assignments to other modules), from one parse: each rule reads every file,
    and a tree kept per file would make the collector's passes slow."""
    nodes = list(ast.walk(ast.parse(text)))
    return (_imports_of(nodes, package), _edges_of(nodes, me, package),
            _patches_of(nodes, me, package))


def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _imports(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved."""
    return _facts(_source(path), _module(path), _package(path))[0]


def _imports_of(nodes: list[ast.AST], package: str) -> set[str]:
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return found


FILES = sorted(p for top in ("dsl", "formats", "interpreter") for p in ROOT.glob(f"{top}/**/*.py"))
MODULES = {_module(f) for f in FILES}


def _layer(name: str):
    """The index of the layer a module is in (None: not ours, or the bare package)."""
    found = None
    for i, prefix in enumerate(LAYERS):
        if name == prefix or name.startswith(prefix + "."):
            found = i
    return found


def _upward(me: str, names: set[str]) -> list[tuple[str, str]]:
    mine = _layer(me)
    return [(me, name) for name in sorted(names)
            if name in MODULES and mine is not None and (_layer(name) or 0) > mine]


def test_the_rules_see_every_module():
    assert len(FILES) > 60
    assert {"raiders.interpreter.runtime.room", "raiders.formats.safeio",
            "raiders.interpreter.cli.common"} <= MODULES
    # every module is in a layer, but for the interpreter's bare package
    assert [m for m in MODULES if _layer(m) is None] == ["raiders.interpreter"]


def test_imports_go_one_way():
    wrong = [f"{me} imports {name}, a layer above it"
             for path in FILES for me, name in _upward(_module(path), _imports(path))
             if (me, name) not in UPWARD]
    assert not wrong, "\n".join(wrong)


def test_every_exception_is_still_needed():
    found = {edge for path in FILES for edge in _upward(_module(path), _imports(path))}
    assert set(UPWARD) <= found, set(UPWARD) - found


def test_the_layer_rule_can_fail():
    assert _upward("raiders.dsl.checker", {"raiders.interpreter.game.engine"})
    assert _upward("raiders.interpreter.game.engine", {"raiders.interpreter.cli.common"})
    assert _upward("raiders.interpreter.runtime.room", {"raiders.interpreter.game.players"})
    assert _upward("raiders.formats.validate", {"raiders.interpreter.runtime.rules"})
    assert not _upward("raiders.interpreter.cli.cards", {"raiders.interpreter.tools.lsp"})
    assert not _upward("raiders.interpreter.game.engine", {"raiders.interpreter.runtime.room"})
    # relative imports are resolved: the runtime's `from .compiled import …`
    assert "raiders.interpreter.runtime.compiled" in _imports(
        ROOT / "interpreter" / "runtime" / "room.py")


def _edges(path: Path) -> set[str]:
    """The modules of ours a file imports, where it imports them (top or inside a function):
    `from pkg import mod` is the module `pkg.mod`, `from pkg import name` the package itself."""
    return _edges_in(_source(path), _module(path), _package(path))


def _edges_in(text: str, me: str, package: str) -> set[str]:
    return _facts(text, me, package)[1]


def _edges_of(nodes: list[ast.AST], me: str, package: str) -> set[str]:
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            modules = {f"{base}.{a.name}" for a in node.names} & MODULES
            found |= modules
            if len(modules) < len(node.names):
                found.add(base)
    return {m for m in found if m in MODULES and m != me}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of a graph: its strongly connected parts of more than one module
    (Tarjan's algorithm, iterative), each as one cycle through them, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    parts: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            nxt = next(todo, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    part.append(m)
                    if m == node:
                        break
                if len(part) > 1:
                    parts.append(_one_cycle(graph, set(part)))
    return sorted(parts)


def _one_cycle(graph: dict[str, set[str]], part: set[str]) -> list[str]:
    """The shortest way through a strongly connected part back to its first module: the
    cycle to read in a failure."""
    start = min(part)
    came: dict[str, str] = {}
    todo = [start]
    while todo:
        node = todo.pop(0)
        for n in sorted(graph[node] & part):
            if n == start:
                back = [node]
                while back[-1] != start:
                    back.append(came[back[-1]])
                return [*reversed(back), start]
            if n not in came:
                came[n] = node
                todo.append(n)
    raise AssertionError("not a strongly connected part")


def test_no_import_cycles():
    """No module imports, at its top or inside a function, a module that imports it back
    through any chain: a function-level import is no way around a cycle (issue 23)."""
    graph = {_module(p): _edges(p) for p in FILES}
    cycles = _cycles(graph)
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_the_cycle_rule_can_fail():
    lazy = "def f():\n    from raiders.dsl import library\n"
    assert _edges_in(lazy, "raiders.dsl.ast", "raiders.dsl") == {"raiders.dsl.library"}
    assert _edges_in("from raiders.dsl import load_text\n", "raiders.formats.x",
                     "raiders.formats") == {"raiders.dsl"}
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e2"}, "e2": {"e"}}
    assert _cycles(graph) == [["a", "b", "c", "a"], ["e", "e2", "e"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def _module_names(nodes: list[ast.AST], package: str) -> dict[str, str]:
    """The names a file binds to our modules: `import raiders.x as y`, `from raiders.x import
    mod`, `from . import mod` (a name imported from a module, not a module, is left out)."""
    names = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in MODULES:
                    names[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for a in node.names:
                if f"{base}.{a.name}" in MODULES:
                    names[a.asname or a.name] = f"{base}.{a.name}"
    return names


def _patches(path: Path) -> set[tuple[str, str, str]]:
    return _patches_in(_source(path), _module(path), _package(path))


def _patches_in(text: str, me: str, package: str) -> set[tuple[str, str, str]]:
    """(this module, the module assigned to, the attribute) for `mod.x = …`, `mod.x += …`,
    `del mod.x` and `setattr(mod, "x", …)` on a module this file imported."""
    return _facts(text, me, package)[2]


def _patches_of(nodes: list[ast.AST], me: str, package: str) -> set[tuple[str, str, str]]:
    mods = _module_names(nodes, package)
    found = set()
    for node in nodes:
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("setattr", "delattr") and node.args
              and isinstance(node.args[0], ast.Name) and node.args[0].id in mods):
            attr = node.args[1].value if (len(node.args) > 1
                                          and isinstance(node.args[1], ast.Constant)) else "?"
            found.add((me, mods[node.args[0].id], attr))
        for t in targets:
            for sub in ast.walk(t):
                if (isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name)
                        and sub.value.id in mods):
                    found.add((me, mods[sub.value.id], sub.attr))
    return found


def test_no_module_assigns_to_another_modules_attribute():
    found = {p for path in FILES for p in _patches(path)}
    assert found - set(PATCHES) == set(), sorted(found - set(PATCHES))
    assert set(PATCHES) <= found, set(PATCHES) - found  # a fixed one: delete its entry


def test_the_patch_rule_can_fail():
    me, package = "raiders.interpreter.runtime.probe", "raiders.interpreter.runtime"
    cases = {
        "from raiders.dsl import library\nlibrary.parse_file = None\n": "parse_file",
        "import raiders.formats.safeio as s\ns.MAX_FILE_BYTES += 1\n": "MAX_FILE_BYTES",
        "from ..game import engine\nsetattr(engine, 'Game', None)\n": "Game",
        "from . import room\ndel room.Table\n": "Table",
    }
    for text, attr in cases.items():
        assert [a for _, _, a in _patches_in(text, me, package)] == [attr], text
    # a class or a local object is not a module
    assert not _patches_in("from .room import Table\nTable.x = 1\n", me, package)
    assert not _patches_in("import os\nos.environ = {}\n", me, package)


def _doc_path(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_the_map_names_every_module():
    """docs/architecture.md names each module by its path (`interpreter/runtime/room.py`)."""
    text = DOC.read_text(encoding="utf-8")
    missing = [_doc_path(f) for f in FILES if f"`{_doc_path(f)}`" not in text]
    assert not missing, "not on the map in docs/architecture.md: " + ", ".join(missing)


def test_the_map_names_no_module_that_is_gone():
    import re

    text = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:dsl|formats|interpreter)/[\w/]+\.py)`", text))
    gone = sorted(n for n in named if not (ROOT / n).is_file())
    assert not gone, gone


def test_one_way_down_the_tree():
    """One AST-children primitive (dsl/ast.py `children`): no other module walks a node's
    fields itself (formats/plaindata.py flattens any attrs object, spans and all: not a walk
    of the tree)."""
    own = {"dsl/ast.py", "formats/plaindata.py"}
    found = sorted(_doc_path(f) for f in FILES if _doc_path(f) not in own
                   and "attrs.fields(type(" in f.read_text(encoding="utf-8"))
    assert not found, found
    from raiders.dsl import ast as A
    from raiders.dsl.spans import Span

    at = Span("x.dsl", 1, 1, 1, 2)
    field = A.Field("wounds", A.Num(2, at), at)
    assert list(A.children(field)) == [("name", "wounds"), ("value", A.Num(2, at))]
    assert list(A.children((field, 3))) == [(None, field), (None, 3)]
    assert list(A.children(at)) == [] and list(A.children("word")) == []
    assert list(A.walk((field,))) == [field, A.Num(2, at)]
