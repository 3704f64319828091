"""The adapters' cost per step beside the engine's (issue 44 item 2): uniformly random ids through
the OpenSpiel game and the PettingZoo environment (adapters/), and the engine's random bot on the
same ruleset and player counts, medians of runs in one process.

An adapter's step is one id: a deal is built of several (offer, ask, propose), and OpenSpiel's
chance nodes (the deal, the turn-ups, the draws) are steps too; an engine action is one
``model.apply``. The table shows both per step and per game, so the two units stay apart.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from adapters.openspiel_game import GAME_NAME
from adapters.pettingzoo_env import env
from model import ruleset
from play.bots import BOTS
from play.playout import game_seed, play_games

RULESET = "rio-grande"  # the adapters' default ruleset
PLAYERS = (3, 4, 5)
Stepper = Callable[[int, int, random.Random], int]  # (players, game seed, rng) -> steps of one game


def openspiel_game(players: int, seed: int, rng: random.Random) -> int:
    """One game of ``python_bohnanza``: chance outcomes drawn by their probabilities, the players'
    ids uniformly among the legal ones; the steps taken (``seed`` unused: chance deals)."""
    game = pyspiel.load_game(GAME_NAME, {"players": players, "ruleset": RULESET})
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def pettingzoo_game(players: int, seed: int, rng: random.Random) -> int:
    """One game of ``bohnanza_v0`` dealt from ``seed``: each agent's id uniformly among those its
    action mask allows (observations built at every step, as an agent reads them); the steps."""
    e = env(players=players, ruleset=RULESET)
    e.reset(seed=seed)
    steps = 0
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


STEPPERS: dict[str, Stepper] = {"openspiel": openspiel_game, "pettingzoo": pettingzoo_game}


def _engine(players: int, games: int, run: int) -> tuple[float, int]:
    rules = ruleset(RULESET)
    bots = [BOTS["random"]] * players
    actions = 0
    t0 = time.perf_counter()
    for result, _, _, _ in play_games(rules, players, (game_seed(run + 1, g) for g in range(games)), bots):
        actions += result.actions
    return time.perf_counter() - t0, actions


def _adapter(kind: str, players: int, games: int, run: int) -> tuple[float, int]:
    rng = random.Random(run + 1)
    t0 = time.perf_counter()
    steps = sum(STEPPERS[kind](players, game_seed(run + 1, g), rng) for g in range(games))
    return time.perf_counter() - t0, steps


def bench_adapters(runs: int, games: int, tick: Callable[[], object] | None = None) -> dict[str, Any]:
    """Per player count: µs a step and steps a game of each adapter and of the engine (medians of
    ``runs`` runs of ``games`` games each; the same game seeds for the engine and PettingZoo)."""
    rows = []
    for players in PLAYERS:
        row: dict[str, Any] = {"players": players}
        for kind in ("engine", *STEPPERS):
            per_step, per_game = [], []
            for run in range(runs):
                dt, steps = (_engine(players, games, run) if kind == "engine"
                             else _adapter(kind, players, games, run))
                per_step.append(dt / steps * 1e6)
                per_game.append(steps / games)
            row[kind] = {"us_per_step": statistics.median(per_step),
                         "steps_per_game": statistics.median(per_game)}
            if tick is not None:
                tick()
        rows.append(row)
    return {"ruleset": RULESET, "runs": runs, "games": games, "rows": rows}
