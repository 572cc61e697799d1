"""Fuzzing (issue 14): generated and mutated inputs of every format, and of the command line.

The property, whatever the input: no traceback, a bounded time, and either success or exit 1
or 2 with something said (a diagnostic, an error line, click's usage error). Programs are
generated from the Lark grammar itself; card files, logs, scenarios, rulesets and mod.yaml
files are mutated from the project's own; argument lists are drawn from every command's
options. The fast tier tries a few of each (derandomized); the slow tier many more
(RAIDERS_FUZZ_EXAMPLES, default 300 per test), and with RAIDERS_FUZZ_COUNTS=FILE it appends
how many inputs each format was tried with (for the issue's closing note).
"""
import json
import os
import re
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raiders.interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
SLOW = int(os.environ.get("RAIDERS_FUZZ_EXAMPLES", "300"))
# Seconds for one input in the slow tier, where a hang fails the test. The fast tier sets no
# time limit: a busy machine must not fail it (a real hang there still stops the run).
TIME_LIMIT = 30
_time_limit: list[float] = []


@pytest.fixture(autouse=True)
def _hang_limit_in_the_slow_tier(request):
    _time_limit[:] = [TIME_LIMIT] if request.node.get_closest_marker("slow") else []
    yield
    _time_limit.clear()


def _settings(n: int, fast: bool):
    # Derandomized, so a CI run is reproducible; RAIDERS_FUZZ_RANDOM=1 explores new inputs
    # each run (how the slow tier's first findings were made).
    random_run = not fast and os.environ.get("RAIDERS_FUZZ_RANDOM") == "1"
    return settings(max_examples=n, deadline=None, derandomize=not random_run, database=None,
                    suppress_health_check=list(HealthCheck))


class Hang(Exception):
    pass


def _alarm(*_):
    raise Hang()


def invoke(args, cwd=None):
    """The CLI in this process, under a time limit; the result, checked."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, _time_limit[0] if _time_limit else 0)
    here = os.getcwd()
    try:
        if cwd:
            os.chdir(cwd)
        result = CliRunner().invoke(main, [str(a) for a in args])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        os.chdir(here)
    exc = result.exception
    assert not isinstance(exc, Hang), f"hang: {args}"
    assert exc is None or isinstance(exc, SystemExit), \
        f"traceback for {args}: {type(exc).__name__}: {exc}\n{result.output[-2000:]}"
    assert result.exit_code in (0, 1, 2), (args, result.exit_code)
    if result.exit_code:
        assert result.output.strip(), f"exit {result.exit_code} and nothing said: {args}"
    assert "Traceback" not in result.output
    _count(args[0])
    return result


def _count(what: str) -> None:
    out = os.environ.get("RAIDERS_FUZZ_COUNTS")
    if out:
        with open(out, "a") as fh:
            fh.write(what + "\n")


# ---- mutations ----------------------------------------------------------------------------------

HOSTILE = ["[a]", "{a: 1}", "[]", "{}", "null", "-1", "0", "99999999999999999999999", "1e400",
           "[[[[[[1]]]]]]", "{1: [2]}", "true", "'x'", "&a x", "*a", "!!python/object:os.system",
           "/etc/passwd", "../../..", "x" * 300, "\t", "? [a]\n: b", "~", "-", ":", "\"\\x00\""]
_SCALAR = re.compile(r"(?<=[\s\[{:,])[A-Za-z0-9_./-]+(?=[\s,\]}])")


@st.composite
def yaml_mutant(draw, text: str) -> str:
    """A YAML text with a few edits: a value swapped for a hostile one, a line dropped,
    doubled or shifted, the text cut short."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["value", "value", "value", "drop", "double", "indent", "cut"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if op == "value":
            found = list(_SCALAR.finditer(lines[i]))
            if found:
                m = draw(st.sampled_from(found))
                value = draw(st.sampled_from(HOSTILE))
                lines[i] = lines[i][:m.start()] + value + lines[i][m.end():]
        elif op == "drop":
            del lines[i]
        elif op == "double":
            lines.insert(i, lines[i])
        elif op == "indent":
            lines[i] = " " * draw(st.integers(1, 5)) + lines[i]
        elif op == "cut":
            lines = lines[:i] + [lines[i][:draw(st.integers(0, len(lines[i])))]]
        if not lines:
            lines = [""]
    return "\n".join(lines)


