"""Benchmarks that print medians and ratios side by side in one run (tests never time anything);
the suites themselves are benchmarks/suites.py, this prints their results as tables or --json.

  python scripts/bench.py engine [--runs 5] [--games 100] [--json]
  python scripts/bench.py adapters [--runs 5] [--games 10] [--json]
  python scripts/bench.py solvers [--objective solo|coop|best|duel] [--positions 10] [--json]
  python scripts/bench.py docs [--cap 900] [--all] [--json]

engine: full random games per second for 3, 4 and 5 players (amigo, rio-grande) with the plain
random bot (ends each trading phase at once; the headline) and with random proposals
(random-trader), the cost per action, and the acceptance command of issue 2 timed end to end
(start-up included, one process).

adapters: the OpenSpiel game and the PettingZoo environment (adapters/) with uniformly random ids
beside the engine's random bot, rio-grande, 3-5 players: microseconds a step and steps a game of
each, and each adapter's cost a step as a multiple of the engine's (at most 10 games a run).

solvers --objective solo (the default): positions by size (cards left in the final pass: 5, 10,
15, 20, 30, 40; 3-5 players, cut from seeded greedy games, P the player to move): the median and
worst time of each solver, exact nodes per second, the exact/CP-SAT time ratio, and the largest
size solved to proven optimality within 10 s.

solvers --objective coop|best [--hand 5] [--time-limit 10] [--workers 1] [--node-limit N]: the
same cuts (5-20 cards left, 3-5 players) with hands shortened to --hand cards; CP-SAT's median
and worst time, how many it proved optimal, the median gap to its bound, and exact search on the
same positions up to the node limit (it finishes only the smallest).

solvers --objective coop|best --real [--positions 10] [--time-limit 10]: real hands, the flow
solver (solve_endgame.py --solver cpsat) beside the older card-by-card model (--solver
cpsat-cards) on the same positions, one worker each: the built-in real-hand positions, then
seeded 4-player cuts with about 10 cards left, hands whole and cut to 5 and 8 cards. Per group:
proved count, median and worst time, median gap to the proved bound when not proved, and the
median value of each.

solvers --objective coop|best --growth [--positions 3] [--time-limit 20] [--work-limit W]: the flow solver on
rio-grande cuts with real hands at 2, 5, 10, 15, 20 and 30 cards left, 3, 4 and 5 players: proved
count, median and worst time, median and worst gap when not proved, and on the proved positions how
often the counts master's own bound (before any cut) was above the optimum.

master [--time-limit 60]: the counts master's first solve (solvers/flow/master.py, before any cut) by
CP-SAT beside HiGHS and SCIP (the same model as a MIP, benchmarks/master_mip.py), one thread each,
on issue 39's six positions, coop and best: status, value, bound and seconds of each.

seats [--time-limit 60]: the seat DP (solvers/flow/seat_dp.py) beside the CP-SAT seat model on the
seat problems of the first master round of each built-in real-hand position, coop and best: per
position the problems, how many the DP answered within its state limit, the median and worst time
of each (the DP's includes giving up at the limit) and the ratio of the medians.

solvers --objective duel: bean-duel cuts at 5, 10, 12 and 15 cards left, alpha-beta search.

trades [--positions 3] [--runs 3]: the trade graph of trading phases 10 cards from the end
(3-5 players, hands cut to 1, 2, 3, 5 cards or whole): candidate deals (2 cards a side), the
median and worst time to map them, deals valued per second, the value cache's hit rate, and on
hands of up to 3 cards the time without the memo (a new search per value) and the ratio.

mutants [--games 4]: the live harness (scripts/diff_engine.py, example shim) on each of the 16
mutants of proofs/mutants.py: the causes it reports, whether one names the mutant's rule and whether
it is the only one (issue 60), and each run's seconds (about 110 s in all at 4 games); a mutant
found in no game is run again on twice as many games, up to 4 times as many (wrong-tie-break: a tie
for most coins first comes up in game 4).

docs [--cap 900] [--all] [--out DIR]: the long commands of docs/tools.md (benchmarks/doc_commands.py
LONG; --all: every command of the page), each run once as the page gives it, in page order, in a
scratch directory (in --out, default the system's temporary one), under --cap seconds a command
(then stopped: SIGTERM, and the partial report it prints): per command its seconds and exit code,
and the setup commands run first for what it reads. Exit 1 when a command exits non-zero (not at
the cap). Ctrl-C or SIGTERM: the rows of the commands finished so far, marked partial.

Ctrl-C or SIGTERM (``timeout``) in engine, solvers, seats, trades or mutants: the rows measured
so far as the table, headed "partial (interrupted): the N of M rows measured so far" (--json: the
object with "partial": true), exit 130; seats --compare adds the figures of the random problems done.

study [--runs 3] [--no-ray]: the study runner (studies/scaling.py): per executor (in-process,
a pool of 1 and 2, local Ray with 1 and 2 CPUs) the start-up, the overhead per task (empty tasks
through the whole runner, one a submission and 20 a chunk), tasks per second on real simulation
tasks and the speed-up; then the projection for 10, 100 and 1,000 workers from those figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from benchmarks import doc_commands, master_mip, tables
from benchmarks import suites as benchmarks
from console import cli
from solvers.api import REGISTRY
from solvers.contract import OBJECTIVES


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True)
    parser.add_argument("suite", help="which benchmark",
                        choices=["engine", "adapters", "solvers", "seats", "master", "trades", "study",
                                 "mutants", "docs"])
    parser.add_argument("--objective", default="solo",
                        choices=list(dict.fromkeys(o.name for o, _ in REGISTRY)),  # those with a line
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
    parser.add_argument("--games", type=cli.at_least(1, "--games"), default=None,
                        help="engine: games a run (100); mutants: seeded games a mutant (4)")
    parser.add_argument("--growth", action="store_true",
                        help="solvers coop/best: the flow solver by cards left (5-30) and players (4, 5)")
    parser.add_argument("--real", action="store_true",
                        help="solvers coop/best: real hands, the flow solver beside the card-by-card model")
    parser.add_argument("--compare", type=cli.at_least(0, "--compare"), default=0,
                        help="seats: also this many random seat problems, the batch search beside the DP")
    parser.add_argument("--no-ray", action="store_true", help="study: without the Ray executor")
    parser.add_argument("--cap", type=cli.positive(float, "--cap"), default=900.0, metavar="SECONDS",
                        help="docs: the longest run of one command (then stopped, its partial report kept)")
    parser.add_argument("--all", action="store_true",
                        help="docs: every command of the page, not only the long")
    parser.add_argument("--out", metavar="DIR", default=None,
                        help="docs: where the scratch directory is made (default: the system's "
                        "temporary one)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    return cli.run("bench.py", args, lambda frame: _bench(frame, args))


# The suites that fill their result as they go (``into``): an interrupt prints what they measured.
KEEPS_ROWS = ("engine", "solvers", "seats", "trades", "mutants")


def _bench(frame: cli.Frame, args: argparse.Namespace) -> int:
    if args.suite == "docs":
        return _docs(frame, args)
    keeps = args.suite in KEEPS_ROWS
    frame.kept = ("the rows measured so far are printed, marked partial" if keeps
                  else "nothing: this benchmark prints its table when every run is done")
    into: dict[str, Any] = {}
    show_table = _table(args)
    try:
        res = _run(args, frame, into)
    except benchmarks.Disagreement as e:
        frame.say(str(e))
        return 1
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (cli.run): the rows so far, marked partial
        if keeps:
            frame.close()
            _show(args, {**into, "partial": True}, show_table)
        raise
    _show(args, res, show_table)
    return 0


Table = Callable[[dict[str, Any]], None]  # a suite's result printed as a table


def _show(args: argparse.Namespace, res: dict[str, Any], show_table: Table) -> None:
    """The result as one JSON object (``--json``) or as its table; a partial one (interrupted) says so
    first, with how many of its rows were measured."""
    if args.json:
        print(json.dumps(res), flush=True)
        return
    if res.get("partial"):
        rows = res.get("rows", res.get("cases", []))
        planned = f" of {res['planned']}" if "planned" in res else ""
        print(f"partial (interrupted): the {len(rows)}{planned} rows measured so far")
    show_table(res)
    sys.stdout.flush()


def _docs(frame: cli.Frame, args: argparse.Namespace) -> int:
    """docs/tools.md's commands, each timed once (benchmarks/doc_commands.py)."""
    selected = doc_commands.commands() if args.all else sorted(doc_commands.LONG)
    if args.out is not None:
        cli.output_dir(args.out, force=True)
    where = doc_commands.scratch(args.out)
    todo = doc_commands.plan(selected)
    bar = frame.progress("docs commands", total=len(todo), unit="commands")
    runs: list[doc_commands.Ran] = []
    frame.kept = "no command finished yet"

    def report(ran: doc_commands.Ran) -> None:
        bar.advance(note=f"{ran.command[:60]}: {ran.seconds:.0f} s, exit {ran.code}")
        frame.kept = f"the rows of the {len(runs)} commands finished so far are printed, marked partial"

    def result(partial: bool) -> dict[str, Any]:
        res: dict[str, Any] = {"page": "docs/tools.md", "cap_s": args.cap, "scratch": str(where),
                               "commands": [r.to_json() for r in runs]}
        return {**res, "partial": True, "commands_asked": len(todo)} if partial else res

    def show(res: dict[str, Any]) -> None:
        if args.json:
            print(json.dumps(res), flush=True)
        else:
            tables.print_docs(res)
            sys.stdout.flush()

    try:
        doc_commands.run_page(selected, where, args.cap, into=runs, report=report)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (cli.run): the rows so far, marked partial
        frame.close()
        show(result(True))
        raise
    bar.close()
    show(result(False))
    return 1 if any(r.code != 0 and not r.stopped for r in runs) else 0


