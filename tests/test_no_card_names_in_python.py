"""The engine knows no card by name (DESIGN.md): no card id or name in any Python source."""
import functools
import re
from pathlib import Path

import pytest

from raiders.formats.rulesets import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
PROGRAMMING_WORDS = {"key"}
CARD_DIRS = [ROOT / "cards" / "deluxe" / "ruleset.yaml",
             ROOT / "cards" / "classic" / "ruleset.yaml"]


@functools.cache  # both rulesets loaded once, not once per source file
def _card_words() -> frozenset[str]:
    words = set()
    for rf in CARD_DIRS:
        ruleset, diags = load_ruleset(rf)
        assert ruleset is not None and not diags
        for cid, card in ruleset.library.cards.items():
            words.add(cid)
            for m in card.members:
                if getattr(m, "name", None) == "name":
                    words.add(m.value.value)
    return frozenset(words)


def _python_sources() -> list[Path]:
    """The project's own Python: not the tests, nor what a build or an environment put in
    the work tree (a `.venv` or `venv` there holds other people's code: site-packages)."""
    skip = {"tests", "build", "dist", "site-packages", "node_modules"}

    def ours(p: Path) -> bool:
        parts = p.relative_to(ROOT).parts
        return not skip.intersection(parts) and not any(
            part.startswith(".") or part.endswith(".egg-info") for part in parts)

    return [p for p in ROOT.rglob("*.py") if ours(p)]


def test_there_are_words_and_files_to_check():
    assert len(_card_words()) > 50
    assert len(_python_sources()) > 10


@functools.cache
def _pattern() -> re.Pattern[str]:
    """Every card word as a whole word, in one pattern (one pass over each file): `key` is
    also everyday Python (dict keys), so for it only a quoted id counts."""
    words = sorted((w.lower() for w in _card_words()), key=len, reverse=True)
    plain = "|".join(re.escape(w) for w in words if w not in PROGRAMMING_WORDS)
    quoted = "|".join(re.escape(w) for w in words if w in PROGRAMMING_WORDS)
    return re.compile(rf"(?<![a-z0-9_-])({plain})(?![a-z0-9_-])"
                      + (rf"|[\"']({quoted})[\"']" if quoted else ""))


def _names(text: str) -> set[str]:
    return {next(g for g in m.groups() if g) for m in _pattern().finditer(text.lower())}


@pytest.mark.parametrize("path", _python_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_python_source_names_no_card(path: Path):
    hits = _names(path.read_text(encoding="utf-8"))
    assert not hits, f"{path}: names cards {sorted(hits)}"


def test_the_rule_can_fail():
    """A card's id or name in code is found as a whole word, `key` only when quoted."""
    words = _card_words()
    some_id = next(w for w in sorted(words) if "-" not in w and w.isalpha())
    assert _names(f"if card.id == '{some_id}':") == {some_id.lower()}
    assert _names(f"x = {some_id}_count") == set()  # part of a longer name
    if "key" in {w.lower() for w in words}:
        assert _names("d.key = 1") == set() and _names("card == 'key'") == {"key"}
