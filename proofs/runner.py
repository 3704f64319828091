"""The one proof runner both specs use (proofs/invariants.py for the base game,
proofs/isla/invariants.py for La Isla Bohnita): for every configuration (a ``Case``) and every
transition instance it asks Z3 whether Inv(S), the guard and the bounds on S' are satisfiable (the
premise; an unsatisfiable one is skipped), then refutes each goal (UNSAT of its negation: proved).

No proof may pass vacuously: every transition must be satisfiable in some configuration
(``transitions-satisfiable``), and every situation a goal names as a trigger (a field gains a card,
an attack is made, ...) must be reached by some step (SAT), or the property is reported
``vacuous``. A goal that is not UNSAT at the first attempt is tried once more with its ``retry``
premises (facts proved elsewhere, e.g. ghost tallies equal real counts); "unknown" after that counts
as refuted. Extra checks (lemmas, bounded model checking) run after the loop as ``extras``.
This module knows no rule; it imports only z3 and the hybrid values of proofs/symbolic.py.

Budgets: every query has a deterministic resource limit (``RLIMIT``, Z3's ``rlimit``: the same
answer on a loaded machine as on an idle one) and a generous wall-clock timeout as a backstop.
Ctrl-C: a query runs in a helper thread (``checked``) while the caller waits in short slices, so
a Ctrl-C interrupts Z3 and raises within a second (Z3's own handler would answer "unknown" and
the run would go on); ``run`` then raises ``ProofsInterrupted`` with the verdicts so far.
``catching_ctrl_c`` only records the Ctrl-C, and ``stop_if_interrupted`` (called before and during
every query, at each instance and at each state of the differential checks) raises it: a
KeyboardInterrupt raised wherever the signal lands could hit a Z3 call or a term's ``__del__``
(where Python ignores it) in the main thread, and one raised inside Z3's Python wrappers left its
reference counts broken (the process crashed with SIGSEGV, or the interrupt escaped ``run``
unreported, about one Ctrl-C in eight).
"""

from __future__ import annotations

import gc
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import z3

from console.cli import terminated
from console.progress import ProgressFn
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
    rlimit: int = 0  # the most resource units (Z3's rlimit count) one query of this property took


class ProofsInterrupted(KeyboardInterrupt):
    """Ctrl-C during ``run``: ``results`` are the verdicts so far. A refutation is final; a
    property not refuted yet has status "interrupted" (its proof did not cover every instance);
    ``done`` instances of ``total`` (None: not counted) were checked."""

    def __init__(self, results: list[Result], done: int, total: int | None) -> None:
        super().__init__(f"interrupted after {done} of {total if total is not None else '?'} instances")
        self.results, self.done, self.total = results, done, total


@dataclass(frozen=True)
class Query:
    """One Z3 query of a run, for profiles: the case, the transition, what it asked ("premise",
    "trigger <property>", "goal <property>", "all goals"), its seconds and resource units."""

    case: str
    kind: str
    what: str
    seconds: float
    rlimit: int


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


# Resource units per query (Z3's rlimit; 0: none). Calibrated on the proofs of scripts/prove_rules.py
# (base and --isla, with EXTRA_CONFIGS): the largest query takes 45,045,368 units (card conservation,
# base; about 6 s on a loaded 2-core machine, some 8 million units a second), the largest of --isla
# 12,724,080; each property's largest is ``Result.rlimit``. The budget is ten times the largest.
RLIMIT = 450_000_000
PUSHED_RLIMIT = 2_000_000  # a query's first try, incremental (``check``): most take well under 1 million
BACKSTOP_MS = 300_000  # the wall-clock timeout per query: only a machine far slower than today's
TICK_SECONDS = 0.25  # a query running longer reports its seconds this often
Tick = Callable[[float], None]  # seconds a query has run


_ctrl_c = threading.Event()  # set by ``catching_ctrl_c``'s handler
_catching = False


