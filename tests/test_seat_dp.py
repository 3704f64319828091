"""solvers/flow/seat_dp.py against two independent answers to the same seat problem (H2-H6, F1, C1, E3,
T6): the brute force of tests/test_seat_plan.py (written from RULES.md alone, here also with H4's
strict reading) and the CP-SAT seat model (solvers/flow/seat_plan.py).

Per random schedule: the DP's value equals the brute force's, its plan replays by the rules to that
value, and (lenient H4) the CP-SAT seat model's optimum is the same. Sensitivity (checked by hand
while writing): the suite fails with the DP's H4 dropped or its purchase free.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from test_seat_plan import CONFIGS, NONE, Case, Fields, brute_force, cases, make_state, pay, replay, seat_plan

import model
from solvers.flow.master import Batch
from solvers.flow.seat_dp import SeatRules, TooLarge, solve_seat, solve_seat_in

BLUE, CHILI, STINK, GREEN, SOY, BLACKEYED, RED, GARDEN = range(2, 10)


EXAMPLES = settings.default.max_examples  # the loaded profile's (tests/conftest.py): 25 in CI

def sched(batches: list[Batch]) -> list[tuple[int, str, dict[int, int]]]:
    return [(bt.turn, bt.kind, dict(bt.counts)) for bt in batches]


@settings(max_examples=8 * EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_dp_matches_brute_force_and_replays(case: Case) -> None:
    rules, players, fields, coins, batches = case
    s = make_state(rules, players, fields, coins)
    su = s.setup
    got = solve_seat_in(s, 0, sched(batches))
    want = brute_force(su.payout, fields, coins, batches, su.third_cost)
    assert got.value == want, f"DP {got.value} != brute force {want}: {case}"
    assert replay(su.payout, fields, coins, batches, su.third_cost, got.ops) == want


@settings(max_examples=2 * EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_dp_matches_the_cpsat_seat_model(case: Case) -> None:
    rules, players, fields, coins, batches = case
    s = make_state(rules, players, fields, coins)
    assert solve_seat_in(s, 0, sched(batches)).value == seat_plan(s, 0, batches)[0]


@settings(max_examples=2 * EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_the_bound_past_the_state_limit_is_a_bound(case: Case) -> None:
    """TooLarge's ``bound`` (a cut in solvers/flow/solver.py) is at least the exact value at every state
    limit, also one the search passes only while it rebuilds the plan."""
    rules, players, fields, coins, batches = case
    s = make_state(rules, players, fields, coins)
    full = solve_seat_in(s, 0, sched(batches))
    for limit in range(1, full.states + 1):
        try:
            got = solve_seat_in(s, 0, sched(batches), limit)
        except TooLarge as e:
            assert e.bound >= full.value, f"limit {limit}: bound {e.bound} < {full.value}: {case}"
        else:
            assert got.value == full.value


# ------------------------------------------------------------------ strict H4
def strict_brute_force(payout: Any, fields: Fields, coins: int, batches: list[Batch],
                       third_cost: int | None) -> int:
    """H4 strict (RULES.md): a one-card field goes only if every field holds exactly one card;
    otherwise as tests/test_seat_plan.brute_force: every order of play searched."""
    cards = [tuple(sorted(Counter(bt.counts).elements())) for bt in batches]

    def ok(fl: Fields, f: int) -> bool:
        n = fl[f][1]
        return n > 1 or (n == 1 and all(c == 1 for _, c in fl))

    @cache
    def go(j: int, rest: tuple[int, ...], fl: Fields, c: int) -> int:
        if j == len(batches):
            return c + sum(pay(payout[b], n) for b, n in fl if n)
        best = -1
        for f, (b, n) in enumerate(fl):
            if ok(fl, f):
                best = max(best, go(j, rest, tuple(sorted(fl[:f] + (NONE,) + fl[f + 1:])),
                                    c + pay(payout[b], n)))
        if third_cost is not None and len(fl) == 2 and c >= third_cost:
            best = max(best, go(j, rest, tuple(sorted(fl + (NONE,))), c - third_cost))
        for i, card in enumerate(rest):
            r2 = rest[:i] + rest[i + 1:]
            for f, (b, n) in enumerate(fl):
                if n == 0 or b == card:
                    nfl = tuple(sorted(fl[:f] + ((card, n + 1),) + fl[f + 1:]))
                    nj, nr = (j, r2) if r2 else (j + 1, cards[j + 1] if j + 1 < len(batches) else ())
                    best = max(best, go(nj, nr, nfl, c))
        return best

    return go(0, cards[0] if batches else (), tuple(sorted(fields)), coins)


@pytest.mark.rule("H4")
@settings(max_examples=4 * EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_dp_strict_h4_matches_brute_force(case: Case) -> None:
    rules, players, fields, coins, batches = case
    su = model.setup(rules, players)
    got = solve_seat(SeatRules(su.payout, True, su.third_cost), fields, coins, sched(batches))
    assert got.value == strict_brute_force(su.payout, fields, coins, batches, su.third_cost)


def test_state_limit_is_a_work_limit() -> None:
    """Past ``max_states`` the DP stops with TooLarge (a count, not a clock: the same on any machine)."""
    rules, players, _ = CONFIGS[0]
    su = model.setup(rules, players)
    big = [(0, "p3", {BLUE: 4, CHILI: 3, STINK: 3, GREEN: 3, SOY: 3, RED: 3})]
    r = SeatRules(su.payout, su.strict_harvest, su.third_cost)
    with pytest.raises(TooLarge):
        solve_seat(r, ((GARDEN, 2), (BLACKEYED, 3)), 0, big, max_states=10)
    full = solve_seat(r, ((GARDEN, 2), (BLACKEYED, 3)), 0, big)
    assert full.states > 10
    assert solve_seat(r, ((GARDEN, 2), (BLACKEYED, 3)), 0, big, max_states=full.states).value == full.value
