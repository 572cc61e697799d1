"""The fast YAML path (formats/fastyaml.py, libyaml) reads what the positioned reader reads: the
same values of the same types, the same line and column of every key and item, and the same
diagnostics (it leaves everything unusual to the positioned reader). Issue 11."""
from pathlib import Path

import pytest

from raiders.formats import fastyaml, yamlsrc

ROOT = Path(__file__).resolve().parents[2]

needs_libyaml = pytest.mark.skipif(fastyaml._libyaml() is None,
                                   reason="PyYAML with libyaml is not installed")


def _shape(node):
    """Values, types and positions, as comparable data."""
    if isinstance(node, dict):
        lc = node.lc
        return ("map", lc.line, lc.col, lc.data,
                [(k, type(k).__name__, _shape(v)) for k, v in node.items()])
    if isinstance(node, list):
        lc = node.lc
        return ("seq", lc.line, lc.col, lc.data, [_shape(v) for v in node])
    return (type(node).__name__, node)


def _both(text, monkeypatch):
    """(fast answer or None, what load_documents gives with the fast path, without it)."""
    fast = fastyaml.load(text)
    with_fast = yamlsrc.load_documents(text, "t.yaml")
    monkeypatch.setenv("RAIDERS_PURE_YAML", "1")
    try:
        assert fastyaml.load(text) is None
        pure = yamlsrc.load_documents(text, "t.yaml")
    finally:
        monkeypatch.delenv("RAIDERS_PURE_YAML")
    return fast, with_fast, pure


def _same(with_fast, pure):
    docs_f, diags_f = with_fast
    docs_p, diags_p = pure
    assert [_shape(d) for d in docs_f] == [_shape(d) for d in docs_p]
    assert [(d.span, d.code, d.message) for d in diags_f] == \
        [(d.span, d.code, d.message) for d in diags_p]


SNIPPETS = [
    # YAML 1.2 words and numbers (libyaml's own resolver is YAML 1.1)
    "a: yes\nb: no\nc: on\nd: off\ne: y\nf: N\n",
    "a: true\nb: False\nc: NULL\nd: ~\ne:\nf: null\n",
    "a: 010\nb: 0o10\nc: 0x1F\nd: 1e3\ne: 1.5\nf: .inf\ng: -0\nh: +5\ni: 1_000\n",
    "a: 2001-12-14\nb: 12:30\nc: -\nd: <<\ne: =\n",
    "a: ../common\nb: .\nc: .5\nd: .inf\ne: ./x\nf: .NaN\ng: ._1\nh: .x\n",
    "a: 9223372036854775807\nb: -9223372036854775807\nc: 9223372036854775808\n",
    "a: 123456789012345678901234567890\n",
    # quoting, block scalars, flow and block styles, unicode
    "a: 'yes'\nb: \"1\"\nc: |\n  two\n  lines\nd: >\n  folded\n  text\n",
    "players:\n  - {name: Zoë, character: knight}\n  - {name: \"Ann B\", character: thief}\n",
    "x: [1, [2, [3, {a: b}]], {c: [d, e]}]\ny: {}\nz: []\n",
    "- a\n- - b\n  - c\n- k: v\n  l: w\n",
    "plays: {P1: [crystal-ball, 4], P2: key}\n# a comment\nafter:  # trailing\n  P1: {coins: 2}\n",
    "multi: this is\n  a plain scalar\n  over lines\n",
    "\u00e9t\u00e9: \u00e0 \U0001F600 b\nk: [\u00fc, \u00df]\n",
    # the layout `raiders play` writes (read line by line), and near misses of it
    "a: 1\nrooms:\n  - plays: {P1: [crystal-ball, 4], P2: key}\n    after:\n"
    "      P1: {coins: 2, items: []}\n  - plays: {}\nresult: {winners: [P1], out: []}\n",
    "rooms:\n- x\n- [1, {a: \"b c\"}]\n- k: v\n  l: [w]\nz: \"\"\n",
    "a:\n    b: 1\n  c: 2\n",
    "a: 1\n b: 2\n",
    "a: {b: 1,c: 2}\n",
    "a: [1, ]\n",
    "a: x[1]\n",
    "a: {b: 1} \n",
    "a:\n",
    "a: 1\n\nb: 2\n",
    # keys that are not text
    "1: a\ntrue: b\nnull: c\n",
    # what only the positioned reader reads or refuses
    "a: 1\na: 2\n",
    "1: a\ntrue: b\n",
    "a: &x 1\nb: *x\n",
    "a: !!int 3\n",
    "a: !custom x\n",
    "%YAML 1.1\n---\na: yes\n",
    "a:\n\tb: 1\n",
    "a: 1\r\nb: [2, 3]\r\n",
    "a: b\u2028c\nd: e\u0085f\n",
    "a: [1, 2\n",
    "a: {b: c\n",
    "? [a, b]\n: c\n",
    "a: b: c\n",
    # documents
    "",
    "---\n",
    "---\na: 1\n---\nb: 2\n...\n",
    "# only a comment\n",
    "just text\n",
    "[" * 60 + "]" * 60 + "\n",
]


@needs_libyaml
@pytest.mark.parametrize("text", SNIPPETS)
def test_snippets_read_the_same(text, monkeypatch):
    fast, with_fast, pure = _both(text, monkeypatch)
    _same(with_fast, pure)


