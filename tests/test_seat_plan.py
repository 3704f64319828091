"""An independent brute-force check of solvers/flow/seat_plan.py ``SeatPlan`` (H2-H6, F1, C1, E3, T6).

``SeatPlan`` models one seat's field play, given the batches it plants: a phase-1 card (T1), or a
phase-3 batch of set-aside cards planted in an order the seat picks (T6). The brute force here is
written from RULES.md alone, not from SeatPlan nor from the engine: a seat's state is its fields
(bean, count), its coins and whether the third field is owned; between any two plantings (and
between batches, H6) the seat may harvest any field H4 allows and buy the third field (F1); every
card of a batch is planted (H3) before the next batch starts; at the end every field is harvested
without H4 (E3). A memoised depth-first search over those states gives the optimum.

Three checks:
1. SeatPlan's optimum equals the brute force's, on random schedules (2 fields with a third to buy
   for 3, 2 or, with the V3 option third_field_cost, 1 coin; a third already owned; 3 fields with
   none to buy: rio-grande 4 and 6 players, amigo 3 players), also with phase-3 bounds ``most``
   above the batch's count (as solvers/flow/master.py gives them).
2. SeatPlan's ``ops`` replayed by a simulator of the same rules are legal (H3, H4, F1's coins,
   every card of every batch planted once, in batch order, in its own turn and phase) and reach
   the value SeatPlan claims.
3. Hand-worked cases, the values derived in the comments.

Sensitivity (checked by hand while writing): the suite fails with the brute force's H4 dropped or
made strict, the purchase free or forbidden, a payout off by one; and with SeatPlan's ops missing a
harvest or the purchase, or reordered. (H4 at the end, against E3, is not detectable: no bean pays
for one card.)
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

import model
from model.cards import BEAN_NAMES
from model.state import EMPTY, Field, GameState, PlayerState
from solvers.flow.master import Batch
from solvers.flow.seat_plan import Op, SeatPlan

# bean ids (model.cards.BEAN_NAMES order)
WAX, BLUE, CHILI, STINK, GREEN, SOY, BLACKEYED, RED, GARDEN, COCOA = range(1, 11)

# (ruleset, players, starting fields): the seat's number of fields; with rio-grande 4 players a
# state with 3 fields is a seat that already bought its third field (F1: once, so none to buy).
# The V3 option third_field_cost=1 makes the purchase pay often, so that it is exercised.
CONFIGS = [
    (model.ruleset("rio-grande"), 4, 2),  # 2 fields, a third for 3 coins
    (model.ruleset("rio-grande"), 6, 2),  # 2 fields, a third for 2 coins
    (model.ruleset("rio-grande", {"third_field_cost": 1}), 4, 2),  # a third for 1 coin
    (model.ruleset("rio-grande"), 4, 3),  # the third already bought
    (model.ruleset("amigo"), 3, 3),  # 3 fields, none to buy
]

Fields = tuple[tuple[int, int], ...]  # (bean, count) per field; (-1, 0) is an empty field
NONE = (-1, 0)


# ------------------------------------------------------------------ the rules, from RULES.md
def pay(row: tuple[int, ...], n: int) -> int:
    """C1 (the payout table read directly: row[n] coins for n cards)."""
    return row[min(n, len(row) - 1)]


def h4_allows(fields: Fields, f: int) -> bool:
    """H4 (lenient, the default): a one-card field goes only if no other field holds two or more."""
    n = fields[f][1]
    if n == 0:
        return False  # nothing to harvest (H5)
    return n != 1 or all(c <= 1 for g, (_, c) in enumerate(fields) if g != f)


def phase_of(bt: Batch) -> int:
    return 1 if bt.kind in ("p1a", "p1b") else 3


def brute_force(payout: tuple[tuple[int, ...], ...], fields: Fields, coins: int, batches: list[Batch],
                third_cost: int | None) -> int:
    """The most coins the seat can end with (E3), by a search over every order of play."""
    can_buy = third_cost is not None and len(fields) == 2
    cost = third_cost or 0
    cards = [tuple(sorted(Counter(bt.counts).elements())) for bt in batches]
    nb = len(batches)

    def canon(fl: Fields) -> Fields:
        return tuple(sorted(fl))  # fields are interchangeable (the third one too, once owned)

    def final(fl: Fields, c: int) -> int:
        return c + sum(pay(payout[b], n) for b, n in fl if n)  # E3: no H4

    @cache
    def go(j: int, rest: tuple[int, ...], fl: Fields, c: int, owned: bool) -> int:
        if j == nb:
            return final(fl, c)
        best = -1
        for f, (b, n) in enumerate(fl):  # H5/H6: harvest any field H4 allows
            if h4_allows(fl, f):
                nfl = canon(fl[:f] + (NONE,) + fl[f + 1:])
                best = max(best, go(j, rest, nfl, c + pay(payout[b], n), owned))
        if can_buy and not owned and c >= cost:  # F1: once, usable at once
            best = max(best, go(j, rest, canon(fl + (NONE,)), c - cost, True))
        for i, card in enumerate(rest):  # H3: plant one card of the batch (T1, T6)
            if i and rest[i - 1] == card:
                continue
            r2 = rest[:i] + rest[i + 1:]
            for f, (b, n) in enumerate(fl):
                if n == 0 or b == card:
                    if n == 0 and f and fl[f - 1] == NONE:
                        continue  # the same empty field again
                    nfl = canon(fl[:f] + ((card, n + 1),) + fl[f + 1:])
                    if r2:
                        best = max(best, go(j, r2, nfl, c, owned))
                    else:
                        best = max(best, go(j + 1, cards[j + 1] if j + 1 < nb else (), nfl, c, owned))
        return best  # -1: no legal way on (cannot happen: a harvest always frees a field)

    return go(0, cards[0] if nb else (), canon(fields), coins, len(fields) == 3)


def h4_strict(fields: Fields, f: int) -> bool:
    """H4 strict (RULES.md): a one-card field goes only if every field holds exactly one card."""
    n = fields[f][1]
    return n > 1 or (n == 1 and all(c == 1 for _, c in fields))


def replay(payout: tuple[tuple[int, ...], ...], fields: Fields, coins: int, batches: list[Batch],
           third_cost: int | None, ops: list[Op], allows: Any = h4_allows) -> int:
    """Play ``ops`` by the rules (``allows``: H4's reading), asserting each is legal; the coins at
    the end (E3)."""
    fl = [list(x) for x in fields]
    owned = len(fields) == 3
    can_buy = third_cost is not None and len(fields) == 2
    rest = [Counter(bt.counts) for bt in batches]
    j = 0
    last = (-1, 0)
    for i, op in enumerate(ops):
        where = f"op {i} {op}"
        when = (op.turn, op.phase)
        assert when >= last, f"{where}: out of time order"
        last = when
        if op.kind == "buy":
            assert can_buy and not owned, f"{where}: no third field to buy (F1)"
            assert coins >= (third_cost or 0), f"{where}: {coins} coins do not pay for it (F1)"
            coins -= third_cost or 0
            owned = True
            fl.append([-1, 0])
            continue
        assert 0 <= op.field < len(fl), f"{where}: field {op.field} not owned (F1)"
        if op.kind == "harvest":
            t = tuple((b, n) for b, n in fl)
            assert allows(t, op.field), f"{where}: harvest not allowed (H4/H5), fields {t}"
            b, n = fl[op.field]
            coins += pay(payout[b], n)
            fl[op.field] = [-1, 0]
        elif op.kind == "plant":
            assert j < len(batches), f"{where}: a planting after the last batch"
            bt = batches[j]
            assert when == (bt.turn, phase_of(bt)), f"{where}: not in batch {j} {bt}"
            assert rest[j][op.bean] > 0, f"{where}: bean {op.bean} not (or no longer) in batch {j}"
            b, n = fl[op.field]
            assert n == 0 or b == op.bean, f"{where}: field holds {n} of bean {b} (H2, H3)"
            fl[op.field] = [op.bean, n + 1]
            rest[j][op.bean] -= 1
            if not +rest[j]:
                j += 1
        else:
            raise AssertionError(f"{where}: unknown op")
    assert j == len(batches), f"batches {j}.. not fully planted: {rest[j:]}"
    return coins + sum(pay(payout[b], n) for b, n in fl if n)


# ------------------------------------------------------------------ SeatPlan harness
def make_state(preset: str | model.Ruleset, players: int, fields: Fields, coins: int, q: int = 0
               ) -> GameState:
    s = model.new_game(preset, players, 0)
    pl = s.players[q]
    fs = tuple(Field(b, n) if n else EMPTY for b, n in fields)
    stack = (s.setup.beans[0],) * coins  # coin cards (H5): only their number counts here
    seat = PlayerState(pl.hand, fs, stack, ())
    return s._replace(players=s.players[:q] + (seat,) + s.players[q + 1:])


def seat_plan(s: GameState, q: int, batches: list[Batch]) -> tuple[int, list[Op]]:
    m = cp_model.CpModel()
    beans = {b for bt in batches for b in bt.counts} | {f.bean for f in s.players[q].fields if f.count}
    sp = SeatPlan(m, s, q, batches, beans)
    m.maximize(sp.final)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 60
    solver.parameters.optimize_with_core = True  # the same optimum, proved 3x sooner here
    status = solver.solve(m)
    assert status == cp_model.OPTIMAL, solver.status_name(status)
    value = round(solver.objective_value)
    assert value == solver.value(sp.final)
    return value, sp.ops(solver)


def describe(preset: str | model.Ruleset, players: int, fields: Fields, coins: int,
             batches: list[Batch]) -> str:
    def nm(b: int) -> str:
        return BEAN_NAMES[b] if b >= 0 else "-"
    fs = ", ".join(f"{nm(b)} {n}" if n else "empty" for b, n in fields)
    bs = "; ".join(f"t{bt.turn} {bt.kind} " + " ".join(f"{nm(b)}x{n}" for b, n in bt.counts.items())
                   for bt in batches)
    if isinstance(preset, str):
        name = preset
    else:
        cost = model.setup(preset, players).third_cost
        name = f"{preset.name} (third field {'none' if cost is None else cost})"
    return f"{name} {players}p, fields [{fs}], coins {coins}, batches [{bs}]"


def check(preset: str | model.Ruleset, players: int, fields: Fields, coins: int, batches: list[Batch],
          expect: int | None = None) -> int:
    """SeatPlan's value == the brute force's (== ``expect``), and its ops replay to that value."""
    s = make_state(preset, players, fields, coins)
    su = s.setup
    value, ops = seat_plan(s, 0, batches)
    bf = brute_force(su.payout, fields, coins, batches, su.third_cost)
    info = describe(preset, players, fields, coins, batches)
    assert value == bf, f"SeatPlan {value} != brute force {bf}: {info}"
    got = replay(su.payout, fields, coins, batches, su.third_cost, ops)
    assert got == value, f"ops replay to {got}, SeatPlan claims {value}: {info}; ops {ops}"
    if expect is not None:
        assert bf == expect, f"brute force {bf}, hand-worked {expect}: {info}"
    return value


def p1(turn: int, bean: int, kind: str = "p1a") -> Batch:
    return Batch(turn, kind, {bean: 1}, 1)


def p3(turn: int, counts: dict[int, int]) -> Batch:
    return Batch(turn, "p3", dict(counts), sum(counts.values()))


# ------------------------------------------------------------------ 1 + 2: random schedules
@st.composite
def cases(draw: Any) -> tuple[model.Ruleset, int, Fields, int, list[Batch]]:
    rules, players, nf = draw(st.sampled_from(CONFIGS))
    su = model.setup(rules, players)
    pool = draw(st.lists(st.sampled_from(su.beans), min_size=3, max_size=4, unique=True))
    fields: list[tuple[int, int]] = []
    for _ in range(nf):
        n = draw(st.integers(0, 4))
        fields.append((draw(st.sampled_from(pool)), n) if n else NONE)
    coins = draw(st.integers(0, 4))
    batches: list[Batch] = []
    turn = 0
    for i in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["p1", "p3"]))
        prev = batches[-1].kind if batches else None
        same = i > 0 and draw(st.booleans())
        if kind == "p1":
            if same and prev == "p1a":
                kind = "p1b"
            else:
                kind, turn = "p1a", turn + (i > 0)
            batches.append(p1(turn, draw(st.sampled_from(pool)), kind))
        else:
            if not (same and prev in ("p1a", "p1b")):
                turn += i > 0
            cs = Counter(draw(st.lists(st.sampled_from(pool), min_size=1, max_size=5)))
            batches.append(p3(turn, dict(cs)))
    return rules, players, tuple(fields), coins, batches


Case = tuple[model.Ruleset, int, Fields, int, list[Batch]]


# The brute-force sweep: 60 schedules in the suite, 500 under the long profile
# (HYPOTHESIS_PROFILE=long python -m pytest tests/test_seat_plan.py -k brute). The 60 take every
# branch of solvers/ the 120 of the suite before took (the same arcs, traced with coverage.py), in
# 2.7 s against 6.6 s.
BRUTE_SWEEP = max(60, settings.default.max_examples // 2)


@settings(max_examples=BRUTE_SWEEP, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_random_schedules_match_brute_force(case: Case) -> None:
    check(*case)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.lists(st.integers(0, 3), min_size=4, max_size=4))
def test_loose_batch_bounds(case: Case, slack: list[int]) -> None:
    # the counts master gives a phase-3 batch a bound ``most`` above its count (the counts are variables
    # there): with constant counts the bound must not change the optimum.
    rules, players, fields, coins, batches = case
    loose = [Batch(bt.turn, bt.kind, bt.counts, bt.most + d) if bt.kind == "p3" else bt
             for bt, d in zip(batches, slack, strict=False)]
    check(rules, players, fields, coins, loose)


# ------------------------------------------------------------------ 3: hand-worked cases
@pytest.mark.rule("H4")
def test_h4_blocks_a_single() -> None:
    # rio-grande 4p, fields red 1 and blue 3, no coins. A garden card (phase 1) needs a field (H3):
    # the red single cannot go while blue holds 3 (H4), so blue 3 is harvested for 0 (C1: blue pays
    # from 4) and the garden goes there; then the red single may go (no field holds 2+), but the
    # blue card that follows starts a new group of one. End (E3): 0 coins. The third field costs 3
    # (F1), out of reach. Without H4 it would be 1: red harvested, blue 3 + 1 = 4 pays 1.
    check("rio-grande", 4, ((RED, 1), (BLUE, 3)), 0, [p1(0, GARDEN), p1(0, BLUE, "p1b")], expect=0)
    # With 3 fields (amigo 3p) the garden goes on the empty third field: blue 4 pays 1.
    check("amigo", 3, ((RED, 1), (BLUE, 3), NONE), 0, [p1(0, GARDEN), p1(0, BLUE, "p1b")], expect=1)


@pytest.mark.rule("H4")
def test_h4_order_inside_a_batch() -> None:
    # rio-grande 4p, fields red 1 and soy 1, no coins; phase 3 {garden 1, soy 1} (T6, any order).
    # The garden needs a field: harvest red (a single, allowed while soy holds 1, H4) and plant
    # the garden there, then soy onto soy (2: 1 coin). Planting soy first would make soy 2 and lock
    # the red single in (H4): the garden would then need soy 2 harvested. End: soy 2 (1) + garden
    # 1 (0) = 1.
    check("rio-grande", 4, ((RED, 1), (SOY, 1)), 0, [p3(0, {GARDEN: 1, SOY: 1})], expect=1)


@pytest.mark.rule("T6")
def test_group_harvested_and_replanted_in_a_batch() -> None:
    # rio-grande 4p, fields blue 3 and empty, no coins; phase 3 {garden 5}, then phase 1 a blue.
    # Keep blue 3 (it pays 1 at 4). On the empty field: garden 3, harvest (3 coins, C1), garden 2
    # (2 at the end). Then blue 4 (1). End (E3): 3 + 2 + 1 = 6. One group of 5 garden pays only 3
    # (total 4); harvesting blue 3 (0) for a second field gives 3 + 2 and blue 1 pays 0 (total 5);
    # buying the third field with the 3 garden coins leaves 0 + 2 + 1 = 3.
    check("rio-grande", 4, ((BLUE, 3), NONE), 0, [p3(0, {GARDEN: 5}), p1(1, BLUE)], expect=6)
    # amigo 3p, 3 fields full: blue 3, chili 2, stink 2; phase 3 {red 4}. Red needs a field: chili
    # 2 and stink 2 pay 0 (C1: 3+). Harvest chili (0), red 2, harvest (1 coin), red 2 (1 at the
    # end): 2, against red 4 as one group: 3. So one group: 3, plus blue 3 (0) and stink 2 (0) = 3.
    check("amigo", 3, ((BLUE, 3), (CHILI, 2), (STINK, 2)), 0, [p3(0, {RED: 4})], expect=3)
    # amigo 3p, fields blue 3, chili 2, stink 2 and phase 3 {garden 5}: garden 3 + garden 2 on the
    # freed chili field pays 3 + 2 = 5 (a group of 5 pays 3).
    check("amigo", 3, ((BLUE, 3), (CHILI, 2), (STINK, 2)), 0, [p3(0, {GARDEN: 5})], expect=5)


@pytest.mark.rule("F1")
def test_buy_third_field_with_coins_from_the_same_batch() -> None:
    # rio-grande 4p with the V3 option third_field_cost=1. Fields cocoa 1 and cocoa 3, no coins.
    # Phase 3 {garden 1}, then phase-1 cards soy, cocoa, garden (one a turn).
    # The garden needs a field (H3); the cocoa single is locked by cocoa 3 (H4), so cocoa 3 is
    # harvested: 3 coins (C1). Those coins buy the third field at once, in the same batch (F1):
    # 2 coins. Garden on the freed field; soy on the third; cocoa 1 -> 2; garden 1 -> 2.
    # End (E3): 2 + cocoa 2 (2) + garden 2 (2) + soy 1 (0) = 6.
    # Without the purchase the soy needs a single harvested (0), and so does the cocoa or garden
    # after it: only one group of 2 is left at the end: 3 + 2 = 5.
    cheap = model.ruleset("rio-grande", {"third_field_cost": 1})
    sched = [p3(0, {GARDEN: 1}), p1(1, SOY), p1(2, COCOA), p1(3, GARDEN)]
    check(cheap, 4, ((COCOA, 1), (COCOA, 3)), 0, sched, expect=6)
    # At the preset's price (3 coins) the purchase leaves 0 + 2 + 2 = 4 < 5: no purchase.
    check("rio-grande", 4, ((COCOA, 1), (COCOA, 3)), 0, sched, expect=5)
    # amigo 3p (no cocoa, C2; no third field to buy, S1; 3 fields): fields red 1, red 3, empty.
    # The garden goes on the empty field. The soy needs a field: red 1 and garden 1 are locked by
    # red 3 (H4), so red 3 goes: 2 coins (C1); soy there. Red 1 -> 2 (1), garden 1 -> 2 (2).
    # End: 2 + 1 + 2 + soy 1 (0) = 5.
    check("amigo", 3, ((RED, 1), (RED, 3), NONE), 0,
          [p3(0, {GARDEN: 1}), p1(1, SOY), p1(2, RED), p1(3, GARDEN)], expect=5)


@pytest.mark.rule("F1")
@pytest.mark.parametrize("preset, players, fields, coins, batches, with_buy, without", [
    # Found by a search with the brute force: the purchase (at the preset's price) strictly pays.
    ("rio-grande", 4, ((BLACKEYED, 3), (BLACKEYED, 4)), 1,
     [p3(0, {BLACKEYED: 2, GARDEN: 1}), p1(1, COCOA), p1(2, BLACKEYED), p1(3, BLACKEYED), p1(4, COCOA),
      p1(5, GARDEN), p1(6, BLACKEYED)], 10, 9),
    ("rio-grande", 6, ((BLACKEYED, 3), (BLACKEYED, 4)), 0,
     [p3(0, {SOY: 1, BLACKEYED: 2, RED: 1}), p3(1, {SOY: 2, BLACKEYED: 1}), p3(2, {SOY: 2, BLACKEYED: 2}),
      p3(3, {SOY: 2, RED: 2})], 12, 11),
])
def test_purchase_that_pays(preset: str, players: int, fields: Fields, coins: int, batches: list[Batch],
                            with_buy: int, without: int) -> None:
    su = model.setup(model.ruleset(preset), players)
    assert brute_force(su.payout, fields, coins, batches, None) == without
    check(preset, players, fields, coins, batches, expect=with_buy)
