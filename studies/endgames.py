"""An endgame task: one position cut from a seeded greedy game, solved for each objective.

The position is ``solvers.positions.cut`` of the game seeded ``derive(task seed, try t)`` for the
first ``t`` whose game reaches a turn start in the final pass with at most ``cards_left`` cards
(E2), then ``small(hand, draw)`` when the study cuts hands. Objectives (docs/endgames.md,
"Objectives"): ``solo`` for every seat (the no-trade optimum of each), ``coop`` (the table's total),
``best`` for the active player (its most coins while every other seat keeps its solo optimum),
``expected`` for the active player (its expected coins without seeing the unseen cards, H7, and
the average open optimum over the same cards). ``solo`` is solved by exact search first, and by
CP-SAT when that passes its node limit and the method is ``cpsat``.

Each objective's answer is ``{"status", "value", "bound"}`` (with ``coins``, every seat's coins
after the line, for ``coop`` and ``best``): ``optimal`` (proved), ``feasible``
(a value and a proved bound, CP-SAT out of time), ``too-large`` (exact search passed its node
limit: deterministic) or ``timeout`` (a wall-clock limit: depends on the machine, so a rerun may
differ), with the solver's one-line ``error`` for the last two and ``not-applicable``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from model import GameState
from model.state import state_to_json
from solvers.api import solve, solve_policy
from solvers.contract import (
    OBJECTIVES,
    SOLO,
    Limits,
    NodeLimitExceeded,
    Objective,
    SolveError,
    Status,
    TimeLimitExceeded,
)
from solvers.positions import PositionInputError, cut, small
from studies.tasks import derive

CUT_TRIES = 20  # games tried, one seed each, before the task fails for want of a position


def position(params: dict[str, Any], seed: int) -> tuple[GameState, int]:
    """The task's position and the seed of the game it was cut from."""
    last = ""
    for t in range(CUT_TRIES):
        game = derive(seed, f"try{t}")
        try:
            s = cut(params["ruleset"], params["players"], game, params["cards_left"], dict(params["options"]))
        except PositionInputError as e:
            last = str(e)
            continue
        if params["hand"] is not None or params["draw"] is not None:
            s = small(s, 99 if params["hand"] is None else params["hand"],
                      99 if params["draw"] is None else params["draw"])
        return s, game
    raise SolveError(f"no position after {CUT_TRIES} games: {last}")


def run_endgame(params: dict[str, Any], seed: int) -> dict[str, Any]:
    """The answers for one position (see the module docstring), with the position itself."""
    s, game = position(params, seed)
    limits = Limits(time=params["time_limit"], nodes=params["node_limit"], workers=1,
                    work=params.get("work_limit"))
    method = params["method"]
    active = s.active
    out: dict[str, Any] = {
        "game_seed": game, "active": active, "to_move": s.to_move, "draw": len(s.draw),
        "hands": [len(p.hand) for p in s.players], "position": state_to_json(s),
    }
    for name in params["objectives"]:
        goal = OBJECTIVES[name]
        if goal.policy:  # expected: for the seat to move, with what it may see (H7)
            out[name] = _expected(s, goal, method, s.to_move, limits)
        elif not goal.trades:  # solo: every seat's
            out[name] = [_solo(s, method, q, limits) for q in range(len(s.players))]
        else:
            out[name] = _answer(s, goal, method, active if goal.needs_player else None, limits)
    return out


def _answer(s: GameState, objective: Objective, method: str, player: int | None,
            limits: Limits) -> dict[str, Any]:
    try:
        sol = solve(s, objective, method, player, limits)
    except NodeLimitExceeded as e:
        return {"status": "too-large", "value": None, "bound": None, "error": str(e)}
    except TimeLimitExceeded as e:
        return {"status": "timeout", "value": None, "bound": None, "error": str(e)}
    out: dict[str, Any] = {"status": sol.status.value, "value": sol.value, "bound": sol.bound}
    if objective.trades:  # every seat's coins after the line, for the checks (studies/rows.py)
        out["coins"] = list(sol.per_player)
    return out


def _solo(s: GameState, method: str, q: int, limits: Limits) -> dict[str, Any]:
    """Seat q's solo optimum: exact search first (milliseconds where CP-SAT takes a second), and
    with ``method = "cpsat"`` CP-SAT when exact search passes its node limit (deterministic)."""
    answer = _answer(s, SOLO, "exact", q, limits)
    if answer["status"] == "too-large" and method == "cpsat":
        answer = _answer(s, SOLO, "cpsat", q, limits)
    return answer


def _fraction(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _expected(s: GameState, objective: Objective, method: str, p: int, limits: Limits) -> dict[str, Any]:
    try:
        sol = solve_policy(s, objective, method, p, limits)
    except NodeLimitExceeded as e:
        return {"status": "too-large", "player": p, "error": str(e)}
    except TimeLimitExceeded as e:
        return {"status": "timeout", "player": p, "error": str(e)}
    except SolveError as e:
        return {"status": "not-applicable", "player": p, "error": str(e)}
    return {"status": Status.OPTIMAL.value, "player": p, "value": _fraction(sol.value),
            "open_average": _fraction(sol.open_average), "arrangements": sol.arrangements}
