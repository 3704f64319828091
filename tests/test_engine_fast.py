"""The engine's fast path gives the rules' answers: the move generator's kept lists (phases 1 and 3,
T1, T6, H4) against the lists made afresh, and batch play against one game at a time."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from model import Accept, GameState, legal_actions, new_game, ruleset
from model.core import fits
from model.engine import legal_moves
from model.steps import STEPS
from play.bots import Bot, greedy_bot, random_bot, random_trader_bot
from play.playout import play_game, play_games, playout


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


def _hear(into: list[tuple[int, Accept]]) -> Callable[[GameState, Accept], None]:
    return lambda s, a: into.append((s.turn, a))


@pytest.mark.parametrize(("name", "options", "bots"), [
    ("amigo", {}, [random_bot] * 4),
    ("rio-grande", {}, [random_trader_bot, greedy_bot, random_bot]),
    ("rio-grande", {"isla": True}, [greedy_bot] * 3),
])
def test_batch_play_is_one_game_at_a_time(name: str, options: dict[str, object], bots: list[Bot]) -> None:
    """``play_games`` over seeds gives ``play_game``'s games (results, first and last states, actions,
    the deals heard, T3) and ``playout``'s, one generator reseeded per game (E1's reshuffles)."""
    rules = ruleset(name, options)
    players, seeds = len(bots), [5, 11]
    heard: list[tuple[int, Accept]] = []
    alone: list[tuple[int, Accept]] = []
    batch = list(play_games(rules, players, seeds, bots, _hear(heard)))
    assert batch == [play_game(rules, players, seed, bots, _hear(alone)) for seed in seeds]
    assert heard == alone
    assert heard or random_trader_bot not in bots
    for (_, s0, last, actions), seed in zip(batch, seeds, strict=True):  # playout's loop, the same game
        steps = list(playout(s0, bots, random.Random(seed ^ 0x5EED)))
        assert [a for _, a in steps[1:]] == actions and steps[-1][0] == last
