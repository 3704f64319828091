"""The counts master as a MIP, for a side-by-side measure of its solver (issue 39, item 4).

The master (solvers/flow/master.py) is a CP-SAT model of integer variables with linear constraints
(many enforced by a literal), exactly-ones, clauses and the beanometer's step tables (element
constraints over constants). ``to_mip`` writes the same model for a MIP solver through OR-Tools'
``pywraplp`` (SCIP ships with OR-Tools): an enforced linear constraint becomes a big-M one whose M
comes from the variables' bounds, and a step table a one-hot choice of its index. The models have
the same integer solutions, so the same optimum: the measure is which proves it sooner.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ortools.linear_solver import pywraplp
from ortools.sat import cp_model_pb2
from ortools.sat.python import cp_model

from benchmarks.suites import Disagreement, progress
from console.muted import muted
from model import GameState
from solvers.contract import OBJECTIVES, Objective
from solvers.exact import open_player, solve_solo
from solvers.flow.cuts import capped_values
from solvers.flow.master import FlowMaster, capacity_default
from solvers.flow.solver import _objective, _solver
from solvers.positions import LIBRARY

INF = 2**62
POSITIONS = ("rio4-8cards", "amigo4-6cards", "amigo5-12cards", "rio5-15cards", "rio4-18cards",
             "rio4-final-pass")  # issue 39's table
BACKENDS = ("HIGHS", "SCIP")


def _proto(m: cp_model.CpModel) -> Any:
    """The model's protocol buffer as the generated message (the helper's copy has no oneofs)."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "model.pb"
        m.export_to_file(str(path))
        p = cp_model_pb2.CpModelProto()
        p.ParseFromString(path.read_bytes())
    return p


class _Mip:
    def __init__(self, p: Any, name: str) -> None:
        with muted(1):  # HiGHS prints its banner there from C++, output flag or not
            solver = pywraplp.Solver.CreateSolver(name)
        if solver is None:
            raise RuntimeError(f"OR-Tools has no {name} backend here")
        self.solver = solver
        self.lo = [v.domain[0] for v in p.variables]
        self.hi = [v.domain[-1] for v in p.variables]
        for v in p.variables:
            if len(v.domain) != 2:
                raise ValueError("to_mip: a variable with holes in its domain")
        bounds = zip(self.lo, self.hi, strict=True)
        self.x = [solver.IntVar(lo, hi, f"x{i}") for i, (lo, hi) in enumerate(bounds)]

    def lit(self, ref: int) -> Any:
        """A literal as a 0-1 expression (a negative reference is the variable's negation)."""
        return self.x[ref] if ref >= 0 else 1 - self.x[-ref - 1]

    def span(self, vars_: Any, coeffs: Any) -> tuple[int, int]:
        """The least and most a linear sum can be, from its variables' bounds."""
        lo = hi = 0
        for v, c in zip(vars_, coeffs, strict=True):
            a, b = c * self.lo[v], c * self.hi[v]
            lo, hi = lo + min(a, b), hi + max(a, b)
        return lo, hi

    def linear(self, c: Any) -> None:
        lin = c.linear
        if len(lin.domain) != 2:
            raise ValueError("to_mip: a linear constraint with holes in its domain")
        expr = sum(k * self.x[v] for v, k in zip(lin.vars, lin.coeffs, strict=True))
        lo, hi = lin.domain
        least, most = self.span(lin.vars, lin.coeffs)
        off = [1 - self.lit(e) for e in c.enforcement_literal]  # 0 when every literal holds
        slack = sum(off) if off else 0
        if hi < INF and hi < most:
            self.solver.Add(expr <= hi + (most - hi) * slack)
        if lo > -INF and lo > least:
            self.solver.Add(expr >= lo - (lo - least) * slack)

    def element(self, c: Any) -> None:
        el = c.element
        if c.enforcement_literal or len(el.linear_index.vars) != 1 or len(el.linear_target.vars) != 1:
            raise ValueError("to_mip: an element constraint of another shape")
        if any(e.vars for e in el.exprs):
            raise ValueError("to_mip: an element constraint over variables")
        iv, tv = el.linear_index.vars[0], el.linear_target.vars[0]
        ic, tc = el.linear_index.coeffs[0], el.linear_target.coeffs[0]
        io, to = el.linear_index.offset, el.linear_target.offset
        pick = {i: self.solver.BoolVar(f"e{iv}_{i}") for i in range(len(el.exprs))
                if self.lo[iv] <= (i - io) / ic <= self.hi[iv] and (i - io) % ic == 0}
        self.solver.Add(sum(pick.values()) == 1)
        self.solver.Add(ic * self.x[iv] + io == sum(i * b for i, b in pick.items()))
        self.solver.Add(tc * self.x[tv] + to == sum(el.exprs[i].offset * b for i, b in pick.items()))


