"""The cross-check's library side (solvers/cross_check.py, which scripts/cross_check.py drives):
a run that cannot finish (every position too large for exact
search) stops after its cap of replacements with one line, instead of sampling forever."""

from __future__ import annotations

from typing import Any

import pytest

import solvers.cross_check as cc
from solvers.contract import SolveError


def test_replacements_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cc, "positions",
                        lambda objective, count, seed, reshuffle, expansion: [(f"seed {seed}", None, 0)]
                        * count)
    monkeypatch.setattr(cc, "check", lambda item, **kw: {"label": item[0], "too_large": True})
    seen: list[tuple[int, int | None, str]] = []
    with pytest.raises(SolveError, match="4 coop positions too large for exact search .* more than 3"):
        cc.cross_check("coop", 2, 1, 1000, max_replaced=3, progress=lambda *a: seen.append(a))
    assert seen[-1] == (0, 2, "3 replaced")


def test_every_position_done_ends_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(cc, "positions",
                        lambda objective, count, seed, reshuffle, expansion: [(f"{seed}", None, 0)] * count)

    def check(item: Any, **kw: Any) -> dict[str, Any]:
        calls.append(item)
        return {"label": item[0], "too_large": len(calls) == 1}

    monkeypatch.setattr(cc, "check", check)
    out = cc.cross_check("solo", 2, 5, 1000)
    assert len(out["done"]) == 2 and out["replaced"] == ["5"]
    assert [c[0] for c in calls] == ["5", "5", "1000005"]  # the replacement from the next seed's batch


def test_E1_on_demand_positions_are_cut_from_on_demand_games() -> None:
    """``--reshuffle on-demand`` reaches the sampler: its positions play E1's other reading."""
    items = cc.positions("solo", 3, 1, "on-demand")
    assert [s.setup.on_demand for _, s, _ in items] == [True] * 3
    assert all(" on-demand " in label for label, _, _ in items)
    assert not any(s.setup.on_demand for _, s, _ in cc.positions("solo", 2, 1))
