"""La Isla Bohnita's cross-check (solvers/cross_check.py, registered in its ``EXPANSIONS``): its
positions, ``solo`` against its CP-SAT model (solvers/isla/cpsat/) within ``CPSAT_LIMITS``, and
``coop``/``best`` by exact search checked against P's ``solo`` line (``check_open``)."""

from __future__ import annotations

import random
import time
from typing import Any

from solvers.api import solve
from solvers.contract import BEST, COOP, SOLO, Limits, Objective, SearchLimitExceeded, Solution
from solvers.cross_seeds import EXACT_SECONDS, PLAN, Item, seeded
from solvers.positions import cut, small

# The Isla model's limit in CP-SAT deterministic seconds (Limits.work: the same answer on any machine
# and load), a third for the ladder (a turn of P's line), the rest to prove it; the clock a guard.
CPSAT_WORK = 60.0
CPSAT_SECONDS = 600.0
CPSAT_LIMITS = Limits(time=CPSAT_SECONDS, workers=1, work=CPSAT_WORK)  # ``solo`` against CP-SAT


def positions(count: int, seed: int) -> list[Item]:
    """La Isla Bohnita (I1-I9) positions for ``solo``: cut from seeded greedy-bot games (they sail,
    buy ships and raid) with at most 8 cards left, 3-5 players (the Isla duel has no ``solo``, I9),
    made small for exact search: hands of 1-2 cards, 2-6 cards in the draw pile; P a random seat."""
    def one(rng: random.Random, k: int) -> Item:
        name, n = PLAN[k % len(PLAN)]
        game = rng.randrange(10**6)
        hand, left = rng.choice((1, 2)), rng.randrange(2, 7)
        s = small(cut(name, n, game, 8, {"isla": True}), hand=hand, draw=left)
        p = rng.randrange(n)
        return f"{name} isla {n}p game {game} hands {hand} cards left {len(s.draw)} P=p{p}", s, p

    return seeded(count, seed, f"Isla games cut for {count} positions", one)


def check_open(item: Item, objective: Objective, node_limit: int,
                    exact_seconds: float = EXACT_SECONDS) -> dict[str, Any]:
    """Isla ``coop`` or ``best P`` by exact search against P's Isla ``solo`` line (no second model
    of them yet): the solo line is a legal line, so ``coop`` is at least its total; when it leaves
    every other seat its ``solo`` optimum, ``best P`` is at least P's coins on it; ``best``'s own
    line meets every floor. ``unfinished`` when the open search passes its limits: then its best
    line found (``found``) and the root's proved ``bound``, which must not be below the solo line's
    value either."""
    label, s, p = item
    limits = Limits(time=exact_seconds, nodes=node_limit)
    t0 = time.perf_counter()
    try:
        solo_line = solve(s, SOLO, "exact", p, limits)
    except SearchLimitExceeded:
        return {"label": label, "too_large": True}
    t1 = time.perf_counter()
    out: dict[str, Any] = {"label": label, "too_large": False, "solo_line": solo_line.per_player,
                           "exact_s": t1 - t0}
    try:
        a = solve(s, objective, "exact", p, limits)
    except SearchLimitExceeded as e:
        out |= {"unfinished": True, "open_s": time.perf_counter() - t1, "problems": []}
        if e.best is None or e.best.stats is None or e.best.stats.bound is None:
            return out
        a, bound = e.best, e.best.stats.bound
        out |= {"found": a.value, "bound": bound}
        return out | {"problems": _below_solo(objective, p, solo_line.per_player, a, bound, "proved bound")}
    out |= {"unfinished": False, "exact": a.value, "open_s": time.perf_counter() - t1, "nodes": a.stats.nodes}
    return out | {"problems": _below_solo(objective, p, solo_line.per_player, a, a.value, "")}


def _below_solo(objective: Objective, p: int, solo: list[int], a: Solution, top: float,
                what: str) -> list[str]:
    """What contradicts the solo line (coins ``solo``): ``top`` (the optimum, or a proved bound on
    it, ``what``) below the solo line's value, or ``a``'s line missing a ``best`` floor."""
    problems = []
    name = f"{objective} {what}".strip()
    if objective == COOP and top < sum(solo):
        problems.append(f"{name} {top} below the solo line's total {sum(solo)}")
    floors = (a.stats.floors if a.stats else None) or []
    others = [q for q in range(len(floors)) if q != p]
    if any(a.per_player[q] < floors[q] for q in others):
        problems.append(f"best's line {a.per_player} misses a floor {floors}")
    if objective == BEST and floors and all(solo[q] >= floors[q] for q in others) and top < solo[p]:
        problems.append(f"{name} {top} below P's {solo[p]} on the solo line, which meets every floor")
    return problems
