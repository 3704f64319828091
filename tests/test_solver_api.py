"""solvers/api.py: one registry, one Limits, one Solution, one verify_line."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pickle
import pkgutil
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from model.errors import UnknownName, UsageError
from solvers import endgame
from solvers.api import (
    EXPANSION_REGISTRY,
    METHODS,
    POLICIES,
    REGISTRY,
    default_method,
    methods,
    registered,
    solve,
    solve_policy,
    verify_line,
)
from solvers.contract import (
    BEST,
    COOP,
    DEFAULT_LIMITS,
    DUEL,
    EXPECTED,
    OBJECTIVES,
    SOLO,
    Budget,
    Limits,
    NodeLimitExceeded,
    Objective,
    SolveError,
    entry_point,
)
from solvers.positions import BUILTINS, LIBRARY


def test_every_registered_solver_names_the_function_behind_it() -> None:
    """Every registered ``solve`` is marked with the entry point it calls (``calls``), in its own
    module; the conformance builder records those names from the registry (``registered``: the
    dispatch ``solve`` uses, expansion included)."""
    for (o, _), run in (*REGISTRY.items(), *POLICIES.items()):
        assert entry_point(run, o).__module__ == run.__module__
    for (_, o, _), run in EXPANSION_REGISTRY.items():
        assert entry_point(run, o).__module__ == run.__module__
    s, isla = LIBRARY["trade-ask"].position(), BUILTINS["isla-amigo3-5cards"].position()
    pairs = ((SOLO, "exact"), (BEST, "exact"), (BEST, "cpsat"), (EXPECTED, "exact"))
    assert [entry_point(registered(s, o, m), o).__name__ for o, m in pairs] \
        == ["solve_solo", "solve_open", "solve_flow", "solve_expected"]
    assert registered(isla, SOLO, "cpsat") is EXPANSION_REGISTRY[("isla", SOLO, "cpsat")]
    assert entry_point(registered(isla, DUEL, "exact"), DUEL).__name__ == "solve_isla_duel"
    with pytest.raises(SolveError):
        registered(isla, COOP, "cpsat")  # the flow solver covers the base game only


def test_registry_covers_every_open_objective() -> None:
    assert methods(SOLO) == ["exact", "cpsat"]
    assert methods(COOP) == ["exact", "cpsat", "cpsat-cards"]
    assert methods(BEST) == ["exact", "cpsat", "cpsat-cards"]
    assert methods(DUEL) == ["exact"]
    assert methods(EXPECTED) == ["exact"]
    assert (EXPECTED, "exact") not in REGISTRY and (EXPECTED, "exact") in POLICIES  # a policy
    assert METHODS == ("exact", "cpsat", "cpsat-cards")


def test_every_objective_is_declared_once_and_served() -> None:
    """The registries name only declared objectives, and every declared objective has a method;
    a policy objective is in POLICIES only, a line objective in REGISTRY only."""
    assert {o for o, _ in (*REGISTRY, *POLICIES)} == set(OBJECTIVES.values())
    assert all(o in OBJECTIVES.values() for _, o, _ in EXPANSION_REGISTRY)
    for name, o in OBJECTIVES.items():
        assert o.name == name and methods(o)
        assert all((o, m) in (POLICIES if o.policy else REGISTRY) for m in methods(o))
    assert [default_method(o) for o in OBJECTIVES.values()] == ["exact", "cpsat", "cpsat", "exact", "exact"]
    # on La Isla Bohnita positions, a method that serves them (the flow solver does not)
    assert [default_method(o, "isla") for o in (SOLO, COOP, BEST)] == ["exact", "exact", "exact"]


def test_objective_values_from_final_coins() -> None:
    coins = [3, 5]
    assert {n: o.value(coins, 0) for n, o in OBJECTIVES.items()} == {
        "solo": 3, "coop": 8, "best": 3, "duel": -2, "expected": 3}
    assert [n for n, o in OBJECTIVES.items() if o.floors] == ["best"]
    with pytest.raises(SolveError, match="two seats"):
        OBJECTIVES["duel"].value([1, 2, 3], 0)


def test_expected_is_solved_through_the_policy_registry() -> None:
    s = LIBRARY["rio4-last-turn"].position()
    ans = solve_policy(s, EXPECTED, "exact", limits=DEFAULT_LIMITS)
    assert ans.value >= 0 and ans.player == s.to_move
    with pytest.raises(UnknownName, match="expected has no cpsat solver"):
        solve_policy(s, EXPECTED, "cpsat")


def test_unknown_method_is_one_clear_error() -> None:
    s = LIBRARY["duel-4cards"].position()
    with pytest.raises(LookupError, match="^method=.cpsat.: duel has no cpsat solver"):
        solve(s, DUEL, "cpsat")


@pytest.mark.parametrize(("name", "objective"), [("trade-ask", COOP), ("trade-gift", BEST),
                                                  ("rio3-6cards", SOLO), ("duel-4cards", DUEL)], ids=str)
def test_every_method_agrees_and_its_line_verifies(name: str, objective: Objective) -> None:
    s = LIBRARY[name].position()
    values = {m: solve(s, objective, m, limits=Limits(time=20)).value for m in methods(objective)}
    assert len(set(values.values())) == 1, values


def test_verify_line_names_a_broken_line() -> None:
    s = LIBRARY["trade-ask"].position()
    sol = solve(s, COOP, "exact")
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
        solve(s, COOP, "exact", limits=Limits(nodes=50))


def test_bound_is_the_value_once_proved() -> None:
    s = LIBRARY["trade-ask"].position()
    sol = solve(s, COOP, "cpsat")
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


# ---------------------------------------------------------------- objectives travel as objects (issue 62)

# The library's packages, whose functions take an ``Objective``, never an objective's name.
LIBRARY_PACKAGES = ("solvers", "conformance", "studies", "benchmarks")
# The edges that turn a name into an ``Objective`` once (a name or the object: docs/python.md).
EDGES = {"solvers.endgame.solve", "solvers.endgame._objective"}


def _library_functions() -> Iterator[tuple[str, Callable[..., Any]]]:
    """(qualified name, function) for every function and method defined in LIBRARY_PACKAGES."""
    for package in LIBRARY_PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            module = importlib.import_module(info.name)
            for name, obj in vars(module).items():
                if getattr(obj, "__module__", None) != module.__name__:
                    continue
                if inspect.isfunction(obj):
                    yield f"{module.__name__}.{name}", obj
                elif inspect.isclass(obj):
                    yield from ((f"{module.__name__}.{name}.{k}", v) for k, v in vars(obj).items()
                                if inspect.isfunction(v))


def test_no_library_function_takes_an_objective_by_name() -> None:
    """Parsed at the edge, passed as a value: a parameter or field named ``objective``(s) in the
    library is annotated with ``Objective``, never ``str`` (the edges above take either)."""
    named = []
    for qualname, fn in _library_functions():
        for p in inspect.signature(fn).parameters.values():
            if "objective" in p.name and qualname not in EDGES and "str" in str(p.annotation):
                named.append(f"{qualname}({p.name}: {p.annotation})")
    assert not named, "\n".join(named)


def test_the_solvers_take_objectives_without_looking_them_up_by_name() -> None:
    """With the names unregistered (``OBJECTIVES`` emptied), every method of every objective still
    solves: below the edge nothing turns an objective back into its name and looks it up. The
    registry comes back in its own order (messages list the names in it)."""
    s = LIBRARY["trade-ask"].position()
    want = {o: solve(s, o, "exact", limits=Limits(time=20)).value for o in (SOLO, COOP, BEST)}
    saved = dict(OBJECTIVES)
    OBJECTIVES.clear()
    try:
        for (o, m) in REGISTRY:
            if not o.duel:
                assert solve(s, o, m, limits=Limits(time=20)).value == want[o], (o, m)
        assert solve(LIBRARY["duel-4cards"].position(), DUEL, "exact").objective is DUEL
        assert solve_policy(LIBRARY["rio4-last-turn"].position(), EXPECTED, "exact").value >= 0
    finally:
        OBJECTIVES.clear()
        OBJECTIVES.update(saved)
    assert list(OBJECTIVES) == list(saved)


def test_an_objective_stays_one_object_across_processes() -> None:
    """A worker process (the cross-check's pool) gets the declared object back, not a copy."""
    assert all(pickle.loads(pickle.dumps(o)) is o for o in OBJECTIVES.values())


def test_the_python_entry_point_takes_a_name_or_an_objective_and_refuses_others_in_one_line() -> None:
    s = LIBRARY["trade-ask"].position()
    by_name, by_object = endgame.solve(s, "coop", method="exact"), endgame.solve(s, COOP, method="exact")
    assert by_name.objective is by_object.objective is COOP and by_name.value == by_object.value
    for wrong in ("fastest", EXPECTED, dataclasses.replace(COOP, name="teamwork")):
        with pytest.raises(UnknownName) as e:
            endgame.solve(s, wrong)
        assert "\n" not in str(e.value) and str(e.value).startswith("objective=")
