"""Exact search vs CP-SAT on seeded random endgame positions: both must find the same optimum.

solo: positions cut from seeded greedy games (rio-grande and amigo, 3-5 players) at a random number
of cards left in the final pass (5-40), whole hands. coop and best: the same cuts made small enough
for exact search (3 players with hands of 1-2 cards and 3-6 cards left, or 4 players with hands of
one card and 2-5 cards left; `solvers.positions.small`). P is a random seat. A position that exact
search cannot finish within --node-limit nodes is counted and replaced, never silently dropped.
--reshuffle on-demand plays and solves the games under E1's other reading (a pile that runs out at
the end of a draw gives one more turn, with nothing turned up). --expansion isla: La Isla Bohnita
positions (I1-I9), cut at 8 cards from 3-5 player games, hands of 1-2 cards, 2-6 cards left:
solo by exact search against solvers/isla/cpsat/; coop and best by exact search against P's solo
line (coop at least its total; best at least P's coins on it when it meets every floor), the
positions exact search does not finish within --node-limit counted, not replaced, and their proved
bounds held to the same.
Exit 1 on any disagreement or any CP-SAT answer not proved optimal. Ctrl-C or SIGTERM (as `timeout`
sends it): the report of the positions finished so far, marked partial (with --json: "partial": true
and "positions_asked"), then exit 130.

Examples:
  python scripts/cross_check.py --objective solo --positions 200 --seed 1
  python scripts/cross_check.py --objective coop --positions 200 --seed 1 --jobs 2
  python scripts/cross_check.py --objective solo --positions 100 --reshuffle on-demand
  python scripts/cross_check.py --objective solo --positions 100 --expansion isla
  python scripts/cross_check.py --objective coop --positions 100 --expansion isla --node-limit 20000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from typing import Any

from console import cli
from model.rules import RESHUFFLE_READINGS
from solvers.contract import OBJECTIVES, Objective, Status
from solvers.cross_check import CHECKED, CPSAT_METHODS, cross_check


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True)
    parser.add_argument("--objective", default="solo", choices=[o.name for o in CHECKED],
                        help="what both solvers optimise")
    parser.add_argument("--positions", type=cli.at_least(1, "--positions"), default=200,
                        help="positions to compare")
    parser.add_argument("--seed", type=int, default=1, help="the seed positions are cut from")
    parser.add_argument("--node-limit", type=cli.at_least(1, "--node-limit"), default=300_000,
                        help="exact search gives up past this many nodes; the position is replaced")
    parser.add_argument("--jobs", type=cli.at_least(1, "--jobs"), default=os.cpu_count() or 1,
                        help="worker processes")
    parser.add_argument("--solver", default="cpsat", choices=CPSAT_METHODS,
                        help="coop/best: the flow model (cpsat) or the older card-by-card model")
    parser.add_argument("--reshuffle", default="at-exhaustion", choices=RESHUFFLE_READINGS,
                        help="the E1 reading the games are played and solved under")
    parser.add_argument("--expansion", choices=["isla"], default=None,
                        help="isla: La Isla Bohnita positions (I1-I9), small cuts of 3-5 players")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    goal = OBJECTIVES[args.objective]  # the name becomes the objective here, once
    return cli.run("cross_check.py", args, lambda frame: _cross_check(frame, args, goal))


def _cross_check(frame: cli.Frame, args: argparse.Namespace, goal: Objective) -> int:
    bar = frame.progress(f"{args.objective} positions", total=args.positions, unit="positions")
    run: dict[str, Any] = {}  # filled as positions finish: an interrupt reports those
    frame.kept = "no position compared yet"

    def report(done: int, total: int | None, note: str) -> None:
        frame.kept = (f"the {done} positions compared so far ({note}) are summarised on stdout, "
                      "marked partial")  # before the bar: an interrupt seen after it says the same
        bar(done, total, note)

    try:
        whole = cross_check(goal, args.positions, args.seed, args.node_limit, args.jobs,
                            args.solver, progress=report, reshuffle=args.reshuffle,
                            expansion=args.expansion, into=run)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (cli.run): the positions finished, marked partial
        frame.close()
        _summarise(args, goal, run, partial=True)
        raise
    return _summarise(args, goal, whole)


def _summarise(args: argparse.Namespace, goal: Objective, run: dict[str, Any], partial: bool = False) -> int:
    """The report on stdout (one JSON object with --json, in one write); ``partial``: the run was
    interrupted and ``run`` holds the positions finished before it."""
    done, skipped, refused = run.get("done", []), run.get("replaced", []), run.get("refused", [])
    if args.expansion and goal.trades:  # Isla coop and best: against the solo lines
        return _isla_open_summary(args, done, skipped, partial)
    # a disagreement: both claim an optimum and the claims differ (CP-SAT's line above exact search's
    # optimum, or a CP-SAT optimum other than it); a line below it with no proof is only not proved
    differ = [r for r in done if r["cpsat"] is not None and r["exact"] != r["cpsat"]
              and (r["status"] == Status.OPTIMAL or r["cpsat"] > r["exact"])]
    bad = [f"{r['label']}: exact {r['exact']}, CP-SAT {r['cpsat']} ({r['status']})" for r in differ]
    unproved = [f"{r['label']}: CP-SAT {r['cpsat']} not proved optimal ({r['status']}; exact {r['exact']})"
                for r in done if (r["status"] != Status.OPTIMAL or r["cpsat"] is None) and r not in differ]
    ex = [r["exact_s"] for r in done]
    cp = [r["cpsat_s"] for r in done]
    summary = {
        "objective": args.objective, "expansion": args.expansion, "reshuffle": args.reshuffle,
        "positions": len(done),
        "disagreements": len(bad),
        "too_large_for_exact": len(skipped), "refused_by_cpsat": len(refused),
        "cpsat_not_proved": len(unproved),
        "exact_median_s": _median(ex), "exact_max_s": round(max(ex), 4) if ex else None,
        "cpsat_median_s": _median(cp), "cpsat_max_s": round(max(cp), 4) if cp else None,
        "exact_median_nodes": statistics.median(r["nodes"] for r in done) if done else None,
        **_partial(args, partial),
    }
    if args.json:
        print(json.dumps({**summary, "problems": bad + unproved, "replaced": skipped, "refused": refused}),
              flush=True)
    else:
        _partial_line(args, len(done), partial)
        for line in (bad + unproved)[:10]:
            print(line)
        print(f"{summary['positions']} {args.objective} positions, {len(bad)} disagreements, "
              f"{len(unproved)} CP-SAT answers not proved optimal "
              f"({len(skipped)} replaced: more than {args.node_limit} exact nodes"
              f"{f'; {len(refused)} refused by CP-SAT and replaced' if refused else ''})"
              + (f"; exact median {summary['exact_median_s']} s (max {summary['exact_max_s']}), CP-SAT "
                 f"median {summary['cpsat_median_s']} s (max {summary['cpsat_max_s']})" if done else ""),
              flush=True)
    return 1 if bad or unproved else 0


def _median(xs: list[float]) -> float | None:
    return round(statistics.median(xs), 4) if xs else None


def _partial(args: argparse.Namespace, partial: bool) -> dict[str, Any]:
    """--json's marks of an interrupted run: ``partial`` and the positions asked for."""
    return {"partial": True, "positions_asked": args.positions} if partial else {}


