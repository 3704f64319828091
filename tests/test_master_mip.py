"""The counts master written as a MIP (benchmarks/master_mip.py) has the optimum CP-SAT proves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from benchmarks.master_mip import POSITIONS, bench_master, solve_cpsat, solve_mip, to_mip
from solvers.contract import COOP
from solvers.flow.cuts import capped_values
from solvers.flow.master import FlowMaster
from solvers.flow.solver import _objective
from solvers.positions import LIBRARY


@st.composite
def small_models(draw: st.DrawFn) -> cp_model.CpModel:
    """Every constraint kind the master uses: linear (two-sided, enforced by literals and their
    negations), exactly-one, a clause (enforced by literals or not) and a step table over constants."""
    m = cp_model.CpModel()
    xs = [m.new_int_var(draw(st.integers(-3, 0)), draw(st.integers(1, 6)), f"x{i}") for i in range(4)]
    bs = [m.new_bool_var(f"b{i}") for i in range(4)]
    coeffs = st.integers(-3, 3)
    for _ in range(draw(st.integers(1, 5))):
        expr = sum(draw(coeffs) * x for x in xs)
        lo, width = draw(st.integers(-8, 8)), draw(st.integers(0, 10))
        c = m.add_linear_constraint(expr, lo, lo + width)
        lits = draw(st.lists(st.sampled_from(bs + [~b for b in bs]), max_size=2))
        if lits:
            c.only_enforce_if(lits)
    m.add_exactly_one(bs[:draw(st.integers(1, 4))])
    clause = m.add_bool_or([bs[3], ~bs[0]])
    on = draw(st.lists(st.sampled_from(bs[1:3] + [~b for b in bs[1:3]]), max_size=2))
    if on:
        clause.only_enforce_if(on)  # the master's H4 count enforces its clauses (FlowMaster._later_foreign)
    table = draw(st.lists(st.integers(0, 9), min_size=7, max_size=7))
    index = m.new_int_var(0, 6, "index")
    target = m.new_int_var(0, 9, "target")
    m.add_element(index, table, target)
    m.add(index <= xs[0] + 3)
    m.maximize(sum(draw(coeffs) * x for x in xs) + target + 2 * bs[1])
    return m


@settings(max_examples=60, deadline=None)
@given(small_models())
def test_the_mip_has_cp_sat_s_optimum(m: cp_model.CpModel) -> None:
    solver = cp_model.CpSolver()
    status = solver.solve(m)
    for backend in ("HIGHS", "SCIP"):
        got = solve_mip(m, 10.0, backend)
        if status == cp_model.INFEASIBLE:
            assert got.status == "infeasible", backend
        else:
            assert got.status == "optimal", backend
            assert got.value == pytest.approx(solver.objective_value), backend


def test_a_constraint_it_cannot_write_is_named() -> None:
    m = cp_model.CpModel()
    x = m.new_int_var(0, 3, "x")
    m.add_multiplication_equality(x, [x, x])
    with pytest.raises(ValueError, match="no translation of a int_prod constraint"):
        to_mip(m)


def test_the_real_master_s_optimum_agrees() -> None:
    s = LIBRARY["rio4-last-turn"].position()
    fm = FlowMaster(s, capacity=False)
    fm.m.maximize(_objective(fm, capped_values(fm), COOP, 0, None))
    want = solve_cpsat(fm.m, 30.0)
    got = solve_mip(fm.m, 30.0, "HIGHS")
    assert want.status == got.status == "optimal"
    assert got.value == pytest.approx(want.value)


def test_bench_master_rows_name_every_solver() -> None:
    res = bench_master(20.0, False, positions=("rio4-last-turn",))
    assert [r["objective"] for r in res["rows"]] == ["coop", "best"]
    assert [g["solver"] for g in res["rows"][0]["runs"]] == ["cp-sat", "highs", "scip"]
    assert "rio4-final-pass" in POSITIONS
