"""The endgame positions and their proved optimal values (the builder may call the solvers'
interface to record proved values: docs/conformance.md)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conformance.common import GenerationError
from console.progress import ProgressFn
from model import GameState
from model.state import state_to_json
from model.validate import check_state
from solvers.api import registered, solve_policy
from solvers.api import solve as api_solve
from solvers.contract import BEST, COOP, DUEL, EXPECTED, SOLO, Limits, Objective, Status, entry_point
from solvers.isla.cpsat import read_timeline
from solvers.positions import BUILTINS, LIBRARY, cut, small

# ---------------------------------------------------------------- endgames


@dataclass(frozen=True)
class EndgameSpec:
    name: str
    description: str
    build: Callable[[], GameState]
    objectives: tuple[tuple[Objective, int | None], ...]  # (objective, player; None: every seat)
    method: str = "exact"  # "cpsat": coop and best by the flow solver (real hands), proved optimal
    # "isla": La Isla Bohnita solo by exact search, and again by its CP-SAT model where that proves it


def dotted(fn: Callable[..., Any]) -> str:
    """The name a fixture records for a solver's entry point (``tests/test_conformance.py`` imports it
    to solve again): its module's, or its package's where the package exports it
    (``solvers.flow.solve_flow``, not ``solvers.flow.solver.solve_flow``)."""
    module = fn.__module__
    package = module.rpartition(".")[0]
    if package != "solvers" and getattr(sys.modules[package], fn.__name__, None) is fn:
        module = package
    return f"{module}.{fn.__name__}"


def solver_name(s: GameState, objective: Objective, method: str) -> str:
    """The name a fixture records for the solver the registry runs for ``objective`` by ``method`` on
    ``s``'s rules (``solvers.api.registered``): the function behind it (``entry_point``), which
    ``tests/test_conformance.py`` calls to solve again."""
    return dotted(entry_point(registered(s, objective, method), objective))


ISLA_CPSAT_SECONDS = 60.0  # it proves a seat with no turn left in well under a second

EXACT_SECONDS = 900.0  # exact search's time limit per value (the node limit comes first today)


def solve(s: GameState, objective: Objective, player: int, method: str = "exact",
          progress: ProgressFn | None = None) -> dict[str, Any]:
    """The proved optimal value of ``objective`` for ``player`` by the registry's exact search (or,
    with ``method`` "cpsat", the flow solver: only a value it proves optimal is recorded).
    ``progress``: the solver's (solvers.api.solve)."""
    goal = objective
    if goal.policy:  # expected: a policy and an exact fraction, not a line
        ans = solve_policy(s, objective, "exact", player, Limits(time=EXACT_SECONDS), progress)
        return {"objective": objective.name, "player": player, "value": str(ans.value),
                "approx": round(float(ans.value), 6), "open_average": str(ans.open_average),
                "solver": solver_name(s, objective, "exact")}
    flow = method == "cpsat" and goal.trades
    limits = Limits(time=120.0, workers=1) if flow else Limits(time=EXACT_SECONDS, nodes=5_000_000)
    used = "cpsat" if flow else "exact"
    sol = api_solve(s, objective, used, player, limits, progress)
    if sol.status != Status.OPTIMAL:
        raise GenerationError(f"{objective} p{player}: {sol.status}, not proved optimal")
    return {"objective": objective.name, "player": player, "value": sol.value,
            "solver": solver_name(s, objective, used)}


def isla_solve(s: GameState, player: int, progress: ProgressFn | None = None) -> list[dict[str, Any]]:
    """Isla ``solo`` for ``player`` by exact search, and by the CP-SAT model too where it proves its
    answer (a seat with no turn left): two entries of one value, each re-solved by the suite. Proved
    values that differ are a GenerationError (the two solvers disagree)."""
    sol = api_solve(s, SOLO, "exact", player, Limits(time=EXACT_SECONDS, nodes=5_000_000), progress)
    out = [{"objective": SOLO.name, "player": player, "value": sol.value,
            "solver": solver_name(s, SOLO, "exact")}]
    if player in {t.active for t in read_timeline(s, player)[1]}:
        return out  # a turn of P's: the CP-SAT model gives a line, not a proof (docs/endgames.md)
    second = api_solve(s, SOLO, "cpsat", player, Limits(time=ISLA_CPSAT_SECONDS, workers=1), progress)
    if second.status != Status.OPTIMAL or second.value != sol.value:
        raise GenerationError(f"solo p{player}: exact search proves {sol.value}, CP-SAT gives {second.value} "
                              f"({second.status})")
    out.append({**out[0], "solver": solver_name(s, SOLO, "cpsat")})
    return out