@contextmanager
def catching_ctrl_c() -> Iterator[None]:
    """While the block runs, Ctrl-C is recorded, and ``stop_if_interrupted`` raises it as a
    KeyboardInterrupt at a safe point (the module docstring). Nested blocks share the outer one; off
    the main thread it does nothing."""
    global _catching
    if _catching or threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        _ctrl_c.set()  # raised at the next ``stop_if_interrupted``, never inside a Z3 call (see above)

    _ctrl_c.clear()
    if terminated():  # after a SIGTERM the block stops at its first safe point (console.cli.terminated)
        _ctrl_c.set()
    old = signal.signal(signal.SIGINT, handler)
    _catching = True
    try:
        yield
    finally:
        _catching = False
        signal.signal(signal.SIGINT, old)
        _ctrl_c.clear()


def stop_if_interrupted() -> None:
    """KeyboardInterrupt if a Ctrl-C came in a ``catching_ctrl_c`` block (even one Python lost)."""
    if _ctrl_c.is_set():
        raise KeyboardInterrupt


def solver(timeout_ms: int, rlimit: int | None = None) -> z3.Solver:
    """Linear integer arithmetic (every spec's queries are in QF_LIA) with a per-query resource
    limit (default ``RLIMIT``) and wall-clock timeout; Z3's own Ctrl-C handler off (``checked``)."""
    out = z3.SolverFor("QF_LIA")
    out.set("timeout", timeout_ms)
    out.set("rlimit", RLIMIT if rlimit is None else rlimit)
    out.set("ctrl_c", False)
    return out


def rlimit_count(solver: z3.Solver) -> int:
    """Z3's resource counter (its context's, cumulative): a query used the difference."""
    st = solver.statistics()
    return int(st.get_key_value("rlimit count")) if "rlimit count" in st.keys() else 0


def checked(solver: z3.Solver, tick: Tick | None = None) -> tuple[z3.CheckSatResult, int]:
    """``solver.check()`` that Ctrl-C stops within a second: the query runs in a helper thread
    while this one waits in TICK_SECONDS slices (calling ``tick(seconds so far)``); a
    KeyboardInterrupt here interrupts the solver's context, waits for the query to return and is
    raised again. Returns the answer and the resource units the query used.

    Python's cyclic garbage collector is off meanwhile: a Z3 object it frees (a solver left in a
    traceback, say) releases its reference in the context the query is using, from this thread,
    and Z3's contexts are not thread-safe (it crashed the process once, in the query)."""
    with catching_ctrl_c():
        return _checked(solver, tick)


def _checked(solver: z3.Solver, tick: Tick | None) -> tuple[z3.CheckSatResult, int]:
    stop_if_interrupted()
    before = rlimit_count(solver)
    box: dict[str, Any] = {}
    done = threading.Event()  # not Thread.join: a join that Ctrl-C interrupted can return early

    def work() -> None:
        try:
            box["out"] = solver.check()
        except BaseException as exc:  # handed to the caller below
            box["error"] = exc
        finally:
            done.set()

    thread = threading.Thread(target=work, name="z3-check", daemon=True)
    collecting = gc.isenabled()
    gc.disable()
    try:
        t0 = time.monotonic()
        thread.start()
        try:
            while not done.wait(TICK_SECONDS):
                stop_if_interrupted()
                if tick is not None:
                    tick(time.monotonic() - t0)
        except BaseException:  # Ctrl-C (or a failing ``tick``): the query ends before anything
            while True:  # else touches Z3, through a second Ctrl-C too
                solver.ctx.interrupt()
                try:
                    done.wait()
                    break
                except KeyboardInterrupt:
                    continue
            raise
    finally:
        if collecting:
            gc.enable()
    if "error" in box:
        raise box["error"]
    return box["out"], rlimit_count(solver) - before


def check(sv: z3.Solver, premise: Sequence[Cond], *extra: Cond, timeout_ms: int, tick: Tick | None = None
          ) -> tuple[z3.CheckSatResult, z3.ModelRef | None, str, int]:
    """Is ``premise`` (asserted in ``sv``) plus ``extra`` satisfiable? The answer, a model when
    sat, the reason when unknown, the resource units used; ``sv`` is left as it was.

    Two tries: ``sv`` after a ``push`` (Z3's incremental core, which shares the premise's work
    between the queries of an instance) within ``PUSHED_RLIMIT`` units; past that a fresh solver
    with the whole query and the full ``RLIMIT`` (Z3's non-incremental QF_LIA tactic, whose
    preprocessing decided the costliest queries 2.5-5 times faster than the incremental core,
    while its set-up made the many small ones slower). Both limits are deterministic, so the
    answers reproduce. Ctrl-C: ``checked``."""
    terms = [z3.BoolVal(x) if isinstance(x, bool) else x for x in extra]
    sv.push()
    try:
        sv.set("rlimit", PUSHED_RLIMIT)
        sv.add(*terms)
        out, used = checked(sv, tick)
        model = sv.model() if out == z3.sat else None
        why = sv.reason_unknown() if out == z3.unknown else ""
    finally:
        sv.set("rlimit", RLIMIT)
        sv.pop()
    if out != z3.unknown:
        return out, model, why, used
    fresh = solver(timeout_ms)
    fresh.add(*premise, *terms)
    out, more = checked(fresh, tick)
    model = fresh.model() if out == z3.sat else None
    why = fresh.reason_unknown() if out == z3.unknown else ""
    return out, model, why, used + more


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


