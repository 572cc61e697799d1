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


@pytest.mark.parametrize("path", _python_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_python_source_names_no_card(path: Path):
    text = path.read_text(encoding="utf-8").lower()
    hits = []
    for word in _card_words():
        w = word.lower()
        pattern = r"(?<![a-z0-9_-])" + re.escape(w) + r"(?![a-z0-9_-])"
        # `key` is also everyday Python (dict keys): for it only a quoted id counts.
        if w in PROGRAMMING_WORDS:
            pattern = r"[\"']" + re.escape(w) + r"[\"']"
        if re.search(pattern, text):
            hits.append(word)
    assert not hits, f"{path}: names cards {sorted(hits)}"
