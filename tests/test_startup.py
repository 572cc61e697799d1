"""Start-up (issue 11): `raiders --help` imports no command, and the command list it prints
from interpreter/cli/__init__.py's table agrees with the commands themselves."""
import inspect
import sys

import click
from childproc import run_ok

from raiders.interpreter import cli


def test_the_static_command_table_agrees_with_the_commands():
    ctx = click.Context(cli.main)
    for name, (module, _, first) in cli.COMMANDS.items():
        cmd = cli.main.get_command(ctx, name)
        assert cmd is not None and cmd.name == name, name
        assert f"{cli.__name__}.{module}" == cmd.callback.__module__
        paragraph = inspect.cleandoc(cmd.help or "").split("\n\n")[0].replace("\n", " ")
        assert paragraph == first, f"{name}: update COMMANDS in interpreter/cli/__init__.py"


def test_help_lists_every_command_without_importing_them():
    code = ("import sys\nfrom raiders.interpreter.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in sys.modules if m.split('.')[0] in ('lark', 'yaml', 'ruamel')"
            " or m in ('raiders.dsl.ast', 'raiders.interpreter.game.engine')"
            " or m.startswith('raiders.interpreter.cli.')]\n"
            "print('IMPORTED', sorted(heavy))\n")
    out = run_ok([sys.executable, "-c", code]).stdout
    assert "IMPORTED []" in out
    for name in cli.COMMANDS:
        assert f"\n  {name} " in out


def test_the_default_variant_named_or_not_is_loaded_once():
    """A command loads `--variant` as given (None) and its simulation by the variant's name:
    the same game, compiled once per process (issue 11, start-up)."""
    from raiders.interpreter.runtime.rules import load_rules

    assert load_rules("classic") is load_rules("classic", "standard")
    assert load_rules("deluxe", "tactical") is not load_rules("deluxe")
    assert load_rules("deluxe", "tactical") is load_rules("deluxe", "tactical")


def test_kept_rules_are_read_again_when_a_file_changes(tmp_path):
    """The per-process cache never serves cards older than the files: a changed card, a new
    card file and a changed mod.yaml are each seen by the next load."""
    import os

    from raiders.interpreter.runtime.rules import load_rules

    mod = tmp_path / "mod"
    mod.mkdir()
    card = mod / "a.dsl"
    card.write_text('treasure chest-a { name "A" chest 3 }\n')
    first = load_rules("deluxe", None, (str(mod),))
    assert load_rules("deluxe", None, (str(mod),)) is first
    card.write_text('treasure chest-a { name "A" chest 4 }\n')
    os.utime(card, ns=(1, 1))  # even a clock that did not move: the size or time differs
    second = load_rules("deluxe", None, (str(mod),))
    assert second is not first and "4" in second.rooms["chest-a"].source
    (mod / "b.dsl").write_text('treasure chest-b { name "B" chest 2 }\n')
    assert "chest-b" in load_rules("deluxe", None, (str(mod),)).library.cards
    (mod / "mod.yaml").write_text("deck: {chest-b: 3}\n")
    assert load_rules("deluxe", None, (str(mod),)).deck["chest-b"] == 3