@needs_libyaml
def test_the_fast_path_is_taken_for_ordinary_yaml(monkeypatch):
    assert fastyaml.load("a: [1, two, 'three']\n") is not None
    for unusual in ("a: 1.5\n", "a: &x 1\n", "a: 1\na: 2\n", "a: 0o7\n", "a: yes: no\n"):
        assert fastyaml.load(unusual) is None, unusual
    assert fastyaml.load("a: yes\n")[0]["a"] == "yes"  # YAML 1.2: text, not true


def _yaml_files():
    for folder in ("cards", "examples", "tests"):
        yield from sorted((ROOT / folder).rglob("*.y*ml"))


def _some_yaml_files():
    """Logs, rulesets and a mod.yaml (the fast tier; every file in the slow tier)."""
    return [f for f in _yaml_files()
            if f.parent.name in ("logs", "classic", "deluxe") and "scenarios" not in f.parts
            or f.name == "mod.yaml" and f.parent.name == "dice"]


@needs_libyaml
@pytest.mark.parametrize("which", [
    pytest.param(_some_yaml_files, id="some"),
    pytest.param(_yaml_files, id="all", marks=pytest.mark.slow)])
def test_yaml_files_of_the_project_read_the_same(which, monkeypatch):
    """Logs, scenarios, rulesets, mod.yaml, the hostile-input corpus: positions included."""
    files = list(which())
    assert len(files) >= 10
    taken = 0
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if len(text) > yamlsrc.MAX_BYTES:
            continue
        fast, with_fast, pure = _both(text, monkeypatch)
        taken += fast is not None
        try:
            _same(with_fast, pure)
        except AssertionError:
            pytest.fail(f"{f}: the fast path reads it otherwise")
    assert taken > len(files) // 2


def test_logs_read_and_replay_without_libyaml(tmp_path, monkeypatch):
    """The pure path still works on its own (PyYAML missing or turned off)."""
    from raiders.interpreter.records.logs import read_log
    from raiders.interpreter.records.replay import replay

    monkeypatch.setenv("RAIDERS_PURE_YAML", "1")
    assert not fastyaml.available()
    log = ROOT / "examples" / "logs" / "classic-duel-table.yaml"
    outcome = replay(read_log(str(log)), check=True)
    assert outcome.divergence is None and outcome.result is not None


# ---- generated documents (slow tier): block and flow styles, odd words, random spacing ----

_WORDS = ["a", "P1", "crystal-ball", "yes", "No", "on", "010", "0o7", "1e3", "1.5", "-0", "+3",
          "12", "-7", "9223372036854775808", "~", "null", "True", "'q'", '"d"', "'a: b'",
          "x y", "\u00e9t\u00e9", "raiders-log/1", "2001-01-01", "<<", "-", ".inf", "!!str s",
          "&a 1", "*a", "|\n  block", ".", "../x", ".5", ".Inf"]


def _strategies():
    from hypothesis import strategies as st

    scalar = st.sampled_from([w for w in _WORDS if "\n" not in w])
    key = st.sampled_from(["a", "b", "plays", "1", "true", "P1", "k y", "'q'", "~"])
    tree = st.recursive(scalar, lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(st.tuples(key, inner), max_size=4)), max_leaves=12)
    return tree, st.integers(0, 3), st.booleans()


def _render(node, indent: int, flow: bool, gap: int) -> str:
    pad = " " * indent
    if isinstance(node, str):
        return node
    if flow or not node:
        if node and isinstance(node[0], tuple):
            return "{" + ", ".join(f"{k}:{' ' * (gap + 1)}{_render(v, 0, True, gap)}"
                                   for k, v in node) + "}"
        if not node:
            return "[]"
        return "[" + ("," + " " * gap).join(_render(v, 0, True, gap) for v in node) + "]"
    lines = []
    for item in node:
        if isinstance(item, tuple):
            k, v = item
            if isinstance(v, list) and v:
                lines.append(f"{pad}{k}:\n{_render(v, indent + 2, False, gap)}")
            else:
                lines.append(f"{pad}{k}:{' ' * (gap + 1)}{_render(v, indent, True, gap)}")
        elif isinstance(item, list) and item:
            lines.append(f"{pad}-{' ' * (gap + 1)}{_render(item, 0, True, gap)}")
        else:
            lines.append(f"{pad}- {_render(item, indent, True, gap)}")
    return "\n".join(lines)


@needs_libyaml
@pytest.mark.slow
def test_generated_documents_read_the_same(monkeypatch):
    from hypothesis import given, settings

    tree, gap, flow = _strategies()

    @settings(max_examples=400, deadline=None)
    @given(tree, gap, flow)
    def check(node, gap, flow):
        for top in (node if isinstance(node, list) else [node], [("top", node), ("b", "1")]):
            text = _render(top, 0, flow, gap) + "\n"
            _, with_fast, pure = _both(text, monkeypatch)
            _same(with_fast, pure)

    check()


def test_without_libyaml_a_log_is_still_read_fast_and_the_same(monkeypatch):
    monkeypatch.setattr(fastyaml, "_LIBYAML", None)
    text = (ROOT / "examples" / "logs" / "classic-duel-table.yaml").read_text(encoding="utf-8")
    log = text.split("\n", 1)[1] if text.startswith("#") else text
    log = "".join(line for line in log.splitlines(True) if "#" not in line)
    fast, with_fast, pure = _both(log, monkeypatch)
    assert fast is not None
    _same(with_fast, pure)
    assert fastyaml.load("a: 1.5\n") is None  # the rest waits for the positioned reader