WORDS = ["{", "}", "(", ")", ":", ",", "/", "->", "+", "-", "*", "after", "instead", "of",
         "modify", "to", "wound", "gain", "coins", "everyone", "lowest", "highest", "amount",
         "resolve", "attack", "if", "else", "unless", "may", "do", "table", "1000000",
         "1000001", "0", "never", "monster", "kind", "boss", "extend", "value", "played",
         "strength", "wounds", "half(", "roll(6)", "mark", "poisoned", "lasting", "\"s\"", "#"]
_TOKEN = re.compile(r"\s+|[^\s]+")


@st.composite
def card_mutant(draw, text: str) -> str:
    tokens = _TOKEN.findall(text)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, max(0, len(tokens) - 1)))
        op = draw(st.sampled_from(["replace", "delete", "insert", "double"]))
        if op == "replace":
            tokens[i] = draw(st.sampled_from(WORDS))
        elif op == "delete" and tokens:
            del tokens[i]
        elif op == "insert":
            tokens.insert(i, " " + draw(st.sampled_from(WORDS)) + " ")
        elif tokens:
            tokens.insert(i, tokens[i])
    return "".join(tokens)


def _files(pattern: str) -> list[Path]:
    return sorted(ROOT.glob(pattern))


# ---- the grammar: programs generated from it ----------------------------------------------------

def _grammar_strategy():
    import lark
    from hypothesis.extra.lark import from_lark

    from raiders.dsl.parser import grammar_text

    g = lark.Lark(grammar_text(), parser="lalr", lexer="contextual")
    explicit = {t.name: st.just(f" {t.pattern.value} ") for t in g.terminals
                if t.pattern.type == "str"}
    explicit.update({
        "NAME": st.sampled_from(["ogre", "monster", "x", "wounds", "strength", "everyone",
                                 "coins", "amount", "wound", "value", "room", "lowest"]).map(
            lambda s: f" {s} "),
        "INT": st.sampled_from(["0", "1", "5", "1000000", "1000001", "99999999"]).map(
            lambda s: f" {s} "),
        "STRING": st.just(' "s" '), "COMMENT": st.just(" # c\n"),
        "CMP": st.sampled_from([" >= ", " < ", " == "]), "ADDOP": st.sampled_from([" + ", " - "]),
        "MULOP": st.just(" * "),
    })
    return from_lark(g, start="start", explicit=explicit)


def _validate_then_play(tmp_path: Path, kind: str, text: str, play: list[str]) -> None:
    """A card file in a fresh folder: validated; if it checks clean, it must also play."""
    folder = tmp_path / kind
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    (folder / "cards.dsl").write_text(text, encoding="utf-8")
    result = invoke(["validate", folder])
    _count(kind)
    if result.exit_code == 0:
        invoke(["play", "-q", *play, "--cards", folder])


def _check_program(tmp_path: Path, text: str) -> None:
    _validate_then_play(tmp_path, "grammar", text, ["--seed", "1"])


def test_fuzz_grammar(tmp_path):
    @_settings(2, True)
    @given(_grammar_strategy())
    def run(text):
        _check_program(tmp_path, text)
    run()


@pytest.mark.slow
def test_fuzz_grammar_slow(tmp_path):
    @_settings(SLOW, False)
    @given(_grammar_strategy())
    def run(text):
        _check_program(tmp_path, text)
    run()


# ---- card files, mutated ------------------------------------------------------------------------

CARD_FILES = _files("examples/mods/*/*.dsl")


def _check_card_file(tmp_path: Path, text: str) -> None:
    _validate_then_play(tmp_path, "cards", text, ["--seed", "2", "--bots", "greedy"])


@st.composite
def _card_inputs(draw):
    f = draw(st.sampled_from(CARD_FILES))
    return draw(card_mutant(f.read_text(encoding="utf-8")))


def test_fuzz_card_files(tmp_path):
    @_settings(3, True)
    @given(_card_inputs())
    def run(text):
        _check_card_file(tmp_path, text)
    run()


@pytest.mark.slow
def test_fuzz_card_files_slow(tmp_path):
    @_settings(SLOW, False)
    @given(_card_inputs())
    def run(text):
        _check_card_file(tmp_path, text)
    run()


