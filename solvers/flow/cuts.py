"""The seat cuts the counts master and the pricing models share (solvers/flow/master.py).

A cut says: "if seat q plants exactly these batches, its value is at most v", where v is a proved
bound on q's exact fields on them (solvers/flow/seat_batch.py). It caps a value variable that is
itself at most the seat's relaxed value (``capped_values``), never the schedule itself, so a
model with cuts stays a relaxation of the true problem.
"""

from __future__ import annotations

from typing import Any

from model import GameState
from solvers.cpsat_lazy import cp_model
from solvers.flow.master import FlowMaster, most_of
from solvers.flow.seat_batch import TooLarge, solve_seat_in
from solvers.flow.seat_plan import Op

Schedule = tuple[tuple[int, str, tuple[tuple[int, int], ...]], ...]  # (turn, kind, (bean, count)...)


def schedule(fm: FlowMaster, value: Any, q: int) -> Schedule:
    return tuple((k, kind, tuple(sorted(c.items()))) for k, kind, c in fm.fixed_batches(value, q))


SEAT_STATES = 50_000  # the batch seat search's guard (the largest real seat so far: 6,734 states)


def solve_schedule(s: GameState, q: int, sched: Schedule) -> tuple[int | None, int, list[Op]]:
    """Seat q's exact fields on a schedule (solvers/flow/seat_batch.py): (the value of its best
    plan, None past the ``SEAT_STATES`` guard; a proved bound on that value; the plan)."""
    try:
        got = solve_seat_in(s, q, [(k, kind, dict(c)) for k, kind, c in sched], SEAT_STATES)
        return got.value, got.value, got.ops
    except TooLarge as e:
        return None, e.bound, []


def capped_values(fm: FlowMaster) -> list[cp_model.IntVar]:
    """Per seat, a value at most its relaxed one (``FlowMaster.relaxed``), which the cuts bound.

    The relaxed value is a function of the seat's schedule, so a cut on it would forbid the
    schedule outright, also with other seats' schedules never solved; a cut on this value only
    caps what the schedule is worth, and the master stays a relaxation."""
    out = []
    for q, r in enumerate(fm.relaxed):
        v = fm.m.new_int_var(0, most_of(r), f"value{q}")
        fm.m.add(v <= r)
        out.append(v)
    return out


def cut(fm: FlowMaster, value: cp_model.IntVar, q: int, sched: Schedule, v: int, tag: int) -> None:
    """``value`` (seat q's, capped_values) <= v whenever seat q's batches are exactly ``sched``;
    v is a proved bound on the seat's exact fields on them (solvers/flow/seat_batch.py)."""
    m = fm.m
    want = {(k, kind): dict(c) for k, kind, c in sched}
    differs = []
    for j, bt in enumerate(fm.batches[q]):
        target = want.get((bt.turn, bt.kind), {})
        for b, expr in bt.counts.items():
            x = target.get(b, 0)
            if isinstance(expr, int):
                if expr != x:
                    return  # this schedule is impossible anyway
                continue
            d = m.new_bool_var(f"cut{tag}_{q}_{j}_{b}")
            m.add(expr != x).only_enforce_if(d)
            differs.append(d)
    same = m.new_bool_var(f"cut{tag}_{q}_same")
    m.add_bool_or(differs + [same])
    m.add(value <= v).only_enforce_if(same)
