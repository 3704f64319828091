"""Running a CP-SAT model: time limit, workers, progress reports, and Ctrl-C keeping the best
solution found so far (CP-SAT is anytime: a stopped search still holds its best solution and
its proved bound)."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from solvers.exact import SolveError

Tick = Callable[[float, float, float], None]  # (objective, bound, seconds) at each improvement


class _Progress(cp_model.CpSolverSolutionCallback):
    def __init__(self, tick: Tick | None) -> None:
        super().__init__()
        self.tick = tick
        self.found = 0

    def on_solution_callback(self) -> None:
        self.found += 1
        if self.tick is not None:
            self.tick(self.objective_value, self.best_objective_bound, self.wall_time)


@contextmanager
def stop_on_interrupt(solver: cp_model.CpSolver) -> Iterator[list[bool]]:
    """Ctrl-C stops the search and keeps the best solution found so far. During a solve CP-SAT
    catches SIGINT itself (``stopped_early`` tells afterwards); this handler covers the moments
    around it and only records the interrupt: ``stop_search`` on a solver whose search has ended
    crashed the process once (a malloc abort)."""
    hit = [False]

    def handler(signum: int, frame: Any) -> None:
        hit[0] = True

    try:
        old = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: no handler
        yield hit
        return
    try:
        yield hit
    finally:
        signal.signal(signal.SIGINT, old)


def stopped_early(solver: cp_model.CpSolver, status: Any) -> bool:
    """CP-SAT catches Ctrl-C itself and returns what it has (Python's handler never sees the
    signal during a solve): a search that ends unproved before its time limit was interrupted."""
    return bool(status in (cp_model.FEASIBLE, cp_model.UNKNOWN)
                and solver.wall_time < solver.parameters.max_time_in_seconds - 0.25)


@dataclass
class Run:
    solver: cp_model.CpSolver
    status: str  # "optimal" or "feasible"
    found: int
    interrupted: bool

    def stats(self, t0: float) -> dict[str, Any]:
        return {"seconds": time.perf_counter() - t0, "bound": self.solver.best_objective_bound,
                "branches": self.solver.num_branches, "solutions": self.found,
                "interrupted": self.interrupted}


def run_model(model: cp_model.CpModel, time_limit: float, workers: int, tick: Tick | None = None,
              bound_only: bool = False) -> Run:
    """Solve; a model with no solution (or none before the limit) is a SolveError, unless
    ``bound_only``: then the Run has status "none" and only its proved bound means anything."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    progress = _Progress(tick)
    with stop_on_interrupt(solver) as hit:
        status = solver.solve(model, progress)
    hit[0] = hit[0] or stopped_early(solver, status)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE) and bound_only and status != cp_model.INFEASIBLE:
        return Run(solver, "none", 0, hit[0])
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        why = "interrupted" if hit[0] else solver.status_name(status).lower()
        raise SolveError(f"CP-SAT found no solution ({why}, {solver.wall_time:.1f} s)")
    return Run(solver, "optimal" if status == cp_model.OPTIMAL else "feasible", progress.found, hit[0])
