"""The contract every endgame solver shares (issue 40 item 2): the objectives, declared once
(``Objective``, ``OBJECTIVES``), what a solver may spend (``Limits``, and ``Budget``, the one clock of
every solver), what it answers (``Solution``) and what it raises (``SolveError`` and the search
limits, from ``model/errors.py``, the project's one family of errors).

This module is the bottom of ``solvers/``: it imports ``model``, ``console`` and ``drawing`` (a solved
line's final position in a notebook) only, never another
solver module; every solver, the registry (``solvers/api.py``), the studies and the scripts read
the objectives from here, and no module compares an objective's name with a string of its own.
Which methods serve an objective is the registry's fact (``solvers.api.methods``), not restated here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from html import escape
from typing import Any, Protocol, TypeVar

from console.progress import ProgressFn
from drawing.svg import svg
from model import Action, GameState, apply, format_action
from model.errors import (
    ArgumentError,
    NodeLimitExceeded,
    SearchLimitExceeded,
    SolveError,
    TimeLimitExceeded,
    UnknownName,
    UsageError,
)
from model.expansions import EXPANSIONS

# ------------------------------------------------------------------ errors

RESHUFFLE_AHEAD = "a reshuffle lies ahead: open endgames need the final pass (E2)"



def base_game_only(s: GameState, solver: str, served: str = "") -> None:
    """Refuse a position of an expansion (``Setup.expansion`` set) in one line naming ``solver``, the
    expansion's rules and, from the registry, what does solve them (``served``, e.g. "solo by exact
    search"): the base solvers model the base turn, not ships, cargo and island rows (I1-I9)."""
    name = s.setup.expansion
    if name:
        x = EXPANSIONS.get(name)  # its rules, for the message; what solves it is the solver registry's
        rules = f"{x.called} ({x.rule_ids})" if x is not None and x.called else f"the expansion {name!r}"
        head = f"{solver} covers the base game; {rules} positions ({name}=true)"
        if served:
            raise SolveError(f"{head} are solved only by {served}")
        raise SolveError(f"{head} can be read, shown and validated, but {solver} does not handle them")


# ------------------------------------------------------------------ objectives


def _own(coins: Sequence[int], p: int) -> int:
    return coins[p]


def _sum(coins: Sequence[int], p: int) -> int:
    return sum(coins)


def _margin(coins: Sequence[int], p: int) -> int:
    if len(coins) != 2:
        raise SolveError(f"internal error: the duel's margin needs two seats, not {len(coins)} (D1)")
    return coins[p] - coins[1 - p]


@dataclass(frozen=True)
class Objective:
    """What an endgame solver optimises (docs/endgames.md, "Objectives"): its ``name`` (the
    command line's ``--objective``, a study file's ``objectives``, ``Solution.objective``), its
    ``value`` from every seat's final coins and the seat P, whether P's choice changes the value
    (``needs_player``), whether every other seat keeps a floor (``floors``: best, each at least its
    solo optimum), whether deals are part of it (``trades``), whether it is answered by a policy
    (the value and the best next action) rather than a line (``policy``: expected), and whether it
    is the bean duel's (``duel``, D1: two seats; the others do not apply to the duel), and how a
    line's answer names it (``title``, with the seat ``{p}`` and the best floors ``{floors}``)."""

    name: str
    value: Callable[[Sequence[int], int], int]
    needs_player: bool = True
    floors: bool = False
    trades: bool = False
    policy: bool = False
    duel: bool = False
    title: str = ""

    def __str__(self) -> str:
        return self.name  # ``print(sol.objective)``: solo, coop, best...

    def __repr__(self) -> str:
        return f"OBJECTIVES[{self.name!r}]"  # not the value function's address

    def __reduce__(self) -> tuple[Callable[[str], Objective], tuple[str]]:
        return objective, (self.name,)  # one object per objective, across processes too (``is`` holds)


SOLO = Objective("solo", _own, title="solo p{p}: p{p}'s coins, no trades")
COOP = Objective("coop", _sum, needs_player=False, trades=True, title="coop: everyone's coins, all deals")
BEST = Objective("best", _own, floors=True, trades=True, title="best p{p}: p{p}'s coins, all deals, every "
                 "other seat at least its solo optimum {floors}")