def _spent(r: Result, kind: str, seconds: float) -> None:
    r.seconds += seconds
    r.per_kind[kind] = r.per_kind.get(kind, 0.0) + seconds


def _witness(sv: z3.Solver, premise: Sequence[Cond], timeout_ms: int, r: Result, g: Goal,
             models: list[z3.ModelRef], tick: Tick | None) -> int:
    """Record which of ``g``'s triggers the solver's premise can reach: each not yet reached is
    first evaluated in the models found so far (a model of the premise in which the trigger holds
    is a witness), and only then asked of the solver, whose model joins ``models``. Returns the
    resource units the queries used."""
    spent = 0
    for what, cond in g.triggers:
        if not r.witnessed.get(what):
            c = cond() if callable(cond) else cond
            if c is True and models:
                r.witnessed[what] = True
            elif c is not False:
                if any(z3.is_true(m.eval(c, model_completion=True)) for m in models):
                    r.witnessed[what] = True
                else:
                    answer, model, _, used = check(sv, premise, c, timeout_ms=timeout_ms, tick=tick)
                    r.witnessed[what] = answer == z3.sat
                    r.rlimit = max(r.rlimit, used)
                    spent += used
                    if model is not None:
                        models.append(model)
        r.witnessed.setdefault(what, False)
    return spent


def run(
    cases: Iterable[Case[Any, Any]],
    timeout_ms: int,
    only: set[str] | None = None,
    stop_at_first: bool = False,
    tick: Callable[[], None] | None = None,
    extras: Sequence[tuple[str, Callable[[ProgressFn | None], Result]]] = (),
    premise_rule: str = "",
    vacuity: bool = True,
    progress: ProgressFn | None = None,
    total: int | None = None,
    profile: list[Query] | None = None,
    raw: dict[str, bool] | None = None,
) -> list[Result]:
    """Prove every goal of every transition instance of every case; then ``transitions-satisfiable``
    and the ``extras`` (each by its id, given a progress function for its notes). ``only``: these
    result ids; ``stop_at_first``: return after the first instance that refutes a goal; ``tick``
    once per instance; ``vacuity`` False: skip the trigger checks (no property can then be
    reported vacuous). ``profile``: each query is appended as a ``Query``. ``raw``: one part of a
    parallel run (``Part``, ``merge``): nothing is judged vacuous or unsatisfiable yet, ``raw``
    gets which transitions fired, and the extras are not run.

    ``progress(instances done, total, note)`` as each instance and each goal starts (the note
    names them) and every TICK_SECONDS while one query runs (its seconds so far); ``total``: the
    number of instances (None with ``progress``: the cases are built first and counted). Ctrl-C:
    ``ProofsInterrupted`` with the verdicts so far, within a second even inside a Z3 query."""
    with catching_ctrl_c():
        return _run(cases, timeout_ms, only, stop_at_first, tick, extras, premise_rule, vacuity, progress,
                    total, profile, raw)


def _conclude(results: dict[str, Result], satisfiable: dict[str, bool], premises: Result,
              only: set[str] | None) -> None:
    """Properties whose situations were never reached are vacuous; ``transitions-satisfiable``
    is refuted by a transition no instance could take."""
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


@dataclass
class Part:
    """What one case of a parallel run found (``run(..., raw=...)``): the properties' verdicts so
    far (not yet judged vacuous; the last is ``transitions-satisfiable``'s time) and, per
    transition that must fire, whether one of its instances was satisfiable."""

    results: list[Result]
    fired: dict[str, bool]