# ---- YAML formats, mutated ----------------------------------------------------------------------

def _yaml_case(kind: str, tmp_path: Path, text: str) -> list:
    """Write the mutant where its format is read; the command that reads it."""
    if kind == "log":
        path = tmp_path / "game.yaml"
        path.write_text(text, encoding="utf-8")
        return ["replay", "--check", "-q", path]
    if kind == "scenario":
        path = tmp_path / "scenario.yaml"
        path.write_text(text, encoding="utf-8")
        return ["test", "-q", path]
    if kind == "ruleset":
        path = tmp_path / "ruleset.yaml"
        path.write_text(text, encoding="utf-8")
        return ["validate", path]
    folder = tmp_path / "mymod"
    if not folder.exists():
        shutil.copytree(ROOT / "examples" / "mods" / "gorgon", folder)
    (folder / "mod.yaml").write_text(text, encoding="utf-8")
    return ["validate", folder]


def _yaml_seeds(kind: str) -> list[str]:
    if kind == "log":
        return [f.read_text(encoding="utf-8") for f in _files("examples/logs/*.yaml")]
    if kind == "scenario":
        return [f.read_text(encoding="utf-8") for f in _files("examples/scenarios/deluxe/*.yaml")
                + _files("examples/scenarios/classic/*.yaml")]
    if kind == "ruleset":
        out = []
        for name in ("deluxe", "classic"):
            text = (ROOT / "cards" / name / "ruleset.yaml").read_text(encoding="utf-8")
            folders = f"[builtin:common, builtin:{name}]"
            out.append(text.replace("cards: [builtin:common, .]", f"cards: {folders}")
                       .replace("cards: [variants/", "cards: [builtin:classic/variants/"))
        return out
    return [f.read_text(encoding="utf-8") for f in _files("examples/mods/*/mod.yaml")]


KINDS = ["log", "scenario", "ruleset", "mod"]


@st.composite
def _yaml_inputs(draw, kind: str):
    return draw(yaml_mutant(draw(st.sampled_from(_yaml_seeds(kind)))))


@pytest.mark.parametrize("kind", KINDS)
def test_fuzz_yaml(tmp_path, kind):
    @_settings(2, True)
    @given(_yaml_inputs(kind))
    def run(text):
        invoke(_yaml_case(kind, tmp_path, text))
        _count(kind)
    run()


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_fuzz_yaml_slow(tmp_path, kind):
    @_settings(SLOW, False)
    @given(_yaml_inputs(kind))
    def run(text):
        invoke(_yaml_case(kind, tmp_path, text))
        _count(kind)
    run()


# ---- rulesets from strangers: the paths they name (issue 27) ------------------------------------

# What a stranger's ruleset may put in `cards:` (its own or a variant's), or a log beside it in
# `ruleset:`: every way out of the folder, links out, the built-in names bent, secrets beside,
# and values that are no path at all. formats/safeio.py Confinement must refuse each way out
# (E506) without opening it, and no file of a foreign format may be quoted (E510).
SECRET = "s3cr3t-FUZZ-27"
HOSTILE_PATHS = [
    "/", "/etc", "/etc/passwd", "/proc/self/environ", "//etc", "/tmp", "..", "../..",
    "../outside", "../../../../../../etc", "./..", "sub/../..", "sub/../../outside", "~", "~/",
    "$HOME", "%2e%2e", "file:///etc/passwd", "C:\\Windows", "\\\\server\\share", "link-out",
    "link-out/inner", "file-link.dsl", "loop", "secrets.yaml", ".env", ".", "./", "sub", "",
    "builtin:common", "builtin:deluxe", "builtin:classic/variants/duel", "builtin:", "builtin:..",
    "builtin:../..", "builtin:/etc", "builtin:common/../../..", "builtin:common/../deluxe",
    "builtin:nope", "BUILTIN:common", " builtin:common", "a" * 300, "x/" * 200, "\x00",
    "a\nb", "*", "**/*.dsl", "?", "\u202e/etc",
]
ODD_CARDS = ["{a: /etc}", "[[/etc]]", "/etc", "12", "null", "[1, 2]", "[{x: ..}]", "[]",
             "[" + ", ".join(["."] * 2000) + "]", "[" + "[" * 120 + "]" * 120 + "]",
             "&a [/etc]", "!!python/object:os.system [/]"]
