"""Running a CP-SAT model: time limit, workers, progress reports, and Ctrl-C keeping the best
solution found so far (CP-SAT is anytime: a stopped search still holds its best solution and
its proved bound)."""

from __future__ import annotations

import os
import signal
import threading
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


class Interrupt:
    """Ctrl-C as a flag that also stops the CP-SAT search in progress, which keeps its best
    solution and proved bound (CP-SAT is anytime). CP-SAT's own SIGINT catching is turned off:
    Python's C-level handler still runs during a solve and writes to a wakeup pipe, and a watcher
    thread reading it calls ``stop_search`` while that search is live (never after it ended:
    that crashed the process once, a malloc abort). So ``hit`` is exact: a search that ran out of
    time is never taken for an interrupted one."""

    def __init__(self) -> None:
        self.hit = False
        self.watching = False
        self._lock = threading.Lock()
        self._live: cp_model.CpSolver | None = None

    def solve(self, solver: cp_model.CpSolver, model: cp_model.CpModel,
              callback: cp_model.CpSolverSolutionCallback | None = None) -> Any:
        if self.watching:
            solver.parameters.catch_sigint_signal = False
        if self.hit:
            solver.parameters.max_time_in_seconds = 0.0  # interrupted already: return at once
        with self._lock:
            self._live = solver
        try:
            return solver.solve(model, callback)
        finally:
            with self._lock:
                self._live = None

    def stop(self) -> None:
        self.hit = True
        while True:  # until the live search has ended (it may not have started when the signal came)
            with self._lock:
                live = self._live
                if live is None:
                    return
                live.stop_search()
            time.sleep(0.02)


_current: Interrupt | None = None


@contextmanager
def interruptible() -> Iterator[Interrupt]:
    """Ctrl-C inside this block ends the CP-SAT search in progress and sets ``hit``; nested
    blocks share one Interrupt. Off the main thread there is no handler (``hit`` stays False)."""
    global _current
    if _current is not None:
        yield _current
        return
    stop = Interrupt()

    def handler(signum: int, frame: Any) -> None:
        stop.hit = True

    try:
        old_handler = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread
        yield stop
        return
    read, write = os.pipe()
    os.set_blocking(write, False)
    old_fd = signal.set_wakeup_fd(write)

    def watch() -> None:
        while data := os.read(read, 64):
            if signal.SIGINT in data:
                stop.stop()
        os.close(read)

    watcher = threading.Thread(target=watch, name="sigint-watcher", daemon=True)
    watcher.start()
    stop.watching = True
    _current = stop
    try:
        yield stop
    finally:
        _current = None
        stop.watching = False
        signal.set_wakeup_fd(old_fd)
        signal.signal(signal.SIGINT, old_handler)
        os.close(write)  # the watcher reads end-of-file and ends
        watcher.join()


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
    with interruptible() as stop:
        status = stop.solve(solver, model, progress)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE) and bound_only and status != cp_model.INFEASIBLE:
        return Run(solver, "none", 0, stop.hit)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        why = "interrupted" if stop.hit else solver.status_name(status).lower()
        raise SolveError(f"CP-SAT found no solution ({why}, {solver.wall_time:.1f} s)")
    return Run(solver, "optimal" if status == cp_model.OPTIMAL else "feasible", progress.found, stop.hit)