def merge(parts: Sequence[Part], only: set[str] | None, premise_rule: str = "",
          stop_at_first: bool = False) -> list[Result]:
    """The verdicts of a run split by case (in the cases' order), as the one run would give them:
    a property is refuted by the first case that refutes it, a situation or a transition counts
    as reached if any case reached it. ``stop_at_first``: the cases after the first refutation
    are dropped (the one run would have stopped there)."""
    results: dict[str, Result] = {}
    satisfiable: dict[str, bool] = {}
    premises = Result("transitions-satisfiable", "sat check", "proved", rule=premise_rule)
    for part in parts:
        *found, spent = part.results
        premises.seconds += spent.seconds
        premises.rlimit = max(premises.rlimit, spent.rlimit)
        for name, ok in part.fired.items():
            satisfiable[name] = satisfiable.get(name, False) or ok
        for r in found:
            into = results.setdefault(r.id, Result(r.id, r.method, "proved", rule=r.rule))
            into.seconds += r.seconds
            into.rlimit = max(into.rlimit, r.rlimit)
            for kind, sec in r.per_kind.items():
                into.per_kind[kind] = into.per_kind.get(kind, 0.0) + sec
            for what, ok in r.witnessed.items():
                into.witnessed[what] = into.witnessed.get(what, False) or ok
            if r.status != "proved" and into.status == "proved":
                into.status, into.counterexample = r.status, r.counterexample
        if stop_at_first and any(r.status != "proved" for r in found):
            return list(results.values())
    _conclude(results, satisfiable, premises, only)
    return list(results.values())


class _Run:
    """One run's verdicts so far (``results``, which transitions fired, the premises' cost) and its
    progress notes: ``done`` instances of ``total``, the note of the query under way."""

    def __init__(self, timeout_ms: int, only: set[str] | None, vacuity: bool, premise_rule: str,
                 progress: ProgressFn | None, total: int | None, profile: list[Query] | None) -> None:
        self.timeout_ms, self.only, self.vacuity = timeout_ms, only, vacuity
        self.progress, self.total, self.profile = progress, total, profile
        self.results: dict[str, Result] = {}
        self.satisfiable: dict[str, bool] = {}
        self.premises = Result("transitions-satisfiable", "sat check", "proved", rule=premise_rule)
        self.only_premises = only is not None and only <= {self.premises.id}
        self.done = 0
        self.note = ""
        self.qtick = self.ticking if progress is not None else None

    def say(self, what: str) -> None:
        self.note = what
        if self.progress is not None:
            self.progress(self.done, self.total, what)

    def ticking(self, seconds: float) -> None:
        if self.progress is not None:
            self.progress(self.done, self.total, f"{self.note}: {seconds:.0f} s")

    def keep_count(self, _done: int, _total: int | None, what: str) -> None:  # an extra's notes
        if self.progress is not None:
            self.progress(self.done, self.total, what)

    def record(self, label: str, kind: str, what: str, since: float, used: int) -> None:
        if self.profile is not None:
            self.profile.append(Query(label, kind, what, time.perf_counter() - since, used))

    def instance(self, case: Case[Any, Any], s: Any, t: Transition[Any, Any], a: Any) -> None:
        """One transition instance: its premise checked reachable (``transitions-satisfiable``),
        then, unless it cannot happen, each goal's triggers (vacuity) and each goal proved."""
        guard = t.guard(s, a)
        if guard is False:
            self.done += 1
            return  # e.g. buying a field where none is sold
        if case.must_fire(t):
            self.satisfiable.setdefault(t.name, False)
        self.say(f"{case.label}, {t.name}")
        t0 = time.perf_counter()
        s2 = t.after(s, a)
        base = (case.premise, guard, case.bounded(s2))
        sv = solver(self.timeout_ms)
        sv.add(*base)
        reachable, used = checked(sv, self.qtick)
        model = sv.model() if reachable == z3.sat else None
        self.premises.seconds += time.perf_counter() - t0
        self.record(case.label, t.name, "premise", t0, used)
        self.premises.rlimit = max(self.premises.rlimit, used)
        if reachable == z3.unsat:
            self.done += 1
            return  # e.g. seat 0 answering an offer: it is always the proposer
        if reachable == z3.sat:
            self.satisfiable[t.name] = True
        if self.only_premises:
            self.done += 1
            return
        todo = [g for g in case.goals(s, a, t, s2) if self.only is None or g.id in self.only]
        for g in todo:
            self.results.setdefault(g.id, Result(g.id, g.method, "proved", rule=g.rule))
        if self.vacuity:
            self._triggers(case, t, sv, base, todo, [model] if model is not None else [])
        for g in todo:
            if g.goal is not True:
                self._prove(case, t, a, s2, sv, base, g)
        self.done += 1

    def _triggers(self, case: Case[Any, Any], t: Transition[Any, Any], sv: z3.Solver, base: tuple[Cond, ...],
                  todo: list[Goal], models: list[z3.ModelRef]) -> None:
        """Which of each goal's triggers the premise reaches (``_witness``), timed per goal."""
        for g in todo:
            self.say(f"{g.id} ({case.label}, {t.name})")
            t1 = time.perf_counter()
            if g.triggers:
                used = _witness(sv, base, self.timeout_ms, self.results[g.id], g, models, self.qtick)
                _spent(self.results[g.id], t.name, time.perf_counter() - t1)
                self.record(case.label, t.name, f"triggers {g.id}", t1, used)

    def _prove(self, case: Case[Any, Any], t: Transition[Any, Any], a: Any, s2: Any, sv: z3.Solver,
               base: tuple[Cond, ...], g: Goal) -> None:
        """``g`` under the premise (its retry conditions added if the first try fails); the first
        counterexample refutes it."""
        r = self.results[g.id]
        self.say(f"{g.id} ({case.label}, {t.name})")
        t1 = time.perf_counter()
        outcome, model, why, used = check(sv, base, negate(g.goal), timeout_ms=self.timeout_ms,
                                          tick=self.qtick)
        r.rlimit = max(r.rlimit, used)
        if outcome != z3.unsat and g.retry:
            outcome, model, why, more = check(sv, base, *g.retry, negate(g.goal),
                                              timeout_ms=self.timeout_ms, tick=self.qtick)
            r.rlimit = max(r.rlimit, more)
            used += more
        self.record(case.label, t.name, f"goal {g.id}", t1, used)
        if outcome != z3.unsat and r.status == "proved":
            r.status = "refuted"
            r.counterexample = (case.describe(model, a, t, s2) if model is not None else
                                f"{case.where(a, t)}: the solver answered {outcome} ({why})")
        _spent(r, t.name, time.perf_counter() - t1)


