"""The column bound (solvers/flow/columns.py) is a bound: for any prices, every seat's pricing bound is
at least what that seat's part of a real plan is worth at those prices, the link terms of a real plan
cancel between its two sides, and the bound after column generation is at least exact search's
optimum (coop and best, T3-T6, C1, H4). Two wrong pricings are caught: a link priced with the same
sign on both sides, and a pricing that reports its best column instead of its proved bound.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest
from ortools.sat.python import cp_model

from model import GameState
from solvers.contract import BEST, COOP, Budget, Limits, Objective, SolveError
from solvers.exact import solve_open, solve_solo
from solvers.flow.columns import SCALE, ColumnBound, Link, Priced, link_var, links
from solvers.flow.cuts import Schedule, schedule
from solvers.flow.master import FlowMaster
from solvers.positions import PositionInputError, cut, small

Plan = tuple[dict[Link, int], list[Schedule], list[int]]  # links, every seat's schedule, its exact value


@cache
def _positions(hand: int = 2, draw: int = 4) -> list[tuple[str, GameState]]:
    rng = random.Random(11)
    out: list[tuple[str, GameState]] = []
    while len(out) < 4:
        ruleset, n = [("rio-grande", 3), ("amigo", 3), ("rio-grande", 4), ("amigo", 4)][len(out)]
        game = rng.randrange(10**6)
        try:
            s = small(cut(ruleset, n, game, 8), hand=hand, draw=draw - (n == 4))
        except PositionInputError:
            continue
        out.append((f"{ruleset} {n}p game {game} hands {hand} left {len(s.draw)}", s))
    return out


def _plans(cb: ColumnBound, count: int, seed: int) -> list[Plan]:
    """Real plans: master solutions under seeded random objectives over the links, each seat's
    fields solved exactly on its schedule (the counts are exact, so each is a legal play)."""
    rng = random.Random(seed)
    out: list[Plan] = []
    for _ in range(count):
        fm = FlowMaster(cb.s, capacity=False, seats=())
        fm.m.maximize(sum(rng.randrange(-1, 3) * link_var(fm, ln) for ln in cb.links) if cb.links else 0)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = rng.randrange(1000)
        assert solver.solve(fm.m) == cp_model.OPTIMAL
        scheds = [schedule(fm, solver, q) for q in range(cb.n)]
        values = []
        for q, sched in enumerate(scheds):
            value, _ = cb.exact(q, sched)
            assert value is not None
            values.append(value)
        out.append(({ln: int(solver.value(link_var(fm, ln))) for ln in cb.links}, scheds, values))
    return out


def _term(cb: ColumnBound, q: int, plan: Plan, prices: dict[Link, Fraction], weight: Fraction) -> int:
    """What seat q's part of ``plan`` is worth at ``prices`` (scaled), with the signs written here."""
    flows, _, values = plan
    a_side = {ln: sides[0] == q for ln, sides in links(cb.blocks[q].fm).items() if q in sides}
    paid = sum(prices[ln] * SCALE * flows[ln] * (1 if active else -1) for ln, active in a_side.items())
    return int(weight * SCALE * values[q] - paid)


def _violations(cb: ColumnBound, plans: list[Plan], seed: int, rounds: int = 3) -> list[str]:
    """Every seat's pricing bound against every plan's part at seeded random prices; empty when sound."""
    rng = random.Random(seed)
    out = []
    for _ in range(rounds):
        prices = {ln: Fraction(rng.randrange(-12, 13), 4) for ln in cb.links}
        for q in range(cb.n):
            weight = Fraction(rng.randrange(0, 3))
            got = cb.price(q, prices, weight, 1.0)
            assert got.bound is not None
            for i, plan in enumerate(plans):
                term = _term(cb, q, plan, prices, weight)
                if got.bound < term:
                    out.append(f"p{q}: priced bound {got.bound} < plan {i}'s {term}")
    return out


@pytest.mark.rule("T3")
@pytest.mark.parametrize("index", range(4))
def test_T3_every_pricing_bound_is_at_least_a_real_plans_part(index: int) -> None:
    """The Lagrangian bound's two facts on real plans: each seat's pricing bound covers its part,
    and the parts' link terms cancel, so their sum is the plan's own objective."""
    label, s = _positions()[index]
    cb = ColumnBound(s, COOP, 0, None, capacity=False, clock=Budget("test", None, 120))
    plans = _plans(cb, 3, seed=index)
    assert any(any(p[0].values()) for p in plans), f"{label}: no plan trades"
    assert _violations(cb, plans, seed=index) == [], label
    prices = {ln: Fraction(1 + i % 3) for i, ln in enumerate(cb.links)}
    for plan in plans:
        total = sum(_term(cb, q, plan, prices, Fraction(1)) for q in range(cb.n))
        assert total == SCALE * sum(plan[2]), label


@cache
def _optimum(index: int, objective: Objective) -> int:
    _, s = _positions(1, 4)[index]
    return solve_open(s, objective, 0, Limits(nodes=200_000)).value


@pytest.mark.rule("T3")
@pytest.mark.rule("C1")
@pytest.mark.parametrize("objective", [COOP, BEST], ids=str)
@pytest.mark.parametrize("index", range(4))
def test_C1_the_column_bound_is_at_least_the_optimum(index: int, objective: Objective) -> None:
    label, s = _positions(1, 4)[index]
    try:
        want = _optimum(index, objective)
    except SolveError:
        pytest.fail(f"{label}: exact search did not finish")
    floors = [solve_solo(s, q).value for q in range(len(s.players))] if objective == BEST else None
    cb = ColumnBound(s, objective, 0, floors, capacity=objective == BEST, clock=Budget("test", None, 60))
    got = cb.run(1.0)
    assert got is not None and got >= want, f"{label}: bound {got} < optimum {want}"
    # measured: on these eight the root converges to the optimum (11-13 rounds, 11-24 columns)
    assert got == want, f"{label}: bound {got}, optimum {want}"
    assert cb.stats["iterations"] >= 1


class _SameSign(ColumnBound):
    """A dual sign flipped: the partner side of every link priced like the active side."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        for blk in self.blocks:
            blk.mine = {ln: 1 for ln in blk.mine}


class _Cheap(ColumnBound):
    """A column priced too cheap: the pricing reports the best column it solved exactly, less a
    coin, instead of its search's proved bound."""

    def price(self, q: int, prices: dict[Link, Fraction], weight: Fraction, until: float) -> Priced:
        got = super().price(q, prices, weight, until)
        W = int(weight * SCALE)
        best = max(W * c.value - sum(int(prices.get(ln, 0) * SCALE) * self.blocks[q].mine[ln] * x
                                     for ln, x in c.flows) for c in got.columns)
        return Priced(best - SCALE, got.columns)


@pytest.mark.rule("T3")
@pytest.mark.parametrize("mutant", [_SameSign, _Cheap], ids=["sign-flipped", "priced-too-cheap"])
def test_T3_a_wrong_pricing_is_caught(mutant: type[ColumnBound]) -> None:
    found = []
    for index, (label, s) in enumerate(_positions()[:2]):
        cb = mutant(s, COOP, 0, None, capacity=False, clock=Budget("test", None, 120))
        plans = _plans(ColumnBound(s, COOP, 0, None, capacity=False), 3, seed=index)
        found += [f"{label}: {v}" for v in _violations(cb, plans, seed=index)]
    assert found, f"{mutant.__name__} went unnoticed"