DUEL = Objective("duel", _margin, duel=True,
                 title="duel p{p}: p{p}'s coins minus the opponent's, both playing their best (minimax)")
EXPECTED = Objective("expected", _own, policy=True, title="expected solo p{p}")

OBJECTIVES: dict[str, Objective] = {o.name: o for o in (SOLO, COOP, BEST, DUEL, EXPECTED)}


def objective(name: str) -> Objective:
    """The objective named ``name``; a SolveError naming the known ones otherwise."""
    o = OBJECTIVES.get(name)
    if o is None:
        raise UnknownName("objective", name, f"not one of {', '.join(OBJECTIVES)}")
    return o


# ------------------------------------------------------------------ limits


DEFAULT_SECONDS = 60.0  # the one set of default limits: every solver, the command line, a study file
DEFAULT_NODES = 2_000_000


@dataclass(frozen=True)
class Limits:
    """How much a solver may spend: ``time`` seconds (every method: CP-SAT's time limit; exact
    search stops past it with TimeLimitExceeded, "too large"), ``nodes`` (exact search:
    NodeLimitExceeded past it; None: no node limit), CP-SAT ``workers`` (1: deterministic search
    order), ``work`` (the flow solver: CP-SAT deterministic seconds for the whole run, which do
    not depend on the machine's load, so that with one worker its answer reproduces; None: the
    clock alone). A limit below one node, one worker or of no time or work is a UsageError.
    The defaults are the command line's (scripts/solve_endgame.py reads them from here)."""

    time: float = DEFAULT_SECONDS
    nodes: int | None = DEFAULT_NODES
    workers: int = 1
    work: float | None = None

    def __post_init__(self) -> None:
        if not self.time > 0:
            raise UsageError(f"the time limit must be more than 0 seconds, got {self.time:g}")
        if self.nodes is not None and self.nodes < 1:
            raise UsageError(f"the node limit must be at least 1, got {self.nodes}")
        if self.workers < 1:
            raise UsageError(f"CP-SAT needs at least 1 worker, got {self.workers}")
        if self.work is not None and not self.work > 0:
            raise UsageError(f"the work limit must be more than 0, got {self.work:g}")

    def clock(self, what: str, progress: ProgressFn | None = None) -> Budget:
        """The one clock of a run within these limits (``Budget``: nodes, seconds, work)."""
        return Budget(what, self.nodes, self.time, progress, self.work)


DEFAULT_LIMITS = Limits()

PROGRESS_SECONDS = 0.2  # an exact search reports its progress at least this often


class CpSolverLike(Protocol):
    """What ``Budget`` sets and reads on an OR-Tools ``CpSolver`` (no ortools import down here)."""

    @property
    def parameters(self) -> Any: ...

    @property
    def response_proto(self) -> Any: ...


