"""The flow solver (solvers/flow/solver.py) for coop and best: equal to exact search where both finish,
bounds that are bounds at every time limit, lines the engine accepts, and the default position.

Exact search is the reference (tests/test_open_exact.py checks it against the engine). The cuts
are seeded like scripts/cross_check.py's: 3 players with hands of 1-2 cards and 3-6 cards left,
or 4 players with hands of one card and 2-5 cards left (T3-T6, H4, F1, E2 all in play).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from builders import run_script

from model import GameState, Phase, Propose, apply
from solvers.contract import BEST, COOP, Limits, Objective, Solution, SolveError
from solvers.cpsat_deals import solve_deals_cpsat
from solvers.exact import solve_open
from solvers.flow.solver import solve_flow
from solvers.positions import DEFAULT, LIBRARY, PositionInputError, cut, small

ROOT = Path(__file__).resolve().parent.parent
SMALL = [("rio-grande", 3), ("amigo", 3), ("rio-grande", 4), ("amigo", 4)]


def _cuts(count: int, seed: int, options: dict[str, str] | None = None) -> list[tuple[str, GameState, int]]:
    rng = random.Random(seed)
    out: list[tuple[str, GameState, int]] = []
    while len(out) < count:
        name, n = SMALL[len(out) % len(SMALL)]
        game = rng.randrange(10**6)
        hand = rng.choice((1, 2)) if n == 3 else 1
        left = rng.randrange(3, 7) if n == 3 else rng.randrange(2, 6)
        try:
            s = small(cut(name, n, game, 8, options), hand=hand, draw=left)
        except PositionInputError:
            continue
        out.append((f"{name} {n}p game {game} hands {hand} left {len(s.draw)}", s, rng.randrange(n)))
    return out


@cache
def _optimum(label: str, objective: Objective) -> int | None:
    """Exact search's optimum (None when it passes its node budget: such cuts are not used)."""
    item = next(x for x in _CUTS if x[0] == label)
    try:
        return solve_open(item[1], objective, item[2], limits=Limits(nodes=60_000)).value
    except SolveError as e:
        if "nodes" in str(e):
            return None
        raise


# Seed 6: exact search finishes 23 of the 24 (cut, objective) pairs within its node budget, and deals
# pay in 11 coop and 4 best optima (seed 7, used before, spent 19 s of exact search on 3 pairs past
# the budget, then unused, and another 9 s on one at 58,000 nodes; deals paid in 8 and 3).
_CUTS = _cuts(12, 6)


def _replays(s: GameState, sol: Solution) -> None:
    """The line is legal (checked apply) and ends the game with the coins it claims."""
    t = s
    for a in sol.line:
        t = apply(t, a)
    assert t.phase == Phase.OVER
    coins = [len(p.coins) for p in t.players]
    assert coins == sol.per_player
    assert sol.value == (sum(coins) if sol.objective.name == "coop" else coins[sol.player])


@pytest.mark.rule("T3")
@pytest.mark.parametrize("objective", [COOP, BEST], ids=str)
def test_T3_flow_equals_exact_search(objective: Objective) -> None:
    """Every cut exact search finishes (at least 11 of 12) gets the same proved optimum."""
    compared = 0
    for label, s, p in _CUTS:
        want = _optimum(label, objective)
        if want is None:
            continue
        sol = solve_flow(s, objective, p, Limits(30, workers=1))
        assert (sol.status, sol.value, sol.stats.bound) == ("optimal", want, want), label
        _replays(s, sol)
        compared += 1
    assert compared >= 11


@pytest.mark.rule("H4")
@pytest.mark.parametrize("objective", [COOP, BEST], ids=str)
def test_H4_strict_flow_never_passes_exact_search(objective: Objective) -> None:
    """H4 strict (the decomposition alone: the master ignores H4, the seat DP reads it strictly):
    plan <= exact search's optimum <= bound on every cut, "optimal" only with the optimum, and most
    cuts proved."""
    compared = proved = 0
    for label, s, p in _cuts(8, 3, {"harvest": "strict"}):
        assert s.setup.strict_harvest
        try:
            want = solve_open(s, objective, p, Limits(nodes=10_000)).value
        except SolveError as e:
            if "nodes" in str(e):
                continue
            raise
        sol = solve_flow(s, objective, p, Limits(20, workers=1))
        _replays(s, sol)
        bound = sol.stats.bound
        assert sol.value <= want <= bound, (label, sol.value, want, bound)
        if sol.status == "optimal":
            assert sol.value == want, label
            proved += 1
        compared += 1
    assert compared >= 5
    assert proved >= compared - 1, (proved, compared)