LOG_RULESETS = ["secrets.yaml", ".env", "outside-ruleset", "link-out", "link-out/ruleset.yaml",
                "rules", ".", "../outside", "/etc/passwd", "builtin:common", "game.yaml"]
_DELUXE = (ROOT / "cards" / "deluxe" / "ruleset.yaml").read_text(encoding="utf-8")
GOOD_LOG = (ROOT / "examples" / "logs" / "deluxe-standard-table.yaml").read_text(encoding="utf-8")


def _quoted(raw: str) -> str:
    """A path as a YAML scalar (a JSON string is one): any character, escaped."""
    return json.dumps(raw)


@st.composite
def _stranger_rulesets(draw):
    """(ruleset text, command) for a ruleset folder beside secrets: its `cards:` drawn from
    HOSTILE_PATHS (or a value that is no list of paths), maybe a variant's too, maybe named by
    a log beside it; and the command that reads it."""
    if draw(st.integers(0, 9)) == 0:
        cards = draw(st.sampled_from(ODD_CARDS))
    else:
        entries = draw(st.lists(st.sampled_from(HOSTILE_PATHS), min_size=1, max_size=4))
        cards = "[builtin:common, builtin:deluxe, " + ", ".join(map(_quoted, entries)) + "]"
    text = _DELUXE.replace("cards: [builtin:common, .]", f"cards: {cards}")
    if draw(st.booleans()):
        extra = _quoted(draw(st.sampled_from(HOSTILE_PATHS)))
        text = text.replace("players: {min: 3, max: 5}}                     # D-4",
                            f"players: {{min: 3, max: 5}}, cards: [{extra}]}}")
    how = draw(st.sampled_from(["validate", "validate", "validate", "play", "log", "simulate"]))
    log_ruleset = draw(st.sampled_from(LOG_RULESETS)) if how == "log" else None
    return text, how, log_ruleset


def _stranger_sandbox(tmp_path: Path) -> tuple[Path, Path]:
    """tmp/outside (secrets that would be quoted, were they read) and tmp/inbox/rules (the
    stranger's ruleset folder) with links out of it and secrets beside it."""
    outside, inbox = tmp_path / "outside", tmp_path / "inbox"
    if not inbox.exists():
        outside.mkdir()
        (outside / "evil.dsl").write_text(f"{SECRET} {{\n", encoding="utf-8")
        (outside / "ruleset.yaml").write_text(f"format: raiders-ruleset/1\n{SECRET}: [\n")
        rules = inbox / "rules"
        (rules / "sub").mkdir(parents=True)
        (rules / "link-out").symlink_to(outside, target_is_directory=True)
        (rules / "file-link.dsl").symlink_to(outside / "evil.dsl")
        (rules / "loop").symlink_to(rules / "loop")
        (rules / "secrets.yaml").write_text(f"api_key: {SECRET}\n", encoding="utf-8")
        (rules / ".env").write_text(f"TOKEN={SECRET}\n", encoding="utf-8")
        (inbox / "secrets.yaml").write_text(f"password: {SECRET}\n", encoding="utf-8")
        (inbox / ".env").write_text(f"TOKEN={SECRET}\n", encoding="utf-8")
        (inbox / "link-out").symlink_to(outside, target_is_directory=True)
        (inbox / "outside-ruleset").symlink_to(outside, target_is_directory=True)
    return outside, inbox


def _check_stranger_ruleset(tmp_path: Path, case) -> None:
    """The property: what invoke checks (no traceback, no hang, something said), and no
    disclosure: no secret printed, no line of /etc/passwd, and nothing outside the allowed
    folders opened or listed (tests/audit.py)."""
    from audit import touching, watching

    text, how, log_ruleset = case
    outside, inbox = _stranger_sandbox(tmp_path)
    rules = inbox / "rules"
    (rules / "ruleset.yaml").write_text(text, encoding="utf-8")
    args = {
        "validate": ["validate", rules],
        "play": ["play", "-q", "--ruleset", rules, "--seed", "1", "--bots", "random"],
        "simulate": ["simulate", "--ruleset", rules, "--games", "1", "--jobs", "1"],
    }.get(how)
    if args is None:  # a log beside the rules, naming them (or anything else) as its ruleset
        log = inbox / "game.yaml"
        log.write_text(GOOD_LOG.replace("ruleset: deluxe", f"ruleset: {_quoted(log_ruleset)}",
                                        1), encoding="utf-8")
        args = ["replay", "--check", log]
    with watching() as seen:
        result = invoke(args)
    out = result.output
    assert SECRET not in out and "root:x:" not in out, f"disclosure: {args}\n{out[-3000:]}"
    strayed = [(e, p) for e, p in touching(seen, [outside, "/etc", "/proc/self", "/home"])]
    strayed += [(e, p) for e, p in seen if e != "open" and p == "/"]
    assert not strayed, f"opened outside the allowed folders: {strayed[:5]} for {args}"
    _count("ruleset-paths")


