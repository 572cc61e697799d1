"""The `raiders` command line (click). Exit codes: 0 ok, 1 findings or failures, 2 usage."""
from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="raiders")
def main() -> None:
    """raiders: a rules interpreter for the card game Dungeon Raiders.

    Cards, bosses, room kinds and items are text files in a card language
    (docs/dsl.md). Check them with `validate`, look at one with `show`, pin a room
    down with `test`, play with `play`, re-run a logged game with `replay`, and
    balance cards with `simulate`. Exit status: 0 ok, 1 problems, 2 usage errors.
    """


from .cards import show, test_cmd, validate  # noqa: E402  (commands, registered below)
from .games import play, replay  # noqa: E402
from .simulate import simulate  # noqa: E402

for command in (validate, play, replay, simulate, test_cmd, show):
    main.add_command(command)

from .tools import COMMANDS as TOOL_COMMANDS  # noqa: E402  (fmt, lsp, new: modders' tools)

for command in TOOL_COMMANDS:
    main.add_command(command)

from .viewer import serve  # noqa: E402  (the replay viewer over HTTP, docs/viewer.md)

main.add_command(serve)