@pytest.mark.rule("T3")
@pytest.mark.parametrize("time_limit", [0.05, 0.3, 3.0])
@pytest.mark.parametrize("objective", [COOP, BEST], ids=str)
def test_bounds_are_bounds_at_every_time_limit(objective: Objective, time_limit: float) -> None:
    """No solver reports a value above the optimum, or a bound below it, however short its time;
    "optimal" only with the optimum."""
    for label, s, p in _CUTS[:4]:
        want = _optimum(label, objective)
        if want is None:
            continue
        for solve in (solve_flow, solve_deals_cpsat):
            try:
                sol = solve(s, objective, p, Limits(time_limit, workers=1))
            except SolveError as e:  # no plan at all in so little time: allowed, silently wrong is not
                assert any(w in str(e) for w in ("no plan", "no solution", "not proved", "time limit")), e
                continue
            assert sol.value <= want, (label, solve.__name__)
            bound = sol.stats.bound
            if bound is not None:
                assert bound >= want, (label, solve.__name__, bound)
            if sol.status == "optimal":
                assert sol.value == want
            _replays(s, sol)


@pytest.mark.parametrize("name", ["rio4-last-turn", "rio4-8cards"])
def test_real_hands_bound_and_line(name: str) -> None:
    """Real hands (14-20 cards): the line replays, and the value is at least the best plan without
    deals (every seat's solo optimum) and at most the bound; on rio4-last-turn (one turn left) deals
    pay and the plan is proved optimal. (How close rio4-8cards comes is the benchmark's to measure,
    not a test's: a work limit here, not a clock, so a busy machine runs the same search.)"""
    s = LIBRARY[name].position()
    sol = solve_flow(s, COOP, limits=Limits(120, work=60 if name == "rio4-last-turn" else 2))
    _replays(s, sol)
    from solvers.exact import solve_solo

    solo = sum(solve_solo(s, q).value for q in range(len(s.players)))
    assert sol.value >= solo
    bound = sol.stats.bound
    assert bound is not None and bound >= sol.value
    if name == "rio4-last-turn":
        assert sol.value > solo
        assert any(isinstance(a, Propose) for a in sol.line)
        assert sol.status == "optimal"


def test_default_position_is_real_and_proved() -> None:
    """The README's main command: the default position (4 players, real hands) solved with deals,
    proved optimal."""
    assert DEFAULT == "rio4-last-turn"
    s = LIBRARY[DEFAULT].position()
    assert len(s.players) == 4 and min(len(p.hand) for p in s.players) >= 10
    out = run_script("solve_endgame.py", "--json")
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert res["objective"] == "best" and res["status"] == "optimal"
    assert res["bound"] == res["value"]
    assert any(" offer " in a for a in res["line"])
    assert res["value"] > res["stats"]["floors"][res["player"]]  # deals pay for the player


def test_ctrl_c_returns_the_best_replayed_plan() -> None:
    """SIGINT during a long run: one answer, never a traceback. With a plan in hand it is printed,
    replayed, and marked interrupted (status feasible, or optimal if it met its proved bound)."""
    import signal
    import time

    name = "rio5-15cards"  # coop: proved in about 28 s, its first master solve alone about 25 s
    proc = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "solve_endgame.py"), name,
                             "--objective", "coop", "--time-limit", "300", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(6)  # a plan is in hand within 2 s on this machine, loaded
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err
    assert proc.returncode == 130, err  # interrupted (issue 15), with or without a plan
    if not out.strip():  # no plan yet on a very slow machine: one line says so
        assert "interrupted; nothing: no line yet" in err and err.count("\n") == 1
        return
    assert err.strip().endswith("interrupted; the best line found so far is printed above "
                                "(feasible, not proved)")
    res = json.loads(out)
    assert res["stats"]["interrupted"] is True
    assert res["status"] in ("feasible", "optimal") and res["line"]
    assert res["bound"] is None or res["bound"] >= res["value"]
    s = LIBRARY[name].position()
    from model import parse_action

    t = s
    for a in res["line"]:
        t = apply(t, parse_action(a))
    assert sum(len(p.coins) for p in t.players) == res["value"]


