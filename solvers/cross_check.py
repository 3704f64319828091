"""Exact search against CP-SAT on seeded random endgame positions (the work behind
scripts/cross_check.py): both must find the same optimum.

solo: positions cut from seeded greedy games (rio-grande and amigo, 3-5 players) at a random number
of cards left in the final pass (5-40), whole hands. coop and best: the same cuts made small enough
for exact search (3 players with hands of 1-2 cards and 3-6 cards left, or 4 players with hands of
one card and 2-5 cards left; ``solvers.positions.small``). P is a random seat. A position that exact
search cannot finish within its node or time limit is counted and replaced by one from the next
seed's batch, never silently dropped, and never without end: past ``max_replaced`` replacements the
run stops with a SolveError. ``reshuffle`` is the E1 reading the games are played and solved under
(``on-demand``: a pile that runs out at the end of a draw gives one more turn, with nothing turned
up). Never prints; reports through ``progress``.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Iterable, Iterator
from functools import partial
from types import ModuleType
from typing import Any

from console.cli import ignore_interrupts
from console.progress import ProgressFn
from solvers.api import METHODS, methods, solve
from solvers.contract import (
    OBJECTIVES,
    Limits,
    Objective,
    SearchLimitExceeded,
    SolveError,
)
from solvers.cross_seeds import EXACT_SECONDS, PLAN, Item, seeded
from solvers.isla import cross_check as isla_cross_check
from solvers.positions import cut, small

SMALL = [("rio-grande", 3), ("amigo", 3), ("rio-grande", 4), ("amigo", 4)]
REPLACED_PER_POSITION = 100  # positions too large for exact search per position asked, at most
CPSAT_SECONDS = 60.0  # CP-SAT's time limit per position (one worker)

# What can be cross-checked (read from the registry): the objectives both exact search and CP-SAT
# solve, and the CP-SAT methods for those with deals (solo is always checked against ``cpsat``).
# Every expansion's cross-check, one line each: ``positions(count, seed)``, ``check_open`` (coop and
# best) and ``CPSAT_LIMITS`` (its CP-SAT model's limits for solo).
EXPANSIONS: dict[str, ModuleType] = {
    "isla": isla_cross_check,  # La Isla Bohnita (I1-I9)
}

CHECKED = tuple(o for o in OBJECTIVES.values() if {"exact", "cpsat"} <= set(methods(o)))
CPSAT_METHODS = tuple(m for m in METHODS if m != "exact" and any(m in methods(o) for o in CHECKED))


def positions(objective: Objective, count: int, seed: int, reshuffle: str = "at-exhaustion",
              expansion: str | None = None) -> list[Item]:
    """(label, position, P) for ``count`` seeded positions; a game that ends too early for its cut
    is skipped, at most ``TRIES_PER_POSITION * count`` games in all (then a PositionInputError).
    The games use the E1 reading ``reshuffle``; ``expansion``: that expansion's own positions."""
    if expansion is not None:
        own: list[Item] = EXPANSIONS[expansion].positions(count, seed)
        return own
    options = {"reshuffle": reshuffle}
    reading = "" if reshuffle == "at-exhaustion" else f" {reshuffle}"
    trades = objective.trades  # with deals: small positions (exact search's reach)
    plan = SMALL if trades else PLAN

    def one(rng: random.Random, k: int) -> Item:
        name, n = plan[k % len(plan)]
        game = rng.randrange(10**6)
        if not trades:
            s = cut(name, n, game, rng.randrange(5, 41), options)
            what = ""
        else:
            hand = rng.choice((1, 2)) if n == 3 else 1
            left = rng.randrange(3, 7) if n == 3 else rng.randrange(2, 6)
            s = small(cut(name, n, game, 8, options), hand=hand, draw=left)
            what = f" hands {hand}"
        p = rng.randrange(n)
        return f"{name}{reading} {n}p game {game}{what} cards left {len(s.draw)} P=p{p}", s, p

    return seeded(count, seed, f"games cut for {count} {objective} positions", one)


