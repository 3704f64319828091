"""The benchmark suites behind ``scripts/bench.py``: engine throughput, the solvers' times by
position size (solo, coop/best on shortened hands, real hands, growth, duel) and the trade graph.

Each suite returns a plain dict (the script prints it as a table or as JSON) and never prints:
its only output is a progress bar on stderr when ``show`` is set. Every position comes from
``solvers.positions.sample_cuts`` with a fixed seed per row, so runs compare on the same cards.
Tests never time anything; these do.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any, Protocol

from benchmarks.seat_problems import random_problem
from console.progress import Progress
from model import GameState, Phase, ruleset
from play.bots import BOTS
from play.playout import game_seed, play_games
from proofs.mutants import FOUND_AS, MUTANTS
from solvers.api import solve
from solvers.contract import (
    DUEL,
    OBJECTIVES,
    SOLO,
    Limits,
    Objective,
    SearchLimitExceeded,
    Solution,
    SolveError,
    Status,
)
from solvers.cpsat_run import interruptible
from solvers.exact import solve_solo
from solvers.flow import seat_batch, seat_dp
from solvers.flow.master import FlowMaster, capacity_default
from solvers.flow.solver import FlowSolver, _objective, _solver
from solvers.positions import LIBRARY, game_seeds, sample_cuts
from solvers.trade_graph import to_trading, trade_map

ROOT = Path(__file__).resolve().parent.parent  # the repository: the acceptance run starts its script

SIZES = (5, 10, 15, 20, 30, 40)  # solo: cards left in the final pass
OPEN_SIZES = (5, 10, 15, 20)  # coop and best on shortened hands
GROWTH_SIZES = (2, 5, 10, 15, 20, 30)  # coop and best on real hands: cards left at the cut
GROWTH_PLAYERS = (3, 4, 5)
DUEL_SIZES = (5, 10, 12, 15)
# built-in real-hand positions
REAL_NAMES = ("rio4-last-turn", "rio4-8cards", "amigo4-6cards", "rio5-15cards", "rio4-18cards")
TRADE_HANDS = (1, 2, 3, 5, None)  # hands cut to this many cards; None: the bots' real hands


class Disagreement(AssertionError):
    """Exact search and a proof by CP-SAT give different values on one position: a solver bug."""


class Bar(Protocol):
    def update(self, n: int = 1) -> object: ...


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass


class Display(Protocol):
    """Where a suite's progress goes when a script shows it (``console.cli.Frame``: a bar on a
    terminal, lines with ``--progress``, the status line off a terminal)."""

    def progress(self, desc: str, total: int | None = None, unit: str = "it") -> Progress: ...


Show = bool | Display  # True: a tqdm bar of its own; False: nothing


class _Advance:
    def __init__(self, shown: Progress) -> None:
        self.shown = shown

    def update(self, n: int = 1) -> None:
        self.shown.advance(n)


@contextmanager
def progress(total: int, desc: str, show: Show) -> Iterator[Bar]:
    """A bar counting to ``total``: on ``show``'s display, or a tqdm bar on stderr when ``show`` is
    True, else one that does nothing; closed on leaving the block."""
    if not isinstance(show, bool):
        shown = show.progress(desc, total)
        try:
            yield _Advance(shown)
        finally:
            shown.close()
        return
    if not show:
        yield _NoBar()
        return
    from tqdm import tqdm

    bar = tqdm(total=total, desc=desc, file=sys.stderr)
    try:
        yield bar
    finally:
        bar.close()


def _result(into: dict[str, Any] | None, **fields: Any) -> dict[str, Any]:
    """A suite's result, filled in as it goes: ``into`` when the caller gives one (an interrupt
    leaves it the rows finished so far, ``planned`` saying how many were asked), else a new dict."""
    res: dict[str, Any] = {} if into is None else into
    res.update(fields)
    return res


def _median(xs: Sequence[float]) -> float | None:
    return statistics.median(xs) if xs else None


def _check_agree(exact: Solution, cpsat: Solution) -> None:
    if cpsat.status == Status.OPTIMAL and exact.value != cpsat.value:
        raise Disagreement(f"exact {exact.value} and CP-SAT {cpsat.value} disagree")


def _engine_case(rules_name: str, players: int, bot_name: str, games: int, runs: int,
                 isla: bool = False) -> dict[str, Any]:
    rules = ruleset(rules_name, {"isla": True} if isla else None)
    bots = [BOTS[bot_name]] * players
    rates, per_action, actions_per_game = [], [], []
    for run in range(runs):
        actions = 0
        t0 = time.perf_counter()
        seeds = [game_seed(run + 1, g) for g in range(games)]
        for result, _, _, _ in play_games(rules, players, seeds, bots):
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
    """The acceptance command of issue 2 timed end to end, start-up included (one process)."""
    cmd = [sys.executable, str(ROOT / "scripts" / "simulate.py"), "--players", "4", "--games", "600",
           "--seed", "1", "--ruleset", "amigo", "--bots", "random", "--json"]
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
        times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    return {"command": " ".join(cmd[1:]), "seconds": med, "games_per_s": 600 / med, "runs": runs}


def bench_engine(runs: int, games: int, show: Show, into: dict[str, Any] | None = None) -> dict[str, Any]:
    """Full random games per second by ruleset, players and bot, and the acceptance command."""
    plan = [(r, n, b, False) for r in ("amigo", "rio-grande") for n in (3, 4, 5)
            for b in ("random", "random-trader")]
    # La Isla Bohnita next to the base game it extends: the same bots, player counts and seeds.
    plan += [("rio-grande", n, b, isla) for n in (2, 4, 6) for b in ("random", "greedy")
             for isla in (False, True)]
    cases: list[dict[str, Any]] = []
    res = _result(into, cases=cases, planned=len(plan))
    with progress(len(plan) + 1, "bench engine", show) as bar:
        for r, n, b, isla in plan:
            cases.append(_engine_case(r, n, b, games, runs, isla))
            bar.update()
        res["acceptance"] = _acceptance(runs)
        bar.update()
    return res


def bench_solvers(positions: int, show: Show, into: dict[str, Any] | None = None) -> dict[str, Any]:
    """solo: exact search and CP-SAT (one worker, 10 s) on the same cuts by size and players."""
    rows: list[dict[str, Any]] = []
    plan = [(size, n) for size in SIZES for n in (3, 4, 5)]
    res = _result(into, rows=rows, planned=len(plan))
    with progress(len(plan), "bench solvers", show) as bar, interruptible() as stop:
        for size, n in plan:
            exact_t: list[float] = []
            cpsat_t: list[float] = []
            rates: list[float] = []
            left: list[int] = []
            optimal = 0
            for s in sample_cuts(game_seeds(size * 10 + n), n, size, positions):
                t0 = time.perf_counter()
                a = solve(s, SOLO, "exact")
                t1 = time.perf_counter()
                b = solve(s, SOLO, "cpsat", limits=Limits(time=10, workers=1))
                t2 = time.perf_counter()
                stop.check()  # Ctrl-C in the search: its time is not the position's
                _check_agree(a, b)
                optimal += b.status == Status.OPTIMAL
                exact_t.append(t1 - t0)
                cpsat_t.append(t2 - t1)
                rates.append((a.stats.nodes or 0) / max(t1 - t0, 1e-9))
                left.append(len(s.draw))
            rows.append({
                "objective": SOLO.name, "cards_left": size, "players": n, "positions": positions,
                "median_cards_left": statistics.median(left),
                "exact_median_s": statistics.median(exact_t), "exact_worst_s": max(exact_t),
                "exact_nodes_per_s": statistics.median(rates),
                "cpsat_median_s": statistics.median(cpsat_t), "cpsat_worst_s": max(cpsat_t),
                "cpsat_proved": optimal,
                "ratio": statistics.median(exact_t) / statistics.median(cpsat_t),
            })
            bar.update()
    largest = {}
    for solver in ("exact", "cpsat"):
        ok = [r["cards_left"] for r in rows if r[f"{solver}_worst_s"] <= 10
              and (solver == "exact" or r["cpsat_proved"] == r["positions"])]
        largest[solver] = max(ok) if ok else None
    res["largest_within_10s"] = largest
    return res


def bench_open(objective: Objective, positions: int, hand: int, time_limit: float, node_limit: int,
               show: Show, workers: int = 1, into: dict[str, Any] | None = None) -> dict[str, Any]:
    """coop or best: CP-SAT (one worker) on cuts with hands shortened to ``hand`` cards; exact
    search on the same positions up to ``node_limit`` nodes (it finishes only the smallest)."""
    rows: list[dict[str, Any]] = []
    plan = [(size, n) for size in OPEN_SIZES for n in (3, 4, 5)]
    res = _result(into, objective=objective.name, hand=hand, workers=workers, rows=rows, planned=len(plan))
    with progress(len(plan) * positions, f"bench {objective.name}", show) as bar, interruptible() as stop:
        for size, n in plan:
            cp_t: list[float] = []
            ex_t: list[float] = []
            rates: list[float] = []
            left: list[int] = []
            gaps: list[float] = []
            proved = exact_done = 0
            for s in sample_cuts(game_seeds(size * 10 + n), n, size, positions, hand=hand):
                t0 = time.perf_counter()
                b = solve(s, objective, "cpsat", limits=Limits(time=time_limit, workers=workers))
                stop.check()  # Ctrl-C in the search: its time is not the position's
                cp_t.append(time.perf_counter() - t0)
                proved += b.status == Status.OPTIMAL
                if b.bound is not None:  # None: stopped before any bound was proved
                    gaps.append(float(b.bound) - b.value)
                left.append(len(s.draw))
                t0 = time.perf_counter()
                try:
                    a = solve(s, objective, "exact", limits=Limits(nodes=node_limit))
                except SearchLimitExceeded:  # too large: past the node or time limit
                    pass
                else:
                    exact_done += 1
                    ex_t.append(time.perf_counter() - t0)
                    rates.append((a.stats.nodes or 0) / max(ex_t[-1], 1e-9))
                    _check_agree(a, b)
                bar.update()
            rows.append({
                "objective": objective.name, "cards_left": size, "players": n, "positions": positions,
                "hand": hand, "workers": workers,
                "median_cards_left": statistics.median(left),
                "cpsat_median_s": statistics.median(cp_t), "cpsat_worst_s": max(cp_t),
                "cpsat_proved": proved, "cpsat_median_gap": _median(gaps),
                "exact_solved": exact_done, "exact_median_s": _median(ex_t),
                "exact_nodes_per_s": _median(rates),
                "ratio": statistics.median(ex_t) / statistics.median(cp_t) if ex_t else None,
            })
    ok = [r["cards_left"] for r in rows if r["cpsat_proved"] == r["positions"] and r["cpsat_worst_s"] <= 10]
    res["largest_within_10s"] = {"cpsat": max(ok) if ok else None}
    return res


def _real_groups(positions: int) -> list[tuple[str, list[GameState]]]:
    """The built-in real-hand positions, then 4-player cuts with about 10 cards left, hands cut
    to 5 and 8 cards and whole."""
    groups = [("built-in", [LIBRARY[n].position() for n in REAL_NAMES])]
    for hand in (5, 8, None):
        got = list(sample_cuts(game_seeds(1000 + (hand or 0)), 4, 10, positions, hand=hand))
        groups.append((f"4p ~10 left, hand {hand or 'whole'}", got))
    return groups


def bench_real(objective: Objective, positions: int, time_limit: float, show: Show,
               into: dict[str, Any] | None = None) -> dict[str, Any]:
    """The flow solver and the card-by-card model side by side on real hands (one worker)."""
    groups = _real_groups(positions)
    rows: list[dict[str, Any]] = []
    res_all = _result(into, objective=objective.name, time_limit=time_limit, rows=rows, planned=len(groups))
    with (progress(sum(len(g) for _, g in groups), f"bench {objective.name} real", show) as bar,
          interruptible() as stop):
        for label, states in groups:
            res: dict[str, dict[str, list[Any]]] = {m: {"t": [], "proved": [], "gap": [], "value": []}
                                                    for m in ("flow", "cards")}
            for s in states:
                for method in ("flow", "cards"):
                    t0 = time.perf_counter()
                    sol = _solve_or_none(s, objective, "cpsat" if method == "flow" else "cpsat-cards",
                                         time_limit)
                    stop.check()  # Ctrl-C in the search: its time is not the position's
                    r = res[method]
                    r["t"].append(time.perf_counter() - t0)
                    if sol is None:
                        r["proved"].append(False)
                        continue
                    r["proved"].append(sol.status == Status.OPTIMAL)
                    r["value"].append(sol.value)
                    if sol.status != Status.OPTIMAL and sol.bound is not None:
                        r["gap"].append(float(sol.bound) - sol.value)
                bar.update()
            row: dict[str, Any] = {"group": label, "positions": len(states), "objective": objective.name,
                                   "time_limit": time_limit}
            for method, r in res.items():
                row[method] = {"proved": sum(r["proved"]), "median_s": statistics.median(r["t"]),
                               "worst_s": max(r["t"]), "median_gap": _median(r["gap"]),
                               "median_value": _median(r["value"]), "answered": len(r["value"])}
            rows.append(row)
    return res_all


def _solve_or_none(s: GameState, objective: Objective, method: str, time_limit: float,
                   work_limit: float | None = None) -> Solution | None:
    """CP-SAT on one worker; None when it finds no plan in time."""
    try:
        return solve(s, objective, method, limits=Limits(time=time_limit, workers=1, work=work_limit))
    except SolveError:
        return None


def bench_growth(objective: Objective, positions: int, time_limit: float, show: Show,
                 work_limit: float | None = None, into: dict[str, Any] | None = None) -> dict[str, Any]:
    """How the flow solver's proofs and gaps grow with cards left and players (real hands), and
    how often the counts master's own bound (its first round, before any cut) is above an optimum
    the run proved: the relaxation's looseness where the optimum is known."""
    plan = [(n, left) for n in GROWTH_PLAYERS for left in GROWTH_SIZES]
    rows: list[dict[str, Any]] = []
    res = _result(into, objective=objective.name, time_limit=time_limit, work_limit=work_limit, rows=rows,
                  planned=len(plan))
    with (progress(len(plan) * positions, f"bench {objective.name} growth", show) as bar,
          interruptible() as stop):
        for n, size in plan:
            times: list[float] = []
            gaps: list[float] = []
            lefts: list[int] = []
            above: list[int] = []  # master bound - optimum, on the proved positions
            proved = none = 0
            for s in sample_cuts(game_seeds(7000 + 10 * n + size), n, size, positions,
                                 rulesets=("rio-grande",)):
                t0 = time.perf_counter()
                sol = _solve_or_none(s, objective, "cpsat", time_limit, work_limit)
                stop.check()  # Ctrl-C in the search: its time is not the position's
                times.append(time.perf_counter() - t0)
                lefts.append(len(s.draw))
                if sol is None:
                    none += 1
                elif sol.status == Status.OPTIMAL:
                    proved += 1
                    master = sol.stats.stages.get("master_bound")
                    if master is not None:
                        above.append(int(master) - int(sol.value))
                elif sol.bound is not None:
                    gaps.append(sol.bound - sol.value)
                bar.update()
            rows.append({"players": n, "cut_at": size, "median_left": statistics.median(lefts),
                         "positions": positions, "proved": proved, "no_plan": none,
                         "median_s": statistics.median(times), "worst_s": max(times),
                         "median_gap": _median(gaps), "worst_gap": max(gaps) if gaps else None,
                         "master_compared": len(above), "master_above": sum(1 for x in above if x > 0),
                         "master_worst_excess": max(above) if above else None})
    return res


