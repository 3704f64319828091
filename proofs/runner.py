"""The one proof runner both specs use (proofs/invariants.py for the base game,
proofs/isla_invariants.py for La Isla Bohnita): for every configuration (a ``Case``) and every
transition instance it asks Z3 whether Inv(S), the guard and the bounds on S' are satisfiable (the
premise; an unsatisfiable one is skipped), then refutes each goal (UNSAT of its negation: proved).

No proof may pass vacuously: every transition must be satisfiable in some configuration
(``transitions-satisfiable``), and every situation a goal names as a trigger (a field gains a card,
an attack is made, ...) must be reached by some step (SAT), or the property is reported
``vacuous``. A goal that is not UNSAT at the first attempt is tried once more with its ``retry``
premises (facts proved elsewhere, e.g. ghost tallies equal real counts); "unknown" after that counts
as refuted. Extra checks (lemmas, bounded model checking) run after the loop as ``extras``.
This module knows no rule; it imports only z3 and the hybrid values of proofs/symbolic.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import z3

from proofs.kernel import Transition
from proofs.symbolic import Cond

S = TypeVar("S")
A = TypeVar("A")

# Situations a property speaks about, each must be reachable: a condition, or a function that builds
# it (called only while the situation has not been reached).
Triggers = list[tuple[str, Cond | Callable[[], Cond]]]


@dataclass
class Result:
    """One property's verdict over every instance: proved / refuted / vacuous; seconds spent, per
    transition name too; the first counterexample (or why it is vacuous); which triggers were met."""

    id: str
    method: str
    status: str
    seconds: float = 0.0
    per_kind: dict[str, float] = field(default_factory=dict)
    counterexample: str = ""
    rule: str = ""
    witnessed: dict[str, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class Goal:
    """A goal to prove for one transition instance, with the triggers that keep it from being
    vacuous and the premises of a second attempt."""

    id: str
    method: str
    goal: Cond
    rule: str = ""
    triggers: Triggers = field(default_factory=list)
    retry: tuple[Cond, ...] = ()


@dataclass(frozen=True)
class Case(Generic[S, A]):
    """One configuration: the symbolic state, the premise Inv(S) and its bounds, the transition
    instances, the goals of an instance, and how to show a counterexample. ``must_fire(t)``: ``t``
    counts for ``transitions-satisfiable`` here (a duel-only step need not fire outside the duel)."""

    label: str
    state: S
    premise: Cond
    bounded: Callable[[S], Cond]
    steps: Sequence[tuple[Transition[S, A], A]]
    goals: Callable[[S, A, Transition[S, A], S], Iterable[Goal]]
    describe: Callable[[z3.ModelRef, A, Transition[S, A], S], str]
    where: Callable[[A, Transition[S, A]], str]
    must_fire: Callable[[Transition[S, A]], bool] = lambda t: True


def solver(timeout_ms: int) -> z3.Solver:
    """Linear integer arithmetic with a per-query timeout (every spec's queries are in QF_LIA)."""
    out = z3.SolverFor("QF_LIA")
    out.set("timeout", timeout_ms)
    return out


def check(solver: z3.Solver, *extra: Cond) -> tuple[z3.CheckSatResult, z3.ModelRef | None, str]:
    """Is the solver's premise plus ``extra`` satisfiable? The answer, a model when sat, the reason
    when unknown; the solver is left as it was."""
    solver.push()
    solver.add(*[z3.BoolVal(x) if isinstance(x, bool) else x for x in extra])
    out = solver.check()
    model = solver.model() if out == z3.sat else None
    why = solver.reason_unknown() if out == z3.unknown else ""
    solver.pop()
    return out, model, why


def evaluator(m: z3.ModelRef) -> Callable[[Any], Any]:
    """Values in model ``m``: ints and bools as they are, Z3 terms evaluated (completed)."""
    def ev(x: Any) -> Any:
        if isinstance(x, (int, bool)):
            return x
        v = m.eval(x, model_completion=True)
        return v.as_long() if z3.is_int_value(v) else z3.is_true(v)

    return ev


def negate(goal: Cond) -> Cond:
    return (not goal) if isinstance(goal, bool) else z3.Not(goal)


def run(
    cases: Iterable[Case[Any, Any]],
    timeout_ms: int,
    only: set[str] | None = None,
    stop_at_first: bool = False,
    tick: Callable[[], None] | None = None,
    extras: Sequence[tuple[str, Callable[[], Result]]] = (),
    premise_rule: str = "",
    vacuity: bool = True,
) -> list[Result]:
    """Prove every goal of every transition instance of every case; then ``transitions-satisfiable``
    and the ``extras`` (each by its id). ``only``: these result ids; ``stop_at_first``: return after
    the first instance that refutes a goal; ``tick`` once per instance; ``vacuity`` False: skip the
    trigger checks (no property can then be reported vacuous)."""
    results: dict[str, Result] = {}
    satisfiable: dict[str, bool] = {}
    premises = Result("transitions-satisfiable", "sat check", "proved", rule=premise_rule)
    only_premises = only is not None and only <= {premises.id}
    for case in cases:
        s = case.state
        for t, a in case.steps:
            if tick is not None:
                tick()
            guard = t.guard(s, a)
            if guard is False:
                continue  # e.g. buying a field where none is sold
            if case.must_fire(t):
                satisfiable.setdefault(t.name, False)
            t0 = time.perf_counter()
            s2 = t.after(s, a)
            sv = solver(timeout_ms)
            sv.add(case.premise, guard, case.bounded(s2))
            reachable = sv.check()
            premises.seconds += time.perf_counter() - t0
            if reachable == z3.unsat:
                continue  # e.g. seat 0 answering an offer: it is always the proposer
            if reachable == z3.sat:
                satisfiable[t.name] = True
            if only_premises:
                continue
            for g in case.goals(s, a, t, s2):
                if only is not None and g.id not in only:
                    continue
                r = results.setdefault(g.id, Result(g.id, g.method, "proved", rule=g.rule))
                t1 = time.perf_counter()
                if vacuity:
                    for what, cond in g.triggers:
                        if not r.witnessed.get(what):
                            c = cond() if callable(cond) else cond
                            if c is not False:
                                r.witnessed[what] = check(sv, c)[0] == z3.sat
                        r.witnessed.setdefault(what, False)
                if g.goal is not True:
                    outcome, model, why = check(sv, negate(g.goal))
                    if outcome != z3.unsat and g.retry:
                        outcome, model, why = check(sv, *g.retry, negate(g.goal))
                    if outcome != z3.unsat and r.status == "proved":
                        r.status = "refuted"
                        r.counterexample = (case.describe(model, a, t, s2) if model is not None else
                                            f"{case.where(a, t)}: the solver answered {outcome} ({why})")
                dt = time.perf_counter() - t1
                r.seconds += dt
                r.per_kind[t.name] = r.per_kind.get(t.name, 0.0) + dt
            if stop_at_first and any(r.status != "proved" for r in results.values()):
                return list(results.values())  # every property refuted by this instance is reported
    for r in results.values():
        missing = [w for w, ok in r.witnessed.items() if not ok]
        if r.status == "proved" and missing:
            r.status = "vacuous"
            r.counterexample = "never reached: " + ", ".join(missing)
    if only is None or premises.id in only:
        never = sorted(name for name, ok in satisfiable.items() if not ok)
        if never:
            premises.status = "refuted"
            premises.counterexample = "never satisfiable: " + ", ".join(never)
        results[premises.id] = premises
    for rid, extra in extras:
        if only is None or rid in only:
            results[rid] = extra()
    return list(results.values())
