"""One interface to the endgame solvers: a registry keyed by (objective, method), one ``Limits``,
one progress protocol, one ``Solution`` and one ``verify_line``.

Methods: ``exact`` (engine-driven search: every objective, coop/best/duel on small positions),
``cpsat`` (solo by solvers/cpsat.py; coop and best by the flow solver, solvers/flow/solver.py) and
``cpsat-cards`` (the older card-by-card CP-SAT model of coop and best). ``expected`` answers with
a policy, not a line (solvers/expected.py): it is registered in ``POLICIES`` and solved by
``solve_policy``. ``methods(objective)`` reads both registries; the objectives themselves
(their value, floors, names) are ``solvers.contract.OBJECTIVES``.

Every solver checks the position itself (the base game, not an expansion: ``base_game_only``; the
final pass, E2; the duel or not, D1) and replays its line through the engine; ``verify_line``
replays it once more, independently of the solver. An expansion's positions go to
``EXPANSION_REGISTRY`` (La Isla Bohnita ``solo`` by exact search, ``solvers/isla/exact.py``, and by
CP-SAT, ``solvers/isla/cpsat/``); every
other method refuses them in one line naming what does serve them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from console.progress import ProgressFn
from model import GameState, Phase, apply
from model.errors import UnknownName
from solvers import cpsat, cpsat_deals, duel, exact, expected
from solvers.contract import (
    BEST,
    COOP,
    DEFAULT_LIMITS,
    DUEL,
    EXPECTED,
    SOLO,
    Limits,
    NodeLimitExceeded,
    Objective,
    SearchLimitExceeded,
    Solution,
    SolveError,
    Solver,
    TimeLimitExceeded,
    base_game_only,
)
from solvers.expected import ExpectedSolution
from solvers.flow import solver as flow
from solvers.isla import cpsat as isla_cpsat
from solvers.isla import duel as isla_duel
from solvers.isla import exact as isla_exact
from solvers.isla import open_search as isla_open

__all__ = ["Limits", "ProgressFn", "Solution", "SolveError", "SearchLimitExceeded",
           "NodeLimitExceeded", "TimeLimitExceeded", "REGISTRY", "POLICIES", "solve", "solve_policy",
           "verify_line", "methods", "default_method", "METHODS", "EXPANSION_REGISTRY", "served",
           "registered"]


# Every solver by (objective, method), each with the one signature (``solvers.contract.Solver``).
REGISTRY: dict[tuple[Objective, str], Solver] = {
    (SOLO, "exact"): exact.solve,
    (COOP, "exact"): exact.solve,
    (BEST, "exact"): exact.solve,
    (DUEL, "exact"): duel.solve,
    (SOLO, "cpsat"): cpsat.solve,
    (COOP, "cpsat"): flow.solve,
    (BEST, "cpsat"): flow.solve,
    (COOP, "cpsat-cards"): cpsat_deals.solve,
    (BEST, "cpsat-cards"): cpsat_deals.solve,
}

# The solvers of an expansion's positions by (expansion, objective, method): every other pair of a
# registered objective and method refuses them in one line (``base_game_only``, naming these).
EXPANSION_REGISTRY: dict[tuple[str, Objective, str], Solver] = {
    ("isla", SOLO, "exact"): isla_exact.solve,  # La Isla Bohnita solo (I1-I9, issue 41 item 2)
    ("isla", SOLO, "cpsat"): isla_cpsat.solve,  # its CP-SAT model, cross-checked (issue 41 item 3)
    ("isla", COOP, "exact"): isla_open.solve,  # and coop and best (every seat's choices, deals)
    ("isla", BEST, "exact"): isla_open.solve,
    ("isla", DUEL, "exact"): isla_duel.solve,  # the Isla duel (I9): minimax on the margin
}

PolicySolver = Callable[[GameState, Objective, int | None, Limits, ProgressFn | None], ExpectedSolution]

# The objectives answered by a policy (``Objective.policy``: the value and the best next action,
# not a line): solve_policy. The same signature, a policy for the answer.
POLICIES: dict[tuple[Objective, str], PolicySolver] = {
    (EXPECTED, "exact"): expected.solve,
}


# Every method, in the order the registries first name it (the command line's --solver choices).
METHODS: tuple[str, ...] = tuple(dict.fromkeys(m for _, m in (*REGISTRY, *POLICIES)))


def methods(objective: Objective) -> list[str]:
    """The methods that serve ``objective``, from the registries (the one place this is said)."""
    return [m for (o, m) in (*REGISTRY, *POLICIES) if o == objective]


def default_method(objective: Objective, expansion: str = "") -> str:
    """The method a front end uses when none is named: CP-SAT where it serves the objective with
    trades (the flow solver), else the first registered (exact search); on an ``expansion``'s
    positions, among the methods that serve them (``EXPANSION_REGISTRY``) where there are any."""
    have = [m for x, o, m in EXPANSION_REGISTRY if x == expansion and o == objective] or methods(objective)
    return "cpsat" if objective.trades and "cpsat" in have else have[0]


def served(expansion: str | None, duel: bool | None = None) -> str:
    """What serves ``expansion``'s positions, as a refusal names it ("solo by exact search or CP-SAT"),
    or ""; ``duel`` True: only the duel objective (the expansion's duel), False: all but it."""
    ways: dict[Objective, list[str]] = {}
    for x, o, m in EXPANSION_REGISTRY:
        if x == expansion and (duel is None or o.duel == duel):
            ways.setdefault(o, []).append(_title(o, m).removeprefix(f"{o.name} by "))
    return ", ".join(f"{o.name} by {' or '.join(how)}" for o, how in ways.items())


# How a refusal names a method (``base_game_only``): the flow solver serves coop and best as cpsat.
_TITLES = {"exact": "exact search", "cpsat": "CP-SAT", "cpsat-cards": "the card-by-card CP-SAT model"}


def _title(objective: Objective, method: str) -> str:
    flow = method == "cpsat" and objective.trades
    return f"{objective.name} by {'the flow solver' if flow else _TITLES.get(method, method)}"


def _no_method(objective: Objective, method: str) -> UnknownName:
    have = ", ".join(methods(objective)) or "none"
    return UnknownName("method", method, f"{objective.name} has no {method} solver (methods: {have})",
                       f"--objective {objective.name} has no {method} solver (methods: {have})")


def solve(s: GameState, objective: Objective, method: str, player: int | None = None,
          limits: Limits = DEFAULT_LIMITS, progress: ProgressFn | None = None,
          anytime: bool = False) -> Solution:
    """The ``objective`` by ``method``; the line is verified once more before it is returned.
    ``anytime``: an exact search stopped by a limit or Ctrl-C answers with the best line it found
    (status "feasible", its proved bound; ``best`` on the exception) where it has one, as CP-SAT does.

    ``progress`` (console/progress.py) hears from exact search (nodes, None, note) and from CP-SAT
    (seconds spent, the time limit, the best value and bound) at least twice a second. Ctrl-C:
    CP-SAT returns its best line so far (status "feasible", ``stats.interrupted``), or raises
    KeyboardInterrupt before it has one; exact search raises KeyboardInterrupt."""
    run = _line_solver(s, objective, method)
    try:
        sol = run(s, objective, player, limits, progress)
    except (SearchLimitExceeded, KeyboardInterrupt) as e:
        best = getattr(e, "best", None)
        if not anytime or best is None or best.objective != objective:  # not a floor's solo line
            raise
        sol = best
    verify_line(s, sol)
    return replace(sol, start=s)


def solve_policy(s: GameState, objective: Objective, method: str, player: int | None = None,
                 limits: Limits = DEFAULT_LIMITS, progress: ProgressFn | None = None) -> ExpectedSolution:
    """An objective answered by a policy (``expected``): P's value and best next action, every
    choice's value (solvers/expected.py); ``limits.nodes`` and ``limits.time`` bound the search."""
    return _policy_solver(s, objective, method)(s, objective, player, limits, progress)


def registered(s: GameState, objective: Objective, method: str) -> Solver | PolicySolver:
    """The solver ``solve`` (a policy: ``solve_policy``) runs for ``objective`` by ``method`` on
    ``s``'s rules, or the same one-line refusal. ``solvers.contract.entry_point`` names the function
    behind it (the conformance fixtures record it)."""
    if objective.policy:
        return _policy_solver(s, objective, method)
    return _line_solver(s, objective, method)


def _line_solver(s: GameState, objective: Objective, method: str) -> Solver:
    """The one dispatch of a line's solver: a registered (objective, method), then the position's
    expansion's own (``EXPANSION_REGISTRY``) or a refusal naming what serves it."""
    run = REGISTRY.get((objective, method))
    if run is None:
        raise _no_method(objective, method)
    if s.setup.expansion:
        run = EXPANSION_REGISTRY.get((s.setup.expansion, objective, method))
        if run is None:
            base_game_only(s, _title(objective, method), served(s.setup.expansion))
    assert run is not None
    return run


def _policy_solver(s: GameState, objective: Objective, method: str) -> PolicySolver:
    """The one dispatch of a policy's solver (``POLICIES``; the base game only)."""
    run = POLICIES.get((objective, method))
    if run is None:
        raise _no_method(objective, method)
    base_game_only(s, _title(objective, method), served(s.setup.expansion))
    return run


def verify_line(s: GameState, sol: Solution) -> list[int]:
    """Replay the line through the engine with checks: it must end the game with the coins the
    solution claims, and its value must be the objective's (coop: the sum; duel: P's margin;
    solo and best: P's coins; best also every floor). Returns the final coins."""
    t = s
    for i, a in enumerate(sol.line):
        try:
            t = apply(t, a)
        except ValueError as e:
            raise SolveError(f"internal error: step {i + 1} of the {sol.objective.name} line is illegal: "
                             f"{e}") from None
    if t.phase != Phase.OVER:
        raise SolveError(f"internal error: the {sol.objective.name} line stops before the game ends")
    coins = [len(q.coins) for q in t.players]
    p = sol.player
    goal = sol.objective
    if coins != sol.per_player or goal.value(coins, p) != sol.value:
        raise SolveError(f"internal error: the {sol.objective.name} line ends with {coins}, not the claimed "
                         f"{sol.per_player} (value {sol.value})")
    floors = sol.stats.floors
    if goal.floors and floors is not None:
        short = [q for q, (c, f) in enumerate(zip(coins, floors, strict=True)) if q != p and c < f]
        if short:
            raise SolveError(f"internal error: the best line leaves p{short[0]} below its solo optimum")
    return coins