def bench_duel(positions: int, node_limit: int, show: Show,
               into: dict[str, Any] | None = None) -> dict[str, Any]:
    """duel: alpha-beta on bean-duel cuts by size (exact search only: CP-SAT has no duel model)."""
    rows: list[dict[str, Any]] = []
    res = _result(into, rows=rows, node_limit=node_limit, planned=len(DUEL_SIZES))
    with progress(len(DUEL_SIZES) * positions, "bench duel", show) as bar:
        for size in DUEL_SIZES:
            times: list[float] = []
            rates: list[float] = []
            left: list[int] = []
            for s in sample_cuts(game_seeds(size), 2, size, positions, rulesets=("rio-grande",)):
                t0 = time.perf_counter()
                try:
                    sol = solve(s, DUEL, "exact", limits=Limits(nodes=node_limit))
                except SolveError:
                    pass
                else:
                    times.append(time.perf_counter() - t0)
                    rates.append((sol.stats.nodes or 0) / max(times[-1], 1e-9))
                    left.append(len(s.draw))
                bar.update()
            rows.append({"objective": DUEL.name, "cards_left": size, "players": 2, "positions": positions,
                         "solved": len(times), "median_cards_left": _median(left),
                         "median_s": _median(times), "worst_s": max(times) if times else None,
                         "nodes_per_s": _median(rates)})
    ok = [r["cards_left"] for r in rows if r["solved"] == r["positions"] and r["worst_s"] <= 10]
    res["largest_within_10s"] = {"exact": max(ok) if ok else None}
    return res


