"""Which raiders format a YAML text declares, from its `format:` line alone (no YAML parsed):
the one rule the language server, `validate`, the readers of logs and scenarios, and quoting
(a foreign YAML file is never quoted: formats/safeio.py) share."""
from __future__ import annotations

import os
import re
from typing import Optional

_FORMAT_LINE = re.compile(r"^format:\s*[\"']?raiders-(ruleset|log|scenario)/", re.M)
_FORMAT_HEAD = 4000  # characters looked at: the line comes first, after a comment or two


def declared_format(text: str) -> Optional[str]:
    """`ruleset`, `log` or `scenario`: the raiders format a YAML text declares, else None
    (any other YAML, a CI workflow say, is not raiders')."""
    m = _FORMAT_LINE.search(text[:_FORMAT_HEAD])
    return m.group(1) if m else None


def file_format(path: str) -> Optional[str]:
    """declared_format of a file, from its head only (the file may be huge)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_FORMAT_HEAD).decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return None
    return declared_format(head)


# The YAML files raiders reads that declare no format: a mod's manifest, by its name.
_UNDECLARED = ("mod.yaml",)


def foreign_yaml(path: str, text: str) -> bool:
    """Whether a YAML file (by its suffix) is foreign to raiders: it declares no raiders format
    and is no `mod.yaml`. Such a file is never quoted (formats/safeio.py quotable_lines)."""
    name = os.path.basename(path)
    return name.endswith((".yaml", ".yml")) and name not in _UNDECLARED and \
        declared_format(text) is None
