"""The greedy bot's look-ahead (game/players.py `_LookAhead`): each outcome is resolved on a
copy of the table set back to the same state, so what one guess's resolution left (a status on
a card, a room or the dungeon) never reaches another's."""
from pathlib import Path

from raiders.interpreter.game.engine import Game
from raiders.interpreter.game.players import GreedyBot, _LookAhead
from raiders.interpreter.runtime.rules import load_rules

ROOT = Path(__file__).resolve().parents[2]


def test_an_outcome_does_not_depend_on_the_guesses_resolved_before_it():
    """The table mod's buckler keeps its own wear (`this_card: mark wear`) and breaks at the
    third save: weighed against four guesses in one decision, it broke at the third guess,
    as if the first two had happened. Every outcome of a decision now equals the same outcome
    resolved first, on a copy of its own."""
    rules = load_rules("deluxe", None, (str(ROOT / "examples" / "mods" / "table"),))
    checked = []

    class Probe(GreedyBot):
        def choose_card(self, view, legal, second):
            if view.room is not None and "buckler" in view.me.items and len(legal) > 1:
                low = min(c for c in legal if isinstance(c, int))
                guesses = self._guesses(view)
                shared = _LookAhead(view, {})
                together = [shared.outcome(low, g) for g in guesses]
                alone = [_LookAhead(view, {}).outcome(low, g) for g in guesses]
                checked.append((view.room.id, together, alone))
            return super().choose_card(view, legal, second)

    game = Game(rules, ["A", "B", "C", "D"], [Probe(), GreedyBot(), GreedyBot(), GreedyBot()],
                seed=0)
    game.players[0].items.append("buckler")
    game.run()
    wounding = [c for c in checked if any(o is not None and o[1] > 0 for o in c[2])]
    assert len(wounding) >= 3  # the buckler saved a wound at least three times a decision
    assert [together for _, together, _ in checked] == [alone for _, _, alone in checked]
