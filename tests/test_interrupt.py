"""Ctrl-C and time limits in the CP-SAT runs (solvers/cpsat_run.py ``interruptible``).

A search that runs out of time is not an interrupted one (the flow solver took CP-SAT stopping
0.25-0.5 s before its limit for a Ctrl-C and ended its run early); a SIGINT during a search stops
it, keeps its best solution, and marks the run interrupted."""

from __future__ import annotations

import os
import signal
import threading

from ortools.sat.python import cp_model

from solvers.cpsat_run import interruptible


def _golomb(n: int = 11) -> cp_model.CpModel:
    """A model CP-SAT cannot prove in a few seconds on one worker (an 11-mark Golomb ruler)."""
    m = cp_model.CpModel()
    top = n * n
    marks = [m.new_int_var(0, top, f"m{i}") for i in range(n)]
    m.add(marks[0] == 0)
    for a, b in zip(marks, marks[1:], strict=False):
        m.add(a < b)
    diffs = []
    for i in range(n):
        for j in range(i + 1, n):
            d = m.new_int_var(1, top, f"d{i}_{j}")
            m.add(d == marks[j] - marks[i])
            diffs.append(d)
    m.add_all_different(diffs)
    m.minimize(marks[-1])
    return m


def _solver(seconds: float) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    return solver


def test_a_time_limit_is_not_an_interrupt() -> None:
    with interruptible() as stop:
        for seconds in (0.2, 0.6):
            solver = _solver(seconds)
            status = stop.solve(solver, _golomb())
            assert status in (cp_model.FEASIBLE, cp_model.UNKNOWN)
    assert not stop.hit


def test_sigint_stops_the_search_and_keeps_its_best() -> None:
    solver = _solver(120.0)
    with interruptible() as stop:
        timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        status = stop.solve(solver, _golomb(12))
        timer.join()
        assert stop.hit
        later = stop.solve(_solver(120.0), _golomb(12))  # once interrupted, a new solve returns at once
    assert status == cp_model.FEASIBLE  # stopped with its best ruler so far, not at the 120 s limit
    assert solver.wall_time < 60
    assert later in (cp_model.FEASIBLE, cp_model.UNKNOWN)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the handler is restored


def test_nested_blocks_share_one_interrupt() -> None:
    with interruptible() as outer, interruptible() as inner:
        assert inner is outer
