"""Benchmarks that print medians and ratios side by side in one run (tests never time anything).

  python scripts/bench.py engine [--runs 5] [--games 100] [--json]
  python scripts/bench.py solvers [--objective solo|coop|best|duel] [--positions 10] [--json]

engine: full random games per second for 3, 4 and 5 players (amigo, rio-grande) with the plain
random bot (ends each trading phase at once; the headline) and with random proposals
(random-trader), the cost per action, and the acceptance command of issue 2 timed end to end
(start-up included, one process).

solvers --objective solo (the default): positions by size (cards left in the final pass: 5, 10,
15, 20, 30, 40; 3-5 players, cut from seeded greedy games, P the player to move): the median and
worst time of each solver, exact nodes per second, the exact/CP-SAT time ratio, and the largest
size solved to proven optimality within 10 s.

solvers --objective coop|best [--hand 5] [--time-limit 10] [--workers 1] [--node-limit N]: the
same cuts (5-20 cards left, 3-5 players) with hands shortened to --hand cards; CP-SAT's median
and worst time, how many it proved optimal, the median gap to its bound, and exact search on the
same positions up to the node limit (it finishes only the smallest).

solvers --objective coop|best --real [--positions 20] [--time-limit 15]: real hands, the flow
solver (solve_endgame.py --solver cpsat) beside the older card-by-card model (--solver
cpsat-cards) on the same positions, one worker each: the built-in real-hand positions, then
seeded 4-player cuts with about 10 cards left, hands whole and cut to 5 and 8 cards. Per group:
proved count, median and worst time, median gap to the proved bound when not proved, and the
median value of each.

solvers --objective coop|best --growth [--positions 3] [--time-limit 20]: the flow solver on
rio-grande cuts with real hands at 5, 10, 15, 20 and 30 cards left, 4 and 5 players: proved count,
median and worst time, median and worst gap when not proved.

solvers --objective duel: bean-duel cuts at 5, 10, 12 and 15 cards left, alpha-beta search.

trades [--positions 3] [--runs 3]: the trade graph of trading phases 10 cards from the end
(3-5 players, hands cut to 1, 2, 3, 5 cards or whole): candidate deals (2 cards a side), the
median and worst time to map them, deals valued per second, the value cache's hit rate, and on
hands of up to 3 cards the time without the memo (a new search per value) and the ratio.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, installed or not

ROOT = Path(__file__).resolve().parent.parent


def _engine_case(rules_name: str, players: int, bot_name: str, games: int, runs: int,
                 isla: bool = False) -> dict[str, Any]:
    from model import ruleset
    from play.bots import BOTS
    from play.playout import game_seed, play_game

    rules = ruleset(rules_name, {"isla": True} if isla else None)
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
        "ruleset": rules_name, "players": players, "bot": bot_name, "isla": isla,
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
    plan = [(r, n, b, False) for r in ("amigo", "rio-grande") for n in (3, 4, 5)
            for b in ("random", "random-trader")]
    # La Isla Bohnita next to the base game it extends: the same bots, player counts and seeds.
    plan += [("rio-grande", n, b, isla) for n in (2, 4, 6) for b in ("random", "greedy")
             for isla in (False, True)]
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=len(plan) + 1, desc="bench engine", file=sys.stderr)
    for r, n, b, isla in plan:
        cases.append(_engine_case(r, n, b, games, runs, isla))
        if bar is not None:
            bar.update()
    acceptance = _acceptance(runs)
    if bar is not None:
        bar.update()
        bar.close()
    return {"cases": cases, "acceptance": acceptance}


def print_engine(res: dict[str, Any]) -> None:
    cases = {(c["ruleset"], c["players"], c["bot"]): c for c in res["cases"] if not c["isla"]}
    print("engine: full games per second, median of runs (random = ends trading at once)")
    print(f"{'ruleset':<11}{'players':>8}{'random g/s':>12}{'us/action':>11}{'actions/g':>11}"
          f"{'trader g/s':>12}{'us/action':>11}{'actions/g':>11}{'ratio':>8}")
    for (r, n, b), c in cases.items():
        if b != "random" or (r, n, "random-trader") not in cases:
            continue
        t = cases[(r, n, "random-trader")]
        print(f"{r:<11}{n:>8}{c['games_per_s']:>12.0f}{c['us_per_action']:>11.2f}"
              f"{c['actions_per_game']:>11.0f}{t['games_per_s']:>12.0f}{t['us_per_action']:>11.2f}"
              f"{t['actions_per_game']:>11.0f}{c['games_per_s'] / t['games_per_s']:>7.2f}x")
    isla = {(c["players"], c["bot"]): c for c in res["cases"] if c["isla"]}
    print("\nLa Isla Bohnita (isla=true) next to the base game, rio-grande, same seeds")
    print(f"{'players':>7} {'bot':<8}{'base g/s':>10}{'us/action':>11}{'isla g/s':>10}{'us/action':>11}"
          f"{'actions/g':>11}{'us/action ratio':>17}")
    for (n, b), c in isla.items():
        base = next(x for x in res["cases"] if not x["isla"] and x["ruleset"] == "rio-grande"
                    and x["players"] == n and x["bot"] == b)
        print(f"{n:>7} {b:<8}{base['games_per_s']:>10.0f}{base['us_per_action']:>11.2f}"
              f"{c['games_per_s']:>10.0f}{c['us_per_action']:>11.2f}{c['actions_per_game']:>11.0f}"
              f"{c['us_per_action'] / base['us_per_action']:>16.2f}x")
    a = res["acceptance"]
    print(f"\nacceptance: {a['command']}\n  {a['seconds']:.3f} s for 600 games, start-up included "
          f"= {a['games_per_s']:.0f} games/s (target >= 300), median of {a['runs']} runs")


SIZES = (5, 10, 15, 20, 30, 40)


def bench_solvers(positions: int, show: bool) -> dict[str, Any]:
    import random

    from solvers.api import Limits, solve
    from solvers.positions import PositionInputError, cut

    rows: list[dict[str, Any]] = []
    plan = [(size, n) for size in SIZES for n in (3, 4, 5)]
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=len(plan), desc="bench solvers", file=sys.stderr)
    for size, n in plan:
        rng = random.Random(size * 10 + n)
        exact_t: list[float] = []
        cpsat_t: list[float] = []
        rates: list[float] = []
        left: list[int] = []
        optimal = 0
        while len(exact_t) < positions:
            try:
                s = cut(("rio-grande", "amigo")[len(exact_t) % 2], n, rng.randrange(10**6), size)
            except PositionInputError:
                continue
            t0 = time.perf_counter()
            a = solve(s, "solo", "exact")
            t1 = time.perf_counter()
            b = solve(s, "solo", "cpsat", limits=Limits(time=10, workers=1))
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


OPEN_SIZES = (5, 10, 15, 20)


def bench_open(objective: str, positions: int, hand: int, time_limit: float, node_limit: int,
               show: bool, workers: int = 1) -> dict[str, Any]:
    """coop or best: CP-SAT (one worker) on cuts with hands shortened to ``hand`` cards; exact
    search on the same positions up to ``node_limit`` nodes (it finishes only the smallest)."""
    import random

    from solvers.api import Limits, NodeLimitExceeded, solve
    from solvers.positions import PositionInputError, cut, small

    rows: list[dict[str, Any]] = []
    plan = [(size, n) for size in OPEN_SIZES for n in (3, 4, 5)]
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=len(plan) * positions, desc=f"bench {objective}", file=sys.stderr)
    for size, n in plan:
        rng = random.Random(size * 10 + n)
        cp_t: list[float] = []
        ex_t: list[float] = []
        rates: list[float] = []
        left: list[int] = []
        gaps: list[float] = []
        proved = exact_done = 0
        while len(cp_t) < positions:
            try:
                s = small(cut(("rio-grande", "amigo")[len(cp_t) % 2], n, rng.randrange(10**6), size),
                          hand=hand, draw=99)
            except PositionInputError:
                continue
            t0 = time.perf_counter()
            b = solve(s, objective, "cpsat", limits=Limits(time=time_limit, workers=workers))
            cp_t.append(time.perf_counter() - t0)
            proved += b.status == "optimal"
            if b.bound is not None:  # None: stopped before any bound was proved
                gaps.append(float(b.bound) - b.value)
            left.append(len(s.draw))
            t0 = time.perf_counter()
            try:
                a = solve(s, objective, "exact", limits=Limits(nodes=node_limit))
            except NodeLimitExceeded:
                pass
            else:
                exact_done += 1
                ex_t.append(time.perf_counter() - t0)
                rates.append(a.stats["nodes"] / max(ex_t[-1], 1e-9))
                if b.status == "optimal" and a.value != b.value:
                    raise SystemExit(f"bench.py: exact {a.value} and CP-SAT {b.value} disagree")
            if bar is not None:
                bar.update()
        rows.append({
            "objective": objective, "cards_left": size, "players": n, "positions": positions, "hand": hand,
            "workers": workers,
            "median_cards_left": statistics.median(left),
            "cpsat_median_s": statistics.median(cp_t), "cpsat_worst_s": max(cp_t), "cpsat_proved": proved,
            "cpsat_median_gap": statistics.median(gaps) if gaps else None,
            "exact_solved": exact_done, "exact_median_s": statistics.median(ex_t) if ex_t else None,
            "exact_nodes_per_s": statistics.median(rates) if rates else None,
            "ratio": statistics.median(ex_t) / statistics.median(cp_t) if ex_t else None,
        })
    if bar is not None:
        bar.close()
    ok = [r["cards_left"] for r in rows if r["cpsat_proved"] == r["positions"] and r["cpsat_worst_s"] <= 10]
    return {"rows": rows, "largest_within_10s": {"cpsat": max(ok) if ok else None}}


REAL_NAMES = ("rio4-last", "rio4-10", "amigo4-10", "rio5-15", "rio4-20")


def _real_groups(positions: int) -> list[tuple[str, list[Any]]]:
    import random

    from solvers.positions import LIBRARY, PositionInputError, cut, small

    groups: list[tuple[str, list[Any]]] = [("built-in", [LIBRARY[n].position() for n in REAL_NAMES])]
    for hand in (5, 8, None):
        rng = random.Random(1000 + (hand or 0))
        got: list[Any] = []
        while len(got) < positions:
            try:
                s = cut(("rio-grande", "amigo")[len(got) % 2], 4, rng.randrange(10**6), 10)
            except PositionInputError:
                continue
            got.append(small(s, hand=hand, draw=99) if hand else s)
        groups.append((f"4p ~10 left, hand {hand or 'whole'}", got))
    return groups


def bench_real(objective: str, positions: int, time_limit: float, show: bool) -> dict[str, Any]:
    """The flow solver and the card-by-card model side by side on real hands (one worker)."""
    from solvers.api import Limits, SolveError, solve

    groups = _real_groups(positions)
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=sum(len(g) for _, g in groups), desc=f"bench {objective} real", file=sys.stderr)
    rows: list[dict[str, Any]] = []
    for label, states in groups:
        res: dict[str, dict[str, list[Any]]] = {m: {"t": [], "proved": [], "gap": [], "value": []}
                                                for m in ("flow", "cards")}
        for s in states:
            for method in ("flow", "cards"):
                t0 = time.perf_counter()
                try:
                    sol = solve(s, objective, "cpsat" if method == "flow" else "cpsat-cards",
                                limits=Limits(time=time_limit, workers=1))
                except SolveError:
                    sol = None
                r = res[method]
                r["t"].append(time.perf_counter() - t0)
                if sol is None:
                    r["proved"].append(False)
                    continue
                r["proved"].append(sol.status == "optimal")
                r["value"].append(sol.value)
                if sol.status != "optimal" and sol.bound is not None:
                    r["gap"].append(float(sol.bound) - sol.value)
            if bar is not None:
                bar.update()
        row: dict[str, Any] = {"group": label, "positions": len(states), "objective": objective,
                               "time_limit": time_limit}
        for method, r in res.items():
            row[method] = {"proved": sum(r["proved"]), "median_s": statistics.median(r["t"]),
                           "worst_s": max(r["t"]),
                           "median_gap": statistics.median(r["gap"]) if r["gap"] else None,
                           "median_value": statistics.median(r["value"]) if r["value"] else None,
                           "answered": len(r["value"])}
        rows.append(row)
    if bar is not None:
        bar.close()
    return {"rows": rows}


def print_real(res: dict[str, Any]) -> None:
    r0 = res["rows"][0]
    print(f"{r0['objective']} on real hands, one worker, {r0['time_limit']:g} s a position: the flow solver "
          "(--solver cpsat) beside the card-by-card model (--solver cpsat-cards)")
    print(f"{'group':<26}{'n':>3} | {'proved':>7}{'med s':>7}{'worst':>7}{'gap':>5}{'value':>7} | "
          f"{'proved':>7}{'med s':>7}{'worst':>7}{'gap':>5}{'value':>7}")
    for r in res["rows"]:
        cells = []
        for m in ("flow", "cards"):
            x = r[m]
            gap = "-" if x["median_gap"] is None else format(x["median_gap"], "g")
            val = "-" if x["median_value"] is None else format(x["median_value"], "g")
            cells.append(f"{x['proved']:>4}/{r['positions']:<2}{x['median_s']:>7.2f}{x['worst_s']:>7.2f}"
                         f"{gap:>5}{val:>7}")
        print(f"{r['group']:<26}{r['positions']:>3} | {cells[0]} | {cells[1]}")


def bench_growth(objective: str, positions: int, time_limit: float, show: bool) -> dict[str, Any]:
    """How the flow solver's proofs and gaps grow with cards left and players (real hands)."""
    import random

    from solvers.api import Limits, SolveError, solve
    from solvers.positions import PositionInputError, cut

    plan = [(n, left) for n in (4, 5) for left in (5, 10, 15, 20, 30)]
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=len(plan) * positions, desc=f"bench {objective} growth", file=sys.stderr)
    rows: list[dict[str, Any]] = []
    for n, size in plan:
        rng = random.Random(7000 + 10 * n + size)
        times: list[float] = []
        gaps: list[float] = []
        lefts: list[int] = []
        proved = none = 0
        while len(times) < positions:
            try:
                s = cut("rio-grande", n, rng.randrange(10**6), size)
            except PositionInputError:
                continue
            t0 = time.perf_counter()
            try:
                sol = solve(s, objective, "cpsat", limits=Limits(time=time_limit, workers=1))
            except SolveError:
                none += 1
                sol = None
            times.append(time.perf_counter() - t0)
            lefts.append(len(s.draw))
            if sol is not None:
                proved += sol.status == "optimal"
                if sol.status != "optimal" and sol.bound is not None:
                    gaps.append(sol.bound - sol.value)
            if bar is not None:
                bar.update()
        rows.append({"players": n, "cut_at": size, "median_left": statistics.median(lefts),
                     "positions": positions, "proved": proved, "no_plan": none,
                     "median_s": statistics.median(times), "worst_s": max(times),
                     "median_gap": statistics.median(gaps) if gaps else None,
                     "worst_gap": max(gaps) if gaps else None})
    if bar is not None:
        bar.close()
    return {"objective": objective, "time_limit": time_limit, "rows": rows}


