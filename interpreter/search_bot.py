"""A search bot (in progress, issue 12): for now it plays as the greedy bot."""
from __future__ import annotations

from .players import GreedyBot


class SearchBot(GreedyBot):
    name = "search"
    takes_budget = True

    def __init__(self, budget: int = 200):
        self.budget = budget
