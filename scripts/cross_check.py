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
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from model import cli  # noqa: E402
from model.errors import UsageError  # noqa: E402

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


MAX_REPLACED = 20  # replacements per position asked before the run gives up (a cap, issue 15)


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (no traceback from each worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True)
    parser.add_argument("--objective", default="solo", choices=("solo", "coop", "best"),
                        help="what both solvers optimise")
    parser.add_argument("--positions", type=cli.at_least(1, "--positions"), default=200,
                        help="positions to compare")
    parser.add_argument("--seed", type=int, default=1, help="the seed positions are cut from")
    parser.add_argument("--node-limit", type=cli.at_least(1, "--node-limit"), default=300_000,
                        help="exact search gives up past this many nodes; the position is replaced")
    parser.add_argument("--jobs", type=cli.at_least(1, "--jobs"), default=os.cpu_count() or 1,
                        help="worker processes")
    parser.add_argument("--solver", default="cpsat", choices=("cpsat", "cpsat-cards"),
                        help="coop/best: the flow model (cpsat) or the older card-by-card model")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    return cli.run("cross_check.py", args, lambda frame: _cross_check(frame, args))


def _cross_check(frame: cli.Frame, args: argparse.Namespace) -> int:
    import multiprocessing
    from functools import partial

    bar = frame.progress(f"{args.objective} positions", total=args.positions, unit="positions")
    done: list[dict[str, Any]] = []
    skipped: list[str] = []
    batch_seed = args.seed
    pool = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork").Pool(
        args.jobs, initializer=_quiet_worker)
    try:
        while len(done) < args.positions:  # replacements come from the next seed's positions
            if len(skipped) > MAX_REPLACED * args.positions:
                raise UsageError(f"{len(skipped)} positions needed more than --node-limit "
                                 f"{args.node_limit} exact nodes (the cap is {MAX_REPLACED} a position); "
                                 "raise --node-limit")
            need = args.positions - len(done)
            items = positions(args.objective, need, batch_seed)
            batch_seed += 10**6
            for r in pool.imap(partial(check, objective=args.objective, node_limit=args.node_limit,
                                       solver=args.solver), items):
                if r["too_large"]:
                    skipped.append(r["label"])
                    continue
                done.append(r)
                bad = sum(r["exact"] != r["cpsat"] or r["status"] != "optimal" for r in done)
                bar(len(done), None, f"{bad} disagreements, {len(skipped)} replaced")
                frame.kept = f"{bad} disagreements in the {len(done)} positions compared so far"
        pool.close()
    finally:
        pool.terminate()
        pool.join()
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