def print_growth(res: dict[str, Any]) -> None:
    print(f"{res['objective']}: the flow solver on rio-grande cuts with real hands, one worker, "
          f"{res['time_limit']:g} s a position")
    print(f"{'players':>7}{'cut at':>7}{'left':>6}{'proved':>8}{'med s':>8}{'worst':>8}{'gap med':>8}"
          f"{'worst':>6}{'no plan':>8}")
    for r in res["rows"]:
        g = "-" if r["median_gap"] is None else format(r["median_gap"], "g")
        w = "-" if r["worst_gap"] is None else format(r["worst_gap"], "g")
        print(f"{r['players']:>7}{r['cut_at']:>7}{r['median_left']:>6g}{r['proved']:>5}/{r['positions']:<2}"
              f"{r['median_s']:>8.2f}{r['worst_s']:>8.2f}{g:>8}{w:>6}{r['no_plan']:>8}")


def print_open(res: dict[str, Any]) -> None:
    r0 = res["rows"][0]
    print(f"{r0['objective']}: CP-SAT ({r0['workers']} worker(s), time limit) and exact search (node "
          f"limit) on the same positions, hands cut to {r0['hand']} cards; seconds per position")
    print(f"{'cut at':>6}{'left':>6}{'players':>8}{'cp-sat med':>12}{'worst':>9}{'proved':>8}{'gap':>5}"
          f"{'exact solved':>14}{'exact med':>11}{'nodes/s':>10}{'exact/cp-sat':>14}")
    for r in res["rows"]:
        gap = "-" if r["cpsat_median_gap"] is None else format(r["cpsat_median_gap"], "g")
        ex = f"{r['exact_median_s']:>11.3f}{r['exact_nodes_per_s']:>10.0f}{r['ratio']:>13.3f}x" \
            if r["exact_median_s"] is not None else f"{'-':>11}{'-':>10}{'-':>14}"
        print(f"{r['cards_left']:>6}{r['median_cards_left']:>6g}{r['players']:>8}{r['cpsat_median_s']:>12.3f}"
              f"{r['cpsat_worst_s']:>9.3f}{r['cpsat_proved']:>5}/{r['positions']:<2}{gap:>5}"
              f"{r['exact_solved']:>11}/{r['positions']:<2}{ex}")
    print(f"largest size CP-SAT proved optimal within 10 s (every position): "
          f"{res['largest_within_10s']['cpsat']} cards left")