class Budget:
    """Every solver's one clock: ``node_limit`` nodes and ``time_limit`` seconds (None: no limit)
    for exact search, and ``work_limit``, CP-SAT deterministic seconds, for the runs of CP-SAT
    models (the flow solver). ``node()`` counts a node and raises NodeLimitExceeded or
    TimeLimitExceeded past a limit (one line: the limit, the nodes searched); every
    PROGRESS_SECONDS it reports ``progress(nodes, None, note)``. A run of CP-SAT stages gives each
    stage the run up to a fraction of its limits (``limit``, ``charge``, ``fraction``).

    Work units do not depend on the machine or its load: with one worker, the same model and the
    same limit in those units, CP-SAT does the same search everywhere. A run given a work limit
    splits it between its stages by the same fractions as its time and decides when to move on
    by the work done, not the clock; so when the work limit binds before the wall-clock one, the
    answer is the same on every machine. A limit below one node or of no time or work is a
    UsageError."""

    def __init__(self, what: str, node_limit: int | None = None, time_limit: float | None = None,
                 progress: ProgressFn | None = None, work_limit: float | None = None) -> None:
        if node_limit is not None and node_limit < 1:
            raise UsageError(f"the node limit must be at least 1, got {node_limit}")
        if time_limit is not None and not time_limit > 0:
            raise UsageError(f"the time limit must be more than 0 seconds, got {time_limit:g}")
        if work_limit is not None and not work_limit > 0:
            raise UsageError(f"the work limit must be more than 0, got {work_limit:g}")
        self.what = what
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.work_limit = work_limit
        self.progress = progress
        self.nodes = 0
        self.work = 0.0  # CP-SAT deterministic seconds charged so far
        self.t0 = time.monotonic()
        self.deadline = None if time_limit is None else self.t0 + time_limit
        self.report_at = self.t0 + PROGRESS_SECONDS

    def node(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise NodeLimitExceeded(f"{self.what} passed its node limit (more than {self.node_limit:,} "
                                    "nodes): too large for exact search")
        self.check()

    def check(self) -> None:
        """The time limit and the progress report, without counting a node (for long work inside
        one node: a trading phase lists and sorts tens of thousands of deals)."""
        if self.deadline is None and self.progress is None:
            return
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise self._timed_out()
        if self.progress is not None and now >= self.report_at:
            self.report_at = now + PROGRESS_SECONDS
            self.report(now)

    def same_clock(self, what: str) -> Budget:
        """A budget with this one's deadline and progress, no node limit and no work limit (a
        search neither counts)."""
        out = Budget(what, None, None, self.progress)
        out.t0, out.deadline, out.time_limit = self.t0, self.deadline, self.time_limit
        return out

    def part(self, fraction: float) -> Budget:
        """A budget of its own for one stage: ``fraction`` of the nodes and seconds left (at least
        one node), counting on from this one's nodes and clock (its progress reads as this one's);
        ``absorb`` takes its count back. Past this one's limits already: its NodeLimitExceeded or
        TimeLimitExceeded."""
        nodes = None
        if self.node_limit is not None:
            left = self.node_limit - self.nodes
            if left <= 0:
                self.node()  # raises: no node is left
            nodes = self.nodes + max(1, int(left * fraction))
        secs = self.seconds_left()
        out = Budget(self.what, nodes, None if secs is None else max(secs * fraction, 1e-3), self.progress)
        out.nodes, out.t0, out.report_at = self.nodes, self.t0, self.report_at
        if secs is not None:
            out.deadline = time.monotonic() + max(secs * fraction, 1e-3)
        return out

    def absorb(self, part: Budget) -> None:
        """Count the nodes a ``part`` of this budget searched (its count goes on from this one's)."""
        self.nodes = max(self.nodes, part.nodes)

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def fraction(self) -> float:
        """How much of a run is gone: by work when there is a work limit, else by time (past the
        time limit, 1 either way; 0 with neither limit)."""
        by_time = 0.0 if self.time_limit is None else self.elapsed() / self.time_limit
        if self.work_limit is None:
            return by_time
        return 1.0 if by_time >= 1.0 else self.work / self.work_limit

    def limit(self, solver: CpSolverLike, until: float, most: float | None = None) -> None:
        """Give a CP-SAT ``solver`` the run up to fraction ``until`` of the limits, and at most
        ``most`` (work units with a work limit, else seconds); the time limit stays a guard."""
        params = solver.parameters
        if self.work_limit is None:
            if self.time_limit is not None:
                secs = self.time_limit * until - self.elapsed()
                params.max_time_in_seconds = max(min(secs, most or secs), 0.05)
            elif most is not None:
                params.max_time_in_seconds = max(most, 0.05)
            return
        work = self.work_limit * until - self.work
        params.max_deterministic_time = max(min(work, most or work), 0.01)
        if self.time_limit is not None:
            params.max_time_in_seconds = max(self.time_limit - self.elapsed(), 0.05)

    def share(self, until: float) -> tuple[float, bool]:
        """What a CP-SAT solve starting now may spend until fraction ``until`` of the run: (amount,
        by work), in deterministic seconds with a work limit, else in seconds of wall time (the
        units of a solution callback's ``deterministic_time`` and ``wall_time``)."""
        if self.work_limit is not None:
            return self.work_limit * until - self.work, True
        if self.time_limit is not None:
            return self.time_limit * until - self.elapsed(), False
        return float("inf"), False

    def charge(self, solver: CpSolverLike) -> None:
        """Count a finished CP-SAT solve's deterministic time against the work limit."""
        self.work += solver.response_proto.deterministic_time

    def stopped_by(self) -> str:
        """Which limit ended an unproved run: "time", "work", or "stages" (every stage ran and
        none could narrow the gap further)."""
        if self.time_limit is not None and self.elapsed() >= 0.98 * self.time_limit:
            return "time"
        if self.work_limit is not None and self.work >= 0.98 * self.work_limit:
            return "work"
        return "stages"

    def seconds_left(self) -> float | None:
        """The time left (None: no time limit); TimeLimitExceeded when none is."""
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise self._timed_out()
        return left

    def _timed_out(self) -> TimeLimitExceeded:
        return TimeLimitExceeded(f"{self.what} passed its time limit of {self.time_limit:g} s after "
                                 f"{self.nodes:,} nodes: too large for exact search")

    def report(self, now: float | None = None) -> None:
        if self.progress is not None:
            seconds = (time.monotonic() if now is None else now) - self.t0
            self.progress(self.nodes, None, f"{self.what}: {self.nodes:,} nodes, {seconds:.1f} s")


# ------------------------------------------------------------------ the answer

Stage = float | int | str  # one of the flow solver's stage figures (counts, seconds, a status)

# The figures each kind of run reports, in the order a --json answer lists them (scripts/solve_endgame.py).
STATS_KEYS: dict[str, tuple[str, ...]] = {
    "exact": ("nodes", "seconds", "table", "stopped_by", "bound", "floors"),
    "cpsat": ("seconds", "bound", "branches", "solutions", "interrupted", "floors"),
    "flow": ("seconds", "work", "capacity", "work_limit", "stopped_by", "bound", "interrupted", "stages",
             "floors"),
}


@dataclass
class SolveStats:
    """How a run went: ``kind`` "exact" (exact search: ``nodes``, ``table`` entries), "cpsat" (one
    CP-SAT model: its ``bound``, ``branches``, ``solutions``) or "flow" (the flow solver: CP-SAT
    ``work`` done, ``capacity`` cuts on or off, the ``work_limit``, which limit ``stopped_by``, the
    proved ``bound``, and per stage the figures in ``stages``); every kind its ``seconds``, whether
    Ctrl-C ``interrupted`` it, and for ``best`` the ``floors`` (each seat's solo optimum).
    ``as_dict()`` is the --json form: the kind's keys (STATS_KEYS), ``stages`` spread out, and
    ``floors`` only when there are floors."""

    kind: str
    seconds: float = 0.0
    nodes: int | None = None
    table: int | None = None
    work: float | None = None
    capacity: bool | None = None
    work_limit: float | None = None
    stopped_by: str | None = None
    bound: float | None = None
    branches: int | None = None
    solutions: int | None = None
    interrupted: bool = False
    stages: dict[str, Stage] = field(default_factory=dict)
    floors: list[int] | None = None

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for key in STATS_KEYS[self.kind]:
            if key == "stages":
                out.update(self.stages)
            elif key != "floors" or self.floors is not None:
                out[key] = getattr(self, key)
        return out


class Status(StrEnum):
    """How far a solver got: ``OPTIMAL``, the line's value is proved the optimum; ``FEASIBLE``,
    the best line found, with its proved bound if it has one. A ``str``, so it prints, compares
    and goes into JSON as "optimal" and "feasible"."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"


@dataclass
class Solution:
    """A solver's answer: the line from the position to the end of the game, its ``value`` (the
    objective's, from ``per_player``, every seat's final coins after the line), ``status``
    (``Status.OPTIMAL``: proved; ``Status.FEASIBLE``: the best line found, ``bound`` the proved
    limit if any)."""

    objective: Objective  # what the line optimises (``objective.name`` in --json)
    player: int
    value: int  # the objective's value: P's final coins for solo
    line: list[Action]
    per_player: list[int]  # every seat's final coins after the line
    status: Status = Status.OPTIMAL
    stats: SolveStats = field(default_factory=lambda: SolveStats("exact"))
    start: GameState | None = field(default=None, repr=False, compare=False)  # the position (solvers.api)

    def __post_init__(self) -> None:
        if not isinstance(self.status, Status):  # "optimal" or "feasible" spelled as a string
            if self.status not in tuple(Status):
                raise ArgumentError("status", self.status, "a solution is 'optimal' or 'feasible'")
            self.status = Status(self.status)

    def __repr__(self) -> str:
        """One readable line: what was solved, the answer and how (no function addresses)."""
        seat = f" p{self.player}" if self.objective.needs_player else ""
        return (f"Solution({self.objective.name}{seat}: value {self.value}, {self.status}, "
                f"bound {self.bound}, per_player {self.per_player}, {len(self.line)} actions, "
                f"{self.stats.kind} {self.stats.seconds:.3f} s)")

    def _repr_html_(self) -> str:
        """The line in a notebook: the answer, then each step numbered with the coins it earns and
        the final position's picture (when ``start``, the position solved, is known)."""
        steps: list[str] = []
        end = self.start
        for a in self.line:
            gains = ""
            if end is not None:
                before = [len(q.coins) for q in end.players]
                end = apply(end, a)
                gains = ", ".join(f"p{q} +{len(pl.coins) - before[q]}" for q, pl in enumerate(end.players)
                                  if len(pl.coins) != before[q])
            earned = f" [{gains}]" if gains else ""
            steps.append(f"<li><code>{escape(format_action(a))}</code>{earned}</li>")
        picture = svg(end) if end is not None else ""
        return f"<div><p>{escape(repr(self))}</p><ol>{''.join(steps)}</ol>{picture}</div>"

    @property
    def bound(self) -> int | None:
        """A proved upper bound on the objective (the value itself once proved optimal), or None."""
        if self.status == Status.OPTIMAL:
            return self.value
        b = self.stats.bound
        return None if b is None else int(b)


