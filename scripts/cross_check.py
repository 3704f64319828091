"""Exact search vs CP-SAT on seeded random endgame positions: both must find the same optimum.

Positions are cut from seeded greedy games (rio-grande 3-5 players, amigo 3-5 players) at a random
number of cards left in the final pass; P is a random seat. So far the objective `solo` (the
CP-SAT models of coop and best are not built yet). Exit 1 on any disagreement.

Example:
  python scripts/cross_check.py --objective solo --positions 200 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PLAN = [("rio-grande", 3), ("rio-grande", 4), ("rio-grande", 5), ("amigo", 3), ("amigo", 4), ("amigo", 5)]


def positions(count: int, seed: int) -> list[tuple[str, Any, int]]:
    """(label, position, P) for ``count`` seeded positions."""
    from solvers.positions import PositionInputError, cut

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        name, n = PLAN[len(out) % len(PLAN)]
        game, left = rng.randrange(10**6), rng.randrange(5, 41)
        try:
            s = cut(name, n, game, left)
        except PositionInputError:
            continue
        p = rng.randrange(n)
        out.append((f"{name} {n}p game {game} cards left {len(s.draw)} P=p{p}", s, p))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--objective", default="solo", choices=("solo",))
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.positions < 1:
        print("cross_check.py: --positions must be >= 1", file=sys.stderr)
        return 2

    import time

    from solvers.cpsat import solve_solo_cpsat
    from solvers.exact import solve_solo

    items = positions(args.positions, args.seed)
    if not args.json and sys.stderr.isatty():
        from tqdm import tqdm

        items = tqdm(items, desc="positions", file=sys.stderr)  # type: ignore[assignment]
    bad, exact_t, cpsat_t = [], [], []
    for label, s, p in items:
        t0 = time.perf_counter()
        a = solve_solo(s, p)
        t1 = time.perf_counter()
        b = solve_solo_cpsat(s, p, time_limit=60, workers=1)
        t2 = time.perf_counter()
        exact_t.append(t1 - t0)
        cpsat_t.append(t2 - t1)
        if a.value != b.value or b.status != "optimal":
            bad.append(f"{label}: exact {a.value}, CP-SAT {b.value} ({b.status})")
    summary = {
        "objective": args.objective, "positions": len(exact_t), "disagreements": len(bad),
        "exact_median_s": round(statistics.median(exact_t), 4), "exact_max_s": round(max(exact_t), 4),
        "cpsat_median_s": round(statistics.median(cpsat_t), 4), "cpsat_max_s": round(max(cpsat_t), 4),
    }
    if args.json:
        print(json.dumps({**summary, "problems": bad}))
    else:
        for line in bad[:10]:
            print(line)
        print(f"{summary['positions']} {args.objective} positions, {len(bad)} disagreements; exact median "
              f"{summary['exact_median_s']} s (max {summary['exact_max_s']}), CP-SAT median "
              f"{summary['cpsat_median_s']} s (max {summary['cpsat_max_s']})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
