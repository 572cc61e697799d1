"""Logs and scenario files among the paths to validate: which file is which (by its `format:`
line), and each one's own checks: a log is replayed (every play legal in its room), a scenario
file is read and its rooms played, its expectations not judged. `raiders validate` and the
language server check them through here, so both report the same diagnostics."""
from __future__ import annotations

from raiders.dsl.diagnostics import Diagnostic


def yaml_kind(path: str):
    """`log` or `scenario` from a YAML file's `format:` line, else None."""
    from raiders.formats.declared import file_format

    kind = file_format(path)
    return kind if kind in ("log", "scenario") else None


def split_documents(paths: tuple[str, ...]) -> tuple[list[str], list[tuple[str, str]]]:
    """The paths `raiders validate` is given, shared out: (card paths for the card checker,
    (path, `log` | `scenario`) for their own readers). A folder's logs and scenario files are
    found by their `format:` line; a `mod.yaml` stands for its whole mod."""
    from pathlib import Path

    cards: list[str] = []
    other: list[tuple[str, str]] = []
    for p in paths:
        if Path(p).is_dir():
            # a folder's logs and scenario files are checked too, by their own readers
            from raiders.formats.safeio import files_below

            found, _ = files_below(p, ["*.yaml", "*.yml"])
            other.extend((str(f), k) for f in sorted(found) if (k := yaml_kind(str(f))))
        kind = None
        if Path(p).name == "mod.yaml":
            cards.append(str(Path(p).parent))  # a mod's manifest: check the whole mod
            continue
        if Path(p).is_file() and Path(p).suffix in (".yaml", ".yml"):
            kind = yaml_kind(p)
        if kind:
            other.append((p, kind))
        else:
            cards.append(p)
    return cards, other


def check_document(path: str, kind: str, allow: tuple[str, ...] = ()) -> list[Diagnostic]:
    """A log's or a scenario file's own checks (a scenario's expectations are not run)."""
    from raiders.dsl.diagnostics import Problems

    if kind == "log":
        from .logs import read_log
        from .replay import replay

        try:
            replay(read_log(path, allow))  # every play legal, in the room it is in
        except Problems as err:
            return err.diagnostics
        return []
    from .scenarios import run_file

    return [d for outcome in run_file(path, allow) for d in outcome.diagnostics]