def test_fuzz_stranger_rulesets(tmp_path):
    @_settings(4, True)
    @given(_stranger_rulesets())
    def run(case):
        _check_stranger_ruleset(tmp_path, case)
    run()


@pytest.mark.slow
def test_fuzz_stranger_rulesets_slow(tmp_path):
    @_settings(SLOW, False)
    @given(_stranger_rulesets())
    def run(case):
        _check_stranger_ruleset(tmp_path, case)
    run()


@pytest.mark.slow
def test_a_huge_or_odd_stranger_ruleset_is_refused(tmp_path):
    """Huge and odd YAML where a ruleset is read: a sparse 6 GB file, 100,000 card folders,
    a 4 MB folder name, nesting 5,000 deep: a diagnostic, no traceback, nothing outside.
    (Found here: 100,000 folders were 100,000 diagnostics, 65 MB in 10 minutes; a 4 MB name
    was an OS error without a position.)"""
    cases = {
        "huge": None,
        "many": "cards: [" + ", ".join(["/etc"] * 100_000) + "]",
        "long": "cards: [" + "a" * 4_000_000 + "]",
        "deep": "cards: " + "[" * 5000 + "]" * 5000,
    }
    for name, cards in cases.items():
        _, inbox = _stranger_sandbox(tmp_path)
        path = inbox / "rules" / "ruleset.yaml"
        if cards is None:
            with open(path, "wb") as fh:
                fh.truncate(6 * 1024 ** 3)
        else:
            path.write_text(_DELUXE.replace("cards: [builtin:common, .]", cards))
        from audit import touching, watching

        with watching() as seen:
            result = invoke(["validate", inbox / "rules"])
        assert result.exit_code == 1, (name, result.output[-2000:])
        assert len(result.output) < 2_000_000, name
        assert not touching(seen, ["/etc"]), name


# ---- the command line ---------------------------------------------------------------------------

# Copies, never the repository's own files: the fuzzer passes them to options that write
# (`--html LOG`, `--log LOG`, `--out MOD`), and a write must never land in examples/.
_SANDBOX = Path(tempfile.mkdtemp(prefix="raiders-fuzz-"))
LOG = shutil.copy(ROOT / "examples" / "logs" / "classic-duel-table.yaml", _SANDBOX / "duel.yaml")
MOD = shutil.copytree(ROOT / "examples" / "mods" / "gorgon", _SANDBOX / "gorgon")
LOG, MOD = str(LOG), str(MOD)
VALUES = ["0", "1", "-1", "3", "99999999999999999999", "x", "", "a" * 300, "/", "/etc/passwd",
          LOG, MOD, "deluxe", "classic", "greedy", "random,greedy", "search:0", "1,2,x", "..",
          "out", "out/x.yaml", "\x01", "--", "-q", "nan", "1e400"]
COMMANDS = {
    "validate": (["--format", "--base", "--allow-path"], [MOD, LOG, "/nonexistent"]),
    "play": (["--ruleset", "--variant", "--players", "--bots", "--seed", "--cards", "--names",
              "--difficulty", "--log", "--games", "--log-dir", "--from", "--room"], []),
    "replay": (["--html", "--allow-path"], [LOG]),
    "simulate": (["--ruleset", "--variant", "--players", "--bots", "--seed", "--cards",
                  "--difficulty", "--precision", "--sweep", "--target", "--log-dir"], []),
    "test": (["--allow-path"], [MOD, "/nonexistent"]),
    "show": (["--ruleset", "--cards"], ["dragon", "x", "monster"]),
    "fmt": (["--check"], [MOD]),
    "fuzz": (["--ruleset", "--seed", "--out", "--time-limit"], [MOD]),
}
FLAGS = {"--check", "-q"}