def _library(name: str) -> Callable[[], GameState]:
    def build() -> GameState:
        return (LIBRARY[name] if name in LIBRARY else BUILTINS[name]).position()
    return build


def _cut(ruleset_name: str, players: int, seed: int, cards_left: int, hand: int | None = None,
         draw: int | None = None, options: dict[str, Any] | None = None) -> Callable[[], GameState]:
    def build() -> GameState:
        s = cut(ruleset_name, players, seed, cards_left, options)
        return small(s, hand, draw) if hand is not None and draw is not None else s
    return build


ALL4: tuple[tuple[Objective, int | None], ...] = ((SOLO, -1), (COOP, -1), (BEST, -1), (EXPECTED, -1))
DUELS: tuple[tuple[Objective, int | None], ...] = ((DUEL, 0), (DUEL, 1))
SOLO_EVERY: tuple[tuple[Objective, int | None], ...] = ((SOLO, None), (EXPECTED, -1))


def _small_about(ruleset_name: str, players: int, seed: int, hand: int, draw: int, extra: str = "") -> str:
    return (f"{ruleset_name}, {players} players{extra}: cut from a seeded greedy-bot game (seed {seed}, the "
            f"first turn of the final pass with at most 8 cards left), hands cut to {hand} card(s) and the "
            f"draw pile to {draw} (solvers.positions.small)")