def check(item: Item, objective: Objective, node_limit: int, solver: str = "cpsat",
          exact_seconds: float = EXACT_SECONDS) -> dict[str, Any]:
    """Solve one position both ways; ``too_large`` when exact search passes its node or time limit."""
    label, s, p = item
    part = EXPANSIONS.get(s.setup.expansion)
    if part is not None and objective.trades:
        checked: dict[str, Any] = part.check_open(item, objective, node_limit, exact_seconds)
        return checked
    t0 = time.perf_counter()
    try:
        a = solve(s, objective, "exact", p, Limits(time=exact_seconds, nodes=node_limit))
    except SearchLimitExceeded:
        return {"label": label, "too_large": True}
    t1 = time.perf_counter()
    try:
        b = solve(s, objective, solver if objective.trades else "cpsat", p,
                  Limits(time=CPSAT_SECONDS, workers=1) if part is None else part.CPSAT_LIMITS)
    except SolveError as e:
        if part is None or str(e).startswith("internal error"):
            raise
        if str(e).startswith("CP-SAT found no solution"):  # within its time limit: no answer, no value
            return {"label": label, "too_large": False, "exact": a.value, "cpsat": None, "status": "none",
                    "exact_s": t1 - t0, "cpsat_s": time.perf_counter() - t1, "nodes": a.stats.nodes or 0}
        return {"label": label, "too_large": False, "refused": str(e)}  # the expansion model's refusal
    t2 = time.perf_counter()
    return {"label": label, "too_large": False, "exact": a.value, "cpsat": b.value, "status": b.status,
            "exact_s": t1 - t0, "cpsat_s": t2 - t1, "nodes": a.stats.nodes or 0}


def _results(items: list[Item], jobs: int, **kw: Any) -> Iterator[dict[str, Any]]:
    work = partial(check, **kw)
    if jobs == 1:
        yield from map(work, items)
        return
    pool = multiprocessing.Pool(jobs, initializer=ignore_interrupts)
    try:
        yield from pool.imap(work, items)
        pool.close()
    finally:  # Ctrl-C (KeyboardInterrupt) or an error: the workers end now, not after their position
        pool.terminate()
        pool.join()


def cross_check(objective: Objective, count: int, seed: int, node_limit: int, jobs: int = 1,
                solver: str = "cpsat", progress: ProgressFn | None = None,
                max_replaced: int | None = None, exact_seconds: float = EXACT_SECONDS,
                reshuffle: str = "at-exhaustion", expansion: str | None = None,
                into: dict[str, Any] | None = None) -> dict[str, Any]:
    """``count`` positions solved both ways, in ``jobs`` processes: ``{"done": [check results],
    "replaced": [labels too large for exact search], "refused": [labels and CP-SAT's refusals]}``.
    Replacements come from the next seed's batch (seed + 10**6, ...); more than ``max_replaced``
    (default ``REPLACED_PER_POSITION * count``) is a SolveError. ``progress(positions done, count,
    note)`` after each position.
    Ctrl-C raises KeyboardInterrupt at once (the worker processes are ended); ``into``, when given,
    is the dict returned, filled as each position finishes, so a caller that catches the interrupt
    reports the positions finished before it. ``expansion``: a key of ``EXPANSIONS``, its
    positions (``positions``): ``solo`` against its CP-SAT model; ``coop`` and ``best`` by its
    ``check_open`` (for La Isla Bohnita exact search checked against the solo lines,
    solvers/isla/cross_check.py), a position it does not finish counted ``unfinished``, not replaced."""
    if expansion is not None and expansion not in EXPANSIONS:
        raise SolveError(f"cross-check: --expansion {expansion}: only {', '.join(EXPANSIONS)} is "
                         "cross-checked")
    if count < 1 or jobs < 1 or node_limit < 1:
        raise SolveError(f"cross-check: positions, jobs and node limit must be at least 1, got "
                         f"{count}, {jobs} and {node_limit}")
    cap = REPLACED_PER_POSITION * count if max_replaced is None else max_replaced
    run: dict[str, Any] = {} if into is None else into
    done: list[dict[str, Any]] = run.setdefault("done", [])
    replaced: list[str] = run.setdefault("replaced", [])
    refused: list[str] = run.setdefault("refused", [])  # an expansion: positions CP-SAT refuses
    batch_seed = seed
    while len(done) < count:
        items = positions(objective, count - len(done), batch_seed, reshuffle, expansion)
        batch_seed += 10**6
        results: Iterable[dict[str, Any]] = _results(items, jobs, objective=objective, node_limit=node_limit,
                                                     solver=solver, exact_seconds=exact_seconds)
        for r in results:
            if r["too_large"]:
                replaced.append(r["label"])
                if len(replaced) > cap:
                    raise SolveError(f"cross-check: {len(replaced)} {objective} positions too large for "
                                     f"exact search ({node_limit:,} nodes, {exact_seconds:g} s), more than "
                                     f"{cap} replacements for {count} positions: raise the node limit")
            elif "refused" in r:
                refused.append(f"{r['label']}: {r['refused']}")
                if len(refused) + len(replaced) > cap:
                    raise SolveError(f"cross-check: {len(refused)} {objective} positions refused by CP-SAT "
                                     f"and {len(replaced)} too large for exact search, more than {cap}")
            else:
                done.append(r)
            if progress is not None:
                more = f", {len(refused)} refused" if refused else ""
                progress(len(done), count, f"{len(replaced)} replaced{more}")
    return run