DUEL_SIZES = (5, 10, 12, 15)


def bench_duel(positions: int, node_limit: int, show: bool) -> dict[str, Any]:
    """duel: alpha-beta on bean-duel cuts by size (exact search only: CP-SAT has no duel model)."""
    import random

    from solvers.api import Limits, solve
    from solvers.exact import SolveError
    from solvers.positions import PositionInputError, cut

    rows: list[dict[str, Any]] = []
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=len(DUEL_SIZES) * positions, desc="bench duel", file=sys.stderr)
    for size in DUEL_SIZES:
        rng = random.Random(size)
        times: list[float] = []
        rates: list[float] = []
        left: list[int] = []
        failed = 0
        while len(times) + failed < positions:
            try:
                s = cut("rio-grande", 2, rng.randrange(10**6), size)
            except PositionInputError:
                continue
            t0 = time.perf_counter()
            try:
                sol = solve(s, "duel", "exact", limits=Limits(nodes=node_limit))
            except SolveError:
                failed += 1
            else:
                times.append(time.perf_counter() - t0)
                rates.append(sol.stats["nodes"] / max(times[-1], 1e-9))
                left.append(len(s.draw))
            if bar is not None:
                bar.update()
        rows.append({"objective": "duel", "cards_left": size, "players": 2, "positions": positions,
                     "solved": len(times), "median_cards_left": statistics.median(left) if left else None,
                     "median_s": statistics.median(times) if times else None,
                     "worst_s": max(times) if times else None,
                     "nodes_per_s": statistics.median(rates) if rates else None})
    if bar is not None:
        bar.close()
    ok = [r["cards_left"] for r in rows if r["solved"] == r["positions"] and r["worst_s"] <= 10]
    return {"rows": rows, "node_limit": node_limit, "largest_within_10s": {"exact": max(ok) if ok else None}}


