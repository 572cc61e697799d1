"""Every `docs/X.md#anchor` the code names (a verdict's pointer, a --help text, a comment that
sends the reader there) and every link between the docs lands on a heading or an explicit
`<a id="…">`: issue 22's review followed `docs/simulate.md#is-my-boss-too-strong` to nothing."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE_LINK = re.compile(r"(docs/[\w/.-]+\.md)#([\w-]+)")
DOC_LINK = re.compile(r"\]\(([\w/.-]*\.md)?#([\w-]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    text = doc.read_text()
    found, seen = set(), {}
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        m = re.match(r"#{1,6} (.*)", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            found.add(s if n == 0 else f"{s}-{n}")
            seen[s] = n + 1
    found.update(re.findall(r"<a id=\"([\w-]+)\"", text))
    return found


def test_slugs_as_github_makes_them():
    assert slug("Recipe: is my boss too strong? What number makes it fair?") == \
        "recipe-is-my-boss-too-strong-what-number-makes-it-fair"
    assert slug("`raiders simulate`: figures you can trust") == \
        "raiders-simulate-figures-you-can-trust"


def test_every_docs_anchor_the_code_names_exists():
    named = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        for doc, anchor in CODE_LINK.findall(path.read_text()):
            named.append((path.relative_to(ROOT), doc, anchor))
    assert any(a == "is-my-boss-too-strong" for _, _, a in named)  # the verdict's pointer
    missing = [f"{p}: {doc}#{a}" for p, doc, a in named
               if not (ROOT / doc).exists() or a not in anchors(ROOT / doc)]
    assert not missing, missing


def test_every_anchor_linked_from_the_simulate_docs_exists():
    doc = ROOT / "docs/simulate.md"
    missing = []
    for target, anchor in DOC_LINK.findall(doc.read_text()):
        where = doc if not target else (doc.parent / target)
        if anchor not in anchors(where):
            missing.append(f"{target}#{anchor}")
    assert not missing, missing
