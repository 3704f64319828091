"""The cross-check's library side (solvers/cross_check.py, which scripts/cross_check.py drives):
a run that cannot finish (every position too large for exact
search) stops after its cap of replacements with one line, instead of sampling forever."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from builders import load_script
from test_isla_open import _deal

import solvers.cross_check as cc
import solvers.isla.cross_check as icc
from solvers.contract import COOP, SOLO, NodeLimitExceeded, Objective, SolveError


def test_replacements_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cc, "positions",
                        lambda objective, count, seed, reshuffle, expansion: [(f"seed {seed}", None, 0)]
                        * count)
    monkeypatch.setattr(cc, "check", lambda item, **kw: {"label": item[0], "too_large": True})
    seen: list[tuple[int, int | None, str]] = []
    with pytest.raises(SolveError, match="4 coop positions too large for exact search .* more than 3"):
        cc.cross_check(COOP, 2, 1, 1000, max_replaced=3, progress=lambda *a: seen.append(a))
    assert seen[-1] == (0, 2, "3 replaced")


def test_every_position_done_ends_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(cc, "positions",
                        lambda objective, count, seed, reshuffle, expansion: [(f"{seed}", None, 0)] * count)

    def check(item: Any, **kw: Any) -> dict[str, Any]:
        calls.append(item)
        return {"label": item[0], "too_large": len(calls) == 1}

    monkeypatch.setattr(cc, "check", check)
    out = cc.cross_check(SOLO, 2, 5, 1000)
    assert len(out["done"]) == 2 and out["replaced"] == ["5"]
    assert [c[0] for c in calls] == ["5", "5", "1000005"]  # the replacement from the next seed's batch


def test_E1_on_demand_positions_are_cut_from_on_demand_games() -> None:
    """``--reshuffle on-demand`` reaches the sampler: its positions play E1's other reading."""
    items = cc.positions(SOLO, 3, 1, "on-demand")
    assert [s.setup.on_demand for _, s, _ in items] == [True] * 3
    assert all(" on-demand " in label for label, _, _ in items)
    assert not any(s.setup.on_demand for _, s, _ in cc.positions(SOLO, 2, 1))


def test_isla_coop_and_best_are_checked_against_the_solo_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--expansion isla`` with coop (and so best): exact search against P's solo line (I3: the deal of
    turned-up cards that makes coop 3 where the solo line totals 2), and a coop below the solo
    line's total is reported (a stand-in search that ignores the deal)."""
    s = _deal()
    coop = cc.check(("deal", s, 0), COOP, 10_000)
    assert (coop["exact"], sum(coop["solo_line"]), coop["problems"]) == (3, 2, [])
    assert cc.check(("deal", s, 0), COOP, 10)["unfinished"] is True  # past its node limit: not replaced
    real = icc.solve

    def no_deal(t: Any, objective: Objective, *args: Any) -> Any:
        return real(t, SOLO if objective == COOP else objective, *args)

    monkeypatch.setattr(icc, "solve", no_deal)  # "coop" answered by the solo search: 1 < the total 2
    assert cc.check(("deal", s, 0), COOP, 10_000)["problems"] == ["coop 1 below the solo line's total 2"]


def test_an_unfinished_isla_coop_bound_below_the_solo_line_is_a_disagreement(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An open search stopped by its limit still claims a proved bound (its root's) and hands out its
    best line: the bound is held to the solo line's total as an optimum is (a stand-in search that
    stops with the deal's line, 3, and a bound of ``top``; the solo line totals 2)."""
    real = icc.solve

    def stopped(top: int) -> Any:
        def solve(t: Any, objective: Objective, *args: Any) -> Any:
            a = real(t, objective, *args)
            if objective == SOLO:
                return a
            e = NodeLimitExceeded("stand-in: past its node limit")
            e.best = replace(a, status="feasible", stats=replace(a.stats, bound=top))
            raise e
        return solve

    monkeypatch.setattr(icc, "solve", stopped(4))
    cut = cc.check(("deal", _deal(), 0), COOP, 10_000)
    assert (cut["unfinished"], cut["found"], cut["bound"], cut["problems"]) == (True, 3, 4, [])
    monkeypatch.setattr(icc, "solve", stopped(1))
    assert cc.check(("deal", _deal(), 0), COOP, 10_000)["problems"] == [
        "coop proved bound 1 below the solo line's total 2"]


def test_a_line_below_with_no_proof_is_unproved_not_a_disagreement(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """scripts/cross_check.py: a disagreement is two claims of an optimum that differ (a CP-SAT
    optimum other than exact search's, or a line above it); a feasible line below is not proved."""
    script = load_script("cross_check")

    def row(label: str, exact: int, cpsat: int | None, status: str) -> dict[str, Any]:
        return {"label": label, "too_large": False, "exact": exact, "cpsat": cpsat, "status": status,
                "exact_s": 0.1, "cpsat_s": 0.2, "nodes": 5}

    done = [row("same", 4, 4, "optimal"), row("below", 5, 2, "feasible"), row("other", 3, 2, "optimal"),
            row("above", 3, 4, "feasible"), row("none", 3, None, "none")]
    monkeypatch.setattr(script, "cross_check", lambda *a, **kw: {"done": done, "replaced": [], "refused": []})
    assert script.main(["--objective", "solo", "--positions", "5", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert (out["disagreements"], out["cpsat_not_proved"]) == (2, 2)
    assert [p.split(":")[0] for p in out["problems"]] == ["other", "above", "below", "none"]