def print_duel(res: dict[str, Any]) -> None:
    print(f"duel: alpha-beta, seconds per position (node limit {res['node_limit']})")
    print(f"{'cut at':>6}{'left':>6}{'solved':>8}{'median':>9}{'worst':>9}{'nodes/s':>10}")
    for r in res["rows"]:
        if r["median_s"] is None:
            print(f"{r['cards_left']:>6}{'-':>6}{0:>5}/{r['positions']:<2}")
            continue
        print(f"{r['cards_left']:>6}{r['median_cards_left']:>6g}{r['solved']:>5}/{r['positions']:<2}"
              f"{r['median_s']:>9.3f}{r['worst_s']:>9.3f}{r['nodes_per_s']:>10.0f}")
    big = res["largest_within_10s"]["exact"]
    print(f"largest size solved within 10 s (every position): {big} cards left")


TRADE_HANDS = (1, 2, 3, 5, None)  # hands cut to this many cards; None: the bots' real hands


def bench_trades(positions: int, runs: int, show: bool) -> dict[str, Any]:
    """The trade graph (solvers/trade_graph.py): time to map a trading phase by its number of
    candidate deals (2 cards a side), with the memoised values and, on the smaller positions,
    with a new search for every value (the cost the memo saves)."""
    from model import Phase
    from solvers.positions import PositionInputError, cut, small
    from solvers.trade_graph import to_trading, trade_map

    plan = [(n, h) for n in (3, 4, 5) for h in TRADE_HANDS]
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=len(plan) * positions, desc="bench trades", file=sys.stderr)
    rows: list[dict[str, Any]] = []
    for n, h in plan:
        cases: list[dict[str, Any]] = []
        seed = 300
        while len(cases) < positions and seed < 500:
            seed += 1
            try:
                s = cut("rio-grande", n, seed, 10)
            except PositionInputError:
                continue
            s, _ = to_trading(small(s, h, 99) if h is not None else s)
            if s.phase != Phase.TRADE:
                continue
            times, memo_off = [], None
            for _ in range(runs):
                t0 = time.perf_counter()
                tm = trade_map(s)
                times.append(time.perf_counter() - t0)
            if h is not None and h <= 3:
                t0 = time.perf_counter()
                bare = trade_map(s, memo=False)
                memo_off = time.perf_counter() - t0
                assert [d.total for d in bare.deals] == [d.total for d in tm.deals]
            st = tm.stats
            cases.append({"deals": len(tm.deals), "seconds": statistics.median(times),
                          "deal_seconds": st["deal_seconds"], "matching_seconds": st["matching_seconds"],
                          "realise_seconds": st["realise_seconds"], "solves": st["solves"],
                          "cache_hits": st["cache_hits"], "nodes": st["nodes"], "method": tm.matching.method,
                          "re_solved": tm.matching.realised is not None, "no_memo_seconds": memo_off})
            if bar is not None:
                bar.update()
        rows.append({"players": n, "hand": h, "cases": cases})
    if bar is not None:
        bar.close()
    return {"rows": rows, "runs": runs}


