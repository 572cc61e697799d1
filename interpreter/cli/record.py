"""`raiders record`: record a game played at a real table, in the browser (docs/record.md)."""
from __future__ import annotations

from pathlib import Path

import click

from raiders.dsl.library import display_path

from .common import Failure


@click.command()
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path), default=".")
@click.option("--cards", "cards", multiple=True, metavar="MOD", type=click.Path(exists=True,
              file_okay=False), help="Mod folders in play (a mod, or a folder of mods; "
              "repeatable). Every game recorded by this server plays with them.")
@click.option("--port", type=click.IntRange(0, 65535), default=8001, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--network", is_flag=True,
              help="Listen on every network interface, so that a phone on the same network "
                   "can connect; every request then needs the random token in the printed URL.")
def record(folder: Path, cards: tuple[str, ...], port: int, network: bool) -> None:
    """Record a game played at a real table, room by room, in the browser.

    Serves a page on http://127.0.0.1:PORT/ to set up a game (ruleset, variant, players in
    seat order, the characters as dealt, the dungeon as laid out or dealt from a seed) and
    to enter it room by room: peeks, each player's card (only legal cards can be chosen; the
    page says why the others are not), the answers to the cards' questions and the dice
    rolled at the table. After each room it shows the state the rules give, and why.

    Each game is a raiders-log/1 file in FOLDER (default: here), written whole after every
    room: reload the page or restart the server and the game goes on. `raiders replay
    --check` and the viewer read it. Stop with Ctrl-C.
    """
    import errno

    from raiders.interpreter.tools.httpguard import network_address, new_token
    from raiders.interpreter.tools.record import Recorder
    from raiders.interpreter.tools.recordserver import make_server

    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise Failure(f"error: cannot use {display_path(str(folder))}: "
                      f"{err.strerror or err}") from None
    recorder = Recorder(folder, tuple(cards))
    token = new_token() if network else None
    try:
        server = make_server(recorder, "0.0.0.0" if network else "127.0.0.1", port, token)
    except OSError as err:
        why = "the port is in use (try --port 0)" if err.errno == errno.EADDRINUSE else \
            (err.strerror or str(err))
        raise Failure(f"error: cannot listen on port {port}: {why}") from None
    real_port = server.server_address[1]
    click.echo(f"recording into {display_path(str(folder))}/"
               + (" (a new folder: it did not exist)" if made else ""))
    if network:
        click.echo(f"open http://{network_address()}:{real_port}/?token={token} (on this network; "
                   "keep the token private)")
    else:
        click.echo(f"open http://127.0.0.1:{real_port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
