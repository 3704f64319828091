"""What an expansion adds to the bots and to the game loop's counts (``BotHooks``), every default
the base game's: a new expansion without bots of its own plays with the base ones. An
expansion's part subclasses it in its own package (``play/isla/``) and is listed once in
``play/expansions.py``. Imports ``model`` only."""

from __future__ import annotations

from typing import Any

from model import Action, GameState, Harvest


class BotHooks:
    """The bots' hook for one expansion (``name``: its ``Setup.expansion``); the base game's is
    ``BASE_BOTS``, which adds nothing."""

    name = ""
    # The expansion's actions ``play_games`` counts, each with its key in ``GameResult.counts``.
    counted: tuple[tuple[type, str], ...] = ()

    def greedy(self, s: GameState, legal: list[Action]) -> Action | None:
        """The greedy bot's move among ``legal`` where the expansion has one (asked first), else
        None: play as in the base game."""
        return None

    def harvest(self, s: GameState, legal: list[Action], harvest: Harvest) -> Action:
        """What the greedy bot plays instead of ``harvest`` (one of ``legal``), or ``harvest``."""
        return harvest

    def summary(self, totals: dict[str, int], games: int) -> dict[str, Any]:
        """The simulator's summary of the ``counted`` totals over ``games`` games."""
        return {}

    def describe(self, summary: dict[str, Any]) -> str | None:
        """That summary as one line of the simulator's text, or None."""
        return None


BASE_BOTS = BotHooks()
