"""Running a CP-SAT model: time limit, workers, progress reports, and Ctrl-C keeping the best
solution found so far (CP-SAT is anytime: a stopped search still holds its best solution and
its proved bound)."""

from __future__ import annotations

import math
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from console.cli import terminated
from console.progress import ProgressFn
from solvers.contract import Budget, SolveError, SolveStats, Status
from solvers.cpsat_lazy import cp_model, solution_callback

Tick = Callable[[float, float, float], None]  # (objective, bound, seconds) at each improvement
TICK_SECONDS = 0.25  # ``ticking`` reports this often while CP-SAT searches


class _Progress:
    """Counts the solutions and reports each (``on_solution``, the solution callback's hook)."""

    def __init__(self, tick: Tick | None) -> None:
        self.tick = tick
        self.found = 0

    def on_solution(self, cb: cp_model.CpSolverSolutionCallback) -> None:
        self.found += 1
        if self.tick is not None:
            self.tick(cb.objective_value, cb.best_objective_bound, cb.wall_time)


class Interrupt:
    """Ctrl-C as a flag that also stops the CP-SAT search in progress, which keeps its best
    solution and proved bound (CP-SAT is anytime). CP-SAT's own SIGINT catching is turned off:
    Python's C-level handler still runs during a solve and writes to a wakeup pipe, and a watcher
    thread reading it calls ``stop_search`` while that search is live (never after it ended:
    that crashed the process once, a malloc abort). So ``hit`` is exact: a search that ran out of
    time is never taken for an interrupted one.

    Between searches (Python code: building a model, replaying a plan) Ctrl-C raises
    KeyboardInterrupt at once, ``hit`` set; once ``hit``, no new search starts (``solve`` and
    ``check`` raise KeyboardInterrupt). The owner of the block catches it and returns its best
    answer so far, marked interrupted, or lets it through when it has none."""

    def __init__(self) -> None:
        self.hit = False
        self.watching = False
        self._lock = threading.Lock()
        self._live: cp_model.CpSolver | None = None
        self._in_solve = False  # the main thread is inside ``solve`` (only it changes this)

    def check(self) -> None:
        """KeyboardInterrupt once interrupted: the next phase of a run does not start."""
        if self.hit:
            raise KeyboardInterrupt

    def solve(self, solver: cp_model.CpSolver, model: cp_model.CpModel,
              callback: cp_model.CpSolverSolutionCallback | None = None) -> Any:
        """``solver.solve`` that Ctrl-C stops (the status and best solution are kept); raises
        KeyboardInterrupt instead of starting when interrupted already."""
        self.check()
        if self.watching:
            solver.parameters.catch_sigint_signal = False
        self._in_solve = True
        try:
            with self._lock:
                self._live = solver
            self.check()  # a Ctrl-C just before: the watcher found no live search to stop
            return solver.solve(model, callback)
        finally:
            with self._lock:
                self._live = None
            self._in_solve = False

    def stop(self) -> None:
        self.hit = True
        while True:  # until the live search has ended (it may not have started when the signal came)
            with self._lock:
                live = self._live
                if live is None:
                    return
                live.stop_search()
            time.sleep(0.02)

    def on_sigint(self) -> None:
        """The Python-level handler (main thread): inside ``solve`` the watcher stops the search;
        anywhere else in the block the run stops here."""
        self.hit = True
        if not self._in_solve:
            raise KeyboardInterrupt


_current: Interrupt | None = None


@contextmanager
def interruptible() -> Iterator[Interrupt]:
    """Ctrl-C (or SIGTERM, which ``console.cli.terminate_as_interrupt`` hands on) inside this block
    ends the CP-SAT search in progress and sets ``hit`` (outside a
    search it raises KeyboardInterrupt, ``hit`` set too); nested blocks share one Interrupt. Off
    the main thread there is no handler (``hit`` stays False)."""
    global _current
    if _current is not None:
        yield _current
        return
    stop = Interrupt()
    stop.hit = terminated()  # after a SIGTERM no new search starts (console.cli.terminated)

    def handler(signum: int, frame: Any) -> None:
        stop.on_sigint()

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
            if signal.SIGINT in data or signal.SIGTERM in data:  # SIGTERM: console.cli hands it on
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


@contextmanager
def ticking(progress: ProgressFn | None, seconds: float, what: str) -> Iterator[Callable[[str], None]]:
    """Progress while the block runs (the main thread waits in CP-SAT, in C): a thread reports
    ``progress(whole seconds spent, the limit in seconds, note)`` every TICK_SECONDS, and once at
    the end. The note is ``what`` and the text last given to the yielded function (e.g. the best
    value and bound so far). Without ``progress`` nothing runs."""
    if progress is None:
        yield lambda text: None
        return
    limit = max(1, math.ceil(seconds))
    t0 = time.monotonic()
    state = {"text": ""}
    done = threading.Event()

    def report() -> None:
        text = state["text"]
        progress(int(time.monotonic() - t0), limit, f"{what}: {text}" if text else what)

    def tick() -> None:
        while not done.wait(TICK_SECONDS):
            report()

    def note(text: str) -> None:
        state["text"] = text

    thread = threading.Thread(target=tick, name="cpsat-progress", daemon=True)
    thread.start()
    try:
        yield note
    finally:
        done.set()
        thread.join()
        report()


@contextmanager
def reporting(progress: ProgressFn | None, seconds: float, what: str) -> Iterator[Tick]:
    """``ticking`` for a CP-SAT run: the yielded Tick notes each improvement's best value and bound."""
    with ticking(progress, seconds, what) as note:
        def improved(value: float, bound: float, spent: float) -> None:
            note(f"best {value:g}, bound {bound:g}")
        yield improved


@dataclass
class Run:
    solver: cp_model.CpSolver
    status: str  # a Status, or "none" (``bound_only``: no solution in time)
    found: int
    interrupted: bool

    def stats(self, t0: float) -> SolveStats:
        return SolveStats("cpsat", time.perf_counter() - t0, bound=self.solver.best_objective_bound,
                          branches=self.solver.num_branches, solutions=self.found,
                          interrupted=self.interrupted)


def run_model(model: cp_model.CpModel, time_limit: float, workers: int, tick: Tick | None = None,
              bound_only: bool = False, clock: tuple[Budget, float] | None = None) -> Run:
    """Solve; a model with no solution (or none before the limit) is a SolveError, unless
    ``bound_only``: then the Run has status "none" and only its proved bound means anything.
    Ctrl-C keeps the best solution (``interrupted``); with none, KeyboardInterrupt. ``clock``: a
    run's Budget and the fraction of it this solve may reach (``Budget.limit``, work units with a
    work limit), charged with the work done, instead of ``time_limit``."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    if clock is not None:
        clock[0].limit(solver, clock[1])
    solver.parameters.num_workers = workers
    progress = _Progress(tick)
    with interruptible() as stop:
        status = stop.solve(solver, model, solution_callback(progress.on_solution))
    if clock is not None:
        clock[0].charge(solver)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE) and bound_only and status != cp_model.INFEASIBLE:
        return Run(solver, "none", 0, stop.hit)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if stop.hit:
            raise KeyboardInterrupt
        raise SolveError(f"CP-SAT found no solution ({solver.status_name(status).lower()}, "
                         f"{solver.wall_time:.1f} s)")
    proved = Status.OPTIMAL if status == cp_model.OPTIMAL else Status.FEASIBLE
    return Run(solver, proved, progress.found, stop.hit)