ENDGAMES: list[EndgameSpec] = [
    *(EndgameSpec(n, f"built-in position {n} (solvers/positions.py): {about}", _library(n), ALL4)
      for n, about in [
          ("trade-gift", "amigo, 3 players, last turn: a gift and two deals earn the active player a coin"),
          ("trade-ask", "rio-grande, 3 players, last turn: asking for one card earns a coin"),
          ("trade-answer", "amigo, 3 players, last turn: a deal that helps the asker"),
          ("forced-harvest", "hand-made: the front card fits no field, so a field must go (T1, H3)"),
          ("protected-single", "hand-made: a one-bean field is protected, the five blues must go (H4)"),
          ("six-reds", "hand-made: six reds pay at most 4 coins however they are harvested (C1)"),
          ("split-gardens", "hand-made: four gardens pay more as two harvests of two than as one (C1)"),
          ("deal-helps-both", "hand-made: giving the turned-up cards for a chili helps both (T3-T5)"),
      ]),
    EndgameSpec("duel-4cards", "built-in position duel-4cards: the bean duel, 4 cards left",
                _library("duel-4cards"), DUELS),
    EndgameSpec("duel-9cards", "built-in position duel-9cards: the bean duel, 9 cards left",
                _library("duel-9cards"), DUELS),
    *(EndgameSpec(f"duel-seed{seed}", f"the bean duel: cut from a seeded greedy-bot game (seed {seed}, the "
                  f"first turn with at most {left} cards left; no reshuffle in the duel)",
                  _cut("rio-grande", 2, seed, left), DUELS)
      for seed, left in [(33, 10), (34, 10), (36, 14), (38, 10), (39, 10)]),
    *(EndgameSpec(f"{r}-{n}p-seed{seed}", _small_about(r, n, seed, 1, 5, extra),
                  _cut(r, n, seed, 8, 1, 5, opts), ALL4)
      for r, n, seed, opts, extra in [
          ("amigo-1997", 3, 300, None, ""),
          ("amigo-1997", 4, 300, None, ""),
          ("amigo-v1", 4, 303, None, " (V4)"),
          ("amigo-v2", 4, 303, None, " (V5)"),
          ("rio-grande", 5, 300, None, ""),
          ("amigo", 5, 302, None, ""),
      ]),
    EndgameSpec("rio-grande-4p-strict-seed400",
                _small_about("rio-grande", 4, 400, 1, 5, ", harvest=strict (H4)"),
                _cut("rio-grande", 4, 400, 8, 1, 5, {"harvest": "strict"}), ALL4),
    EndgameSpec("rio-grande-4p-distinct-seed401",
                _small_about("rio-grande", 4, 401, 1, 5, ", distinct_fields (V2)"),
                _cut("rio-grande", 4, 401, 8, 1, 5, {"distinct_fields": True}), ALL4),
    EndgameSpec("rio-grande-4p-quick-seed403", _small_about("rio-grande", 4, 403, 1, 5, ", quick (V1)"),
                _cut("rio-grande", 4, 403, 8, 1, 5, {"quick": True}), ALL4),
    EndgameSpec("amigo-5p-seed300-hands2", _small_about("amigo", 5, 300, 2, 4),
                _cut("amigo", 5, 300, 8, 2, 4), ((SOLO, -1), (BEST, -1), (EXPECTED, -1))),
    *(EndgameSpec(n, f"built-in position {n} (solvers/positions.py): {about}; solo for every seat",
                  _library(n), SOLO_EVERY)
      for n, about in [
          ("rio3-6cards", "rio-grande, 3 players, 6 cards left"),
          ("amigo3-5cards", "amigo, 3 players (three fields), 5 cards left"),
          ("rio4-8cards", "rio-grande, 4 players, 8 cards left"),
          ("amigo5-12cards", "amigo, 5 players, 12 cards left"),
      ]),
    EndgameSpec("rio4-final-pass", "built-in position rio4-final-pass: rio-grande, 4 players, the first turn "
                "of the final pass (29 cards left); solo for every seat", _library("rio4-final-pass"),
                ((SOLO, None),)),
    # real hands (14-20 cards a seat), the last turn: coop and best proved by the flow solver
    EndgameSpec("rio4-last-turn", "built-in position rio4-last-turn (the default): rio-grande, 4 players, "
                "real hands, the last turn (5 cards left); coop and best by the flow solver, solo for every "
                "seat",
                _library("rio4-last-turn"), ((SOLO, None), (COOP, -1), (BEST, -1)), "cpsat"),
    # La Isla Bohnita (I1-I9): solo for every seat, by exact search and, where it proves it, CP-SAT
    *(EndgameSpec(n, f"built-in position {n} (solvers/positions.py): La Isla Bohnita, {about}; solo for "
                  "every seat by exact search, and by the CP-SAT model for every seat with no turn left",
                  _library(n), ((SOLO, None),), "isla")
      for n, about in [
          ("isla-rio4-5cards", "rio-grande, 4 players, hands of 1 card, 5 cards left"),
          ("isla-amigo3-5cards", "amigo, 3 players, hands of 2 cards, 5 cards left"),
          ("isla-rio7-2cards", "rio-grande, 7 players, 2 cards left"),
          ("isla-rio4-last-turn", "rio-grande, 4 players, real hands, the last turn"),
      ]),
    EndgameSpec("isla-duel-2cards", "built-in position isla-duel-2cards (solvers/positions.py): the Isla "
                "duel (I9), hand-made, p0's last turn with a raid p1 answers by selling; duel for both seats",
                _library("isla-duel-2cards"), ((DUEL, None),)),
    *(EndgameSpec(f"rio-grande-4p-seed{seed}-real", f"rio-grande, 4 players, real hands: cut from a seeded "
                  f"greedy-bot game (seed {seed}, the first turn of the final pass with at most 6 cards "
                  "left); coop and best by the flow solver, solo for every seat",
                  _cut("rio-grande", 4, seed, 6), ((SOLO, None), (COOP, -1), (BEST, -1)), "cpsat")
      for seed in (105, 107, 108)),
]


def endgame_fixture(spec: EndgameSpec, progress: ProgressFn | None = None) -> dict[str, Any]:
    s = spec.build()
    check_state(s)
    values: list[dict[str, Any]] = []
    for objective, player in spec.objectives:
        seats = range(len(s.players)) if player is None else [s.to_move if player == -1 else player]
        for p in seats:
            if spec.method == "isla":
                values.extend(isla_solve(s, p, progress))
            else:
                values.append(solve(s, objective, p, spec.method, progress))
    return {
        "format": "bohnanza-endgame",
        "version": 1,
        "name": spec.name,
        "description": spec.description,
        "ruleset": s.setup.rules.name,
        "players": len(s.players),
        "phase": s.phase.name.lower(),
        "to_move": s.to_move,
        "values": values,
        "state": state_to_json(s),
    }