def _partial_line(args: argparse.Namespace, done: int, partial: bool) -> None:
    if partial:
        print(f"partial (interrupted): the {done} of {args.positions} positions finished")


def _isla_open_summary(args: argparse.Namespace, done: list[dict[str, Any]], skipped: list[str],
                       partial: bool = False) -> int:
    """Isla ``coop``/``best``: how many positions exact search finished, and each against the solo
    line (``solvers.isla.cross_check.check_open``)."""
    finished = [r for r in done if not r["unfinished"]]
    bad = [f"{r['label']}: {problem}" for r in done for problem in r["problems"]]
    times = [r["open_s"] for r in finished]
    gaps = [r["bound"] - r["found"] for r in done if "bound" in r]
    summary = {
        "objective": args.objective, "expansion": args.expansion, "positions": len(done),
        "finished": len(finished), "unfinished": len(done) - len(finished), "disagreements": len(bad),
        "solo_too_large": len(skipped),
        "exact_median_s": _median(times),
        "exact_max_s": round(max(times), 4) if times else None,
        "unfinished_gap_median": statistics.median(gaps) if gaps else None,
        **_partial(args, partial),
    }
    if args.json:
        print(json.dumps({**summary, "problems": bad, "unfinished_positions":
                          [r["label"] for r in done if r["unfinished"]], "replaced": skipped}), flush=True)
    else:
        _partial_line(args, len(done), partial)
        for line in bad[:10]:
            print(line)
        print(f"{len(done)} Isla {args.objective} positions: exact search finished {len(finished)} "
              f"({len(done) - len(finished)} past {args.node_limit:,} nodes or the time limit), "
              f"{len(bad)} disagreements with the solo lines (the optima and the unfinished ones' proved "
              "bounds)"
              + (f"; exact median {summary['exact_median_s']} s (max {summary['exact_max_s']})"
                 if times else "")
              + (f"; unfinished: median gap {summary['unfinished_gap_median']} between the line found "
                 "and the proved bound" if gaps else ""), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    cli.exit(main())
