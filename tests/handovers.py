"""Counting a replaying game's hand-overs (tools/pairs.py) in a test: how often a game that
replayed another's answers handed over to its bots, and how often it found it had not played
the recorded game's rooms."""
from collections import Counter

from raiders.interpreter.tools import pairs


def count_hand_overs(monkeypatch) -> Counter:
    """A Counter of "handed over" and "diverged", kept up to date while the test runs."""
    seen: Counter = Counter()
    hand_over = pairs.TapedGame._hand_over

    def counted(self, tape):
        try:
            hand_over(self, tape)
        except pairs.Diverged:
            seen["diverged"] += 1
            raise
        seen["handed over"] += 1

    monkeypatch.setattr(pairs.TapedGame, "_hand_over", counted)
    return seen