def bench_trades(positions: int, runs: int, show: Show,
                 into: dict[str, Any] | None = None) -> dict[str, Any]:
    """The trade graph (solvers/trade_graph.py): time to map a trading phase by its number of
    candidate deals (2 cards a side), with the memoised values and, on the smaller positions,
    with a new search for every value (the cost the memo saves)."""
    plan = [(n, h) for n in (3, 4, 5) for h in TRADE_HANDS]
    rows: list[dict[str, Any]] = []
    res = _result(into, rows=rows, runs=runs, planned=len(plan))
    with progress(len(plan) * positions, "bench trades", show) as bar:
        for n, h in plan:
            cases: list[dict[str, Any]] = []
            for s in islice(_trading_phases(n, h), max(positions, 0)):
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
                              "cache_hits": st["cache_hits"], "nodes": st["nodes"],
                              "method": tm.matching.method, "re_solved": tm.matching.realised is not None,
                              "no_memo_seconds": memo_off})
                bar.update()
            rows.append({"players": n, "hand": h, "cases": cases})
    return res


def diff_mutant(name: str, games: int) -> dict[str, Any]:
    """scripts/diff_engine.py's --json report on the example shim with mutant ``name`` swapped in:
    ``games`` seeded games, no perft positions, no shrinking."""
    shim = f"{sys.executable} {ROOT / 'docs' / 'examples' / 'engine_shim.py'} --mutant {name}"
    argv = [sys.executable, str(ROOT / "scripts" / "diff_engine.py"), "--engine", shim, "--games", str(games),
            "--no-positions", "--no-shrink", "--json"]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"diff_engine.py on mutant {name} exited {proc.returncode}: {proc.stderr.strip()}")
    report: dict[str, Any] = json.loads(proc.stdout)
    return report


