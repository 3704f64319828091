"""Benchmarks that print medians and ratios side by side in one run (tests never time anything);
the suites themselves are benchmarks/suites.py, this prints their results as tables or --json.

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

solvers --objective coop|best --growth [--positions 3] [--time-limit 20] [--work-limit W]: the flow solver on
rio-grande cuts with real hands at 2, 5, 10, 15, 20 and 30 cards left, 3, 4 and 5 players: proved
count, median and worst time, median and worst gap when not proved, and on the proved positions how
often the counts master's own bound (before any cut) was above the optimum.

seats [--time-limit 60]: the seat DP (solvers/seat_dp.py) beside the CP-SAT seat model on the
seat problems of the first master round of each built-in real-hand position, coop and best: per
position the problems, how many the DP answered within its state limit, the median and worst time
of each (the DP's includes giving up at the limit) and the ratio of the medians.

solvers --objective duel: bean-duel cuts at 5, 10, 12 and 15 cards left, alpha-beta search.

trades [--positions 3] [--runs 3]: the trade graph of trading phases 10 cards from the end
(3-5 players, hands cut to 1, 2, 3, 5 cards or whole): candidate deals (2 cards a side), the
median and worst time to map them, deals valued per second, the value cache's hit rate, and on
hands of up to 3 cards the time without the memo (a new search per value) and the ratio.

study [--runs 3] [--no-ray]: the study runner (studies/scaling.py): per executor (in-process,
a pool of 1 and 2, local Ray with 1 and 2 CPUs) the start-up, the overhead per task (empty tasks
through the whole runner, one a submission and 20 a chunk), tasks per second on real simulation
tasks and the speed-up; then the projection for 10, 100 and 1,000 workers from those figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable
from typing import Any

from benchmarks import suites as benchmarks
from console import cli


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


def print_growth(res: dict[str, Any]) -> None:
    print(f"{res['objective']}: the flow solver on rio-grande cuts with real hands, one worker, "
          f"{res['time_limit']:g} s a position")
    if res.get("work_limit") is not None:
        print(f"work limit {res['work_limit']:g} (CP-SAT deterministic seconds a position)")
    print("master above: of the proved positions, how many had the counts master's own bound (before "
          "any cut) above the optimum, and by at most how much")
    print(f"{'players':>7}{'cut at':>7}{'left':>6}{'proved':>8}{'med s':>8}{'worst':>8}{'gap med':>8}"
          f"{'worst':>6}{'no plan':>8}{'master above':>14}")
    for r in res["rows"]:
        g = "-" if r["median_gap"] is None else format(r["median_gap"], "g")
        w = "-" if r["worst_gap"] is None else format(r["worst_gap"], "g")
        m = (f"{r['master_above']}/{r['master_compared']}"
             + (f" (+{r['master_worst_excess']})" if r["master_above"] else ""))
        print(f"{r['players']:>7}{r['cut_at']:>7}{r['median_left']:>6g}{r['proved']:>5}/{r['positions']:<2}"
              f"{r['median_s']:>8.2f}{r['worst_s']:>8.2f}{g:>8}{w:>6}{r['no_plan']:>8}{m:>14}")


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


def print_seats(res: dict[str, Any]) -> None:
    print(f"seat problems of the first master round, one worker: the batch search, the card-level DP "
          f"(state limit {res['state_limit']:,}), the CP-SAT seat model ({res['seat_seconds']:g} s limit)")
    print(f"{'position':<16}{'obj':<6}{'seats':>6}{'batch med s':>12}{'batch max s':>12}{'DP ok':>6}"
          f"{'DP med s':>10}{'DP max s':>10}{'SAT ok':>7}{'SAT med s':>11}{'SAT max s':>11}")
    for r in res["rows"]:
        if not r["problems"]:
            print(f"{r['position']:<16}{r['objective']:<6}{0:>6}  (the master found no schedule in 30 s)")
            continue
        print(f"{r['position']:<16}{r['objective']:<6}{r['problems']:>6}{r['batch_median_s']:>12.4f}"
              f"{r['batch_worst_s']:>12.4f}{r['dp_proved']:>6}{r['dp_median_s']:>10.4f}{r['dp_worst_s']:>10.4f}"
              f"{r['cpsat_proved']:>7}{r['cpsat_median_s']:>11.3f}{r['cpsat_worst_s']:>11.3f}")
    c = res.get("compare")
    if c:
        ratio = "-" if c["ratio"] is None else f"{c['ratio']:.1f}x"
        print(f"\n{c['problems']:,} random seat problems (seed {c['seed']}, {c['strict']:,} with H4 strict, "
              f"batches up to {c['largest_batch']} cards): every value equal")
        ms = {k: c[k] * 1000 for k in ("batch_median_s", "batch_worst_s", "dp_median_s", "dp_worst_s")}
        print(f"batch search median {ms['batch_median_s']:.2f} ms, worst {ms['batch_worst_s']:.1f} ms; "
              f"card-level DP median {ms['dp_median_s']:.2f} ms, worst {ms['dp_worst_s']:.1f} ms; "
              f"ratio of medians {ratio}")


def print_study(res: dict[str, Any]) -> None:
    print(f"study runner: {res['empty_tasks']} empty tasks for the overhead; real tasks of "
          f"{res['games_per_task']} games ({res['task_seconds']:.3f} s each in this process)")
    print(f"{'executor':<11}{'workers':>8}{'start s':>9}{'ms/task':>9}{'chunk 20':>9}{'tasks':>7}"
          f"{'wall s':>8}{'tasks/s':>9}{'speed-up':>9}")
    for r in res["rows"]:
        print(f"{r['executor']:<11}{r['workers']:>8}{r['startup_s']:>9.2f}{r['overhead_ms_chunk1']:>9.2f}"
              f"{r['overhead_ms_chunk20']:>9.2f}{r['real_tasks']:>7}{r['real_s']:>8.2f}{r['tasks_per_s']:>9.2f}"
              f"{r['speedup']:>8.2f}x")
    print("\nprojection (on paper): W workers, c = the task's seconds, d = the driver's serial ms per task;"
          "\nrate = min(W / (c + d), 1 / d); linear while W < c / d")
    print(f"{'executor':<11}{'chunk':>6}{'d ms':>8}{'linear to W':>12}"
          + "".join(f"{f'W={w} t/s':>13}{'eff':>6}" for w in (10, 100, 1000)))
    for r in res["projection"]:
        lin = "-" if r["linear_up_to"] is None else f"{r['linear_up_to']:,.0f}"
        cells = "".join(f"{c['tasks_per_s']:>13,.1f}{c['efficiency']:>6.0%}" for c in r["cells"])
        print(f"{r['executor']:<11}{r['chunk']:>6}{r['driver_ms_per_task']:>8.2f}{lin:>12}{cells}")


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True)
    parser.add_argument("suite", choices=["engine", "solvers", "seats", "trades", "study"],
                        help="which benchmark")
    parser.add_argument("--objective", default="solo", choices=["solo", "coop", "best", "duel"],
                        help="solvers: which objective")
    parser.add_argument("--positions", type=cli.at_least(1, "--positions"), default=10,
                        help="solvers: positions per size")
    parser.add_argument("--hand", type=cli.at_least(1, "--hand"), default=5,
                        help="solvers coop/best: hands cut to this many cards")
    parser.add_argument("--time-limit", type=cli.positive(float, "--time-limit"), default=10.0,
                        help="solvers: CP-SAT seconds per position")
    parser.add_argument("--workers", type=cli.at_least(1, "--workers"), default=1,
                        help="solvers coop/best: CP-SAT workers")
    parser.add_argument("--work-limit", type=cli.positive(float, "--work-limit"), default=None,
                        help="solvers --growth: CP-SAT deterministic seconds a position (reproducible)")
    parser.add_argument("--node-limit", type=cli.at_least(1, "--node-limit"), default=100_000,
                        help="solvers coop/best: exact search nodes")
    parser.add_argument("--runs", type=cli.at_least(1, "--runs"), default=5, help="timed runs (medians)")
    parser.add_argument("--games", type=cli.at_least(1, "--games"), default=100, help="engine: games a run")
    parser.add_argument("--growth", action="store_true",
                        help="solvers coop/best: the flow solver by cards left (5-30) and players (4, 5)")
    parser.add_argument("--real", action="store_true",
                        help="solvers coop/best: real hands, the flow solver beside the card-by-card model")
    parser.add_argument("--compare", type=cli.at_least(0, "--compare"), default=0,
                        help="seats: also this many random seat problems, the batch search beside the DP")
    parser.add_argument("--no-ray", action="store_true", help="study: without the Ray executor")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    return cli.run("bench.py", args, lambda frame: _bench(frame, args))


def _bench(frame: cli.Frame, args: argparse.Namespace) -> int:
    frame.kept = "nothing: a benchmark prints its table when every run is done"
    try:
        res, show_table = _run(args, bool(frame.mode))
    except benchmarks.Disagreement as e:
        frame.say(str(e))
        return 1
    if args.json:
        print(json.dumps(res))
    else:
        show_table(res)
    return 0


def _run(args: argparse.Namespace, show: bool) -> tuple[dict[str, Any], Callable[[dict[str, Any]], None]]:
    """The chosen suite's results and the function that prints them as a table."""
    if args.suite == "engine":
        return benchmarks.bench_engine(args.runs, args.games, show), print_engine
    if args.suite == "study":
        from studies.scaling import bench_study

        say = (lambda text: print(f"bench.py: {text}", file=sys.stderr, flush=True)) if show else None
        return bench_study(min(args.runs, 3), ray=not args.no_ray, progress=say), print_study
    if args.suite == "seats":
        return benchmarks.bench_seats(args.time_limit, show, args.compare), print_seats
    if args.suite == "trades":
        return benchmarks.bench_trades(min(args.positions, 5), min(args.runs, 3), show), print_trades
    if args.objective == "duel":
        return benchmarks.bench_duel(args.positions, args.node_limit, show), print_duel
    if args.objective == "solo":
        return benchmarks.bench_solvers(args.positions, show), print_solvers
    if args.growth:
        res = benchmarks.bench_growth(args.objective, args.positions, args.time_limit, show, args.work_limit)
        return res, print_growth
    if args.real:
        return benchmarks.bench_real(args.objective, args.positions, args.time_limit, show), print_real
    return (benchmarks.bench_open(args.objective, args.positions, args.hand, args.time_limit,
                                  args.node_limit, show, args.workers), print_open)


if __name__ == "__main__":
    cli.exit(main())