@st.composite
def argv(draw):
    command = draw(st.sampled_from(sorted(COMMANDS)))
    options, positional = COMMANDS[command]
    args = [command]
    for _ in range(draw(st.integers(0, 4))):
        opt = draw(st.sampled_from(options))
        args += [opt] if opt in FLAGS else [opt, draw(st.sampled_from(VALUES))]
    if command in ("simulate", "play", "fuzz"):  # bounded work: few games, one process
        args += ["--games", "2"] + (["--jobs", "1"] if command == "simulate" else [])
    if command == "fmt":
        args.append("--check")
    if positional:
        args.append(draw(st.sampled_from(positional)))
    return args


def test_fuzz_cli(tmp_path):
    @_settings(3, True)
    @given(argv())
    def run(args):
        invoke(args, cwd=tmp_path)
    run()


@pytest.mark.slow
def test_fuzz_cli_slow(tmp_path):
    @_settings(SLOW, False)
    @given(argv())
    def run(args):
        invoke(args, cwd=tmp_path)
    run()


# ---- the language server: random frames -------------------------------------------------------

# One `raiders lsp` per test, sent random frames (sizes honest, short, long, over the limit,
# negative, not a number, missing; bodies that are messages of every method with params of
# every shape, other JSON, not JSON, deep, not UTF-8), each case followed by a request that
# must be answered: no traceback on stderr, no hang, no death.
LSP_METHODS = ["textDocument/didOpen", "textDocument/didChange", "textDocument/didClose",
               "textDocument/didSave", "textDocument/hover", "textDocument/completion",
               "textDocument/definition", "textDocument/documentSymbol",
               "textDocument/codeAction", "textDocument/formatting", "initialize",
               "initialized", "$/cancelRequest", "$/setTrace", "no/such/method"]
LSP_KEYS = ["textDocument", "uri", "text", "version", "languageId", "position", "line",
            "character", "contentChanges", "range", "start", "end", "context", "diagnostics",
            "message", "data", "hint", "options", "tabSize", "insertSpaces", "id", "jsonrpc",
            "method", "params", "capabilities"]
_LSP_DIR = _SANDBOX / "lsp"
_LSP_DIR.mkdir()
shutil.copytree(ROOT / "examples" / "mods" / "gorgon", _LSP_DIR / "gorgon")
_LSP_CARD = _LSP_DIR / "gorgon" / "gorgon.dsl"
LSP_URIS = [_LSP_CARD.as_uri(), (_LSP_DIR / "gorgon" / "mod.yaml").as_uri(),
            (_LSP_DIR / "new.dsl").as_uri(), (_LSP_DIR / "ci.yaml").as_uri(),
            (_LSP_DIR / "game.yaml").as_uri(), "untitled:Untitled-1", "file:", "",
            "file:///%00.dsl", "http://example.com/a.dsl", _LSP_DIR.as_uri() + "/%ff.dsl"]
_json = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats()
    | st.sampled_from(HOSTILE + LSP_URIS + WORDS) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(LSP_KEYS) | st.text(max_size=6), inner, max_size=5),
    max_leaves=25)
_number = st.integers(-3, 40) | st.sampled_from([2 ** 31, 2 ** 53, -(2 ** 63), 10 ** 30])


@st.composite
def _lsp_text(draw):
    what = draw(st.sampled_from(["card", "card", "yaml", "hostile"]))
    if what == "card":  # with an odd character somewhere, now and then
        text = draw(card_mutant(draw(st.sampled_from(CARD_FILES)).read_text(encoding="utf-8")))
        at = draw(st.integers(0, len(text)))
        odd = draw(st.sampled_from(["", "", "\ud800", "\U0001f600", "\x00", "\r", "\t", "é"]))
        return text[:at] + odd + text[at:]
    if what == "yaml":
        return draw(_yaml_inputs(draw(st.sampled_from(KINDS))))
    return draw(st.sampled_from(HOSTILE + ["", "\x00", "\ud800"])) * draw(st.integers(1, 3))