def _run(cases: Iterable[Case[Any, Any]], timeout_ms: int, only: set[str] | None, stop_at_first: bool,
         tick: Callable[[], None] | None, extras: Sequence[tuple[str, Callable[[ProgressFn | None], Result]]],
         premise_rule: str, vacuity: bool, progress: ProgressFn | None, total: int | None,
         profile: list[Query] | None, raw: dict[str, bool] | None) -> list[Result]:
    if progress is not None and total is None:
        cases = list(cases)
        total = sum(len(c.steps) for c in cases)
    run = _Run(timeout_ms, only, vacuity, premise_rule, progress, total, profile)
    results = run.results
    try:
        for case in cases:
            for t, a in case.steps:
                stop_if_interrupted()
                if tick is not None:
                    tick()
                run.instance(case, case.state, t, a)
                if stop_at_first and any(r.status != "proved" for r in results.values()):
                    if raw is not None:
                        raw.update(run.satisfiable)
                        return [*results.values(), run.premises]
                    return list(results.values())  # every property refuted by this instance is reported
    except KeyboardInterrupt:
        for r in results.values():
            if r.status == "proved":
                r.status = "interrupted"
        raise ProofsInterrupted(list(results.values()), run.done, total) from None
    if raw is not None:  # one part of a parallel run: ``merge`` concludes
        raw.update(run.satisfiable)
        return [*results.values(), run.premises]
    _conclude(results, run.satisfiable, run.premises, only)
    for rid, extra in extras:
        if only is None or rid in only:
            run.say(rid)
            try:
                results[rid] = extra(run.keep_count if progress is not None else None)
            except KeyboardInterrupt:
                raise ProofsInterrupted(list(results.values()), run.done, total) from None
    return list(results.values())
