"""A bound from real seat plans: column generation over the seats of the counts master (Dantzig-Wolfe).

Seat q's final coins depend only on the flows it takes part in (the cards it gives, takes and is
given back in each turn: the *links* it is a side of) and on its own fronts. So the problem splits
by seat, the seats tied only by the links: both sides of a link must agree on how many cards cross.

- **Block q** is the counts master (solvers/flow/master.py: every seat's hands, fronts and deals,
  exact) with seat q's value alone: at most q's relaxed value and at most every cut on q's
  schedules (solvers/flow/cuts.py). A *column* of q is one of its plans: the values of q's links
  and the exact value of q's fields on the schedule they make (solvers/flow/seat_batch.py).
- **The restricted master** is an LP (GLOP, with duals): per seat a convex combination of its
  columns, each link's two sides equal, ``best``'s floors on the combinations of real plan values,
  the objective maximised.
- **Pricing** maximises ``w_q * value_q - sum_l s_ql * pi_l * x_l`` over block q (CP-SAT), where
  ``pi`` are the link duals (rounded to 1/``SCALE``), ``s_ql`` is +1 on the active side of a link
  and -1 on the partner's, and ``w_q`` is q's objective weight plus its floor's dual. Each schedule
  the search passes through is solved exactly: a column, and a cut where the block overrated it.

The bound (weak Lagrangian duality). On any legal play the link terms cancel (both sides carry the
same count) and ``sigma_q * (value_q - floor_q) >= 0``, so for every ``pi`` and every ``sigma >= 0``

    objective <= sum_q max(block q's priced value) - sum_q sigma_q * floor_q.

Each max is replaced by the pricing solve's proved bound, so the bound holds whatever the LP says:
the LP only picks the prices. It is computed exactly (``Fraction``) from the rounded prices that
were priced. The LP's duals are kept within a box around the best prices so far (the box step:
a penalised slack per link), which only changes which valid bounds are computed.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from model import GameState
from solvers.contract import Budget, Objective, SolveError
from solvers.cpsat_lazy import cp_model, solution_callback
from solvers.cpsat_run import Interrupt
from solvers.flow.cuts import Schedule, capped_values, cut, schedule, solve_schedule
from solvers.flow.master import FlowMaster

# (kind, turn, partner, bean); kind g: active hand -> partner, u: face-up -> partner, h: partner -> active
Link = tuple[str, int, int, int]
SCALE = 1000  # prices are priced in 1/SCALE coins, so the pricing objective is integral
PRICE_ROUNDS = 4  # pricing solves per seat and iteration while its cuts tighten its bound
BOX = 1.0  # the link duals' box around the best prices so far, in coins a card (box step)
BOX_MOST = 16.0  # past this the box is dropped


def links(fm: FlowMaster) -> dict[Link, tuple[int, int]]:
    """Every link of the master with its two sides (active seat, partner)."""
    out: dict[Link, tuple[int, int]] = {}
    for k, t in enumerate(fm.turns):
        for kind, side in (("g", fm.give[k]), ("u", fm.up[k]), ("h", fm.back[k])):
            for r, per_bean in side.items():
                for b in per_bean:
                    out[(kind, k, r, b)] = (t.active, r)
    return out


def link_var(fm: FlowMaster, link: Link) -> cp_model.IntVar:
    kind, k, r, b = link
    side = {"g": fm.give, "u": fm.up, "h": fm.back}[kind]
    return side[k][r][b]


@dataclass(frozen=True)
class Column:
    """One plan of one seat: its links' values (the nonzero ones) and the exact value of its
    fields on the schedule they make (or a proved bound on it, past the seat search's guard)."""

    seat: int
    flows: tuple[tuple[Link, int], ...]
    value: int
    sched: Schedule


@dataclass
class Block:
    """Seat q's pricing model: the counts master with q's capped value and q's cuts."""

    q: int
    fm: FlowMaster
    value: cp_model.IntVar
    mine: dict[Link, int]  # link -> +1 (q the active side) or -1 (the partner)
    cuts: int = 0


@dataclass
class Priced:
    """One pricing of one seat: its proved bound (scaled) and the columns its search passed."""

    bound: int | None
    columns: list[Column] = field(default_factory=list)


class ColumnBound:
    """Column generation for ``coop`` or ``best P`` (module docstring): ``run`` returns the least
    bound proved, also when it stops early."""

    def __init__(self, s: GameState, objective: Objective, p: int, floors: list[int] | None,
                 capacity: bool, clock: Budget | None = None, stop: Interrupt | None = None,
                 workers: int = 1, seat: Callable[[int, Schedule], tuple[int | None, int]] | None = None,
                 on_cut: Callable[[int, Schedule, int], None] | None = None) -> None:
        goal = objective
        if goal.floors and floors is None:
            raise SolveError("best needs the other seats' floors")
        self.s, self.p, self.floors = s, p, floors
        self.n = n = len(s.players)
        self.weight = [Fraction(1) if not goal.floors or q == p else Fraction(0) for q in range(n)]
        self.floored = [goal.floors and q != p for q in range(n)]
        self.clock = clock or Budget("the column bound", None, 3600.0)
        self.stop, self.workers = stop, workers
        self.seat_value = seat or self._seat
        self.on_cut = on_cut
        self.cache: dict[tuple[int, Schedule], tuple[int | None, int]] = {}
        self.blocks: list[Block] = []
        for q in range(n):
            fm = FlowMaster(s, capacity=capacity, seats={q})
            value = capped_values(fm)[q]
            mine = {ln: (1 if sides[0] == q else -1) for ln, sides in links(fm).items() if q in sides}
            self.blocks.append(Block(q, fm, value, mine))
        self.links = links(self.blocks[0].fm)
        self.columns: list[list[Column]] = [[] for _ in range(n)]
        self.seen: set[tuple[int, tuple[tuple[Link, int], ...]]] = set()
        self.bound: Fraction | None = None  # the least Lagrangian bound so far
        self.center: tuple[dict[Link, Fraction], list[Fraction]] | None = None  # its prices
        self.history: list[dict[str, Any]] = []
        self.box: float | None = BOX  # the box step's half-width on the link duals (None: none)
        self.stats = {"iterations": 0, "pricing_solves": 0, "columns": 0, "cuts": 0,
                      "lp_seconds": 0.0, "pricing_seconds": 0.0}

    # ----------------------------------------------------------------- seats and columns
    def _seat(self, q: int, sched: Schedule) -> tuple[int | None, int]:
        return solve_schedule(self.s, q, sched)[:2]

    def exact(self, q: int, sched: Schedule) -> tuple[int | None, int]:
        """Seat q's exact value on ``sched`` (None past the guard) and a proved bound on it."""
        key = (q, sched)
        if key not in self.cache:
            self.cache[key] = self.seat_value(q, sched)
        return self.cache[key]

    def add(self, col: Column) -> bool:
        key = (col.seat, col.flows)
        if key in self.seen:
            return False
        self.seen.add(key)
        self.columns[col.seat].append(col)
        self.stats["columns"] += 1
        return True

    def start(self) -> None:
        """The no-trade columns: every link 0, each seat's exact value on its schedule then
        (a plan every LP has: the restricted master is feasible from the start; with ``best``'s
        floors, the seats' own solo optima, which are the floors)."""
        fm = FlowMaster(self.s, capacity=False, seats=())
        for ln in self.links:
            fm.m.add(link_var(fm, ln) == 0)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        status = solver.solve(fm.m)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise SolveError("internal error: the counts master has no plan without trades")
        for q in range(self.n):
            sched = schedule(fm, solver, q)
            _, most = self.exact(q, sched)
            self.add(Column(q, (), most, sched))

    def seed(self, fm: FlowMaster, value: Any) -> None:
        """Every seat's column of one plan of the counts master (``value``: a solver or a
        solution callback of ``fm``'s model): consistent columns the LP can combine at once."""
        for q in range(self.n):
            sched = schedule(fm, value, q)
            flows = tuple((ln, x) for ln in self.blocks[q].mine if (x := int(value.value(link_var(fm, ln)))))
            self.add(Column(q, flows, self.exact(q, sched)[1], sched))

    # ----------------------------------------------------------------- the restricted master
    def solve_lp(self) -> tuple[float, dict[Link, float], list[float], list[float]]:
        """The restricted master: (its value, link duals, convexity duals, floor duals >= 0)."""
        from ortools.linear_solver import pywraplp

        lp = pywraplp.Solver.CreateSolver("GLOP")
        if lp is None:
            raise SolveError("internal error: OR-Tools has no GLOP")
        inf = lp.infinity()
        lam = [[lp.NumVar(0.0, inf, "") for _ in cs] for cs in self.columns]
        convex = []
        for q in range(self.n):
            row = lp.Constraint(1.0, 1.0, f"convex{q}")
            for var in lam[q]:
                row.SetCoefficient(var, 1.0)
            convex.append(row)
        rows = {ln: lp.Constraint(0.0, 0.0, f"{ln}") for ln in self.links}
        if self.box is not None:  # the duals kept within the box around the center's (box step)
            c_pi = self.center[0] if self.center is not None else {}
            for ln, row in rows.items():
                c = float(c_pi.get(ln, 0))
                up, down = lp.NumVar(0.0, inf, ""), lp.NumVar(0.0, inf, "")
                row.SetCoefficient(up, 1.0)
                row.SetCoefficient(down, -1.0)
                lp.Objective().SetCoefficient(up, c - self.box)
                lp.Objective().SetCoefficient(down, -(c + self.box))
        for q, cs in enumerate(self.columns):
            mine = self.blocks[q].mine
            for var, col in zip(lam[q], cs, strict=True):
                for ln, x in col.flows:
                    rows[ln].SetCoefficient(var, float(mine[ln] * x))
        floors: list[Any] = [None] * self.n
        for q, cs in enumerate(self.columns):
            if self.floored[q]:
                assert self.floors is not None
                row = lp.Constraint(float(self.floors[q]), inf, f"floor{q}")
                for var, col in zip(lam[q], cs, strict=True):
                    row.SetCoefficient(var, float(col.value))
                floors[q] = row
        obj = lp.Objective()
        for q, cs in enumerate(self.columns):
            for var, col in zip(lam[q], cs, strict=True):
                obj.SetCoefficient(var, float(self.weight[q]) * col.value)
        obj.SetMaximization()
        status = lp.Solve()
        if status != pywraplp.Solver.OPTIMAL:
            raise SolveError(f"internal error: the restricted master LP ended with status {status}")
        # a maximisation: a column's reduced cost is its objective less the duals of its rows
        sigma = [max(0.0, -row.dual_value()) if row is not None else 0.0 for row in floors]
        return (obj.Value(), {ln: row.dual_value() for ln, row in rows.items()},
                [row.dual_value() for row in convex], sigma)

    def reduced(self, col: Column, pi: dict[Link, float], mu: list[float], sigma: list[float]) -> float:
        q = col.seat
        w = float(self.weight[q]) + sigma[q]
        return w * col.value - sum(self.blocks[q].mine[ln] * pi[ln] * x for ln, x in col.flows) - mu[q]

    # ----------------------------------------------------------------- pricing
    def price(self, q: int, prices: dict[Link, Fraction], weight: Fraction, until: float) -> Priced:
        """Block q's best plan at ``prices`` (exact rationals of denominator ``SCALE``): the proved
        bound on ``SCALE * (weight * value_q - sum_l s_ql * price_l * x_l)``, and every plan the
        search passed, solved exactly. While a solve's best plan was overrated by the relaxation,
        its cut goes in and the block is solved again (at most ``PRICE_ROUNDS`` times)."""
        blk = self.blocks[q]
        W = int(weight * SCALE)
        terms = [(-int(prices[ln] * SCALE) * sign, link_var(blk.fm, ln)) for ln, sign in blk.mine.items()
                 if prices.get(ln)]
        out = Priced(None)
        for _ in range(PRICE_ROUNDS):
            view = copy.copy(blk.fm)
            view.m = blk.fm.m.clone()
            m = view.m
            expr = W * blk.value + sum(c * v for c, v in terms)
            m.maximize(expr)
            found: list[tuple[Schedule, tuple[tuple[Link, int], ...], int]] = []

            def on_solution(cb: cp_model.CpSolverSolutionCallback, view: FlowMaster = view,
                            found: list[Any] = found) -> None:
                flows = tuple((ln, int(cb.value(link_var(view, ln)))) for ln in blk.mine)
                found.append((schedule(view, cb, q), tuple((ln, x) for ln, x in flows if x),
                              int(cb.value(blk.value))))

            solver = cp_model.CpSolver()
            solver.parameters.num_workers = self.workers
            solver.parameters.linearization_level = 2
            self.clock.limit(solver, until)
            start = time.perf_counter()
            callback = solution_callback(on_solution)
            status = (self.stop.solve(solver, m, callback) if self.stop is not None
                      else solver.solve(m, callback))
            self.clock.charge(solver)
            self.stats["pricing_seconds"] += time.perf_counter() - start
            self.stats["pricing_solves"] += 1
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return out  # no plan and no bound within the limits
            out.bound = math.floor(solver.best_objective_bound + 1e-6)
            best_exact = None
            overrated = False
            for sched, flows, model_value in found:
                value, most = self.exact(q, sched)
                col = Column(q, flows, most, sched)
                out.columns.append(col)
                if most < model_value:
                    self._cut(q, sched, most)
                    overrated = True
                got = W * most - sum(int(prices.get(ln, 0) * SCALE) * blk.mine[ln] * x for ln, x in flows)
                best_exact = got if best_exact is None else max(best_exact, got)
            if status == cp_model.OPTIMAL and best_exact == out.bound:
                return out  # priced exactly
            if not overrated or self.clock.fraction() >= until:
                return out
        return out

    def _cut(self, q: int, sched: Schedule, most: int) -> None:
        blk = self.blocks[q]
        cut(blk.fm, blk.value, q, sched, most, blk.cuts)
        blk.cuts += 1
        self.stats["cuts"] += 1
        if self.on_cut is not None:
            self.on_cut(q, sched, most)

    # ----------------------------------------------------------------- the loop
    def run(self, until: float, target: int | None = None,
            progress: Callable[[Fraction, float], None] | None = None) -> int | None:
        """Column generation until fraction ``until`` of the clock, an interrupt, a bound at most
        ``target`` (a plan's value: nothing left to prove), or convergence (no column improves the
        restricted master at its own duals with the box open): the least integer bound proved
        (None if no pricing round finished)."""
        if not any(self.columns):
            self.start()
        while self.clock.fraction() < until and not (self.stop is not None and self.stop.hit):
            self.stats["iterations"] += 1
            start = time.perf_counter()
            value, pi, mu, sigma = self.solve_lp()
            self.stats["lp_seconds"] += time.perf_counter() - start
            prices = {ln: _round(Fraction(v)) for ln, v in pi.items()}
            # a floor's dual rounded up: sigma >= 0 is all the bound needs
            raised = [Fraction(math.ceil(v * SCALE - 1e-9), SCALE) if v > 0 else Fraction(0) for v in sigma]
            total = Fraction(0)
            added = 0
            for q in range(self.n):
                got = self.price(q, prices, self.weight[q] + raised[q], until)
                if got.bound is None:
                    return self.result()  # out of time inside a pricing: no bound at these prices
                total += Fraction(got.bound, SCALE)
                for col in got.columns:
                    improves = self.reduced(col, pi, mu, sigma) > 1e-7
                    if self.add(col) and improves:
                        added += 1
            floors = self.floors or [0] * self.n
            lagrange = total - sum(raised[q] * floors[q] for q in range(self.n) if self.floored[q])
            if self.bound is None or lagrange < self.bound:
                self.bound = lagrange
                self.center = (prices, raised)
            self.history.append({"lp": value, "lagrange": float(lagrange), "box": self.box,
                                 "columns": self.stats["columns"], "added": added})
            if progress is not None:
                progress(self.bound, value)
            if target is not None and math.floor(self.bound) <= target:
                break
            if added == 0:
                if self.box is None:
                    break  # converged: the bound is the restricted master's value
                self.box = None if self.box >= BOX_MOST else 2 * self.box  # the box held the duals back
        return self.result()

    def result(self) -> int | None:
        return None if self.bound is None else math.floor(self.bound)


def _round(x: Fraction) -> Fraction:
    return Fraction(round(x * SCALE), SCALE)
