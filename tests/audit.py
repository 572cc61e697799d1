"""What a command opens: the `raiders` command in a child process whose every file opened and
folder listed is recorded by an audit hook (`sys.addaudithook`: the interpreter's own `open`,
`os.listdir` and `os.scandir` events, raised by every `open()`, `os.open`, `Path.read_text`,
`Path.rglob`, … whatever the code path). A test of the path policy (formats/safeio.py
Confinement) then proves that no file outside the allowed folders was even opened, not only
that nothing of it was printed.

A child process, not this one: an audit hook cannot be removed once added, and the test's own
imports would be recorded too.
"""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import attrs

_CHILD = r"""
import json, os, sys

record, args = sys.argv[1], sys.argv[2:]
seen = []
recording = [True]


def hook(event, hook_args):
    if not recording[0] or not hook_args:
        return
    if event in ("open", "os.listdir", "os.scandir"):
        target = hook_args[0]
        if isinstance(target, (str, bytes, os.PathLike)):
            try:
                seen.append([event, os.path.abspath(os.fsdecode(target))])
            except (TypeError, ValueError):
                seen.append([event, repr(target)])


sys.addaudithook(hook)
sys.argv = ["raiders", *args]
code = 0
try:
    from raiders.interpreter.cli import main

    main()
except SystemExit as stop:
    code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
finally:
    recording[0] = False
    with open(record, "w", encoding="utf-8") as fh:
        json.dump(seen, fh)
sys.exit(code)
"""


@attrs.frozen
class Audited:
    """A finished command: its exit status, what it printed, and every path it opened or
    listed (absolute; links not followed, as the program named them)."""

    returncode: int
    output: str
    events: tuple[tuple[str, str], ...]

    def opened(self) -> list[str]:
        return [path for event, path in self.events if event == "open"]

    def listed(self) -> list[str]:
        return [path for event, path in self.events if event != "open"]

    def touching(self, places: Iterable[os.PathLike | str]) -> list[tuple[str, str]]:
        """The events whose path is one of `places` or lies below one of them, by name or
        once links are followed."""
        roots = [(os.path.abspath(p), os.path.realpath(p)) for p in places]

        def under(path: str, root: str) -> bool:
            return path == root or path.startswith(root.rstrip(os.sep) + os.sep)

        found = []
        for event, path in self.events:
            real = os.path.realpath(path)
            if any(under(path, a) or under(real, r) for a, r in roots):
                found.append((event, path))
        return found


def run_audited(args: Sequence[object], cwd: os.PathLike | str | None = None,
                timeout: float = 120) -> Audited:
    """`raiders ARGS` in a child process with the audit hook; what it did."""
    with tempfile.TemporaryDirectory(prefix="raiders-audit-") as tmp:
        record = Path(tmp) / "events.json"
        proc = subprocess.run([sys.executable, "-c", _CHILD, str(record), *map(str, args)],
                              capture_output=True, text=True, timeout=timeout, cwd=cwd)
        events = json.loads(record.read_text(encoding="utf-8")) if record.exists() else []
    return Audited(proc.returncode, proc.stdout + proc.stderr,
                   tuple((str(e), str(p)) for e, p in events))


# ---- in this process ---------------------------------------------------------------------------

_EVENTS = ("open", "os.listdir", "os.scandir")
_recorders: list[list[tuple[str, str]]] = []
_installed: list[bool] = []


def _hook(event: str, args: tuple) -> None:
    if not _recorders or event not in _EVENTS or not args:
        return
    target = args[0]
    if isinstance(target, (str, bytes, os.PathLike)):
        try:
            path = os.path.abspath(os.fsdecode(target))
        except (TypeError, ValueError):
            path = repr(target)
        for seen in _recorders:
            seen.append((event, path))


@contextlib.contextmanager
def watching() -> Iterator[list[tuple[str, str]]]:
    """Within the block, every file this process opens and every folder it lists, as
    (event, absolute path): for a fuzz case run in-process (CliRunner), where starting a child
    for each would cost too much. The hook, once added, stays (it records nothing outside)."""
    if not _installed:
        sys.addaudithook(_hook)
        _installed.append(True)
    seen: list[tuple[str, str]] = []
    _recorders.append(seen)
    try:
        yield seen
    finally:
        _recorders.remove(seen)


def touching(events: Iterable[tuple[str, str]], places: Iterable[os.PathLike | str]
             ) -> list[tuple[str, str]]:
    """Audited.touching for events recorded in this process."""
    return Audited(0, "", tuple(events)).touching(places)