def to_mip(m: cp_model.CpModel, backend: str = "SCIP") -> tuple[pywraplp.Solver, list[Any]]:
    """The CP-SAT model ``m`` as a MIP on ``backend``: (solver, its variables by proto index)."""
    p = _proto(m)
    mip = _Mip(p, backend)
    for c in p.constraints:
        kind = c.WhichOneof("constraint")
        if kind == "linear":
            mip.linear(c)
        elif kind == "exactly_one":
            mip.solver.Add(sum(mip.lit(r) for r in c.exactly_one.literals) == 1)
        elif kind == "bool_or":  # enforced: some literal holds, or some enforcement literal fails
            off = [1 - mip.lit(e) for e in c.enforcement_literal]
            mip.solver.Add(sum(mip.lit(r) for r in c.bool_or.literals) + sum(off) >= 1)
        elif kind == "element":
            mip.element(c)
        else:
            raise ValueError(f"to_mip: no translation of a {kind} constraint")
    obj = p.objective
    expr = sum(k * mip.x[v] for v, k in zip(obj.vars, obj.coeffs, strict=True)) + obj.offset
    sign = -1 if obj.scaling_factor < 0 else 1  # CP-SAT stores a maximisation negated
    if sign < 0:
        mip.solver.Maximize(-expr)
    else:
        mip.solver.Minimize(expr)
    return mip.solver, mip.x


@dataclass
class Measure:
    solver: str
    status: str
    value: float | None
    bound: float | None
    seconds: float


def solve_mip(m: cp_model.CpModel, seconds: float, backend: str = "SCIP") -> Measure:
    """The master's optimum by a MIP solver within ``seconds`` (one thread)."""
    start = time.perf_counter()
    solver, _ = to_mip(m, backend)
    solver.SetTimeLimit(int(seconds * 1000))
    solver.SetNumThreads(1)
    with muted(1):  # HiGHS prints its banner there from C++, output flag or not
        status = solver.Solve()
    took = time.perf_counter() - start
    names = {pywraplp.Solver.OPTIMAL: "optimal", pywraplp.Solver.FEASIBLE: "feasible",
             pywraplp.Solver.INFEASIBLE: "infeasible"}
    found = status in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE)
    return Measure(backend.lower(), names.get(status, "unknown"),
                   solver.Objective().Value() if found else None,
                   solver.Objective().BestBound() if found else None, took)


def solve_cpsat(m: cp_model.CpModel, seconds: float) -> Measure:
    """The master's optimum by CP-SAT as the flow solver runs it (the LP-guided tree search, one worker)."""
    solver = _solver(1, lb_tree=True)
    solver.parameters.max_time_in_seconds = seconds
    start = time.perf_counter()
    status = solver.solve(m)
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return Measure("cp-sat", solver.status_name(status).lower(), solver.objective_value if found else None,
                   solver.best_objective_bound if found else None, time.perf_counter() - start)


def _master(s: GameState, objective: Objective, floors: list[int] | None) -> cp_model.CpModel:
    """The first master as ``solve_flow`` builds it for the position's default player."""
    fm = FlowMaster(s, capacity=capacity_default(s, objective.floors))  # as solve_flow
    fm.m.maximize(_objective(fm, capped_values(fm), objective, open_player(s, objective, None), floors))
    return fm.m


def bench_master(seconds: float, show: bool, positions: tuple[str, ...] = POSITIONS) -> dict[str, Any]:
    """The counts master's first solve (before any cut, as ``solve_flow`` builds it: capacity
    cuts as ``capacity_default`` says, the solo floors for ``best``) on issue 39's positions,
    coop and best: CP-SAT beside HiGHS and SCIP on the same model, one thread, ``seconds`` each.
    Two proved optima that differ are a Disagreement."""
    rows: list[dict[str, Any]] = []
    with progress(2 * len(positions), "master solves", show) as bar:
        for name, objective in ((n, o) for n in positions for o in OBJECTIVES.values() if o.trades):
            s = LIBRARY[name].position()
            floors = ([solve_solo(s, q).value for q in range(len(s.players))]
                      if objective.floors else None)
            got = [solve_cpsat(_master(s, objective, floors), seconds)]
            got += [solve_mip(_master(s, objective, floors), seconds, b) for b in BACKENDS]
            proved = {round(g.value) for g in got if g.status == "optimal" and g.value is not None}
            if len(proved) > 1:
                raise Disagreement(f"{name} {objective}: the master's optimum differs: "
                                   + ", ".join(f"{g.solver} {g.value}" for g in got))
            rows.append({"position": name, "objective": objective.name, "runs": [asdict(g) for g in got]})
            bar.update(1)
    fastest: dict[str, int] = {}
    for r in rows:
        done = [g for g in r["runs"] if g["status"] == "optimal"]
        if done:
            best = min(done, key=lambda g: g["seconds"])["solver"]
            fastest[best] = fastest.get(best, 0) + 1
    ratios = {}
    for b in BACKENDS:
        pairs = [(r["runs"][0]["seconds"], g["seconds"]) for r in rows for g in r["runs"][1:]
                 if g["solver"] == b.lower() and g["status"] == r["runs"][0]["status"] == "optimal"]
        ratios[b.lower()] = statistics.median(c / x for c, x in pairs) if pairs else None
    return {"seconds": seconds, "rows": rows, "fastest": fastest, "median_ratio_cpsat_over": ratios}
