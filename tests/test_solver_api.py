"""solvers/api.py: one registry, one Limits, one Solution, one verify_line."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from model.errors import UnknownName, UsageError
from solvers.api import METHODS, POLICIES, REGISTRY, default_method, methods, solve, solve_policy, verify_line
from solvers.contract import DEFAULT_LIMITS, OBJECTIVES, Budget, Limits, NodeLimitExceeded, SolveError
from solvers.positions import LIBRARY


def test_registry_covers_every_open_objective() -> None:
    assert methods("solo") == ["exact", "cpsat"]
    assert methods("coop") == ["exact", "cpsat", "cpsat-cards"]
    assert methods("best") == ["exact", "cpsat", "cpsat-cards"]
    assert methods("duel") == ["exact"]
    assert methods("expected") == ["exact"]
    assert ("expected", "exact") not in REGISTRY and ("expected", "exact") in POLICIES  # a policy
    assert METHODS == ("exact", "cpsat", "cpsat-cards")


def test_every_objective_is_declared_once_and_served() -> None:
    """The registries name only declared objectives, and every declared objective has a method;
    a policy objective is in POLICIES only, a line objective in REGISTRY only."""
    assert {o for o, _ in (*REGISTRY, *POLICIES)} == set(OBJECTIVES)
    for name, o in OBJECTIVES.items():
        assert o.name == name and methods(name)
        assert all((name, m) in (POLICIES if o.policy else REGISTRY) for m in methods(name))
    assert [default_method(o) for o in OBJECTIVES] == ["exact", "cpsat", "cpsat", "exact", "exact"]
    # on La Isla Bohnita positions, a method that serves them (the flow solver does not)
    assert [default_method(o, "isla") for o in ("solo", "coop", "best")] == ["exact", "exact", "exact"]


def test_objective_values_from_final_coins() -> None:
    coins = [3, 5]
    assert {n: o.value(coins, 0) for n, o in OBJECTIVES.items()} == {
        "solo": 3, "coop": 8, "best": 3, "duel": -2, "expected": 3}
    assert [n for n, o in OBJECTIVES.items() if o.floors] == ["best"]
    with pytest.raises(SolveError, match="two seats"):
        OBJECTIVES["duel"].value([1, 2, 3], 0)


def test_expected_is_solved_through_the_policy_registry() -> None:
    s = LIBRARY["rio4-last-turn"].position()
    ans = solve_policy(s, "expected", "exact", limits=DEFAULT_LIMITS)
    assert ans.value >= 0 and ans.player == s.to_move
    with pytest.raises(UnknownName, match="expected has no cpsat solver"):
        solve_policy(s, "expected", "cpsat")


def test_unknown_method_is_one_clear_error() -> None:
    s = LIBRARY["duel-4cards"].position()
    with pytest.raises(LookupError, match="^method=.cpsat.: duel has no cpsat solver"):
        solve(s, "duel", "cpsat")


@pytest.mark.parametrize(("name", "objective"), [("trade-ask", "coop"), ("trade-gift", "best"),
                                                  ("rio3-6cards", "solo"), ("duel-4cards", "duel")])
def test_every_method_agrees_and_its_line_verifies(name: str, objective: str) -> None:
    s = LIBRARY[name].position()
    values = {m: solve(s, objective, m, limits=Limits(time=20)).value for m in methods(objective)}
    assert len(set(values.values())) == 1, values


def test_verify_line_names_a_broken_line() -> None:
    s = LIBRARY["trade-ask"].position()
    sol = solve(s, "coop", "exact")
    assert verify_line(s, sol) == sol.per_player
    with pytest.raises(SolveError, match="stops before the game ends"):
        verify_line(s, dataclasses.replace(sol, line=sol.line[:-1]))
    with pytest.raises(SolveError, match="not the claimed"):
        verify_line(s, dataclasses.replace(sol, value=sol.value + 1))
    with pytest.raises(SolveError, match="is illegal"):
        verify_line(s, dataclasses.replace(sol, line=sol.line[1:]))


def test_node_limit_is_its_own_exception() -> None:
    # a small trading position passes 50 nodes at once (rio4-8cards' real hands took 32 s of the suite)
    s = LIBRARY["trade-map"].position()
    with pytest.raises(NodeLimitExceeded):
        solve(s, "coop", "exact", limits=Limits(nodes=50))


def test_bound_is_the_value_once_proved() -> None:
    s = LIBRARY["trade-ask"].position()
    sol = solve(s, "coop", "cpsat")
    assert sol.status == "optimal" and sol.bound == sol.value


def test_one_clock_splits_a_work_limit_between_stages() -> None:
    # Budget is every solver's clock: nodes and seconds for exact search, CP-SAT work units for
    # the flow solver's stages (a stage gets the run up to a fraction of the work limit)
    params = SimpleNamespace(max_time_in_seconds=0.0, max_deterministic_time=0.0)
    solver = SimpleNamespace(parameters=params, response_proto=SimpleNamespace(deterministic_time=3.0))
    clock = Budget("a run", None, 600.0, work_limit=10.0)
    clock.limit(solver, 0.5)
    assert params.max_deterministic_time == 5.0 and 590 < params.max_time_in_seconds <= 600
    clock.charge(solver)
    assert clock.work == 3.0 and clock.fraction() == 0.3 and clock.stopped_by() == "stages"
    clock.limit(solver, 0.5, most=1.0)
    assert params.max_deterministic_time == 1.0  # the stage's own cap
    clock.charge(solver)
    clock.charge(solver)
    clock.charge(solver)
    assert clock.stopped_by() == "work"
    timed = Budget("a timed run", None, 100.0)
    timed.limit(solver, 0.25)
    assert 24 < params.max_time_in_seconds <= 25
    with pytest.raises(UsageError, match="work limit must be more than 0"):
        Budget("a run", work_limit=0)


def test_status_is_an_enum_that_reads_as_its_name() -> None:
    """``Solution.status`` is a ``Status``: a string given for it becomes one, prints and goes into
    JSON as before ("optimal", "feasible"), and a status that is neither is refused in one line."""
    import json

    from model.errors import ArgumentError
    from solvers.contract import SOLO, Solution, Status

    sol = Solution(SOLO, 0, 3, [], [3], status="feasible")  # type: ignore[arg-type]
    assert sol.status is Status.FEASIBLE and sol.status == "feasible"
    assert json.dumps({"status": sol.status}) == '{"status": "feasible"}' and f"{sol.status}" == "feasible"
    assert Solution(SOLO, 0, 3, [], [3]).status is Status.OPTIMAL
    with pytest.raises(ArgumentError, match="status='proved': a solution is 'optimal' or 'feasible'"):
        Solution(SOLO, 0, 3, [], [3], status="proved")  # type: ignore[arg-type]
