"""Every ```dsl example in docs/ checks clean, so the reference never drifts from the checker."""
import re
from pathlib import Path

import pytest

from raiders.formats.validate import validate_paths

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = [(doc.name, i, block)
            for doc in sorted((ROOT / "docs").glob("*.md"))
            for i, block in enumerate(re.findall(r"```dsl\n(.*?)```", doc.read_text("utf-8"),
                                                 re.S))]


def test_there_are_examples():
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize("doc,index,text", EXAMPLES, ids=[f"{d}#{i}" for d, i, _ in EXAMPLES])
def test_example_checks_clean(tmp_path, doc, index, text):
    path = tmp_path / f"{doc}-{index}.dsl"
    path.write_text(text, encoding="utf-8")
    report = validate_paths([str(path)])
    assert not report.diagnostics, [f"{d.span}: {d.message}" for d in report.diagnostics]
