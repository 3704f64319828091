"""How the study runner scales (``scripts/bench.py study``): measured on this machine, projected
on paper for larger ones.

Measured, for each executor (in-process; a pool of 1 and 2; local Ray with 1 and 2 CPUs):
- the start-up (fork a pool, start a Ray instance);
- the overhead per task: the wall time of ``run_study`` on empty tasks (a simulation task of no
  games: the real path, store and journal included), per task, sent one at a time and in chunks;
- tasks per second on a fixed set of real tasks (simulation batches), and the speed-up.

The projection: with ``c`` seconds of work per task and ``d`` seconds per task spent serially by
the driver (submission, reply, the journal's append), ``W`` workers finish ``T`` tasks in about
``max(T c / W, T d)``: the scaling is linear while ``W < c / d``, and flat beyond. Chunking ``k``
tasks per submission divides the per-submission part of ``d`` by ``k``.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

from studies.executors import Executor, Inline, Pool, Ray
from studies.runner import run_study
from studies.spec import Study, parse
from studies.tasks import Task, expand

EMPTY = """name = "empty"
[[simulations]]
name = "e"
rulesets = ["rio-grande"]
players = [4]
games = {tasks}
batch = 1
"""

REAL = """name = "real"
[[simulations]]
name = "r"
rulesets = ["rio-grande", "amigo"]
players = [4]
games = {games}
batch = {batch}
"""


def empty_tasks_of(study: Study) -> list[Task]:
    """The study's simulation tasks with their games taken out: the runner's whole path (worker,
    reply, journal) for no work."""
    return [Task(t.key, t.kind, t.seed, t.params | {"games": [], "seeds": []}) for t in expand(study)]


def _timed(make: Callable[[], Executor], study: Study, chunk: int, runs: int,
           tasks: list[Task] | None = None) -> tuple[float, float, int]:
    """Median start-up seconds, median run seconds and the task count over ``runs`` runs."""
    starts, walls = [], []
    n = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        ex = make()
        starts.append(time.perf_counter() - t0)
        try:
            with tempfile.TemporaryDirectory() as out:
                t1 = time.perf_counter()
                s = run_study(study, out, ex, chunk=chunk, tasks=tasks)
                walls.append(time.perf_counter() - t1)
                n = s.ran
        finally:
            ex.close()
    return statistics.median(starts), statistics.median(walls), n


def bench_study(runs: int = 3, empty_tasks: int = 400, real_games: int = 800, batch: int = 25,
                ray: bool = True, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The measurements of the module docstring, as one JSON-able dict."""
    say = progress or (lambda text: None)
    empty = parse(EMPTY.format(tasks=empty_tasks), "empty.toml")
    nothing = empty_tasks_of(empty)
    real = parse(REAL.format(games=real_games, batch=batch), "real.toml")
    executors: list[tuple[str, int, Callable[[], Executor]]] = [
        ("in-process", 1, Inline), ("pool", 1, lambda: Pool(1)), ("pool", 2, lambda: Pool(2))]
    if ray:
        executors += [("ray", 1, lambda: Ray("auto", 1)), ("ray", 2, lambda: Ray("auto", 2))]
    rows = []
    for name, workers, make in executors:
        row: dict[str, Any] = {"executor": name, "workers": workers}
        for chunk in (1, 20):
            say(f"{name} {workers}: {empty_tasks} empty tasks, chunks of {chunk}")
            start, wall, n = _timed(make, empty, chunk, runs, nothing)
            row[f"overhead_ms_chunk{chunk}"] = 1000 * wall / n
            row["startup_s"] = start
        say(f"{name} {workers}: real tasks")
        _, wall, n = _timed(make, real, 1, max(1, runs - 1))
        row.update(real_tasks=n, real_s=wall, tasks_per_s=n / wall)
        rows.append(row)
    base = rows[0]["tasks_per_s"]
    for r in rows:
        r["speedup"] = r["tasks_per_s"] / base
    task_s = 1.0 / base  # seconds of work per real task, in this process
    return {"rows": rows, "task_seconds": task_s, "games_per_task": batch, "empty_tasks": empty_tasks,
            "projection": projection(rows, task_s)}


def projection(rows: list[dict[str, Any]], task_s: float) -> list[dict[str, Any]]:
    """For each executor with workers > 1 (its per-task overhead ``d`` is the driver's serial cost),
    the projected tasks per second and efficiency for 10, 100 and 1000 workers, one task and 20
    tasks a chunk: ``rate = min(W / (c + d), 1 / d)``, efficiency ``rate (c + d) / W``."""
    out = []
    for r in rows:
        if r["workers"] < 2:
            continue
        for chunk in (1, 20):
            d = r[f"overhead_ms_chunk{chunk}"] / 1000
            cells = []
            for w in (10, 100, 1000):
                rate = min(w / (task_s + d), 1 / d) if d > 0 else w / task_s
                cells.append({"workers": w, "tasks_per_s": rate, "efficiency": rate * (task_s + d) / w})
            out.append({"executor": r["executor"], "chunk": chunk, "driver_ms_per_task": 1000 * d,
                        "linear_up_to": task_s / d if d > 0 else None, "cells": cells})
    return out
