"""Play whole games with bots: the simulator behind scripts/simulate.py (reproducible from a seed)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from model import Accept, Action, GameState, Phase, Ruleset, apply, chance_outcome, new_game, scores, winners
from model.actions import Attack, Sell, Yield
from solvers.bots import Bot, random_bot

ISLA_COUNTED = (Sell, Attack, Yield)


@dataclass(frozen=True, slots=True)
class GameResult:
    seed: int
    coins: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int
    actions: int
    deals: int
    reshuffles: int
    ship_sales: int = 0  # Sell actions (I6), La Isla Bohnita only
    raids: int = 0  # pirate attacks (I7)
    captures: int = 0  # attacks that took a card (the owner yielded)


def game_seed(seed: int, game: int) -> int:
    """The seed of game ``game`` in a run seeded ``seed``: independent of how many games are run."""
    return seed * 1_000_003 + game


def play_game(
    rules: Ruleset, players: int, seed: int, bots: Sequence[Bot]
) -> tuple[GameResult, GameState, GameState, list[Action]]:
    """One game: the deck shuffled by ``seed``, bots and reshuffles drawn from a generator seeded by it.

    Returns the result, the first and last states and every action (reshuffles included), so the
    caller can write a record. Actions from the plain random bot come from ``legal_actions`` and
    skip the legality checks; every other bot's actions are checked.
    """
    s0 = s = new_game(rules, players, seed)
    rng = random.Random(seed ^ 0x5EED)
    actions: list[Action] = []
    deals = reshuffles = 0
    isla_moves: Counter[type] = Counter()
    trusted = [b is random_bot for b in bots]
    append = actions.append
    while s.phase != Phase.OVER:
        p = s.to_move
        if p < 0:
            a: Action = chance_outcome(s, rng)
            reshuffles += 1
            s = apply(s, a, False)
        else:
            a = bots[p](s, rng)
            kind = type(a)
            if kind is Accept:
                deals += 1
            elif kind in ISLA_COUNTED:
                isla_moves[kind] += 1
            s = apply(s, a, not trusted[p])
        append(a)
    result = GameResult(seed, scores(s), winners(s), s.turn + 1, len(actions), deals, reshuffles,
                        isla_moves[Sell], isla_moves[Attack], isla_moves[Yield])
    return result, s0, s, actions
