"""One endgame from Python, in three calls (docs/python.md): ``load`` a built-in position or a state
JSON file, ``solve`` it for an objective, ``line_text`` to read the line turn by turn.

    from solvers.endgame import load, solve, line_text
    s = load("rio4-last-turn")          # or load("position.json")
    sol = solve(s, "best")              # the player to move, by the default solver
    print(sol.value, sol.status)        # 19 optimal
    print(line_text(s, sol.line))

``solve`` picks the solver ``scripts/solve_endgame.py`` picks, from the registry
(``solvers.api.default_method``: the flow solver for coop and best, exact search for solo and duel;
on La Isla Bohnita positions, the methods ``EXPANSION_REGISTRY`` holds for them), and answers past a
limit as the command line does: the best line found, ``status == "feasible"``, with its proved
bound. ``expected`` gives a policy, not a line: ``solvers.expected``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from model import Action, GameState, Phase, apply, format_action
from model.cards import BEAN_NAMES
from model.errors import ArgumentError, MissingFile, UnknownName
from solvers.api import Limits, Solution, default_method
from solvers.api import solve as _solve
from solvers.contract import OBJECTIVES as DECLARED
from solvers.contract import Objective
from solvers.positions import BUILTINS, read_position, unknown_position

__all__ = ["load", "solve", "line_text", "names", "Limits", "Solution"]

OBJECTIVES = tuple(o.name for o in DECLARED.values() if not o.policy)  # with a line; expected: a policy


def names() -> list[str]:
    """The built-in positions' names (``solve_endgame.py --list``; ``isla-``: La Isla Bohnita,
    solved by the methods ``solvers.api.EXPANSION_REGISTRY`` holds for it)."""
    return sorted(BUILTINS)


def load(position: str) -> GameState:
    """A built-in position by name, or a state JSON file, checked against the rules (a broken one
    raises a ``model.errors.InputError`` naming the field and the rule; neither a file nor a
    built-in: ``MissingFile``, a ``FileNotFoundError``)."""
    if position in BUILTINS:
        return BUILTINS[position].position()
    if not Path(position).exists():
        raise MissingFile(unknown_position(position) if not position.endswith(".json")
                          else f"{position}: no such file")
    return read_position(position)


def solve(s: GameState, objective: str | Objective = "best", player: int | None = None,
          method: str | None = None, time_limit: float = 60.0) -> Solution:
    """The optimal line for ``objective`` (solo, coop, best, duel, by name or as
    ``solvers.contract.OBJECTIVES[name]``; docs/endgames.md), ``player``
    the player to move by default. ``method``: "exact" or "cpsat" (default: the registry's for the
    position's rules, ``default_method``, as ``solve_endgame.py`` picks it). The line is replayed
    through the engine before it is returned; ``sol.status`` is "optimal" or, past a limit,
    "feasible": the best line found, ``sol.bound`` its proved bound (exact search on solo and the
    duels: the default policy's line; no bound on base-game solo)."""
    goal = _objective(objective)
    if not time_limit > 0:
        raise ArgumentError("time_limit", time_limit, "must be more than 0 seconds")
    if method is None:
        method = default_method(goal, s.setup.expansion)
    return _solve(s, goal, method, player, Limits(time=time_limit), anytime=True)


def _objective(objective: str | Objective) -> Objective:
    """The edge: a name (or an ``Objective``) becomes the declared ``Objective`` once, here; a name
    not declared, or an objective answered by a policy, is an UnknownName in one line."""
    name = objective.name if isinstance(objective, Objective) else objective
    goal = DECLARED.get(name)
    if goal is None or goal.policy or (isinstance(objective, Objective) and objective != goal):
        raise UnknownName("objective", name, f"one of {', '.join(OBJECTIVES)} "
                          "(expected: solvers.expected.solve_expected)")
    return goal


def line_text(s0: GameState, line: Sequence[Action]) -> str:
    """The line turn by turn, each step with the coins it earns, as ``solve_endgame.py`` prints it."""
    out: list[str] = []
    s = s0
    turn = None
    for a in line:
        if s.turn != turn:
            turn = s.turn
            out.append(f"turn {s.turn} (p{s.active} active):")
        before = [len(p.coins) for p in s.players]
        prev = s
        s = apply(s, a)
        after = [len(p.coins) for p in s.players]
        gains = ", ".join(f"p{q} +{y - x}" for q, (x, y) in enumerate(zip(before, after, strict=True))
                          if y != x)
        if s.phase == Phase.OVER:
            out.append(f"  {format_action(a)}")
            out.append("  game over, final harvest (E3)" + (f"   [{gains}]" if gains else ""))
            continue
        out.append(f"  {format_action(a)}" + (f"   [{gains}]" if gains else ""))
        if s.face_up and not prev.face_up and len(s.draw) < len(prev.draw):
            out.append(f"    turned up: {' '.join(BEAN_NAMES[b] for b in s.face_up)}")
        drawn = [(q, p.hand[len(prev.players[q].hand):]) for q, p in enumerate(s.players)
                 if len(p.hand) > len(prev.players[q].hand) and len(s.draw) < len(prev.draw)]
        for q, cards in drawn:
            out.append(f"    p{q} draws {' '.join(BEAN_NAMES[b] for b in cards)}")
    return "\n".join(out)
