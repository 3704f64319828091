"""scripts/bench.py over the suites of benchmarks/suites.py, with the solvers stubbed out (tests
never time anything): the dispatch, the JSON, and the exit on a disagreement between solvers."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from builders import load_script

from benchmarks import adapters, tables
from benchmarks import suites as benchmarks
from solvers.contract import SolveStats

bench = load_script("bench")


def _stub(values: dict[str, int]) -> Any:
    def solve(s: Any, objective: str, method: str, **_: Any) -> Any:
        return SimpleNamespace(value=values[method], status="optimal", bound=values[method],
                               stats=SolveStats("exact", nodes=1))
    return solve


def test_a_disagreement_between_exact_search_and_a_cp_sat_proof_exits_1(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(benchmarks, "solve", _stub({"exact": 1, "cpsat": 0}))
    assert bench.main(["solvers", "--positions", "1"]) == 1
    out = capsys.readouterr()
    assert out.out == "" and out.err == "bench.py: exact 1 and CP-SAT 0 disagree\n"


def test_duel_json_counts_every_position_by_size(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(benchmarks, "solve", _stub({"exact": 0}))
    assert bench.main(["solvers", "--objective", "duel", "--positions", "2", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert [(r["cards_left"], r["solved"]) for r in res["rows"]] == [(n, 2) for n in benchmarks.DUEL_SIZES]
    assert all(r["median_cards_left"] <= r["cards_left"] for r in res["rows"])


def test_growth_counts_where_the_master_bound_is_above_a_proved_optimum(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Proved positions compare the master's own bound with the optimum; unproved ones give gaps;
    the work limit reaches the solver."""
    seen: list[Any] = []

    def solve(s: Any, objective: str, method: str, limits: Any) -> Any:
        seen.append(limits.work)
        k = len(seen)
        if k % 2:  # proved, the master 2 above (every other one)
            return SimpleNamespace(value=10, status="optimal", bound=10,
                                   stats=SolveStats("flow", stages={"master_bound": 12}))
        return SimpleNamespace(value=7, status="feasible", bound=9,
                               stats=SolveStats("flow", stages={"master_bound": 9}))

    monkeypatch.setattr(benchmarks, "solve", solve)
    monkeypatch.setattr(benchmarks, "GROWTH_PLAYERS", (4,))
    monkeypatch.setattr(benchmarks, "GROWTH_SIZES", (10,))
    argv = ["solvers", "--objective", "coop", "--growth", "--positions", "3", "--work-limit", "5", "--json"]
    assert bench.main(argv) == 0
    (row,) = json.loads(capsys.readouterr().out)["rows"]
    assert seen == [5.0, 5.0, 5.0]
    assert (row["proved"], row["master_compared"], row["master_above"]) == (2, 2, 2)
    assert row["master_worst_excess"] == 2
    assert (row["median_gap"], row["worst_gap"]) == (2, 2)
    seen.clear()
    assert bench.main(argv[:-1]) == 0
    assert "2/2 (+2)" in capsys.readouterr().out