def test_plan_values_are_rounded_not_truncated() -> None:
    """CP-SAT reports objective values as doubles (7 can come back as 6.999...): the flow solver
    rounds them, so a plan's claimed value equals its replay (rio-grande 4p game 551596, hands
    of one card, 3 cards left; found by scripts/cross_check.py)."""
    s = small(cut("rio-grande", 4, 551596, 8), hand=1, draw=3)
    sol = solve_flow(s, COOP, 2, Limits(30, workers=1))
    _replays(s, sol)
    assert sol.status == "optimal"
    assert sol.value == solve_open(s, COOP, 2).value


def test_the_best_plan_hints_every_variable_of_the_joint_model() -> None:
    """The seats solved alone name their variables as the joint model does, batches and beans
    with no cards included: an incomplete hint left the joint model without any plan in 40 s on a
    real 4-player cut (1,810 of 3,373 variables hinted); on rio4-last-turn too."""
    from solvers.cpsat_run import interruptible
    from solvers.flow.master import FlowMaster
    from solvers.flow.seat_plan import SeatPlan
    from solvers.flow.solver import FlowSolver, _Found, no_trade_line

    s = LIBRARY["rio4-last-turn"].position()
    with interruptible() as stop:
        run = FlowSolver(s, COOP, None, None, 1, None, stop)
        _, end = no_trade_line(s)
        run.best = _Found(sum(len(p.coins) for p in end.players), [], [])
        run.decompose(until=time.perf_counter() + 20)
        run.complete_hint(until=1.0)  # what ``joint`` does first
    assert run.best.value > sum(len(p.coins) for p in end.players) and run.hint
    fm = FlowMaster(s)
    for q in range(fm.n):
        SeatPlan(fm.m, s, q, fm.batches[q], set(fm.beans))
    names = {fm.m.get_int_var_from_proto_index(i).name for i in range(len(fm.m.proto.variables))}
    assert names - {""} <= set(run.hint)


@pytest.mark.rule("T3")
@pytest.mark.parametrize("objective", [COOP, BEST], ids=str)
def test_the_search_for_a_better_plan_alone_reaches_the_optimum(objective: Objective) -> None:
    """From the no-trade plan, ``above`` (any plan worth one more, no LP) either improves the
    plan, replayed, or proves none exists; repeated, it ends at exact search's optimum."""
    compared = 0
    for label, s, p in _CUTS[:4]:
        want = _optimum(label, objective)
        if want is None:
            continue
        with _no_trade_run(s, objective, p) as run:
            start = run.best.value
            for _ in range(want - start + 1):
                run.above(30)
                if run.bound == run.best.value:
                    break
        assert (run.best.value, run.bound) == (want, want), label
        compared += 1
    assert compared >= 3


def test_a_work_limit_gives_the_same_answer_every_run() -> None:
    """With a work limit (CP-SAT deterministic time) and one worker, the run is the same search
    whatever the clock says: the same value, bound and line twice, and it says the work limit
    stopped it (the wall-clock limit, 600 s, is far away)."""
    s = LIBRARY["rio4-8cards"].position()
    runs = [solve_flow(s, COOP, None, Limits(600, work=1.0)) for _ in range(2)]
    a, b = runs
    assert a.stats.stopped_by in ("work", "proved")
    assert a.stats.work <= 1.0 * 1.05 + 1.0  # each solve ends at its share, give or take a step
    assert (a.value, a.stats.bound, a.line) == (b.value, b.stats.bound, b.line)
    assert a.stats.stages["rounds"] == b.stats.stages["rounds"]


@pytest.mark.parametrize("upper", [0, 10_000])
def test_a_first_master_solve_no_tighter_than_the_beanometer_gives_up(upper: int) -> None:
    """The first master solve stops at its first solution past its share (here none) only while
    its proved bound is no tighter than the beanometer's (``upper``): no master bound is tighter
    than 0, so it stops at once; every one is tighter than 10,000, so it runs to its optimum."""
    from ortools.sat.python import cp_model

    from solvers.cpsat_lazy import solution_callback
    from solvers.flow.cuts import capped_values
    from solvers.flow.master import FlowMaster
    from solvers.flow.solver import _Harvest, _objective, _solver

    s = LIBRARY["rio4-8cards"].position()
    fm = FlowMaster(s)
    fm.m.maximize(_objective(fm, capped_values(fm), COOP, 0, None))
    harvest = _Harvest(fm, 20, weak=(upper, 0.0, True))
    solver = _solver(1)
    status = solver.solve(fm.m, solution_callback(harvest.on_solution))
    if upper == 0:
        assert harvest.gave_up and len(harvest.found) == 1 and status == cp_model.FEASIBLE
        assert solver.best_objective_bound >= upper
    else:
        assert not harvest.gave_up and status == cp_model.OPTIMAL


