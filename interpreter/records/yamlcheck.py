"""User YAML (scenarios, logs) and the rules it names: the paths it may lead to (`--allow-path`)
and loading those rules. Field reading itself is `raiders.formats.fields.Reader`."""
from __future__ import annotations

import contextlib
from contextvars import ContextVar
from typing import Iterable, Iterator, Optional

from raiders.dsl.diagnostics import Problems
from raiders.formats import yamlsrc
from raiders.formats.fields import Reader  # noqa: F401  (the YAML formats' one reader)

# Folders the user allowed on the command line (`--allow-path`): paths named inside a log or
# a scenario file may lead there too, besides the file's own folder (formats/safeio.py).
_ALLOWED: ContextVar[tuple[str, ...]] = ContextVar("raiders_allowed_paths", default=())


@contextlib.contextmanager
def allowing(paths: Iterable[str]) -> Iterator[None]:
    """Within the block, logs and scenario files may also name paths inside `paths`."""
    token = _ALLOWED.set(tuple(_ALLOWED.get()) + tuple(str(p) for p in paths))
    try:
        yield
    finally:
        _ALLOWED.reset(token)


def rules_from(r: Reader, ruleset: str, variant: Optional[str], cards: list[str], what: str,
               cards_given: bool = False):
    """The rules a scenario file or a log names: a built-in id or a path, and mod folders,
    both read relative to the file's own folder, and confined to it (or to the folders allowed
    with --allow-path): a path that leads elsewhere is refused (E506) and never opened.
    Problems point at the file's fields. With `cards_given`, `cards` are folders the person
    named on the command line (`replay --cards`), not the file's: they are not confined."""
    from pathlib import Path

    from raiders.formats.declared import file_format
    from raiders.formats.rulesets import RULESET_FILE, builtin_ids
    from raiders.formats.safeio import Confinement, is_dir, is_file, refused, too_large
    from raiders.interpreter.runtime.rules import load_rules

    box = Confinement(Path(r.path).parent, _ALLOWED.get())
    roots: Optional[tuple[str, ...]] = None
    if ruleset not in builtin_ids():
        where = r.span("ruleset") if r.has("ruleset") else r.span()
        path, why = box.resolve(str(ruleset))
        if path is not None and is_dir(path):
            path = str(Path(path) / RULESET_FILE)
            if not box.inside(path):
                path, why = None, "a link that leads out of the file's own folder"
        if path is None:
            r.diags.append(refused(where, str(ruleset), why or "", what))
        elif not is_file(path):
            r.fail(where, f"unknown ruleset `{ruleset}` (built in: {', '.join(builtin_ids())}; "
                   f"or a path to a ruleset.yaml, relative to the {what}'s own folder)")
        elif too_large(path) is None and (kind := file_format(path)) != "ruleset":
            # a secrets file beside the log: refused by its (missing) format line, before
            # any of it is parsed or quoted; the diagnostic names the field, not the file's text
            r.fail(where, "`ruleset` names a file that is not a raiders ruleset: it declares "
                   + (f"the raiders {kind} format" if kind else "no raiders format")
                   + "; nothing of it is read",
                   "a ruleset file starts with `format: raiders-ruleset/1` (docs/rulesets.md); "
                   f"or name a built-in ruleset: {', '.join(builtin_ids())}", code="E510")
        else:
            ruleset, roots = path, box.key()
    mods: list[str] = list(cards) if cards_given else []
    for i, raw in enumerate([] if cards_given else map(str, cards)):
        where = yamlsrc.value_span(r.path, r.node["cards"], i)
        path, why = box.resolve(raw)
        if path is None:
            # a log of one's own game with one's own mod: the mod named on the command line
            own = ("; or play a log with your own mod instead of those it names: "
                   "--cards DIR (replay, play --from)") if what == "log" else ""
            r.diags.append(refused(where, raw, why or "", what, own))
        elif not is_dir(path):
            r.fail(where, f"card folder `{raw}` not found",
                   f"mod folders are read relative to the {what}'s own folder", code="E505")
        else:
            mods.append(path)
    if r.diags:
        raise Problems(r.diags)
    try:
        return load_rules(ruleset, variant, tuple(mods), roots)
    except ValueError as err:
        field = "variant" if variant and "variant" in str(err) else "ruleset"
        r.fail(r.span(field) if r.has(field) else r.span(), str(err))
        raise Problems(r.diags) from None
    except Problems as err:
        raise Problems(err.diagnostics) from None
