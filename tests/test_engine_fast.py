"""The engine's fast path gives the rules' answers: the move generator's kept lists (phases 1 and 3,
T1, T6, H4) against the lists made afresh, and batch play against one game at a time."""

from __future__ import annotations

import random

from model import GameState, legal_actions, new_game, ruleset
from model.core import fits
from model.engine import legal_moves
from model.steps import STEPS
from play.bots import greedy_bot, random_bot
from play.playout import playout


def _states(name: str, players: int, games: int, **options: object) -> list[GameState]:
    out = []
    for g in range(games):
        bot = random_bot if g % 2 else greedy_bot
        rules = ruleset(name, options)
        out.extend(s for s, _ in playout(new_game(rules, players, g), bot, random.Random(g)))
    return out


def test_kept_lists_are_the_lists_made_afresh() -> None:
    """T1, V2, T6, H4, F1: ``legal_moves`` (kept lists) lists what the generator lists without them
    (a step replaced by an equal one turns the kept lists off)."""
    states = (_states("amigo", 4, 4) + _states("rio-grande", 3, 2) + _states("amigo-v2", 4, 2)
              + _states("rio-grande", 5, 2, distinct_fields=True, harvest="strict"))
    kept = [list(legal_moves(s, proposals=False)) for s in states]
    assert [legal_actions(s, proposals=False) for s in states] == kept
    with STEPS.replaced(fits=lambda f, b: fits(f, b)):
        assert [legal_actions(s, proposals=False) for s in states] == kept
