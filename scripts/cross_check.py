"""Exact search vs CP-SAT on seeded random endgame positions: both must find the same optimum.

solo: positions cut from seeded greedy games (rio-grande and amigo, 3-5 players) at a random number
of cards left in the final pass (5-40), whole hands. coop and best: the same cuts made small enough
for exact search (3 players with hands of 1-2 cards and 3-6 cards left, or 4 players with hands of
one card and 2-5 cards left; `solvers.positions.small`). P is a random seat. A position that exact
search cannot finish within --node-limit nodes is counted and replaced, never silently dropped.
Exit 1 on any disagreement or any CP-SAT answer not proved optimal.

Examples:
  python scripts/cross_check.py --objective solo --positions 200 --seed 1
  python scripts/cross_check.py --objective coop --positions 200 --seed 1 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PLAN = [("rio-grande", 3), ("rio-grande", 4), ("rio-grande", 5), ("amigo", 3), ("amigo", 4), ("amigo", 5)]
SMALL = [("rio-grande", 3), ("amigo", 3), ("rio-grande", 4), ("amigo", 4)]


def positions(objective: str, count: int, seed: int) -> list[tuple[str, Any, int]]:
    """(label, position, P) for ``count`` seeded positions (a few spare ones for replacements)."""
    from solvers.positions import PositionInputError, cut, small

    rng = random.Random(seed)
    out: list[tuple[str, Any, int]] = []
    while len(out) < count:
        plan = PLAN if objective == "solo" else SMALL
        name, n = plan[len(out) % len(plan)]
        game = rng.randrange(10**6)
        try:
            if objective == "solo":
                s = cut(name, n, game, rng.randrange(5, 41))
                what = ""
            else:
                hand = rng.choice((1, 2)) if n == 3 else 1
                left = rng.randrange(3, 7) if n == 3 else rng.randrange(2, 6)
                s = small(cut(name, n, game, 8), hand=hand, draw=left)
                what = f" hands {hand}"
        except PositionInputError:
            continue
        p = rng.randrange(n)
        out.append((f"{name} {n}p game {game}{what} cards left {len(s.draw)} P=p{p}", s, p))
    return out


def check(item: tuple[str, Any, int], objective: str, node_limit: int, solver: str = "cpsat"
          ) -> dict[str, Any]:
    """Solve one position both ways (run in a worker process)."""
    from solvers.api import Limits, NodeLimitExceeded, solve

    label, s, p = item
    t0 = time.perf_counter()
    try:
        a = solve(s, objective, "exact", p, Limits(nodes=node_limit))
    except NodeLimitExceeded:
        return {"label": label, "too_large": True}
    t1 = time.perf_counter()
    b = solve(s, objective, "cpsat" if objective == "solo" else solver, p, Limits(time=60, workers=1))
    t2 = time.perf_counter()
    return {"label": label, "too_large": False, "exact": a.value, "cpsat": b.value, "status": b.status,
            "exact_s": t1 - t0, "cpsat_s": t2 - t1, "nodes": a.stats.get("nodes", 0)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--objective", default="solo", choices=("solo", "coop", "best"))
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--node-limit", type=int, default=300_000, help="exact coop/best gives up here")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--solver", default="cpsat", choices=("cpsat", "cpsat-cards"),
                        help="coop/best: the flow model (cpsat) or the older card-by-card model")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.positions < 1 or args.jobs < 1 or args.node_limit < 1:  # --node-limit 0 replaced every cut
        print("cross_check.py: --positions, --jobs and --node-limit must be >= 1", file=sys.stderr)
        return 2

    from functools import partial

    bar = None
    if not args.json and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=args.positions, desc=f"{args.objective} positions", file=sys.stderr)
    done: list[dict[str, Any]] = []
    skipped: list[str] = []
    batch_seed = args.seed
    with ProcessPoolExecutor(args.jobs) as pool:
        while len(done) < args.positions:  # replacements come from the next seed's positions
            need = args.positions - len(done)
            items = positions(args.objective, need, batch_seed)
            batch_seed += 10**6
            for r in pool.map(partial(check, objective=args.objective, node_limit=args.node_limit,
                                             solver=args.solver), items):
                if r["too_large"]:
                    skipped.append(r["label"])
                    continue
                done.append(r)
                if bar is not None:
                    bar.update(1)
    if bar is not None:
        bar.close()
    bad = [f"{r['label']}: exact {r['exact']}, CP-SAT {r['cpsat']} ({r['status']})" for r in done
           if r["exact"] != r["cpsat"] or r["status"] != "optimal"]
    ex = [r["exact_s"] for r in done]
    cp = [r["cpsat_s"] for r in done]
    summary = {
        "objective": args.objective, "positions": len(done), "disagreements": len(bad),
        "too_large_for_exact": len(skipped),
        "exact_median_s": round(statistics.median(ex), 4), "exact_max_s": round(max(ex), 4),
        "cpsat_median_s": round(statistics.median(cp), 4), "cpsat_max_s": round(max(cp), 4),
        "exact_median_nodes": statistics.median(r["nodes"] for r in done),
    }
    if args.json:
        print(json.dumps({**summary, "problems": bad, "replaced": skipped}))
    else:
        for line in bad[:10]:
            print(line)
        print(f"{summary['positions']} {args.objective} positions, {len(bad)} disagreements "
              f"({len(skipped)} replaced: more than {args.node_limit} exact nodes); exact median "
              f"{summary['exact_median_s']} s (max {summary['exact_max_s']}), CP-SAT median "
              f"{summary['cpsat_median_s']} s (max {summary['cpsat_max_s']})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