@st.composite
def _lsp_params(draw, method: str):
    """Params of the right shape for the method, with hostile values, now and then one part
    of any shape; or params of any shape at all."""
    if draw(st.integers(0, 4)) == 0:
        return draw(_json)
    doc = {"uri": draw(st.sampled_from([LSP_URIS[0]] * 6 + LSP_URIS) | _json)}
    if method == "textDocument/didOpen":
        doc.update(languageId=draw(st.sampled_from(["raiders", "yaml", "python"])),
                   version=draw(_number), text=draw(_lsp_text()))
    elif method == "textDocument/didChange":
        doc.update(version=draw(_number))
    position = {"line": draw(_number), "character": draw(_number)}
    out = {"textDocument": doc, "position": position,
           "contentChanges": [{"text": draw(_lsp_text())}],
           "range": {"start": position, "end": {"line": draw(_number), "character": 0}},
           "context": {"diagnostics": draw(st.lists(st.fixed_dictionaries({
               "range": st.just({"start": position, "end": position}),
               "message": st.sampled_from(["did you mean `highest`?", "x"]),
               "data": _json}), max_size=2))},
           "options": {"tabSize": draw(_number), "insertSpaces": True},
           "capabilities": {}, "id": draw(_number), "value": "off"}
    if draw(st.integers(0, 3)) == 0:
        out[draw(st.sampled_from(sorted(out)))] = draw(_json)  # one part of the wrong shape
    return out


@st.composite
def _lsp_body(draw) -> bytes:
    import json

    what = draw(st.sampled_from(["message"] * 6 + ["json", "bytes", "deep", "utf16"]))
    if what == "json":
        return json.dumps(draw(_json)).encode()
    if what == "bytes":
        return draw(st.binary(max_size=200)) + draw(st.sampled_from(
            [b"", b"\r\n", b"Content-Length: 3\r\n\r\n{}"]))
    if what == "deep":
        return draw(st.sampled_from([b"[", b"{\"a\":"])) * draw(st.integers(100, 200_000))
    edits = ["textDocument/didOpen", "textDocument/didChange"] * 3  # checks happen: more
    method = draw(st.sampled_from(edits + LSP_METHODS))
    msg = {"jsonrpc": draw(st.sampled_from(["2.0"] * 8 + ["1.0", None])), "method": method}
    if draw(st.integers(0, 3)) == 0:  # an id: a request, or a notification that has one
        msg["id"] = draw(st.integers(0, 10 ** 6) | st.sampled_from(["x", None, [1], 1.5, True]))
    if draw(st.integers(0, 7)):
        msg["params"] = draw(_lsp_params(method))
    body = json.dumps(msg, allow_nan=True).encode()
    return body.decode().encode("utf-16") if what == "utf16" else body


@st.composite
def lsp_frames(draw) -> bytes:
    from lspclient import frame

    out = b""
    for _ in range(draw(st.integers(1, 4))):
        body = draw(_lsp_body())
        how = draw(st.sampled_from(["true"] * 6 + ["short", "long", "over", "negative", "word",
                                                   "none", "lower", "typed", "no-blank"]))
        if how == "true":
            out += frame(body)
        elif how == "short":
            out += frame(body, draw(st.integers(0, max(0, len(body) - 1))))
        elif how == "long":  # wants up to 64 bytes more: the padding after the case gives them
            out += frame(body, len(body) + draw(st.integers(1, 64)))
        elif how == "over":
            out += frame(body, draw(st.sampled_from([99999999999, 16 * 1024 * 1024 + 1,
                                                     10 ** 40])))
        elif how == "negative":
            out += frame(body, -len(body))
        elif how == "word":
            out += frame(body, draw(st.sampled_from(["abc", "", "1e3", " 12 3", "\u0663"])))
        elif how == "none":
            out += b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + body
        elif how == "lower":
            out += b"content-length:%d\r\n\r\n" % len(body) + body
        elif how == "typed":
            out += (b"Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc; "
                    b"charset=utf-8\r\n\r\n" % len(body)) + body
        else:
            out += b"Content-Length: %d\r\n" % len(body) + body
    return out