def _table(args: argparse.Namespace) -> Table:
    """The function that prints the chosen suite's result as a table (a partial one too)."""
    if args.suite != "solvers":
        return TABLES[args.suite]
    objective = OBJECTIVES[args.objective]
    if objective.duel:
        return tables.print_duel
    if not objective.trades:
        return tables.print_solvers
    return tables.print_growth if args.growth else tables.print_real if args.real else tables.print_open


TABLES: dict[str, Table] = {
    "engine": tables.print_engine, "mutants": tables.print_mutants, "adapters": tables.print_adapters,
    "study": tables.print_study, "seats": tables.print_seats, "master": tables.print_master,
    "trades": tables.print_trades}


def _run(args: argparse.Namespace, frame: cli.Frame, into: dict[str, Any]) -> dict[str, Any]:
    """The chosen suite's results; the suites of ``KEEPS_ROWS`` fill ``into`` as they go, their
    progress on the frame's display (a bar, ``--progress``'s lines, or the status line off a terminal)."""
    show = frame.shows
    if args.suite == "engine":
        return benchmarks.bench_engine(args.runs, args.games or 100, frame, into)
    if args.suite == "mutants":
        return benchmarks.bench_mutants(args.games or 4, frame, into)
    if args.suite == "adapters":
        from benchmarks import adapters  # OpenSpiel and PettingZoo: the extras, needed here only

        with benchmarks.progress(3 * len(adapters.PLAYERS), "bench adapters", show) as bar:
            return adapters.bench_adapters(args.runs, min(args.games or 10, 10), lambda: bar.update())
    if args.suite == "study":
        from studies.scaling import bench_study

        if not args.no_ray:
            cli.need_extra("ray", "the study suite (--no-ray: without Ray)")

        say = (lambda text: print(f"bench.py: {text}", file=sys.stderr, flush=True)) if show else None
        return bench_study(min(args.runs, 3), ray=not args.no_ray, progress=say)
    if args.suite == "seats":
        return benchmarks.bench_seats(args.time_limit, frame, args.compare, into)
    if args.suite == "master":
        return master_mip.bench_master(args.time_limit, show)
    if args.suite == "trades":
        return benchmarks.bench_trades(min(args.positions, 5), min(args.runs, 3), frame, into)
    objective = OBJECTIVES[args.objective]
    if objective.duel:
        return benchmarks.bench_duel(args.positions, args.node_limit, frame, into)
    if not objective.trades:  # solo
        return benchmarks.bench_solvers(args.positions, frame, into)
    if args.growth:
        return benchmarks.bench_growth(objective, args.positions, args.time_limit, frame,
                                       args.work_limit, into)
    if args.real:
        return benchmarks.bench_real(objective, args.positions, args.time_limit, frame, into)
    return benchmarks.bench_open(objective, args.positions, args.hand, args.time_limit,
                                 args.node_limit, frame, args.workers, into)


if __name__ == "__main__":
    cli.exit(main())