MUTANT_GAMES_GROWTH = 4  # a mutant found in none of a run's games: up to this many times the games


def bench_mutants(games: int, show: Show, into: dict[str, Any] | None = None) -> dict[str, Any]:
    """The live harness on each mutant of proofs/mutants.py (issue 60: each found as one cause under
    its own rule): per mutant the causes reported in ``games`` seeded games with their counts, whether
    the mutant's rule (or the rule it is found as, ``FOUND_AS``) names one, whether it is the only one,
    and the seconds of the run (the harness and the shim started included). A mutant whose break shows
    in none of them (a tie for most coins, E4) is run again on twice as many games, up to
    ``MUTANT_GAMES_GROWTH`` times ``games``: the games it took are in its row."""
    rows: list[dict[str, Any]] = []
    res = _result(into, games=games, rows=rows, planned=len(MUTANTS))
    with progress(len(MUTANTS), "bench mutants", show) as bar:
        for name, m in MUTANTS.items():
            t0 = time.perf_counter()
            n = games
            causes = diff_mutant(name, n)["causes"]
            while not causes and n < MUTANT_GAMES_GROWTH * games:
                n *= 2
                causes = diff_mutant(name, n)["causes"]
            seconds = time.perf_counter() - t0
            own = FOUND_AS.get(m.rule, {m.rule})
            rows.append({"mutant": name, "rule": m.rule, "seconds": seconds, "games": n,
                         "causes": [{"name": c["name"], "count": c["count"], "games": len(c["games"]),
                                     "consequences": [x["name"] for x in c.get("consequences", [])]}
                                    for c in causes],
                         "found": any(c["rule"] in own for c in causes),
                         "one_cause": len(causes) == 1 and causes[0]["rule"] in own})
            bar.update()
    res.update(found=sum(r["found"] for r in rows), one_cause=sum(r["one_cause"] for r in rows),
               seconds=sum(r["seconds"] for r in rows))
    return res


