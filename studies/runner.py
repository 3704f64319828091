"""Run a study: expand it, skip what the store already holds, run the rest on an executor, and
append each outcome to the journal as it arrives; at the end (or at Ctrl-C) write the results.

Small tasks are sent ``chunk`` at a time (one submission, one worker, one reply), so an
executor's fixed cost per submission is paid once per chunk (scripts/bench.py study measures it).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from console.progress import ProgressFn
from studies.executors import Executor
from studies.spec import Study
from studies.store import Store
from studies.tasks import Task, expand


@dataclass
class RunSummary:
    """What one run did: ``tasks`` in the study (or the slice), ``skipped`` (finished before),
    ``ran``, ``failed`` (of all finished), the results file, and seconds (the run's wall clock; the
    tasks' wall and CPU seconds summed by group, for the projection of a slice)."""

    study: str
    tasks: int
    skipped: int
    ran: int
    failed: int
    results: str
    executor: str
    workers: int
    seconds: float
    task_seconds: dict[str, float] = field(default_factory=dict)
    task_cpu: dict[str, float] = field(default_factory=dict)
    complete: bool = True
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"study": self.study, "tasks": self.tasks, "skipped": self.skipped, "ran": self.ran,
                "failed": self.failed, "complete": self.complete, "results": self.results,
                "executor": self.executor, "workers": self.workers, "seconds": round(self.seconds, 3),
                "task_seconds": {k: round(v, 3) for k, v in self.task_seconds.items()},
                "task_cpu_seconds": {k: round(v, 3) for k, v in self.task_cpu.items()},
                "errors": self.errors}


def sliced(tasks: list[Task], count: int | None) -> list[Task]:
    """``count`` tasks spread evenly over the list (every group represented when count allows)."""
    if count is None or count >= len(tasks):
        return tasks
    return [tasks[i * len(tasks) // count] for i in range(count)]


def chunks(tasks: list[Task], size: int) -> list[list[dict[str, Any]]]:
    return [[t.to_json() for t in tasks[i:i + size]] for i in range(0, len(tasks), size)]


def group_of(key: str) -> str:
    return key.rsplit("/", 1)[0]


def run_study(study: Study, out: str | os.PathLike[str], executor: Executor, *, chunk: int = 1,
              max_tasks: int | None = None, retry_failed: bool = False, force: bool = False,
              progress: ProgressFn | None = None,
              on_outcome: Callable[[dict[str, Any]], None] | None = None,
              tasks: list[Task] | None = None) -> RunSummary:
    """Run ``study`` into directory ``out`` (studies/store.py); see the module docstring.
    ``progress(done, total, note)`` after each chunk; ``tasks``: these instead of the study's own
    (scripts/bench.py study: empty tasks). KeyboardInterrupt: the results so far are written, then
    it propagates."""
    t0 = time.perf_counter()
    tasks = sliced(expand(study) if tasks is None else tasks, max_tasks)
    store = Store(out, study, force)
    finished = store.finished()
    keys = {t.key for t in tasks}
    finished = {k: o for k, o in finished.items() if k in keys}
    todo = [t for t in tasks
            if t.key not in finished or (retry_failed and finished[t.key]["status"] == "failed")]
    skipped = len(tasks) - len(todo)
    ran = 0
    seconds: dict[str, float] = {}
    cpu: dict[str, float] = {}
    complete = False
    try:
        if progress is not None:
            progress(skipped, len(tasks), _note(finished))
        for outcomes in executor.run(chunks(todo, max(1, chunk))):
            store.append(outcomes)
            for o in outcomes:
                finished[o["key"]] = o
                g = group_of(o["key"])
                seconds[g] = seconds.get(g, 0.0) + float(o.get("seconds", 0.0))
                cpu[g] = cpu.get(g, 0.0) + float(o.get("cpu", 0.0))
                if on_outcome is not None:
                    on_outcome(o)
            ran += len(outcomes)
            if progress is not None:
                progress(skipped + ran, len(tasks), _note(finished))
        complete = True
    finally:
        path = store.write_results(tasks, finished)
    failed = [o for o in finished.values() if o["status"] == "failed"]
    return RunSummary(study.name, len(tasks), skipped, ran, len(failed), str(path), executor.name,
                      executor.workers, time.perf_counter() - t0, seconds, cpu, complete,
                      [f"{o['key']}: {o['error']}" for o in failed])


def _note(finished: dict[str, dict[str, Any]]) -> str:
    bad = sum(1 for o in finished.values() if o["status"] == "failed")
    return f"{bad} failed" if bad else ""


def project(study: Study, seconds: dict[str, float], ran: int) -> dict[str, Any]:
    """The whole study's cost from a slice of ``ran`` tasks (``sliced``) whose task seconds summed
    per group are ``seconds`` (CPU seconds, ``RunSummary.task_cpu``: the wall clock of a task on
    a shared machine counts the other jobs' time too): each group's task count times its mean
    seconds a task, or for a group the slice missed, the mean of the measured groups of the same
    study entry (``end/NAME``, ``sim/NAME``), else of all measured tasks."""
    tasks = expand(study)
    count: dict[str, int] = {}
    for t in tasks:
        count[group_of(t.key)] = count.get(group_of(t.key), 0) + 1
    measured: dict[str, int] = {}
    for t in sliced(tasks, ran):
        measured[group_of(t.key)] = measured.get(group_of(t.key), 0) + 1
    per_task = {g: seconds.get(g, 0.0) / k for g, k in measured.items()}

    def entry(g: str) -> str:
        return "/".join(g.split("/")[:2])

    by_entry: dict[str, list[float]] = {}
    for g, x in per_task.items():
        by_entry.setdefault(entry(g), []).append(x)
    overall = sum(per_task.values()) / max(1, len(per_task))
    cpu = 0.0
    for g, n in count.items():
        near = by_entry.get(entry(g))
        cpu += n * per_task.get(g, sum(near) / len(near) if near else overall)
    return {"cpu_seconds": round(cpu, 1), "cpu_hours": round(cpu / 3600, 3),
            "hours_on_2_cores": round(cpu / 7200, 3), "groups_measured": len(measured), "groups": len(count)}