def test_a_seat_cut_caps_the_schedule_and_does_not_forbid_it() -> None:
    """A cut "seat q's fields on schedule S pay at most v" must leave every joint schedule with S
    feasible, worth v for that seat; were it to forbid S, the master would stop being a relaxation
    and could prove a bound below the optimum (it did so before the capped values)."""
    from ortools.sat.python import cp_model

    from solvers.cpsat_lazy import solution_callback
    from solvers.flow.cuts import capped_values
    from solvers.flow.cuts import cut as seat_cut
    from solvers.flow.master import FlowMaster
    from solvers.flow.solver import _Harvest, _objective, _solver

    s = LIBRARY["rio4-8cards"].position()
    fm = FlowMaster(s)
    values = capped_values(fm)
    fm.m.maximize(_objective(fm, values, COOP, 0, None))
    harvest = _Harvest(fm, 1)
    assert _solver(1).solve(fm.m, solution_callback(harvest.on_solution)) == cp_model.OPTIMAL
    found = harvest.found[-1]

    again = FlowMaster(s)
    capped = capped_values(again)
    total = _objective(again, capped, COOP, 0, None)
    seat_cut(again, capped[0], 0, found.scheds[0], found.relaxed[0] - 1, 0)
    for i in range(len(again.m.proto.variables)):  # the same fronts and flows as the optimum
        var = again.m.get_int_var_from_proto_index(i)
        if var.name.startswith(("g", "u", "h", "d", "front")) and var.name in found.values:
            again.m.add(var == found.values[var.name])
    again.m.maximize(total)
    solver = _solver(1)
    assert solver.solve(again.m) == cp_model.OPTIMAL
    assert round(solver.objective_value) == sum(found.relaxed) - 1


@contextmanager
def _no_trade_run(s: GameState, objective: Objective, p: int) -> Iterator[Any]:
    """A FlowSolver holding the no-trade plan and nothing else (Ctrl-C stops its searches)."""
    from solvers.cpsat_run import interruptible
    from solvers.exact import open_player, solve_solo
    from solvers.flow.solver import FlowSolver, _Found, no_trade_line

    q = open_player(s, objective, p)
    floors = [solve_solo(s, r).value for r in range(len(s.players))] if objective == BEST else None
    with interruptible() as stop:
        run = FlowSolver(s, objective, q, floors, 1, None, stop)
        line, end = no_trade_line(s)
        coins = [len(x.coins) for x in end.players]
        start = run._score(coins)
        assert start is not None
        run.best = _Found(start, line, coins)
        yield run  # no hint: search_plans starts from the no-trade flows


def test_flow_variables_are_told_apart_by_name() -> None:
    """The plan search fixes and frees the master's trade and front variables by name: every
    g/u/h/d/front variable is one, no other variable (relaxed values, cuts, tables) is."""
    from solvers.flow.master import FlowMaster
    from solvers.flow.solver import _is_flow, _neighbourhoods

    fm = FlowMaster(LIBRARY["rio4-8cards"].position())
    flows = {v for k in range(len(fm.turns)) for side in (fm.give[k], fm.up[k], fm.back[k])
             for r in side for v in side[r].values()}
    flows |= {lit for opts in fm.fronts for _, lit in opts}
    flows |= {fm.deals[k][r] for k in range(len(fm.turns)) for r in fm.deals[k]}
    names = [fm.m.get_int_var_from_proto_index(i).name for i in range(len(fm.m.proto.variables))]
    want = {v.name for v in flows}
    assert {n for n in names if _is_flow(n)} == want
    hoods = _neighbourhoods({n: 0 for n in want})
    assert len(hoods) >= len(fm.turns) + 3
    assert all(any(h(n) for h in hoods) for n in want if not n.startswith("front"))


