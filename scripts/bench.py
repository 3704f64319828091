"""Benchmarks that print medians and ratios side by side in one run (tests never time anything).

  python scripts/bench.py engine [--runs 5] [--games 100] [--json]
  python scripts/bench.py solvers [--positions 10] [--json]

engine: full random games per second for 3, 4 and 5 players (amigo, rio-grande) with the plain
random bot (ends each trading phase at once; the headline) and with random proposals
(random-trader), the cost per action, and the acceptance command of issue 2 timed end to end
(start-up included, one process).

solvers: for positions by size (cards left in the final pass: 5, 10, 15, 20, 30, 40; 3-5 players,
cut from seeded greedy games, P the player to move), the median and worst time of each solver
per objective, exact nodes per second, the exact/CP-SAT time ratio, and the largest size solved
to proven optimality within 10 s. So far the objective solo (the other models are in progress).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _engine_case(rules_name: str, players: int, bot_name: str, games: int, runs: int) -> dict[str, Any]:
    from model import ruleset
    from solvers.bots import BOTS
    from solvers.simulate import game_seed, play_game

    rules = ruleset(rules_name)
    bots = [BOTS[bot_name]] * players
    rates, per_action, actions_per_game = [], [], []
    for run in range(runs):
        actions = 0
        t0 = time.perf_counter()
        for g in range(games):
            result, _, _, _ = play_game(rules, players, game_seed(run + 1, g), bots)
            actions += result.actions
        dt = time.perf_counter() - t0
        rates.append(games / dt)
        per_action.append(dt / actions * 1e6)
        actions_per_game.append(actions / games)
    return {
        "ruleset": rules_name, "players": players, "bot": bot_name,
        "games_per_s": statistics.median(rates), "us_per_action": statistics.median(per_action),
        "actions_per_game": statistics.median(actions_per_game), "runs": runs, "games": games,
    }


def _acceptance(runs: int) -> dict[str, Any]:
    cmd = [sys.executable, str(ROOT / "scripts" / "simulate.py"), "--players", "4", "--games", "600",
           "--seed", "1", "--ruleset", "amigo", "--bots", "random", "--json"]
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
        times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    return {"command": " ".join(cmd[1:]), "seconds": med, "games_per_s": 600 / med, "runs": runs}


def bench_engine(runs: int, games: int, show: bool) -> dict[str, Any]:
    cases = []
    plan = [(r, n, b) for r in ("amigo", "rio-grande") for n in (3, 4, 5)
            for b in ("random", "random-trader")]
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=len(plan) + 1, desc="bench engine", file=sys.stderr)
    for r, n, b in plan:
        cases.append(_engine_case(r, n, b, games, runs))
        if bar is not None:
            bar.update()
    acceptance = _acceptance(runs)
    if bar is not None:
        bar.update()
        bar.close()
    return {"cases": cases, "acceptance": acceptance}


def print_engine(res: dict[str, Any]) -> None:
    cases = {(c["ruleset"], c["players"], c["bot"]): c for c in res["cases"]}
    print("engine: full games per second, median of runs (random = ends trading at once)")
    print(f"{'ruleset':<11}{'players':>8}{'random g/s':>12}{'us/action':>11}{'actions/g':>11}"
          f"{'trader g/s':>12}{'us/action':>11}{'actions/g':>11}{'ratio':>8}")
    for (r, n, b), c in cases.items():
        if b != "random":
            continue
        t = cases[(r, n, "random-trader")]
        print(f"{r:<11}{n:>8}{c['games_per_s']:>12.0f}{c['us_per_action']:>11.2f}"
              f"{c['actions_per_game']:>11.0f}{t['games_per_s']:>12.0f}{t['us_per_action']:>11.2f}"
              f"{t['actions_per_game']:>11.0f}{c['games_per_s'] / t['games_per_s']:>7.2f}x")
    a = res["acceptance"]
    print(f"\nacceptance: {a['command']}\n  {a['seconds']:.3f} s for 600 games, start-up included "
          f"= {a['games_per_s']:.0f} games/s (target >= 300), median of {a['runs']} runs")


SIZES = (5, 10, 15, 20, 30, 40)


def bench_solvers(positions: int, show: bool) -> dict[str, Any]:
    import random

    from solvers.cpsat import solve_solo_cpsat
    from solvers.exact import solve_solo
    from solvers.positions import PositionInputError, cut

    rows = []
    plan = [(size, n) for size in SIZES for n in (3, 4, 5)]
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=len(plan), desc="bench solvers", file=sys.stderr)
    for size, n in plan:
        rng = random.Random(size * 10 + n)
        exact_t, cpsat_t, rates, left, optimal = [], [], [], [], 0
        while len(exact_t) < positions:
            try:
                s = cut(("rio-grande", "amigo")[len(exact_t) % 2], n, rng.randrange(10**6), size)
            except PositionInputError:
                continue
            t0 = time.perf_counter()
            a = solve_solo(s)
            t1 = time.perf_counter()
            b = solve_solo_cpsat(s, time_limit=10, workers=1)
            t2 = time.perf_counter()
            if a.value != b.value and b.status == "optimal":
                raise SystemExit(f"bench.py: exact {a.value} and CP-SAT {b.value} disagree")
            optimal += b.status == "optimal"
            exact_t.append(t1 - t0)
            cpsat_t.append(t2 - t1)
            rates.append(a.stats["nodes"] / max(t1 - t0, 1e-9))
            left.append(len(s.draw))
        rows.append({
            "objective": "solo", "cards_left": size, "players": n, "positions": positions,
            "median_cards_left": statistics.median(left),
            "exact_median_s": statistics.median(exact_t), "exact_worst_s": max(exact_t),
            "exact_nodes_per_s": statistics.median(rates),
            "cpsat_median_s": statistics.median(cpsat_t), "cpsat_worst_s": max(cpsat_t),
            "cpsat_proved": optimal,
            "ratio": statistics.median(exact_t) / statistics.median(cpsat_t),
        })
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    largest = {}
    for solver in ("exact", "cpsat"):
        ok = [r["cards_left"] for r in rows if r[f"{solver}_worst_s"] <= 10
              and (solver == "exact" or r["cpsat_proved"] == r["positions"])]
        largest[solver] = max(ok) if ok else None
    return {"rows": rows, "largest_within_10s": largest}


def print_solvers(res: dict[str, Any]) -> None:
    print("solvers: solo, seconds per position (median / worst), both solvers on the same positions;\n"
          "positions cut at the first turn start with at most 'cut at' cards left ('left': median)")
    print(f"{'cut at':>6}{'left':>6}{'players':>8}{'exact med':>11}{'worst':>9}{'nodes/s':>10}"
          f"{'cp-sat med':>12}{'worst':>9}{'proved':>8}{'exact/cp-sat':>14}")
    for r in res["rows"]:
        print(f"{r['cards_left']:>6}{r['median_cards_left']:>6g}{r['players']:>8}{r['exact_median_s']:>11.4f}{r['exact_worst_s']:>9.3f}"
              f"{r['exact_nodes_per_s']:>10.0f}{r['cpsat_median_s']:>12.3f}{r['cpsat_worst_s']:>9.3f}"
              f"{r['cpsat_proved']:>5}/{r['positions']:<2}{r['ratio']:>13.3f}x")
    big = res["largest_within_10s"]
    print(f"largest size proved optimal within 10 s (every position): exact {big['exact']} cards left, "
          f"CP-SAT {big['cpsat']} cards left")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", choices=["engine", "solvers"])
    parser.add_argument("--positions", type=int, default=10, help="solvers: positions per size")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.games < 1:
        print("bench.py: --runs and --games must be >= 1", file=sys.stderr)
        return 2
    show = not args.json and sys.stderr.isatty()
    if args.suite == "solvers":
        if args.positions < 1:
            print("bench.py: --positions must be >= 1", file=sys.stderr)
            return 2
        res = bench_solvers(args.positions, show)
    else:
        res = bench_engine(args.runs, args.games, show)
    if args.json:
        print(json.dumps(res))
    elif args.suite == "solvers":
        print_solvers(res)
    else:
        print_engine(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
