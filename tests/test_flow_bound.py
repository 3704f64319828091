"""The counts master's seat bound (solvers/flow/master.py) is a bound: on every schedule the
master allows, the most ``relaxed[q]`` can be is at least what seat q's exact fields make on it
(solvers/flow/seat_dp.py, itself checked against a brute force in tests/test_seat_dp.py).

This is what makes every bound the flow solver prints valid (H2-H5, C1, F1, E3): the capacity
cuts (``FlowMaster._carry``) and the H4 cap on fields that all hold cards (``FlowMaster._opened``,
``_first_foreign``) in particular may only remove what no legal play reaches. Schedules
are the master's solutions under seeded random objectives over its flows, so they are varied and
often odd (a seat receiving most of the turned-up and traded cards).
"""

from __future__ import annotations

import random

import pytest
from ortools.sat.python import cp_model

from model import GameState
from solvers.flow.master import FlowMaster
from solvers.flow.seat_dp import TooLarge, solve_seat_in
from solvers.positions import LIBRARY, cut, small

Batches = list[tuple[int, str, dict[int, int]]]


def _schedules(s: GameState, count: int, seed: int, capacity: bool = True
               ) -> list[tuple[dict[str, int], list[Batches]]]:
    """``count`` master solutions: (the flow and front values by name, every seat's batches)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        fm = FlowMaster(s, capacity=capacity)
        flows = [v for k in range(len(fm.turns)) for side in (fm.give[k], fm.up[k], fm.back[k])
                 for r in side for v in side[r].values()]
        fm.m.maximize(sum(rng.randrange(-3, 4) * v for v in flows) if flows else 0)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = rng.randrange(1000)
        solver.parameters.max_deterministic_time = 5.0
        assert solver.solve(fm.m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        named = {}
        for i in range(len(fm.m.proto.variables)):
            var = fm.m.get_int_var_from_proto_index(i)
            if var.name.startswith(("g", "u", "h", "d", "front")):
                named[var.name] = int(solver.value(var))
        out.append((named, [fm.fixed_batches(solver, q) for q in range(fm.n)]))
    return out


def _most_relaxed(s: GameState, named: dict[str, int], q: int, capacity: bool = True) -> int:
    """The most ``relaxed[q]`` can be with the fronts and flows fixed to ``named``."""
    fm = FlowMaster(s, capacity=capacity)
    for i in range(len(fm.m.proto.variables)):
        var = fm.m.get_int_var_from_proto_index(i)
        if var.name in named:
            fm.m.add(var == named[var.name])
    fm.m.maximize(fm.relaxed[q])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(fm.m) == cp_model.OPTIMAL
    return round(solver.objective_value)


def _positions() -> list[tuple[str, GameState]]:
    out = [(name, LIBRARY[name].position()) for name in ("rio4-8cards", "amigo4-6cards", "rio3-9cards")]
    rng = random.Random(5)
    while len(out) < 6:
        ruleset, n = rng.choice([("rio-grande", 3), ("amigo", 4), ("rio-grande", 4)])
        game = rng.randrange(10**6)
        try:
            out.append((f"{ruleset} {n}p game {game}", small(cut(ruleset, n, game, 12), hand=4, draw=9)))
        except Exception:  # a cut that does not reach the final pass: take another
            continue
    return out


@pytest.mark.rule("C1")
@pytest.mark.rule("H4")
@pytest.mark.parametrize("capacity", [True, False])
@pytest.mark.parametrize("label,s", _positions(), ids=lambda x: x if isinstance(x, str) else "")
def test_the_seat_bound_is_at_least_the_exact_fields(label: str, s: GameState, capacity: bool) -> None:
    """With the capacity cuts (``best``) and without (``coop``); the H4 cap on fields that all hold
    cards (``FlowMaster._opened``) is in both."""
    checked = 0
    for named, scheds in _schedules(s, 4, seed=len(label), capacity=capacity):
        for q, batches in enumerate(scheds):
            try:
                exact = solve_seat_in(s, q, batches, 20_000).value
            except TooLarge:
                continue
            most = _most_relaxed(s, named, q, capacity)
            assert most >= exact, f"{label}: p{q} bound {most} < exact {exact} on {batches}"
            checked += 1
    assert checked >= 2 * len(s.players), f"{label}: only {checked} seat schedules within the DP's limit"


def _most_on(s: GameState, q: int, batches: Batches, h4: bool) -> int:
    """The most ``relaxed[q]`` can be with seat q's batches fixed to ``batches`` (capacity cuts off)."""
    fm = FlowMaster(s, capacity=False, h4=h4)
    want = {(k, kind): c for k, kind, c in batches}
    for bt in fm.batches[q]:
        for b, expr in bt.counts.items():
            x = want.get((bt.turn, bt.kind), {}).get(b, 0)
            if isinstance(expr, int):
                assert expr == x
            else:
                fm.m.add(expr == x)
    assert {(k, kind) for k, kind, _ in batches} <= {(bt.turn, bt.kind) for bt in fm.batches[q]}
    fm.m.maximize(fm.relaxed[q])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(fm.m) == cp_model.OPTIMAL
    return round(solver.objective_value)


@pytest.mark.rule("H4")
def test_the_h4_cap_sees_a_one_card_field_held_by_a_fuller_one() -> None:
    """amigo4-6cards, seat 0: fields 1 Stink and 2 Red, no third field to buy; it receives 2 Red
    and 2 Blackeyed, then 2 Stink and 1 Red. The Blackeyed need a field: the Stink field may not be
    harvested while the Red one holds two (H4), so the Red group closes with 4 cards and the last
    Red pays nothing alone: 12 coins, where the plain bound (one group of 5 Red) says 13."""
    s = LIBRARY["amigo4-6cards"].position()
    batches: Batches = [(0, "p3", {7: 2, 8: 2}), (1, "p3", {4: 2, 8: 1})]
    exact = solve_seat_in(s, 0, batches).value
    assert (exact, _most_on(s, 0, batches, h4=True), _most_on(s, 0, batches, h4=False)) == (12, 12, 13)


@pytest.mark.rule("H3")
@pytest.mark.rule("H4")
def test_the_h4_cap_counts_the_fields_earlier_foreign_beans_hold() -> None:
    """rio4-18cards, seat 0: fields 1 Soy, 1 Chili, 1 Garden, no third to buy. Green comes first
    (turn 1), then phase 1 of turn 2 plants a Blue and a Blackeyed, then a batch of 5 Blue, 5
    Chili, 3 Stink, 3 Green, 1 Blackeyed, 2 Garden. Green takes the field Soy leaves; the single
    Blue needs a second field (Chili closed early, or Green's first group closed), and the
    Blackeyed a third (Blue's first group closed, as Garden untopped may not go while Chili holds
    three): 20 coins, where the cap on the first foreign card alone says 22."""
    s = LIBRARY["rio4-18cards"].position()
    batches: Batches = [(0, "p3", {3: 1, 6: 1}), (1, "p3", {3: 1, 5: 2, 8: 1}), (2, "p1a", {2: 1}),
                        (2, "p1b", {7: 1}), (2, "p3", {2: 5, 3: 5, 4: 3, 5: 3, 7: 1, 9: 2}),
                        (3, "p3", {3: 1, 5: 1})]
    exact = solve_seat_in(s, 0, batches).value
    assert (exact, _most_on(s, 0, batches, h4=True), _most_on(s, 0, batches, h4=False)) == (20, 20, 22)