def _trading_phases(players: int, hand: int | None) -> Iterator[GameState]:
    """The trading phases of rio-grande games of seeds 301-500 cut 10 cards from the end (hands
    cut to ``hand`` cards), in seed order; a cut that reaches no trading phase is skipped."""
    for cut in sample_cuts(range(301, 501), players, 10, rulesets=("rio-grande",), hand=hand):
        s, _ = to_trading(cut)
        if s.phase == Phase.TRADE:
            yield s


DP_STATES = 20_000  # the card-level DP's state limit in the seats benchmark (its old guard)


def bench_seats(seat_seconds: float, show: Show, compare: int = 0,
                into: dict[str, Any] | None = None) -> dict[str, Any]:
    """The three seat solvers on the same seat problems: those of the first master round of each
    built-in real-hand position (coop, and best with the solo floors), one worker: the batch
    search (solvers/flow/seat_batch.py), the card-level DP within DP_STATES states, and the CP-SAT
    seat model within ``seat_seconds``. Per position: problems, the median and worst time of each,
    how many the DP and CP-SAT proved. The values must agree wherever proved (a Disagreement
    otherwise). With ``compare``: that many random seat problems (benchmarks/seat_problems.py,
    seeded), the batch search beside the card-level DP without a limit, values equal. ``into``: the
    rows finished so far and, once it has begun, the comparison of the problems done so far."""
    from ortools.sat.python import cp_model

    rows: list[dict[str, Any]] = []
    cases = [(name, o) for name in REAL_NAMES for o in OBJECTIVES.values() if o.trades]
    res = _result(into, seat_seconds=seat_seconds, state_limit=DP_STATES, rows=rows, planned=len(cases))
    with progress(len(cases), "seat problems", show) as bar, interruptible() as stop:
        for name, objective in cases:
            s = LIBRARY[name].position()
            floors = ([solve_solo(s, q).value for q in range(len(s.players))]
                      if objective.floors else None)
            fm = FlowMaster(s, capacity=capacity_default(s, objective.floors))  # as solve_flow
            fm.m.maximize(_objective(fm, fm.relaxed, objective, 0, floors))
            solver = _solver(1, lb_tree=True)
            solver.parameters.max_time_in_seconds = 30.0
            status = stop.solve(solver, fm.m)
            stop.check()  # Ctrl-C in the master's search: the suite ends here
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                rows.append({"position": name, "objective": objective.name, "problems": 0})
                bar.update(1)
                continue  # no master solution in 30 s: no seat problems to time
            times: dict[str, list[float]] = {"batch": [], "dp": [], "cpsat": []}
            proved = {"dp": 0, "cpsat": 0}
            run = FlowSolver(s, objective, 0, floors, 1, None, stop)
            for q in range(fm.n):
                sched = tuple((k, kind, tuple(sorted(c.items())))
                              for k, kind, c in fm.fixed_batches(solver, q))
                batches = [(k, kd, dict(c)) for k, kd, c in sched]
                t0 = time.perf_counter()
                exact = seat_batch.solve_seat_in(s, q, batches).value
                times["batch"].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                try:
                    dp = seat_dp.solve_seat_in(s, q, batches, DP_STATES).value
                    proved["dp"] += 1
                    if dp != exact:
                        raise Disagreement(f"{name} {objective.name} p{q}: batch search {exact}, "
                                           f"card-level DP {dp}")
                except seat_dp.TooLarge:
                    pass
                times["dp"].append(time.perf_counter() - t0)
                m, sp = run._seat_model(fm, q, sched)
                m.maximize(sp.final)
                one = cp_model.CpSolver()
                one.parameters.num_workers = 1
                one.parameters.max_time_in_seconds = seat_seconds
                t0 = time.perf_counter()
                status = stop.solve(one, m)
                stop.check()  # Ctrl-C in the search: its time is not the problem's
                times["cpsat"].append(time.perf_counter() - t0)
                if status == cp_model.OPTIMAL:
                    proved["cpsat"] += 1
                    if round(one.objective_value) != exact and not s.setup.strict_harvest:
                        raise Disagreement(f"{name} {objective.name} p{q}: batch search {exact}, CP-SAT "
                                           f"seat model {round(one.objective_value)}")
            row: dict[str, Any] = {"position": name, "objective": objective.name, "problems": fm.n,
                                   "dp_proved": proved["dp"], "cpsat_proved": proved["cpsat"]}
            for who, ts in times.items():
                row[f"{who}_median_s"] = statistics.median(ts)
                row[f"{who}_worst_s"] = max(ts)
            rows.append(row)
            bar.update(1)
    if compare:
        res["compare"] = compare_seats(compare, show, into=res)
    return res