def print_trades(res: dict[str, Any]) -> None:
    print("trade graph: 2 cards a side, rio-grande trading phases 10 cards from the end, median of "
          f"{res['runs']} runs per position")
    print(f"{'players':>7}{'hand':>6}{'pos':>5}{'deals (median)':>16}{'map s':>8}{'worst s':>9}{'deal s':>8}"
          f"{'deals/s':>9}{'hit rate':>9}{'no memo s':>10}{'memo gain':>10}  matching")
    for r in res["rows"]:
        cs = r["cases"]
        if not cs:
            continue
        med = statistics.median
        hits = sum(c["cache_hits"] for c in cs) / max(1, sum(c["cache_hits"] + c["solves"] for c in cs))
        off = [c["no_memo_seconds"] for c in cs if c["no_memo_seconds"] is not None]
        ratio = (f"{med(off) / med([c['seconds'] for c in cs]):>9.1f}x" if off else f"{'-':>10}")
        methods = ", ".join(f"{m} {sum(c['method'] == m for c in cs)}"
                            for m in ("max_weight_clique", "cp-sat") if any(c["method"] == m for c in cs))
        unsolved = sum(not c["re_solved"] for c in cs)
        print(f"{r['players']:>7}{(r['hand'] or 'all'):>6}{len(cs):>5}{med([c['deals'] for c in cs]):>16,.0f}"
              f"{med([c['seconds'] for c in cs]):>8.2f}{max(c['seconds'] for c in cs):>9.2f}"
              f"{med([c['deal_seconds'] for c in cs]):>8.2f}"
              f"{med([c['deals'] / c['deal_seconds'] for c in cs]):>9,.0f}{hits:>9.1%}"
              f"{(f'{med(off):>10.2f}' if off else f'{chr(45):>10}')}{ratio}  {methods}"
              + (f"; {unsolved} not re-solved (budget)" if unsolved else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", choices=["engine", "solvers", "trades"])
    parser.add_argument("--objective", default="solo", choices=["solo", "coop", "best", "duel"],
                        help="solvers: which objective")
    parser.add_argument("--positions", type=int, default=10, help="solvers: positions per size")
    parser.add_argument("--hand", type=int, default=5, help="solvers coop/best: hands cut to this many cards")
    parser.add_argument("--time-limit", type=float, default=10.0, help="solvers: CP-SAT seconds per position")
    parser.add_argument("--workers", type=int, default=1, help="solvers coop/best: CP-SAT workers")
    parser.add_argument("--node-limit", type=int, default=100_000,
                        help="solvers coop/best: exact search nodes")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--growth", action="store_true",
                        help="solvers coop/best: the flow solver by cards left (5-30) and players (4, 5)")
    parser.add_argument("--real", action="store_true",
                        help="solvers coop/best: real hands, the flow solver beside the card-by-card model")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.games < 1:
        print("bench.py: --runs and --games must be >= 1", file=sys.stderr)
        return 2
    show = not args.json and sys.stderr.isatty()
    if args.suite == "trades":
        res = bench_trades(min(args.positions, 5), min(args.runs, 3), show)
        if args.json:
            print(json.dumps(res))
        else:
            print_trades(res)
        return 0
    if args.suite == "solvers":
        if args.positions < 1:
            print("bench.py: --positions must be >= 1", file=sys.stderr)
            return 2
        if args.objective == "duel":
            res = bench_duel(args.positions, args.node_limit, show)
        elif args.objective in ("coop", "best") and args.growth:
            res = bench_growth(args.objective, args.positions, args.time_limit, show)
        elif args.objective in ("coop", "best") and args.real:
            res = bench_real(args.objective, args.positions, args.time_limit, show)
        elif args.objective in ("coop", "best"):
            res = bench_open(args.objective, args.positions, args.hand, args.time_limit, args.node_limit,
                             show, args.workers)
        else:
            res = bench_solvers(args.positions, show)
    else:
        res = bench_engine(args.runs, args.games, show)
    if args.json:
        print(json.dumps(res))
    elif args.suite == "solvers" and args.objective == "duel":
        print_duel(res)
    elif args.suite == "solvers" and args.objective in ("coop", "best") and args.growth:
        print_growth(res)
    elif args.suite == "solvers" and args.objective in ("coop", "best") and args.real:
        print_real(res)
    elif args.suite == "solvers" and args.objective in ("coop", "best"):
        print_open(res)
    elif args.suite == "solvers":
        print_solvers(res)
    else:
        print_engine(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
