"""Whole games with bots: ``playout``, the one seeded game loop (every generator of games and
positions runs on it), and ``play_games`` (``play_game`` one seed at a time), the simulator behind
scripts/simulate.py, the studies and the benchmarks, over many seeds on ``playout``."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from model import Accept, Action, GameState, Phase, Ruleset, apply, chance_outcome, new_game, scores, winners
from model.actions import Reshuffle
from model.steps import STEPS
from play.bots import Bot, random_bot
from play.expansions import bot_hooks


@dataclass(frozen=True, slots=True)
class GameResult:
    seed: int
    coins: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int
    actions: int
    deals: int
    reshuffles: int
    counts: tuple[tuple[str, int], ...] = ()  # the expansion's counted actions (``BotHooks.counted``)


def game_seed(seed: int, game: int) -> int:
    """The seed of game ``game`` in a run seeded ``seed``: independent of how many games are run."""
    return seed * 1_000_003 + game


Bots = Bot | Sequence[Bot]  # one bot for every seat, or one per seat


def playout(s: GameState, bots: Bots, rng: random.Random) -> Iterator[tuple[GameState, Action | None]]:
    """Every state of a game from ``s`` to its end, each with the action that led to it (None for
    ``s``): chance nodes take ``chance_outcome(s, rng)`` (E1), seats their bot's ``choose(s, rng)``,
    one generator for both. The next action is drawn only when the loop asks for the next state, so
    a caller may draw from ``rng`` in between and stay reproducible. Actions of the plain random
    bot come from ``legal_actions`` and skip the legality checks; every other bot's are checked."""
    seats = list(bots) if isinstance(bots, Sequence) else [bots] * len(s.players)
    trusted = [b is random_bot for b in seats]
    over = Phase.OVER
    steps = STEPS  # a trusted action goes to its handler unchecked, as ``apply(s, a, False)`` sends it
    yield s, None
    while s.phase != over:
        p = s.to_move
        if p < 0:
            a: Action = chance_outcome(s, rng)
            s = steps.handlers[type(a)](s, a, False)
        else:
            a = seats[p](s, rng)
            s = steps.handlers[type(a)](s, a, False) if trusted[p] else apply(s, a, True)
        yield s, a


def play_game(
    rules: Ruleset, players: int, seed: int, bots: Sequence[Bot],
    on_accept: Callable[[GameState, Accept], None] | None = None,
) -> tuple[GameResult, GameState, GameState, list[Action]]:
    """One game: the deck shuffled by ``seed``, bots and reshuffles drawn from a generator seeded by it.

    Returns the result, the first and last states and every action (reshuffles included), so the
    caller can write a record. Actions from the plain random bot come from ``legal_actions`` and
    skip the legality checks; every other bot's actions are checked. ``on_accept(before, accept)``
    hears each executed deal (T3) with the state it was accepted in, so a caller can read the
    deals without replaying the game.
    """
    return next(play_games(rules, players, (seed,), bots, on_accept))


def play_games(
    rules: Ruleset, players: int, seeds: Iterable[int], bots: Sequence[Bot],
    on_accept: Callable[[GameState, Accept], None] | None = None,
) -> Iterator[tuple[GameResult, GameState, GameState, list[Action]]]:
    """``play_game`` for each of ``seeds`` in turn (batch play): one generator, reseeded per game,
    and the one game loop, ``playout``, counting as it goes."""
    seats = list(bots)
    rng = random.Random()
    own = dict(bot_hooks(rules.expansion).counted)  # the expansion's actions, by the key they count to
    counted = frozenset((Accept, Reshuffle, *own))  # the actions play_game counts
    for seed in seeds:
        s0 = before = s = new_game(rules, players, seed)
        rng.seed(seed ^ 0x5EED)  # the same draws as ``random.Random(seed ^ 0x5EED)``
        actions: list[Action] = []
        append = actions.append
        deals = reshuffles = 0
        moves: Counter[type] = Counter()
        for s, a in playout(s0, seats, rng):  # noqa: B007 (s: the last state)
            if a is None:
                continue
            kind = type(a)
            if kind in counted:  # one lookup for the common case, an action nobody counts
                if kind is Accept:
                    deals += 1
                    if on_accept is not None and isinstance(a, Accept):
                        on_accept(before, a)
                elif kind is Reshuffle:
                    reshuffles += 1
                else:
                    moves[kind] += 1
            append(a)
            before = s
        yield (GameResult(seed, scores(s), winners(s), s.turn + 1, len(actions), deals, reshuffles,
                          tuple((key, moves[kind]) for kind, key in own.items())), s0, s, actions)