def compare_seats(count: int, show: Show, seed: int = 0,
                  into: dict[str, Any] | None = None) -> dict[str, Any]:
    """``count`` random seat problems (benchmarks/seat_problems.py, seeded): the batch search and
    the card-level DP, values equal (a Disagreement otherwise); medians, worst times, ratio.
    ``into``: its ``compare`` gets the figures of the problems done when an interrupt ends the run
    (``problems`` of ``problems_asked``)."""
    import random

    rng = random.Random(seed)
    batch_t: list[float] = []
    dp_t: list[float] = []
    strict = cards = 0

    def figures() -> dict[str, Any]:
        mb, md = statistics.median(batch_t), statistics.median(dp_t)
        return {"problems": len(dp_t), "problems_asked": count, "seed": seed, "strict": strict,
                "largest_batch": cards, "batch_median_s": mb, "batch_worst_s": max(batch_t),
                "dp_median_s": md, "dp_worst_s": max(dp_t), "ratio": md / mb if mb > 0 else None}

    try:
        with progress(count, "random seat problems", show) as bar:
            for _ in range(count):
                p = random_problem(rng)
                t0 = time.perf_counter()
                got = seat_batch.solve_seat(p.rules, p.fields, p.coins, p.batches).value
                t1 = time.perf_counter()
                want = seat_dp.solve_seat(p.rules, p.fields, p.coins, p.batches).value
                t2 = time.perf_counter()
                if got != want:
                    raise Disagreement(f"batch search {got}, card-level DP {want}: {p}")
                batch_t.append(t1 - t0)
                dp_t.append(t2 - t1)
                strict += p.rules.strict
                cards = max(cards, max((sum(c.values()) for _, _, c in p.batches), default=0))
                bar.update(1)
    except KeyboardInterrupt:  # the problems done so far, for the caller's partial report
        if into is not None and dp_t:
            into["compare"] = figures()
        raise
    return figures()
