"""Where tasks run: in this process, on a local process pool, or on Ray (a local instance or a
cluster). Every executor takes the same chunks of tasks and yields each chunk's outcomes as it
completes; the outcomes are the same whatever the executor (only ``seconds`` and ``worker``
differ), because a task's result depends on its parameters and seed alone (studies/tasks.py).

A task that raises is an outcome with ``status: failed`` and the error, never an exception here.
A worker process that dies (a crash, a kill) fails the chunks it held: the pool reruns them in a
fresh pool, then each task of what fails again alone, so only the task that kills its process is
recorded as failed ("the worker process died"). On Ray a lost worker's task is retried by Ray
(``RAY_RETRIES``), then recorded as failed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from typing import Any, Protocol

from console.cli import ignore_interrupts
from console.muted import muted
from model.errors import UsageError
from studies import endgames, simulations

Outcome = dict[str, Any]
Chunk = list[dict[str, Any]]  # tasks as JSON (Task.to_json), run one after the other by one worker

RAY_RETRIES = 2  # Ray's retries of a task whose worker died, before it is recorded as failed
DIED = "the worker process died while running this task (a crash or a kill)"


def execute(task: dict[str, Any]) -> Outcome:
    """Run one task (as JSON): ``{"key", "status": "ok", "result"}`` or ``{"key", "status":
    "failed", "error": "Type: message"}``, with the ``seconds`` it took (wall clock), its ``cpu``
    seconds (the worker process's CPU time, every thread: what a projection counts, unlike the wall
    clock on a shared machine) and the ``worker`` (pid)."""
    t0, c0 = time.perf_counter(), time.process_time()
    out: Outcome = {"key": task["key"]}
    try:
        if task["kind"] == "simulation":
            result = simulations.run_simulation(task["params"])
        elif task["kind"] == "endgame":
            result = endgames.run_endgame(task["params"], task["seed"])
        else:
            raise ValueError(f"unknown task kind {task['kind']!r}")
        out.update(status="ok", result=result)
    except Exception as e:  # a failing task is recorded, whatever it raised; the study goes on
        out.update(status="failed", error=one_line(e))
    out.update(seconds=round(time.perf_counter() - t0, 6), cpu=round(time.process_time() - c0, 6),
               worker=os.getpid())
    return out


def execute_chunk(chunk: Chunk) -> list[Outcome]:
    return [execute(t) for t in chunk]


def one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def failed(task: dict[str, Any], error: str) -> Outcome:
    return {"key": task["key"], "status": "failed", "error": error, "seconds": 0.0, "cpu": 0.0, "worker": 0}


class Executor(Protocol):
    """Runs chunks of tasks; ``run`` yields each chunk's outcomes as the chunk completes."""

    name: str
    workers: int

    def run(self, chunks: Sequence[Chunk]) -> Iterator[list[Outcome]]: ...

    def close(self) -> None: ...


class Inline:
    """Every task in this process, in order (``--workers 1``)."""

    name = "in-process"
    workers = 1

    def run(self, chunks: Sequence[Chunk]) -> Iterator[list[Outcome]]:
        for c in chunks:
            yield execute_chunk(c)

    def close(self) -> None:
        pass


class Pool:
    """A local process pool of ``workers`` processes (forked: they start in milliseconds)."""

    name = "pool"

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise UsageError(f"--workers: at least 1 worker, got {workers}")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _new(self, workers: int) -> ProcessPoolExecutor:
        self._pool = ProcessPoolExecutor(workers, mp_context=get_context("fork"),
                                         initializer=ignore_interrupts)
        return self._pool

    def _round(self, chunks: Sequence[Chunk], workers: int) -> Iterator[tuple[Chunk, list[Outcome] | None]]:
        """Each chunk with its outcomes as it completes, or with None when its worker died."""
        pool = self._new(workers)
        try:
            pending: dict[Future[list[Outcome]], Chunk] = {pool.submit(execute_chunk, c): c for c in chunks}
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    c = pending.pop(f)
                    try:
                        yield c, f.result()
                    except BrokenProcessPool:
                        yield c, None
        finally:
            self.close()

    def run(self, chunks: Sequence[Chunk]) -> Iterator[list[Outcome]]:
        broken: list[Chunk] = list(chunks)
        for _ in range(2):  # the whole pool, then a fresh pool for the chunks of a broken one
            todo, broken = broken, []
            if not todo:
                return
            for c, r in self._round(todo, self.workers):
                if r is None:
                    broken.append(c)
                else:
                    yield r
        for task in (t for c in broken for t in c):  # alone: only the task that kills its process fails
            for _, r in self._round([[task]], 1):
                yield [failed(task, DIED)] if r is None else r

    def close(self) -> None:
        """End the workers now (Ctrl-C, an error): running tasks are dropped, not waited for."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list(getattr(pool, "_processes", {}).values())  # no public way before 3.14
        pool.shutdown(wait=False, cancel_futures=True)
        for p in processes:
            if p.is_alive():
                p.terminate()
        for p in processes:
            p.join(5)


class Ray:
    """Ray: ``address`` None or "auto" starts a local instance of ``workers`` CPUs, unless
    RAY_ADDRESS names a cluster; any other address joins that cluster (``ray.init(address)``).
    The cluster's nodes need this project installed (``pip install -e ".[cluster]"``)."""

    name = "ray"

    def __init__(self, address: str | None, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise UsageError("--ray needs ray: pip install -e '.[cluster]'") from None
        self._ray: Any = ray
        target = os.environ.get("RAY_ADDRESS") if address in (None, "auto") else address
        self.local = not target
        self._started = not ray.is_initialized()
        if self._started:
            kw: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                  "logging_level": "ERROR", "configure_logging": True}
            try:
                with muted(2):  # Ray's C++ core logs each retry on file descriptor 2
                    if self.local:
                        ray.init(num_cpus=workers or os.cpu_count() or 1, **kw)
                    else:
                        ray.init(address=target, **kw)
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise UsageError(f"--ray {target or 'auto'}: cannot start or join Ray: "
                                 f"{one_line(e)}") from None
        self.address = target or "local"
        self.workers = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        self._remote = ray.remote(num_cpus=1, max_retries=RAY_RETRIES)(execute_chunk)

    def run(self, chunks: Sequence[Chunk]) -> Iterator[list[Outcome]]:
        ray = self._ray
        pending = {self._remote.remote(c): c for c in chunks}
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    c = pending.pop(ref)
                    try:
                        yield ray.get(ref)
                    except ray.exceptions.RayError as e:  # a lost worker or node, after the retries
                        yield [failed(t, f"ray: {one_line(e)}") for t in c]
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()


def executor(workers: int | None, ray: str | None) -> Executor:
    """``--ray ADDRESS|auto``: Ray; else ``--workers 1``: in-process; else a pool (default: one
    worker per core)."""
    if ray is not None:
        return Ray(ray, workers)
    n = workers if workers is not None else (os.cpu_count() or 1)
    return Inline() if n == 1 else Pool(n)