@pytest.mark.rule("T3")
@pytest.mark.parametrize("objective", [COOP, BEST], ids=str)
def test_the_plan_search_improves_on_no_trade_and_stays_below_the_optimum(objective: Objective) -> None:
    """From the no-trade plan alone (no rounds before it), the neighbourhood search finds plans
    that replay by the rules, never worth more than exact search's optimum, and better than no
    trade wherever deals pay on at least one cut."""
    improved = compared = 0
    for label, s, p in _CUTS[:6]:
        want = _optimum(label, objective)
        if want is None:
            continue
        with _no_trade_run(s, objective, p) as run:
            start = run.best.value
            run.search_plans(1.0)
            got = run.best
        assert start <= got.value <= want, label
        t = s
        for a in got.line:
            t = apply(t, a)
        assert t.phase == Phase.OVER and [len(x.coins) for x in t.players] == got.coins
        improved += got.value > start
        compared += 1
    assert compared >= 4 and improved >= 1


def test_a_round_no_tighter_than_the_beanometer_ends_the_rounds() -> None:
    """``best p1`` on rio4-8cards: the master's first round proves 23 (the optimum) while the plan
    is below it, and its seats give cuts, so the rounds would go on (25 of them prove it). With
    23 as the beanometer's bound (a valid one: the optimum), that round is no tighter than it:
    the rounds end there and the plan search gets the time."""
    s = LIBRARY["rio4-8cards"].position()
    with _no_trade_run(s, BEST, 1) as run:
        run.upper = 23
        run.decompose(until=1.0)
    assert run.weak and run.stages["rounds"] == 1 and run.stages["master_gave_up"]
    assert run.cuts and run.bound == 23 and run.best.value < 23


def _recorded(run: Any) -> list[tuple[str, float, bool]]:
    """The run's joint model and rounds, each call recorded: (turn, until, proved before it)."""
    calls: list[tuple[str, float, bool]] = []
    joint, decompose = run.joint, run.decompose

    def proved() -> bool:
        return bool(run.bound is not None and run.best.value >= run.bound)

    def joint_turn(until: float) -> None:
        calls.append(("joint", until, proved()))
        joint(until)

    def rounds_turn(until: float, soft: float | None = None) -> None:
        calls.append(("rounds", until, proved()))
        decompose(until, soft)

    run.joint, run.decompose = joint_turn, rounds_turn
    return calls


@pytest.mark.rule("T3")
def test_best_takes_turns_joint_then_rounds_and_stops_at_a_proof() -> None:
    """``take_turns`` (``BEST_TURNS``) from the no-trade plan: the joint model, then the rounds,
    each to a later fraction of the run; the plan replays, stays at most exact search's optimum,
    the bound at least it; and no turn starts once the plan meets the bound."""
    from solvers.flow.solver import BEST_TURNS

    assert [what for what, _ in BEST_TURNS] == ["joint", "rounds"]
    checked = 0
    for label, s, p in _CUTS[:6]:
        want = _optimum(label, BEST)
        if want is None:
            continue
        with _no_trade_run(s, BEST, p) as run:
            calls = _recorded(run)
            run.take_turns(BEST_TURNS)
            got, bound = run.best, run.bound
        assert got.value <= want <= (bound if bound is not None else want), label
        assert calls and [c for c, _, _ in calls] == ["joint", "rounds"][:len(calls)], label
        assert all(a < b for (_, a, _), (_, b, _) in zip(calls, calls[1:], strict=False)), label
        assert not any(done for _, _, done in calls), label  # no turn once proved
        t = s
        for a in got.line:
            t = apply(t, a)
        assert [len(x.coins) for x in t.players] == got.coins
        checked += 1
    assert checked >= 4


def test_the_beanometer_bound_comes_with_the_first_plan_and_stays_without_a_master(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The beanometer's bound (solvers/bounds.py) is proved before any solve: the first progress
    tick carries it beside the no-trade plan, and a run whose master never ends (here: no phase
    runs at all) still reports it as its bound, not none."""
    from solvers.exact import OpenSearch, solve_solo
    from solvers.flow.solver import FlowSolver

    s = LIBRARY["rio4-8cards"].position()
    upper = OpenSearch(COOP, s.to_move).upper(s)
    ticks: list[tuple[int, float]] = []
    for phase in ("decompose", "search_plans", "take_turns", "joint", "above"):
        monkeypatch.setattr(FlowSolver, phase, lambda self, *a, **k: None)
    sol = solve_flow(s, COOP, limits=Limits(60, workers=1), tick=lambda v, b, e: ticks.append((v, b)))
    solo = sum(solve_solo(s, q).value for q in range(len(s.players)))
    assert ticks == [(solo, upper)]
    assert (sol.value, sol.stats.bound, sol.status) == (solo, upper, "feasible")
    _replays(s, sol)