class _LspServer:
    """The server under test, started again if it died (a death fails the test)."""

    def __init__(self, tmp: Path):
        self.tmp, self.client, self.cases = tmp, None, 0

    def start(self):
        from lspclient import Client

        if self.client is None or self.client.proc.poll() is not None:
            self.client = Client(self.tmp)
            self.client.initialize(self.tmp)
        return self.client

    def case(self, data: bytes) -> None:
        import queue

        from lspclient import message, uri

        client = self.start()
        self.cases += 1
        said = len(client.stderr())
        sentinel = f"sentinel-{self.cases}"
        ask = message({"id": sentinel, "method": "textDocument/documentSymbol",
                       "params": {"textDocument": {"uri": uri(_LSP_CARD)}}})
        limit = _time_limit[0] if _time_limit else 120
        try:  # the padding completes a frame that wanted more than it had
            client.raw(data + b" " * 65 + b"\r\n" + ask)
            reply = client.answer(sentinel, timeout=limit)
        except (BrokenPipeError, queue.Empty):
            reply = None
        new = client.stderr()[said:]
        _count("lsp")
        shown = repr(data[:200])
        died = client.proc.poll() is not None
        assert not died, f"the server died (exit {client.proc.returncode}): {shown}\n{new}"
        assert reply is not None, f"hang: no answer in {limit} s after {shown}"
        assert "Traceback" not in new, f"traceback for {shown}:\n{new[-3000:]}"
        assert "error" not in reply, reply
        # an error of the server itself, caught: an internal error answered, a check failed
        notes, client.notes[:] = list(client.notes), []
        broken = [n for n in notes if n.get("error", {}).get("code") == -32603
                  or n.get("method") in ("window/showMessage", "window/logMessage")]
        assert not broken, f"{broken[0]} after {shown}"
        assert " failed (" not in new and "could not be handled" not in new, \
            f"{new} after {shown}"

    def close(self) -> None:
        if self.client is not None:
            self.client.close()


@pytest.fixture
def lsp_server(tmp_path):
    server = _LspServer(tmp_path)
    yield server
    server.close()


def test_fuzz_lsp(lsp_server):
    @_settings(3, True)
    @given(lsp_frames())
    def run(data):
        lsp_server.case(data)
    run()


@pytest.mark.slow
def test_fuzz_lsp_slow(lsp_server):
    @_settings(SLOW, False)
    @given(lsp_frames())
    def run(data):
        lsp_server.case(data)
    run()


# ---- raiders fuzz -------------------------------------------------------------------------------

@pytest.mark.slow
def test_raiders_fuzz_saves_a_runaway_as_a_scenario_that_shows_it(tmp_path):
    folder = tmp_path / "loop"
    folder.mkdir()
    (folder / "ogre.dsl").write_text(
        "monster ogre { strength 9 / 12 / 15  wounds 2\n"
        + "\n".join(["  after wound { everyone: wound 1 }"] * 8) + " }\n")
    out = tmp_path / "found"
    result = invoke(["fuzz", folder, "--games", "4", "--seed", "3", "--out", out])
    assert result.exit_code == 1 and "runaway" in result.output, result.output
    files = sorted(out.glob("runaway-*.yaml"))
    assert files and "reproduced by the scenario" in result.output
    again = invoke(["test", "--allow-path", folder, files[0]])
    assert again.exit_code == 1 and "runaway chain" in again.output
    clean = invoke(["fuzz", MOD, "--games", "3", "--out", tmp_path / "none"])
    assert clean.exit_code == 0 and "0 finding(s)" in clean.output


def test_raiders_fuzz_records_the_dice_of_the_room_it_saves(tmp_path):
    """A finding in a room that rolls is saved with its rolls, so the scenario replays it
    (without them it would stop at `give the rolls`, not at the runaway)."""
    folder = tmp_path / "dice-loop"
    folder.mkdir()
    (folder / "imp.dsl").write_text(
        "monster imp { strength 99  wounds 1\n"
        + "\n".join(["  after wound { if roll(6) >= 1 { everyone: wound 1 } }"] * 8) + " }\n")
    (folder / "mod.yaml").write_text("deck: {imp: 30}\n")
    out = tmp_path / "found"
    result = invoke(["fuzz", folder, "--games", "1", "--seed", "1", "--out", out])
    assert result.exit_code == 1 and "runaway" in result.output, result.output
    [saved] = sorted(out.glob("runaway-*.yaml"))
    text = saved.read_text()
    assert re.search(r"^rolls: \[[1-6]\]$", text, re.M), text
    assert "reproduced by the scenario" in result.output
    again = invoke(["test", "--allow-path", folder, saved])
    assert again.exit_code == 1 and "runaway chain" in again.output, again.output
