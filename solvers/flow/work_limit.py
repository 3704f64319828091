"""A run's two limits: wall-clock seconds and CP-SAT's deterministic work.

CP-SAT counts ``deterministic_time`` in units that do not depend on the machine or its load: with
one worker, the same model and the same limit in those units, it does the same search everywhere.
A run given a work limit splits it between its stages by the same fractions as its time, and
decides when to move on by the work done, not the clock; so when the work limit binds before the
wall-clock one, the run's answer (value, bound, line) is the same on every machine. The wall-clock
limit stays as a guard; the run says which limit stopped it.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model


class RunClock:
    """Seconds since the start and work done, against ``seconds`` and ``work`` (None: no work
    limit). A stage is given the part of the run up to a fraction of both limits."""

    def __init__(self, seconds: float, work: float | None) -> None:
        self.seconds, self.work = seconds, work
        self.t0 = time.perf_counter()
        self.used = 0.0  # CP-SAT deterministic seconds so far

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def fraction(self) -> float:
        """How much of the run is gone: by work when there is a work limit, else by time (past
        the wall-clock limit, 1 either way)."""
        by_time = self.elapsed() / self.seconds
        if self.work is None:
            return by_time
        return 1.0 if by_time >= 1.0 else self.used / self.work

    def limit(self, solver: cp_model.CpSolver, until: float, most: float | None = None) -> None:
        """Give ``solver`` the run up to fraction ``until`` of the limits, and at most ``most``
        (work units with a work limit, else seconds)."""
        if self.work is None:
            secs = self.seconds * until - self.elapsed()
            solver.parameters.max_time_in_seconds = max(min(secs, most or secs), 0.05)
            return
        work = self.work * until - self.used
        solver.parameters.max_deterministic_time = max(min(work, most or work), 0.01)
        solver.parameters.max_time_in_seconds = max(self.seconds - self.elapsed(), 0.05)  # a guard

    def charge(self, solver: cp_model.CpSolver) -> None:
        self.used += solver.response_proto.deterministic_time

    def stopped_by(self) -> str:
        """Which limit ended an unproved run: "time", "work", or "stages" (every stage ran and
        none could narrow the gap further)."""
        if self.elapsed() >= 0.98 * self.seconds:
            return "time"
        if self.work is not None and self.used >= 0.98 * self.work:
            return "work"
        return "stages"


__all__ = ["RunClock"]
