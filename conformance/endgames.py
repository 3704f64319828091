"""The endgame positions and their proved optimal values (the builder may call the solvers'
interface to record proved values: docs/conformance.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.common import GenerationError
from conformance.expansions import EXPANSION_ENDGAMES, EXPANSION_METHODS
from conformance.kinds import EXACT_SECONDS, EndgameSpec, library, solver_name
from console.progress import ProgressFn
from model import GameState
from model.state import state_to_json
from model.validate import check_state
from solvers.api import solve as api_solve
from solvers.api import solve_policy
from solvers.contract import BEST, COOP, DUEL, EXPECTED, SOLO, Limits, Objective, Status
from solvers.positions import cut, small

# ---------------------------------------------------------------- endgames


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
    *(EndgameSpec(n, f"built-in position {n} (solvers/positions.py): {about}", library(n), ALL4)
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
                library("duel-4cards"), DUELS),
    EndgameSpec("duel-9cards", "built-in position duel-9cards: the bean duel, 9 cards left",
                library("duel-9cards"), DUELS),
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
                  library(n), SOLO_EVERY)
      for n, about in [
          ("rio3-6cards", "rio-grande, 3 players, 6 cards left"),
          ("amigo3-5cards", "amigo, 3 players (three fields), 5 cards left"),
          ("rio4-8cards", "rio-grande, 4 players, 8 cards left"),
          ("amigo5-12cards", "amigo, 5 players, 12 cards left"),
      ]),
    EndgameSpec("rio4-final-pass", "built-in position rio4-final-pass: rio-grande, 4 players, the first turn "
                "of the final pass (29 cards left); solo for every seat", library("rio4-final-pass"),
                ((SOLO, None),)),
    # real hands (14-20 cards a seat), the last turn: coop and best proved by the flow solver
    EndgameSpec("rio4-last-turn", "built-in position rio4-last-turn (the default): rio-grande, 4 players, "
                "real hands, the last turn (5 cards left); coop and best by the flow solver, solo for every "
                "seat",
                library("rio4-last-turn"), ((SOLO, None), (COOP, -1), (BEST, -1)), "cpsat"),
    *(EndgameSpec(f"rio-grande-4p-seed{seed}-real", f"rio-grande, 4 players, real hands: cut from a seeded "
                  f"greedy-bot game (seed {seed}, the first turn of the final pass with at most 6 cards "
                  "left); coop and best by the flow solver, solo for every seat",
                  _cut("rio-grande", 4, seed, 6), ((SOLO, None), (COOP, -1), (BEST, -1)), "cpsat")
      for seed in (105, 107, 108)),
    *EXPANSION_ENDGAMES,
]


def endgame_fixture(spec: EndgameSpec, progress: ProgressFn | None = None) -> dict[str, Any]:
    s = spec.build()
    check_state(s)
    values: list[dict[str, Any]] = []
    for objective, player in spec.objectives:
        seats = range(len(s.players)) if player is None else [s.to_move if player == -1 else player]
        for p in seats:
            if spec.method in EXPANSION_METHODS:  # an expansion's own way to prove its values
                values.extend(EXPANSION_METHODS[spec.method](s, p, progress))
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