def test_seats_compare_counts_problems_and_exits_1_on_a_disagreement(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The random comparison's JSON (values equal), and exit 1 when the two seat solvers differ."""
    res = benchmarks.compare_seats(3, show=False)
    assert res["problems"] == 3 and res["batch_median_s"] > 0 and res["dp_median_s"] > 0
    from solvers.flow import seat_batch

    real = seat_batch.solve_seat

    def off_by_one(*args: Any, **kw: Any) -> Any:
        got = real(*args, **kw)
        return SimpleNamespace(value=got.value + 1, ops=got.ops, states=got.states)

    monkeypatch.setattr(seat_batch, "solve_seat", off_by_one)
    with pytest.raises(benchmarks.Disagreement, match="batch search"):
        benchmarks.compare_seats(1, show=False)


def test_adapters_are_timed_beside_the_engine_on_real_games(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """One real game of each at 3 players (OpenSpiel, PettingZoo, the engine's random bot): steps
    a game and microseconds a step, and the table's cost a step as a multiple of the engine's."""
    monkeypatch.setattr(adapters, "PLAYERS", (3,))
    assert bench.main(["adapters", "--runs", "1", "--games", "1", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    (row,) = res["rows"]
    assert row["players"] == 3 and set(row) == {"players", "engine", "openspiel", "pettingzoo"}
    assert all(row[k]["steps_per_game"] > 100 and row[k]["us_per_step"] > 0 for k in set(row) - {"players"})
    tables.print_adapters(res)
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:2] == ["players", "engine"] and lines[2].split()[0] == "3"
    assert lines[2].count("x") == 2


def test_mutants_counts_the_mutants_found_as_one_cause_under_their_own_rule(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # the harness stubbed: mix-types (H2) as one H3 cause (the rule it is found as), plant-from-back
    # (H1) under H1 and T1, skip-aside (T6) under E2 only, wrong-tie-break (E4) in 8 games and not in
    # fewer, reshuffle-coins (E1) in none, every other mutant as one cause of its rule
    from proofs.mutants import MUTANTS

    asked: list[tuple[str, int]] = []

    def report(name: str, games: int) -> dict[str, Any]:
        asked.append((name, games))
        rules = {"mix-types": ["H3"], "plant-from-back": ["H1", "T1"], "skip-aside": ["E2"],
                 "wrong-tie-break": ["E4"] if games >= 8 else [], "reshuffle-coins": []}
        more = [{"name": "T1 refused plant", "count": 2, "games": [1]}] if name == "draw-to-front" else []
        return {"causes": [{"name": f"{r} state hand", "rule": r, "count": 3, "games": [0, 1],
                            "consequences": more} for r in rules.get(name, [MUTANTS[name].rule])]}

    monkeypatch.setattr(benchmarks, "diff_mutant", report)
    assert bench.main(["mutants", "--games", "2", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    rows = {r["mutant"]: r for r in res["rows"]}
    n = len(MUTANTS)
    assert len(rows) == n and res["one_cause"] == n - 3 and res["found"] == n - 2
    assert rows["mix-types"]["one_cause"] and not rows["plant-from-back"]["one_cause"]
    assert rows["plant-from-back"]["found"] and not rows["skip-aside"]["found"]
    # a mutant found in no game is run again on twice as many, up to 4 times as many
    runs = {name: [g for m, g in asked if m == name] for name in MUTANTS}
    assert runs["wrong-tie-break"] == [2, 4, 8] and rows["wrong-tie-break"]["one_cause"]
    assert runs["reshuffle-coins"] == [2, 4, 8] and not rows["reshuffle-coins"]["found"]
    assert runs["skip-aside"] == [2] and rows["skip-aside"]["games"] == 2
    tables.print_mutants(res)
    text = capsys.readouterr().out
    assert "skip-aside                T6" in text and "NOT FOUND: E2 state hand (3, 2)" in text
    assert "draw-to-front             H1        " in text
    assert "one cause: H1 state hand (3, 2; with T1 refused plant)\n" in text
    assert "wrong-tie-break           E4" in text and "one cause (in 8 games): E4 state hand (3, 2)" in text
    assert f"{n - 3} of {n} found as one cause under their own rule" in text


def test_seats_compare_interrupted_prints_the_problems_done_marked_partial(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 61: ``seats --compare 10000`` stopped by ``timeout`` kept nothing; now an interrupt (here
    in the third problem) prints the figures of the problems done, marked partial, and exits 130."""
    from solvers.flow import seat_dp

    real = seat_dp.solve_seat
    calls: list[int] = []

    def third_interrupted(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(benchmarks, "REAL_NAMES", ())  # no real-hand positions: the comparison at once
    monkeypatch.setattr(seat_dp, "solve_seat", third_interrupted)
    assert bench.main(["seats", "--compare", "10", "--json"]) == 130
    captured = capsys.readouterr()
    res = json.loads(captured.out)
    assert res["partial"] is True and res["rows"] == [] and res["planned"] == 0
    assert res["compare"]["problems"] == 2 and res["compare"]["problems_asked"] == 10
    assert "the rows measured so far are printed, marked partial" in captured.err
    calls.clear()
    assert bench.main(["seats", "--compare", "10"]) == 130
    out = capsys.readouterr().out
    assert out.startswith("partial (interrupted): the 0 of 0 rows measured so far\nseat problems of")
    assert "\n2 of 10 asked random seat problems (seed 0, " in out
