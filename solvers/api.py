"""One interface to the endgame solvers: a registry keyed by (objective, method), one ``Limits``,
one progress protocol, one ``Solution`` and one ``verify_line``.

Methods: ``exact`` (engine-driven search: every objective, coop/best/duel on small positions),
``cpsat`` (solo by solvers/cpsat.py; coop and best by the flow solver, solvers/flow/solver.py) and
``cpsat-cards`` (the older card-by-card CP-SAT model of coop and best). ``expected`` answers with
a policy, not a line (solvers/expected.py): it is registered in ``POLICIES`` and solved by
``solve_policy``. ``methods(objective)`` reads both registries; the objectives themselves
(their value, floors, names) are ``solvers.contract.OBJECTIVES``.

Every solver checks the position itself (the final pass, E2; the duel or not, D1) and replays
its line through the engine; ``verify_line`` replays it once more, independently of the solver.
"""

from __future__ import annotations

from collections.abc import Callable

from console.progress import ProgressFn
from model import GameState, Phase, apply
from solvers.contract import (
    DEFAULT_LIMITS,
    OBJECTIVES,
    Limits,
    NodeLimitExceeded,
    SearchLimitExceeded,
    Solution,
    SolveError,
    TimeLimitExceeded,
)
from solvers.cpsat import solve_solo_cpsat
from solvers.cpsat_deals import solve_deals_cpsat
from solvers.cpsat_run import ticking
from solvers.duel import solve_duel
from solvers.exact import solve_open, solve_solo
from solvers.expected import ExpectedSolution, solve_expected
from solvers.flow.solver import solve_flow

__all__ = ["Limits", "ProgressFn", "Solution", "SolveError", "SearchLimitExceeded",
           "NodeLimitExceeded", "TimeLimitExceeded", "REGISTRY", "POLICIES", "solve", "solve_policy",
           "verify_line", "methods", "default_method", "METHODS"]


class _Report:
    """What a runner reports through: ``fn`` (a ProgressFn: exact search's nodes, CP-SAT's
    seconds) and ``tick`` (CP-SAT's improvements, as the note)."""

    def __init__(self, progress: ProgressFn | None) -> None:
        self.fn = progress

    def tick(self, note: Callable[[str], None]) -> Callable[[float, float, float], None]:
        def improved(value: float, bound: float, seconds: float) -> None:
            note(f"best {value:g}, bound {bound:g}")
        return improved

    def cpsat_fn(self) -> ProgressFn | None:
        return self.fn


Runner = Callable[[GameState, int | None, Limits, _Report], Solution]


def _exact_solo(s: GameState, p: int | None, lim: Limits, pr: _Report) -> Solution:
    return solve_solo(s, p, lim.nodes, lim.time, pr.fn)


def _exact_open(objective: str) -> Runner:
    def run(s: GameState, p: int | None, lim: Limits, pr: _Report) -> Solution:
        return solve_open(s, objective, p, lim.nodes, lim.time, pr.fn)
    return run


def _exact_duel(s: GameState, p: int | None, lim: Limits, pr: _Report) -> Solution:
    return solve_duel(s, p, lim.nodes, lim.time, pr.fn)


def _cpsat_solo(s: GameState, p: int | None, lim: Limits, pr: _Report) -> Solution:
    with ticking(pr.cpsat_fn(), lim.time, "CP-SAT solo") as note:
        return solve_solo_cpsat(s, p, lim.time, lim.workers, pr.tick(note))


def _flow(objective: str) -> Runner:
    def run(s: GameState, p: int | None, lim: Limits, pr: _Report) -> Solution:
        with ticking(pr.cpsat_fn(), lim.time, f"flow solver {objective}") as note:
            return solve_flow(s, objective, p, lim.time, lim.workers, tick=pr.tick(note),
                              work_limit=lim.work)
    return run


def _cards(objective: str) -> Runner:
    def run(s: GameState, p: int | None, lim: Limits, pr: _Report) -> Solution:
        with ticking(pr.cpsat_fn(), lim.time, f"CP-SAT {objective}") as note:
            return solve_deals_cpsat(s, objective, p, lim.time, lim.workers, tick=pr.tick(note))
    return run


