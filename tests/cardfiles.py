"""Every card file of the repository, read once per test process: the formatter's and the
highlighters' tests all go over them, and every xdist worker collects both modules (parsing
each file twice a worker cost a second or two of each run)."""
import functools
from pathlib import Path

from raiders.dsl.parser import parse

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def card_texts() -> dict[str, str]:
    """Every .dsl file that reads as text, by its path in the repository."""
    out = {}
    for f in sorted(ROOT.glob("**/*.dsl")):
        if {"build", ".git", "node_modules"} & set(f.relative_to(ROOT).parts):
            continue
        try:
            out[str(f.relative_to(ROOT))] = f.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
    return out


@functools.cache
def parsing_texts() -> dict[str, str]:
    """Those that parse (the corpus's broken files are broken on purpose)."""
    return {name: text for name, text in card_texts().items()
            if parse(text, name)[0] is not None}
