"""The `raiders` command line (click). Exit codes: 0 ok, 1 findings or failures, 2 usage.

Commands are loaded lazily: `raiders --help` and each command import only what they need (the
card language's parser is not imported to print help, the engine not to validate cards). Each
command's module and the first paragraph of its help are listed here, so that the help lists
every command without importing one; tests/cli/test_cli.py checks the list against the commands.
"""
from __future__ import annotations

import importlib
import os
from typing import Optional

import click

# name -> (module in this package, attribute, the first paragraph of the command's help)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "validate": ("cards", "validate", "Parse and check card files, folders and rulesets."),
    "play": ("games", "play",
             "Play a game with bots and narrate it floor by floor, room by room."),
    "replay": ("games", "replay",
               "Re-run logged games (raiders-log/1) and narrate them room by room."),
    "simulate": ("simulate", "simulate",
                 "Play many games with bots on every core and summarise them, to balance cards."),
    "test": ("cards", "test_cmd",
             "Run scenario files (raiders-scenario/1): one room each, checked."),
    "show": ("cards", "show",
             "Print a card's (or a kind's) text and what it does in plain words."),
    # modders' tools
    "print": ("printing", "print_cmd",
              "Print cards as card faces: sheets of nine for a home printer, or one file per "
              "card."),
    "fmt": ("tools", "fmt_cmd",
            "Lay out card files (*.dsl) in the one canonical layout, comments kept."),
    "lsp": ("tools", "lsp_cmd", "Run the language server for card files (LSP over stdio)."),
    "new": ("tools", "new_cmd",
            "Start a mod: a folder NAME with a card, mod.yaml and passing scenarios."),
    "fuzz": ("fuzz", "fuzz_cmd",
             "Play random games with a mod; save each crash or runaway as a scenario file."),
    # the replay viewer over HTTP (docs/viewer.md)
    "serve": ("viewer", "serve",
              "Serve the replay viewer for a folder of logs on http://127.0.0.1:PORT/."),
    # a game at a real table, recorded in the browser (docs/record.md)
    "record": ("record", "record",
               "Record a game played at a real table, room by room, in the browser."),
    # a mod's change reviewed
    "diff": ("review", "diff_cmd",
             "Review a mod's change: which cards changed, what they do before and after, and "
             "the simulated figures of both versions on the same seeds, as Markdown."),
}


def _set_color(ctx: click.Context, param: click.Parameter, value: Optional[bool]) -> None:
    if value is not None:
        ctx.color = value


def _color_option() -> click.Option:
    """`--color/--no-color` after the command too (`raiders play --no-color`), as before it."""
    return click.Option(["--color/--no-color", "color"], default=None, expose_value=False,
                        callback=_set_color, is_eager=True,
                        help="Colour on (--color) or off (--no-color); as `raiders --no-color`.")


class _Main(click.Group):
    """The command group: commands imported when named, and the last net under every command:
    problems with diagnostics (`Problems`, from any layer) are printed and exit 1, and an
    operating-system error no command foresaw (a name too long, a disk full, a folder that
    vanished) is a one-line error and exit 1, never a traceback. A command catches `Problems`
    itself only to say more (which log was bad, which value of a sweep)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> Optional[click.Command]:
        if name not in self.commands and name in COMMANDS:
            module, attribute, _ = COMMANDS[name]
            self.commands[name] = getattr(importlib.import_module(f"{__name__}.{module}"),
                                          attribute)
        cmd = self.commands.get(name)
        if cmd is not None and not any(p.name == "color" for p in cmd.params):
            cmd.params.append(_color_option())
        return cmd

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """click's, and a close name suggested for a mistyped command (as for options)."""
        name = args[0] if args else ""
        if self.get_command(ctx, name) is None and not name.startswith("-"):
            import difflib

            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1)
            if close:
                ctx.fail(f"No such command '{name}'. Did you mean '{close[0]}'?")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list in `--help`, as click writes it, from the help paragraphs above."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            if name in self.commands or name not in COMMANDS:  # loaded, or added by hand
                cmd = self.get_command(ctx, name)
                if cmd is not None and not cmd.hidden:
                    rows.append((name, cmd.get_short_help_str(limit)))
            else:
                # click's own shortening, without importing the command
                stub = click.Command(name, help=COMMANDS[name][2])
                rows.append((name, stub.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            # `raiders replay … | head`: the reader has gone; stop quietly, as Unix tools do
            # (stdout pointed at /dev/null so the interpreter's last flush cannot fail again).
            import sys

            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            ctx.exit(141)
        except OSError as err:
            from raiders.dsl.diagnostics import clip

            from .common import Failure

            name = f"{clip(str(err.filename), 120)}: " if err.filename else ""
            raise Failure(f"error: {name}{err.strerror or err}") from None
        except Exception as err:
            from raiders.dsl.diagnostics import Problems  # (not above: `--help` stays light)

            if not isinstance(err, Problems):
                raise
            from .common import Failure

            n = len(err.diagnostics)
            raise Failure(f"{n} problem(s)" if n else str(err), err.diagnostics,
                          err.sources) from None


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="raiders")
@click.option("--color/--no-color", "color", default=None,
              help="Colour in the narration and the diagnostics: on a terminal by default, "
                   "never when NO_COLOR is set; --color forces it, --no-color turns it off.")
@click.pass_context
def main(ctx: click.Context, color: Optional[bool]) -> None:
    """raiders: a rules interpreter for the card game Dungeon Raiders.

    Cards, bosses, room kinds and items are text files in a card language
    (docs/dsl.md). Check them with `validate`, look at one with `show`, pin a room
    down with `test`, play with `play`, re-run a logged game with `replay`, and
    balance cards with `simulate`. Exit status: 0 ok, 1 problems, 2 usage errors.
    """
    if color is None and os.environ.get("NO_COLOR"):  # https://no-color.org
        color = False
    ctx.color = color  # None: click colours only a terminal; every command inherits it