REGISTRY: dict[tuple[str, str], Runner] = {
    ("solo", "exact"): _exact_solo,
    ("coop", "exact"): _exact_open("coop"),
    ("best", "exact"): _exact_open("best"),
    ("duel", "exact"): _exact_duel,
    ("solo", "cpsat"): _cpsat_solo,
    ("coop", "cpsat"): _flow("coop"),
    ("best", "cpsat"): _flow("best"),
    ("coop", "cpsat-cards"): _cards("coop"),
    ("best", "cpsat-cards"): _cards("best"),
}




def _exact_expected(s: GameState, p: int | None, lim: Limits, pr: _Report) -> ExpectedSolution:
    return solve_expected(s, p, lim.nodes, lim.time, progress=pr.fn)


PolicyRunner = Callable[[GameState, int | None, Limits, _Report], ExpectedSolution]

# The objectives answered by a policy (``Objective.policy``: the value and the best next action,
# not a line): solve_policy.
POLICIES: dict[tuple[str, str], PolicyRunner] = {
    ("expected", "exact"): _exact_expected,
}


# Every method, in the order the registries first name it (the command line's --solver choices).
METHODS: tuple[str, ...] = tuple(dict.fromkeys(m for _, m in (*REGISTRY, *POLICIES)))


def methods(objective: str) -> list[str]:
    """The methods that serve ``objective``, from the registries (the one place this is said)."""
    return [m for (o, m) in (*REGISTRY, *POLICIES) if o == objective]


def default_method(objective: str) -> str:
    """The method a front end uses when none is named: CP-SAT where it serves the objective with
    trades (the flow solver), else the first registered (exact search)."""
    have = methods(objective)
    return "cpsat" if OBJECTIVES[objective].trades and "cpsat" in have else have[0]


def _no_method(objective: str, method: str) -> SolveError:
    have = ", ".join(methods(objective)) or "none"
    return SolveError(f"--objective {objective} has no {method} solver (methods: {have})")


def solve(s: GameState, objective: str, method: str, player: int | None = None,
          limits: Limits = DEFAULT_LIMITS, progress: ProgressFn | None = None) -> Solution:
    """The ``objective`` by ``method``; the line is verified once more before it is returned.

    ``progress`` (console/progress.py) hears from exact search (nodes, None, note) and from CP-SAT
    (seconds spent, the time limit, the best value and bound) at least twice a second. Ctrl-C:
    CP-SAT returns its best line so far (status "feasible", ``stats.interrupted``), or raises
    KeyboardInterrupt before it has one; exact search raises KeyboardInterrupt."""
    run = REGISTRY.get((objective, method))
    if run is None:
        raise _no_method(objective, method)
    sol = run(s, player, limits, _Report(progress))
    verify_line(s, sol)
    return sol


def solve_policy(s: GameState, objective: str, method: str, player: int | None = None,
                 limits: Limits = DEFAULT_LIMITS, progress: ProgressFn | None = None) -> ExpectedSolution:
    """An objective answered by a policy (``expected``): P's value and best next action, every
    choice's value (solvers/expected.py); ``limits.nodes`` and ``limits.time`` bound the search."""
    run = POLICIES.get((objective, method))
    if run is None:
        raise _no_method(objective, method)
    return run(s, player, limits, _Report(progress))


def verify_line(s: GameState, sol: Solution) -> list[int]:
    """Replay the line through the engine with checks: it must end the game with the coins the
    solution claims, and its value must be the objective's (coop: the sum; duel: P's margin;
    solo and best: P's coins; best also every floor). Returns the final coins."""
    t = s
    for i, a in enumerate(sol.line):
        try:
            t = apply(t, a)
        except ValueError as e:
            raise SolveError(f"internal error: step {i + 1} of the {sol.objective} line is illegal: "
                             f"{e}") from None
    if t.phase != Phase.OVER:
        raise SolveError(f"internal error: the {sol.objective} line stops before the game ends")
    coins = [len(q.coins) for q in t.players]
    p = sol.player
    goal = OBJECTIVES[sol.objective]
    if coins != sol.per_player or goal.value(coins, p) != sol.value:
        raise SolveError(f"internal error: the {sol.objective} line ends with {coins}, not the claimed "
                         f"{sol.per_player} (value {sol.value})")
    floors = sol.stats.floors
    if goal.floors and floors is not None:
        short = [q for q, (c, f) in enumerate(zip(coins, floors, strict=True)) if q != p and c < f]
        if short:
            raise SolveError(f"internal error: the best line leaves p{short[0]} below its solo optimum")
    return coins