__all__ = ["SolveError", "RESHUFFLE_AHEAD", "SearchLimitExceeded", "NodeLimitExceeded", "TimeLimitExceeded",
           "Objective", "SOLO", "COOP", "BEST", "DUEL", "EXPECTED", "OBJECTIVES", "objective", "Limits",
           "DEFAULT_LIMITS", "DEFAULT_SECONDS", "DEFAULT_NODES", "PROGRESS_SECONDS", "Budget", "SolveStats",
           "STATS_KEYS", "Solution", "Solver", "Status", "calls", "entry_point"]


class Solver(Protocol):
    """The one signature of every registered solver (``solvers.api.REGISTRY``): the position, the
    objective, the seat P (None: the seat to move), the limits and where progress goes. Each
    solver module has one, named ``solve`` (exact search, the duel's alpha-beta, CP-SAT solo, the
    flow solver, the card-level CP-SAT model); ``solvers.expected.solve`` answers a policy instead."""

    def __call__(self, s: GameState, objective: Objective, player: int | None, limits: Limits,
                 progress: ProgressFn | None) -> Solution: ...


_F = TypeVar("_F", bound=Callable[..., Any])


def calls(entry: Callable[..., Any], trades: Callable[..., Any] | None = None) -> Callable[[_F], _F]:
    """Marks a registered ``solve`` with the function it hands the position to (``trades``: the one
    for the objectives with deals, where that differs), which ``entry_point`` reads: the conformance
    fixtures record that function's name and call it to solve again."""
    def mark(solve: _F) -> _F:
        solve.entry_points = (entry, trades or entry)  # type: ignore[attr-defined]
        return solve
    return mark


def entry_point(solve: Callable[..., Any], objective: Objective) -> Callable[..., Any]:
    """The function a registered ``solve`` marked by ``calls`` hands ``objective``'s positions to."""
    entries: tuple[Callable[..., Any], Callable[..., Any]] = getattr(solve, "entry_points")  # noqa: B009 (set by calls)
    return entries[1] if objective.trades else entries[0]
