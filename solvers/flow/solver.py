"""``coop`` and ``best P`` at real size: the counts master, exact seats, and a joint model.

1. The master (solvers/flow/master.py) is exact about hands, fronts and deals and relaxes only the
   fields, so its proved bound is an upper bound on the true optimum (``best``: the floors go on the
   relaxed values, which keeps it a relaxation).
2. With the master's flows fixed the seats are independent: each seat's exact field play is a
   search a whole batch at a time (solvers/flow/seat_batch.py, milliseconds on real seats). Their sum is
   a legal plan, replayed through the engine with checks. If it reaches the master's bound it is
   proved optimal.
3. Otherwise the joint model (the master's flows with every seat's exact fields) is asked for a
   plan better than the one in hand, below the bound: "infeasible" proves the plan optimal, a
   solution improves it, and its bound tightens the gap. The time limit or Ctrl-C returns the best
   replayed plan and the best proved bound.

H4's strict reading: the master ignores H4 and the seat search reads it either way, but the
CP-SAT joint model reads it leniently, so a strict run is the decomposition alone (a bound from
the master, plans from the exact seats).

A plan the engine refuses, or that replays to another value than the model's, is an error, never
an answer.
"""

from __future__ import annotations

import copy
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from console.progress import ProgressFn
from model import (
    Action,
    BuyField,
    EndPhase,
    GameState,
    Harvest,
    Phase,
    Plant,
    PlantAside,
    Propose,
    apply,
)
from solvers.contract import (
    DEFAULT_LIMITS,
    Budget,
    Limits,
    Objective,
    Solution,
    SolveError,
    SolveStats,
    Status,
    calls,
)
from solvers.cpsat_lazy import cp_model, solution_callback
from solvers.cpsat_run import Interrupt, interruptible, reporting
from solvers.exact import OpenSearch, SoloSearch, open_player, solve_solo
from solvers.flow.cuts import Schedule, capped_values, cut, schedule, solve_schedule
from solvers.flow.master import Batch, FlowMaster, capacity_default
from solvers.flow.seat_plan import Op, SeatPlan
from solvers.timeline import Card, Deal, deal_proposals, play_deal, track_draws

Tick = Callable[[float, float, float], None]
# The rounds (the bound, the cuts, plans) and the plan search, as fractions of the run: rounds to
# 0.6, plan search to 0.7; the rest goes to the joint model warm-started from the best plan. (Taking
# turns, rounds to 0.3, search to 0.4, rounds to 0.55, search to 0.6, was no better on 8 growth cuts
# and the 12 built-in solves: docs/lab-notes.md.)
STAGES = ((0.6, 0.7),)
# ``best``: the rounds give way to the plan search once past 0.1 (a plan is in hand from the start).
# Its master's first bound rarely moves in later rounds (rio5-15cards: 26 after 1 round and after
# 9), while its plans come sooner from the plan search: rio4-8cards 23 proved in 11.6 s against
# 36.6 s, amigo4-6cards 20 in 8.5 s against 24.5 s (docs/lab-notes.md, 2026-12-07).
BEST_STAGES = ((0.1, 0.7),)
# ``best``, once the plan search has no better plan: the joint model, then the rounds, each to its
# fraction of what is left. Neither alone closes the 4-player 10-card growth cuts left at a gap of
# 1: on one the rounds find the optimum (24, in 12-24 rounds) where the joint model is still open
# after 45 s, on another the joint model proves it in 10 s where 33 rounds do not
# (docs/lab-notes.md, 2026-12-07).
BEST_TURNS = (("joint", 0.5), ("rounds", 0.6))
DECOMPOSE_UNTIL = 0.8  # the decomposition may go on to here until it has a first plan
HARVEST = 20  # master solutions a round hands to the seats: its last ones, the optimum among them
JOINT_SHARE = 0.5  # of what is left then: the optimising joint model, before the search for any better plan
WEAK_MASTER_AT = 0.3  # a first master solve whose bound is no tighter than the beanometer's ends here
WEAK_SEARCH_UNTIL = 0.85  # and after a master round no tighter, the plan search takes the run to here


NEIGHBOURHOOD_WORK = 1.0  # a plan-search sub-solve's most (seconds, or work units with a work limit)
NEIGHBOURHOOD_ROUNDS = 4  # sub-solves per neighbourhood, each with the cuts of the last
_FLOW = re.compile(r"^(?:([guh])(\d+)_(\d+)_(\d+)|d(\d+)_(\d+)|front(\d+)_.*)$")


def _is_flow(name: str) -> bool:
    """A master variable that says what is traded or planted from the hand (the names of
    solvers/flow/master.py: g/u/h{turn}_{partner}_{bean}, d{turn}_{partner}, front{turn}_...)."""
    return _FLOW.match(name) is not None


def _neighbourhoods(values: dict[str, int]) -> list[Callable[[str], bool]]:
    """The plan search's neighbourhoods over the flow variables named in ``values``: each turn's
    trades and front (alone and with the next turn), each partner's trades, each bean's flows."""
    turns: set[int] = set()
    partners: set[int] = set()
    beans: set[int] = set()
    for name in values:
        m = _FLOW.match(name)
        if m and m.group(1):
            turns.add(int(m.group(2)))
            partners.add(int(m.group(3)))
            beans.add(int(m.group(4)))

    def parts(name: str) -> tuple[int | None, int | None, int | None]:
        m = _FLOW.match(name)
        if m is None:
            return None, None, None
        if m.group(1):
            return int(m.group(2)), int(m.group(3)), int(m.group(4))
        if m.group(5):
            return int(m.group(5)), int(m.group(6)), None
        return int(m.group(7)), None, None

    def turn_hood(ks: set[int]) -> Callable[[str], bool]:
        return lambda name: parts(name)[0] in ks

    def partner_hood(r: int) -> Callable[[str], bool]:
        return lambda name: parts(name)[1] == r or name.startswith("d")

    def bean_hood(b: int) -> Callable[[str], bool]:
        return lambda name: parts(name)[2] == b or name.startswith("d")

    out = [turn_hood({k}) for k in sorted(turns)]
    out += [turn_hood({k, k + 1}) for k in sorted(turns) if k + 1 in turns]
    out += [partner_hood(r) for r in sorted(partners)]
    out += [bean_hood(b) for b in sorted(beans)]
    return out


@dataclass
class _Found:
    value: int
    line: list[Any]
    coins: list[int]


def _solver(workers: int, lb_tree: bool = False) -> cp_model.CpSolver:
    """CP-SAT as these models need it: the full LP (linearization 2); with ``lb_tree`` and one
    worker, the LP-guided tree search, which the master's rounds after the first use (they have a
    bound and a hint: 43-65 rounds a minute on amigo5-12cards coop, 8 with the default search). The
    first master solve, with no bound yet, uses the default search: it proves the first bound
    1.6-8 times sooner on the built-ins (rio4-18cards 6.5 s against 27.5 s) and on the whole final
    pass in 20 s, where the tree search found no solution in 90 s (docs/lab-notes.md)."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.linearization_level = 2
    if lb_tree and workers == 1:
        solver.parameters.optimize_with_lb_tree_search = True
    return solver


def _objective(fm: FlowMaster, values: list[Any], objective: Objective, p: int,
               floors: list[int] | None) -> Any:
    m = fm.m
    goal = objective
    if goal.floors:
        assert floors is not None
        for q, v in enumerate(values):
            if q != p:
                m.add(v >= floors[q])  # no one accepts less than its own solo optimum
    return goal.value(values, p)


Flows = list[dict[int, tuple[dict[int, int], dict[int, int], dict[int, int]]]]  # per turn, partner


def _identities(fm: FlowMaster, fronts: list[tuple[Card, ...]], flows: Flows) -> list[list[Deal]]:
    """The deals by card identity: a seat trading a card of a bean gives its earliest card of that
    bean that no phase 1 plants (solvers/flow/master.py's docstring: this keeps the counts exact)."""
    kept = {c for f in fronts for c in f}
    gone: set[Card] = set()

    def take(q: int, k: int, b: int, count: int) -> list[Card]:
        out = [c for c in fm.cards[q] if c.since <= k and c.bean == b and c not in kept and c not in gone]
        if len(out) < count:
            raise SolveError(f"internal error: p{q} has {len(out)} tradeable {b} in turn {k}, not {count}")
        gone.update(out[:count])
        return out[:count]

    deals: list[list[Deal]] = []
    for k, turn in enumerate(fm.turns):
        a = turn.active
        row = []
        for r, (g, u, h) in sorted(flows[k].items()):
            give = [c for b, x in sorted(g.items()) for c in take(a, k, b, x)]
            back = [c for b, x in sorted(h.items()) for c in take(r, k, b, x)]
            up = [b for b, x in sorted(u.items()) for _ in range(x)]
            if give or back or up:
                row.append(Deal(r, give, up, back))
        deals.append(row)
    return deals


def _read_flows(fm: FlowMaster, value: Callable[[Any], int]) -> Flows:
    out = []
    for k in range(len(fm.turns)):
        row = {}
        for r in fm.give[k]:
            def get(d: dict[int, Any]) -> dict[int, int]:
                return {b: value(v) for b, v in d.items() if value(v)}
            row[r] = (get(fm.give[k][r]), get(fm.up[k][r]), get(fm.back[k][r]))
        out.append(row)
    return out


def _fronts(fm: FlowMaster, value: Callable[[Any], int]) -> list[tuple[Card, ...]]:
    return [next(f.cards for f, lit in opts if value(lit)) for opts in fm.fronts]


def replay(s: GameState, fm: FlowMaster, deals: list[list[Deal]], ops: list[list[Op]]
           ) -> tuple[list[Action], GameState]:
    """Play a plan through the engine, checked. Hand cards are followed by identity (H1); a
    seat's harvests and purchases are made as soon as it is to move (its fields do not change
    before its next planting, so they pay the same and H4 allows them the same)."""
    k_cards = s.setup.rules.max_deal_cards
    n = len(s.players)
    ids: list[list[Card]] = [list(fm.cards[q][:len(s.players[q].hand)]) for q in range(n)]
    arrivals = [iter(fm.cards[q][len(s.players[q].hand):]) for q in range(n)]
    todo = [list(o) for o in ops]
    line: list[Action] = []
    t0 = s.turn
    queue: list[Propose] = []
    trading: int | None = None

    def act(a: Action) -> None:
        nonlocal s
        before = s
        s = apply(s, a)  # checked: the line must be legal
        line.append(a)
        track_draws(before, s, ids, arrivals)

    def eager(p: int) -> None:
        while todo[p] and todo[p][0].kind != "plant":
            op = todo[p].pop(0)
            act(Harvest(p, op.field) if op.kind == "harvest" else BuyField(p))

    def due(p: int, k: int, phase: int) -> Op | None:
        op = todo[p][0] if todo[p] else None
        return op if op is not None and op.kind == "plant" and (op.turn, op.phase) == (k, phase) else None

    while s.phase != Phase.OVER:
        k = s.turn - t0
        p = s.to_move
        if s.phase == Phase.TRADE:
            a = s.active
            if trading != k:
                trading = k
                eager(a)
                queue = [x for x in deal_proposals(deals[k], k_cards, a, ids, s) if isinstance(x, Propose)]
            if not queue:
                act(EndPhase(a))
                continue
            play_deal(queue.pop(0), deals[k], ids, act)
            continue
        eager(p)
        phase = 1 if s.phase == Phase.PLANT else 3
        op = due(p, k, phase)
        if s.phase == Phase.PLANT:
            if op is None:
                act(EndPhase(p))  # no (second) planting
                continue
            front = ids[p].pop(0)
            if front.bean != op.bean:
                raise SolveError(f"internal error: the plan plants {op.bean} in phase 1, "
                                 f"the front is {front.bean}")
            todo[p].pop(0)
            act(Plant(p, op.field))
        elif s.phase == Phase.PLANT_ASIDE:
            if op is None:
                raise SolveError(f"internal error: the plan has no planting for p{p}'s set-aside cards")
            todo[p].pop(0)
            act(PlantAside(p, op.bean, op.field))
        else:
            raise SolveError(f"internal error: unexpected phase {s.phase} in the replay")
    if any(op.kind == "plant" for o in todo for op in o):
        raise SolveError("internal error: the replay ended with plantings left")
    return line, s


def _solution(m: cp_model.CpModel, solver: cp_model.CpSolver) -> dict[str, int]:
    """Every named variable's value (a hint for a model that uses the same names)."""
    out = {}
    for i in range(len(m.proto.variables)):
        var = m.get_int_var_from_proto_index(i)
        if var.name:
            out[var.name] = int(solver.value(var))
    return out


def _named(m: cp_model.CpModel) -> list[tuple[cp_model.IntVar, str]]:
    """Every named variable of ``m`` (the same variables, by index, in each of its clones)."""
    out = []
    for i in range(len(m.proto.variables)):
        var = m.get_int_var_from_proto_index(i)
        if var.name:
            out.append((var, var.name))
    return out


def _hint(m: cp_model.CpModel, values: dict[str, int],
          named: list[tuple[cp_model.IntVar, str]] | None = None) -> None:
    for var, name in named if named is not None else _named(m):
        if name in values:
            m.add_hint(var, values[name])


def _reader(solver: cp_model.CpSolver | cp_model.CpSolverSolutionCallback) -> Callable[[Any], int]:
    """The value of a variable, expression or constant in the solver's solution."""
    return lambda v: v if isinstance(v, int) else int(solver.value(v))


@dataclass
class _Candidate:
    """One master solution as the seats need it: every seat's schedule and relaxed value, the
    fronts and flows that make its deals, and every named variable's value (a hint)."""

    scheds: tuple[Schedule, ...]
    relaxed: list[int]
    fronts: list[tuple[Card, ...]]
    flows: Flows
    values: dict[str, int]


class _Harvest:
    """Every solution the master's search passes through, not only its last: each is a legal
    schedule the seats can be solved on, and each gives its seats' cuts (at most ``most``).
    ``on_solution`` is the solution callback's hook (``cpsat_lazy.solution_callback``)."""

    def __init__(self, fm: FlowMaster, most: int,
                 named: list[tuple[cp_model.IntVar, str]] | None = None,
                 weak: tuple[int, float, bool] | None = None) -> None:
        self.fm, self.most = fm, most
        self.weak = weak  # (bound, amount, by work): give up past the amount while no tighter than bound
        self.gave_up = False
        self.found: list[_Candidate] = []
        self.seen: set[tuple[Schedule, ...]] = set()
        self.names = [(var.index, name) for var, name in (named if named is not None else _named(fm.m))]

    def on_solution(self, cb: cp_model.CpSolverSolutionCallback) -> None:
        fm = self.fm
        scheds = tuple(schedule(fm, cb, q) for q in range(fm.n))
        if scheds in self.seen:
            return
        self.seen.add(scheds)
        value = _reader(cb)
        sol = cb.response_proto.solution
        self.found.append(_Candidate(scheds, [value(r) for r in fm.relaxed], _fronts(fm, value),
                                     _read_flows(fm, value), {n: int(sol[i]) for i, n in self.names}))
        if len(self.found) > self.most:
            self.found.pop(0)  # the latest solutions are the master's best
        if self.weak is not None:
            upper, amount, by_work = self.weak
            spent = cb.deterministic_time if by_work else cb.wall_time
            if spent >= amount and cb.best_objective_bound >= upper - 1e-6:
                self.gave_up = True
                cb.stop_search()


class FlowSolver:
    """One run: ``coop`` (the sum of final coins) or ``best P`` (P's coins, every other seat at
    least its solo optimum ``floors``)."""

    def __init__(self, s: GameState, objective: Objective, p: int, floors: list[int] | None,
                 workers: int, tick: Tick | None, stop: Interrupt, clock: Budget | None = None,
                 capacity: bool = True) -> None:
        self.s, self.objective, self.p, self.floors = s, objective, p, floors
        self.capacity = capacity  # FlowMaster's capacity cuts
        self.workers, self.tick, self.stop = workers, tick, stop
        self.best: _Found | None = None
        self.bound: int | None = None
        self.clock = clock or Budget("the flow solver", None, 3600.0)
        self.stages: dict[str, Any] = {}
        self.hint: dict[str, int] = {}  # the best plan's variable values, by name
        self.seat_values: dict[tuple[int, Any], dict[str, int]] = {}  # CP-SAT seat solutions
        self.seat_counts = {"exact": 0, "guard": 0}  # seat problems solved, and stopped by the guard
        self.cuts: list[tuple[int, Any, int]] = []  # (seat, schedule, its proved most): the master's cuts
        self.cut_at: dict[tuple[int, Schedule], int] = {}  # the tightest cut on each seat schedule
        self.cache: dict[tuple[int, Any], tuple[int | None, int, list[Op]]] = {}  # exact seats
        self.base: tuple[FlowMaster, list[cp_model.IntVar], Any] | None = None  # ``_master``'s
        self.base_cuts = 0  # how many of ``cuts`` the base model has
        self.named: list[tuple[cp_model.IntVar, str]] = []  # the base model's named variables
        self.pending: list[tuple[FlowMaster, int, Schedule, int]] = []  # ``joint``'s seat hints to make
        self.upper = OpenSearch(objective, p).upper(s)  # the beanometer's bound (solvers/bounds.py)
        self.weak = False  # the first master solve gave up: its bound was no tighter than ``upper``

    @property
    def interrupted(self) -> bool:
        return self.stop.hit

    def proved_bound(self) -> int:
        """The least bound proved so far: the master's (or a joint model's) and the beanometer's
        (``upper``, known before any solve), so a run has a bound from its first second."""
        return self.upper if self.bound is None else min(self.bound, self.upper)

    def _report(self) -> None:
        if self.tick is not None and self.best is not None:
            self.tick(self.best.value, self.proved_bound(), self.clock.elapsed())

    def _solve(self, m: cp_model.CpModel, until: float, lb_tree: bool = False, lns: bool = False,
               callback: cp_model.CpSolverSolutionCallback | None = None, most: float | None = None,
               ) -> tuple[cp_model.CpSolver, Any]:
        """Solve ``m`` within the run up to fraction ``until`` of its limits (Budget), and at
        most ``most`` (work units with a work limit, else seconds)."""
        solver = _solver(self.workers, lb_tree)
        if lns and self.workers == 1:
            solver.parameters.interleave_search = True
        self.clock.limit(solver, until, most)
        status = self.stop.solve(solver, m, callback)
        self.clock.charge(solver)
        return solver, status

    def _score(self, coins: list[int]) -> int | None:
        goal = self.objective
        if goal.floors:
            assert self.floors is not None
            if any(c < f for q, (c, f) in enumerate(zip(coins, self.floors, strict=True)) if q != self.p):
                return None
        return goal.value(coins, self.p)

    def _accept(self, fm: FlowMaster, deals: list[list[Deal]], ops: list[list[Op]], claimed: int,
                stage: str) -> bool:
        """Replay a plan (checked); True if it is the best so far."""
        line, end = replay(self.s, fm, deals, ops)
        coins = [len(q.coins) for q in end.players]
        got = self._score(coins)
        if got != claimed:
            raise SolveError(f"internal error: the {stage} plan replays to {got}, not its value {claimed}")
        if self.best is None or got > self.best.value:
            self.best = _Found(got, line, coins)
            self._report()
            return True
        return False

    def decompose(self, until: float, soft: float | None = None) -> None:
        """The master, the seats on its flows, and per-seat cuts, until fraction ``until`` of the
        run's limits (past ``soft``, only until a first plan is in hand) or a proof. A cut says:
        "if seat q plants exactly these batches, it ends with at most v"
        where v is the proved optimum of q's fields on them, so the master stays a relaxation and
        every bound it proves is an upper bound on the true optimum.

        Every round maximises the master with the cuts so far, below the bound proved so far. (The
        earlier rounds asked for any schedule worth at least the bound instead: on rio4-8cards coop
        the second such round found none in 2 s and ended the loop at 59 / 62, where maximising
        rounds, each cheap now that the seats answer in milliseconds, reached 61 / 62.)"""
        cuts = self.cuts
        rounds = candidates = 0
        spent = {"master": 0.0, "seats": 0.0}
        try:
            while not self.interrupted:
                now = self.clock.fraction()
                if now >= until or (soft is not None and self.best is not None and now > soft):
                    break  # past ``soft``, only until a first plan is in hand
                fm, obj = self._master()
                if self.bound is not None:
                    fm.m.add(obj <= self.bound)  # proved already: keeps the LP's search short
                if self.hint:
                    _hint(fm.m, self.hint, self.named)
                fm.m.maximize(obj)
                start = time.perf_counter()
                first = self.bound is None  # the first solve: the default search (``_solver``)
                weak = (self.upper, *self.clock.share(WEAK_MASTER_AT)) if first else None
                harvest = _Harvest(fm, HARVEST, self.named, weak)
                solver, status = self._solve(fm.m, until, lb_tree=not first,
                                             callback=solution_callback(harvest.on_solution))
                spent["master"] += time.perf_counter() - start
                rounds += 1
                if status == cp_model.INFEASIBLE:
                    raise SolveError("internal error: the counts master has no solution")
                if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                    break
                jb = int(solver.best_objective_bound + 1e-6)  # the cuts keep it a relaxation
                if "master_bound" not in self.stages:
                    self.stages["master_bound"] = jb  # the counts master's own, before any cut
                # the beanometer's bound from the first solve on: a plan reaching it ends the rounds
                self.bound = min(jb, self.upper) if self.bound is None else min(self.bound, jb)
                self._report()
                if self.best is not None and self.bound is not None and self.best.value >= self.bound:
                    break
                start = time.perf_counter()
                known = len(cuts)
                self._evaluate(fm, harvest.found, until)
                spent["seats"] += time.perf_counter() - start
                candidates += len(harvest.found)
                if harvest.gave_up or jb >= self.upper:  # a round, or the first solve so far, no tighter
                    self.weak = self.stages["master_gave_up"] = True
                    break  # more rounds would not bound better than the beanometer: the plan search's time
                if len(cuts) == known:
                    break  # no new cut: the next round would repeat this one
                if self.best is not None and self.bound is not None and self.best.value >= self.bound:
                    break
        finally:  # Ctrl-C (KeyboardInterrupt) too: the stats say how far the run came
            for key, got in (("rounds", rounds), ("master_solutions", candidates),
                             ("master_seconds", spent["master"]), ("seats_seconds", spent["seats"])):
                self.stages[key] = self.stages.get(key, 0) + got  # (the rounds resume after a plan search)
            self.stages.update({"seat_problems": len(self.cache), "seats_exact": self.seat_counts["exact"],
                                "seats_past_guard": self.seat_counts["guard"]})

    def _master(self) -> tuple[FlowMaster, Any]:
        """The counts master with the cuts so far: (model, objective on the capped seat values).

        Built once; each new cut goes into that base, and each solve gets a clone of it for its
        own bounds, hints and fixings (the whole final pass's master takes 0.6 s to build, 7 ms to
        clone). The clone has the base's variables at the same indices, so they serve both."""
        if self.base is None:
            fm = FlowMaster(self.s, capacity=self.capacity)
            seat_values = capped_values(fm)
            self.base = fm, seat_values, _objective(fm, seat_values, self.objective, self.p, self.floors)
        fm, seat_values, obj = self.base
        if not self.named or self.base_cuts < len(self.cuts):
            for i in range(self.base_cuts, len(self.cuts)):
                q, sched, v = self.cuts[i]
                cut(fm, seat_values[q], q, sched, v, i)
            self.base_cuts = len(self.cuts)
            self.named = _named(fm.m)
        view = copy.copy(fm)  # (shares the base's variables and tables)
        view.m = fm.m.clone()
        return view, obj

    def _evaluate(self, fm: FlowMaster, found: list[_Candidate], until: float) -> bool:
        """The seats of master solutions, exactly: a cut per seat schedule worth less than its
        relaxed value, and the best complete plan replayed and kept if it beats the best so far.
        True if it did."""
        better = False
        for cand in reversed(found):  # the master's optimum first
            finals: list[int] = []
            ops: list[list[Op]] = []
            for q, sched in enumerate(cand.scheds):
                if (q, sched) not in self.cache:
                    self.cache[(q, sched)] = self._seat(q, sched)
                value_q, most, seat_ops = self.cache[(q, sched)]
                if most < min(cand.relaxed[q], self.cut_at.get((q, sched), most + 1)):
                    self.cut_at[(q, sched)] = most
                    self.cuts.append((q, sched, most))
                if value_q is not None:
                    finals.append(value_q)
                    ops.append(seat_ops)
            if len(finals) < fm.n:
                continue
            score = self._score(finals)
            if score is not None and (self.best is None or score > self.best.value):
                deals = _identities(fm, cand.fronts, cand.flows)
                if self._accept(fm, deals, ops, score, "decomposition"):
                    better = True
                    self.hint = dict(cand.values)  # the flows; the seats' values when ``joint`` runs
                    self.pending = [(fm, q, sched, finals[q]) for q, sched in enumerate(cand.scheds)]
        return better

    def search_plans(self, until: float, seed: int = 0) -> None:
        """Plans around the best one (a large neighbourhood search over the master's flows): free
        one neighbourhood of the best plan's flows (a turn, a partner, a bean, two turns in a row),
        fix the others, and ask the master with the cuts so far for schedules worth more than the
        best plan; the seats are solved exactly on them (``_evaluate``), which adds cuts, and
        the same neighbourhood is asked again until it has none. Neighbourhoods in a seeded order,
        each sub-solve within ``NEIGHBOURHOOD_WORK``: with a work limit, the same run twice."""
        if self.best is None:
            return
        if not self.hint:  # the best plan is the no-trade one: every trade 0, the fronts free
            self._master()
            self.hint = {n: 0 for _, n in self.named if _is_flow(n) and not n.startswith("front")}
        rng = random.Random(seed)
        tried = improved = 0
        start = time.perf_counter()
        try:
            while not self.interrupted and self.clock.fraction() < until:
                if self.bound is not None and self.best.value >= self.bound:
                    break
                hoods = _neighbourhoods(self.hint)
                rng.shuffle(hoods)
                moved = False
                for free in hoods:
                    if self.interrupted or self.clock.fraction() >= until:
                        break
                    if self.bound is not None and self.best.value >= self.bound:
                        break
                    tried += 1
                    if self._search_one(free, until):
                        improved += 1
                        moved = True
                        break  # new best plan: new neighbourhoods around it
                if not moved:
                    break  # every neighbourhood of the best plan tried: none better
        finally:
            for key, got in (("plan_search_neighbourhoods", tried), ("plan_search_improved", improved),
                             ("plan_search_seconds", time.perf_counter() - start)):
                self.stages[key] = self.stages.get(key, 0) + got  # (a run may search more than once)

    def take_turns(self, turns: tuple[tuple[str, float], ...]) -> None:
        """The joint model and the rounds in turn (``BEST_TURNS``: each to its fraction of what is
        left of the run), until the plan meets the bound. The joint model starts each turn afresh
        from the best plan; the rounds go on from their cuts."""
        assert self.best is not None
        for what, share in turns:
            if self.interrupted or (self.bound is not None and self.best.value >= self.bound):
                return
            now = self.clock.fraction()
            until = now + (1 - now) * share
            if what == "joint":
                self.joint(until)
            else:
                self.decompose(until)

    def _search_one(self, free: Callable[[str], bool], until: float) -> bool:
        """One neighbourhood (``free``: which flow variables, by name, may change): True if it
        gave a better plan."""
        assert self.best is not None
        fixed = dict(self.hint)
        for _ in range(NEIGHBOURHOOD_ROUNDS):
            fm, obj = self._master()
            for var, name in self.named:
                if name in fixed and _is_flow(name) and not free(name):
                    fm.m.add(var == fixed[name])
            fm.m.add(obj >= self.best.value + 1)
            if self.bound is not None:
                fm.m.add(obj <= self.bound)
            _hint(fm.m, fixed, self.named)
            fm.m.maximize(obj)
            harvest = _Harvest(fm, HARVEST, self.named)
            solver, status = self._solve(fm.m, until, callback=solution_callback(harvest.on_solution),
                                         most=NEIGHBOURHOOD_WORK)
            if not harvest.found:
                return False  # none worth more here (infeasible), or none found in the time
            known = len(self.cuts)
            if self._evaluate(fm, harvest.found, until):
                return True
            if len(self.cuts) == known:
                return False  # no new cut: the same schedules again
        return False

    def _seat(self, q: int, sched: Any) -> tuple[int | None, int, list[Op]]:
        """Seat q's exact fields on a schedule (``cuts.solve_schedule``), counted in the stats."""
        got = solve_schedule(self.s, q, sched)
        self.seat_counts["exact" if got[0] is not None else "guard"] += 1
        return got

    def _seat_model(self, fm: FlowMaster, q: int, sched: Any) -> tuple[cp_model.CpModel, SeatPlan]:
        """The CP-SAT seat model on a schedule, named as in the joint model: every batch and bean
        of the joint model's seat, those without cards too."""
        want = {(k, kind): dict(c) for k, kind, c in sched}
        batches = []
        for bt in fm.batches[q]:
            counts = {b: want.get((bt.turn, bt.kind), {}).get(b, 0) for b in bt.counts}
            batches.append(Batch(bt.turn, bt.kind, counts, sum(counts.values())))
        m = cp_model.CpModel()
        return m, SeatPlan(m, self.s, q, batches, set(fm.beans))

    def _cpsat(self, m: cp_model.CpModel, until: float, most: float | None = None
               ) -> tuple[cp_model.CpSolver, Any]:
        """A plain CP-SAT solve (the seat and search models), within the run's limits."""
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers
        self.clock.limit(solver, until, most)
        status = self.stop.solve(solver, m)
        self.clock.charge(solver)
        return solver, status

    def _seat_hint(self, fm: FlowMaster, q: int, sched: Any, value: int, until: float) -> None:
        """The joint model needs a complete hint (a partial one left it without any plan in 40 s
        on a real cut): for a seat solved exactly, the CP-SAT seat model's values at its
        optimum, a feasibility search with the value known."""
        if (q, sched) in self.seat_values or self.s.setup.strict_harvest:
            return  # (the joint model, which the hint is for, reads H4 leniently: not run then)
        m, sp = self._seat_model(fm, q, sched)
        m.add(sp.final == value)
        solver, status = self._cpsat(m, until, most=2.0)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            self.seat_values[(q, sched)] = _solution(m, solver)

    def complete_hint(self, until: float) -> None:
        """The best plan's seat variables added to its hint (``_seat_hint``), for the joint
        model: made only when it runs, not for every plan the rounds and the plan search pass
        through (up to 2 s a seat; 6.7 of a 60 s run on the whole final pass)."""
        for fm, q, sched, value in self.pending:
            self._seat_hint(fm, q, sched, value, until)
            self.hint.update(self.seat_values.get((q, sched), {}))
        self.pending = []

    def _joint_model(self) -> tuple[FlowMaster, list[SeatPlan], Any]:
        """The master's flows with every seat's exact fields: (model, seats, objective)."""
        fm = FlowMaster(self.s, capacity=self.capacity)
        beans = set(fm.beans)
        seats = [SeatPlan(fm.m, self.s, q, fm.batches[q], beans) for q in range(fm.n)]
        for sp, r in zip(seats, fm.relaxed, strict=True):
            fm.m.add(sp.final <= r)  # redundant: the relaxation's per-bean cuts reach the LP
        return fm, seats, _objective(fm, [sp.final for sp in seats], self.objective, self.p, self.floors)

    def above(self, until: float) -> None:
        """Is there a plan worth more than the best one? The joint model with ``objective >= best
        + 1`` and no objective, searched without the LP: "infeasible" proves the best plan
        optimal, a solution is a better plan. On hand-8 cuts this proves in 2-7 s what the
        optimising joint model leaves open after 20 s (the LP only repeats the master's bound)."""
        assert self.best is not None
        fm, seats, obj = self._joint_model()
        fm.m.add(obj >= self.best.value + 1)
        if self.bound is not None:
            fm.m.add(obj <= self.bound)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers
        solver.parameters.linearization_level = 0
        self.clock.limit(solver, until)
        status = self.stop.solve(solver, fm.m)
        self.clock.charge(solver)
        self.stages["above_status"] = solver.status_name(status).lower()
        if status == cp_model.INFEASIBLE:
            self.bound = self.best.value  # nothing better exists: proved
            self._report()
        elif status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            value = _reader(solver)
            deals = _identities(fm, _fronts(fm, value), _read_flows(fm, value))
            if self._accept(fm, deals, [sp.ops(solver) for sp in seats], int(solver.value(obj)), "joint"):
                self.hint, self.pending = _solution(fm.m, solver), []

    def joint(self, until: float) -> None:
        """The exact joint model (the master's flows with every seat's exact fields), warm-started
        from the best plan's values when the decomposition made it, else asked for a better plan
        than the one in hand; at most the proved bound either way."""
        self.complete_hint(until)
        fm, seats, obj = self._joint_model()
        if self.best is not None and not self.hint:
            fm.m.add(obj >= self.best.value + 1)
        if self.bound is not None:
            fm.m.add(obj <= self.bound)
        _hint(fm.m, self.hint)  # the best plan so far, complete: the search improves on it
        fm.m.maximize(obj)
        solver, status = self._solve(fm.m, until, lns=True)
        self.stages["joint_status"] = solver.status_name(status).lower()
        if status == cp_model.INFEASIBLE:
            if self.best is not None and not self.hint:
                self.bound = self.best.value  # nothing better exists: proved
            return
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if self.best is not None and self.bound is not None:
                jb = int(solver.best_objective_bound + 1e-6)
                if self.hint and jb < self.best.value:
                    return  # the best plan is in this model: a bound below it cannot be one
                self.bound = max(self.best.value, min(self.bound, jb))
            return
        value = _reader(solver)
        deals = _identities(fm, _fronts(fm, value), _read_flows(fm, value))
        claimed = round(solver.objective_value)  # a double: 6.999... is 7
        if self._accept(fm, deals, [sp.ops(solver) for sp in seats], claimed, "joint"):
            self.hint, self.pending = _solution(fm.m, solver), []
        jb = claimed if status == cp_model.OPTIMAL else int(solver.best_objective_bound + 1e-6)
        if self.best is not None and jb < self.best.value:
            if self.hint or status == cp_model.OPTIMAL:
                raise SolveError(f"internal error: the joint model's bound {jb} is below a replayed "
                                 f"plan worth {self.best.value}")
            jb = self.best.value  # asked for more than the best plan: none, up to this bound
        self.bound = jb if self.bound is None else min(self.bound, jb)


def no_trade_line(s: GameState, budget: Budget | None = None) -> tuple[list[Action], GameState]:
    """The line where nobody trades and every seat plays its own solo optimum (exact search per
    seat: without trades no seat's choices change another's cards), with the final state; the
    searches within ``budget``'s time limit (None: no limit)."""
    searches = [SoloSearch(q, budget=budget.same_clock(f"p{q}'s solo search") if budget else None)
                for q in range(len(s.players))]
    line: list[Action] = []
    while s.phase != Phase.OVER:
        q = s.to_move
        search = searches[q]
        target = search.value(s)
        a = next(a for a in search.choices(s) if search.value(apply(s, a, check=False)) == target)
        line.append(a)
        s = apply(s, a)  # checked
    return line, s


def solve_flow(s: GameState, objective: Objective, player: int | None = None,
               limits: Limits = DEFAULT_LIMITS, floors: list[int] | None = None, tick: Tick | None = None,
               capacity: bool | None = None) -> Solution:
    """``coop`` or ``best`` by the counts master and exact seats (module docstring), within
    ``limits``: seconds, CP-SAT workers and work (deterministic seconds for the whole run; with
    one worker the same answer on every machine when it binds first). Status "optimal" only when
    the plan's value meets a proved bound; else "feasible" with the bound.

    ``capacity`` adds the master's capacity cuts (FlowMaster._carry); by default
    (``capacity_default``) on for ``best``, where they close gaps the plain master leaves, and on
    ``coop`` with at most 3 turns left, where with the H4 cap they close them too; on longer
    ``coop`` runs the master's first solve with them is too slow (docs/lab-notes.md, "The flow
    solver's record to stop 66")."""
    goal = objective
    if not goal.trades:
        raise SolveError(f"objective {objective.name!r}: the flow solver solves coop and best")
    p = open_player(s, objective, player)
    su = s.setup
    if su.rules.distinct_fields or su.rules.field_beans:
        raise SolveError("the flow solver does not cover V2 (distinct fields) or V5 (field beans) yet")
    if capacity is None:
        capacity = capacity_default(s, goal.floors)
    time_limit, workers, work_limit = limits.time, limits.workers, limits.work
    run_clock = Budget("the flow solver", None, time_limit, work_limit=work_limit)
    clock = run_clock.same_clock("the flow solver's solo searches")  # no time past the limit
    if goal.floors and floors is None:
        floors = [solve_solo(s, q, budget=clock.same_clock(f"p{q}'s floor")).value
                  for q in range(len(s.players))]

    with interruptible() as stop:  # Ctrl-C ends the run, keeping its best plan and bound
        run = FlowSolver(s, objective, p, floors, workers, tick, stop, run_clock, capacity)
        try:
            line, end = no_trade_line(s, clock)  # a plan at once: every seat its own solo optimum
            coins = [len(q.coins) for q in end.players]
            got = run._score(coins)
            assert got is not None  # every seat ends with exactly its solo optimum
            run.best = _Found(got, line, coins)
            run._report()  # the no-trade plan and the beanometer's bound, before any solve
            now = run_clock.fraction()
            if su.strict_harvest:  # the seat search alone knows H4's strict reading: all of the run
                run.decompose(0.5)
                run.search_plans(1.0)
            else:
                for soft, search in BEST_STAGES if goal.floors else STAGES:  # rounds, then plan search
                    run.decompose(now + (1 - now) * DECOMPOSE_UNTIL, soft=now + (1 - now) * soft)
                    run.search_plans(now + (1 - now) * (WEAK_SEARCH_UNTIL if run.weak else search))
                if goal.floors and not run.weak:
                    run.take_turns(BEST_TURNS)
            while (not su.strict_harvest and not run.interrupted and run_clock.fraction() < 0.999
                   and run.best is not None and (run.bound is None or run.best.value < run.bound)):
                before = (run.best.value, run.bound)
                now = run_clock.fraction()
                run.joint(now + (1 - now) * JOINT_SHARE)  # improves the plan (warm-started), or proves it
                if run.bound is not None and run.best.value >= run.bound:
                    break
                stop.check()
                run.above(1.0)  # a better plan, or the proof there is none
                if (run.best.value, run.bound) == before:
                    break
        except KeyboardInterrupt:  # between or before the searches: no further phase starts
            if run.best is None:
                raise
    if run.best is None:
        raise SolveError(f"no plan found within {time_limit:g} s")
    if run.upper < run.best.value:  # the beanometer's bound holds too (solvers/bounds.py)
        raise SolveError(f"internal error: a plan worth {run.best.value} beats the beanometer "
                         f"bound {run.upper}")
    run.bound = run.proved_bound()  # the beanometer's alone when no master solve ended
    status = Status.OPTIMAL if run.bound is not None and run.best.value >= run.bound else Status.FEASIBLE
    stopped = ("proved" if status == Status.OPTIMAL else "interrupted" if run.interrupted
               else run_clock.stopped_by())
    stats = SolveStats("flow", run_clock.elapsed(), work=round(run_clock.work, 3), capacity=capacity,
                       work_limit=work_limit, stopped_by=stopped, bound=run.bound,
                       interrupted=run.interrupted, stages=run.stages, floors=floors)
    return Solution(objective, p, run.best.value, run.best.line, run.best.coins, status=status,
                    stats=stats)


@calls(solve_flow)
def solve(s: GameState, objective: Objective, player: int | None, limits: Limits,
          progress: ProgressFn | None) -> Solution:
    """``solve_flow`` behind the one solver signature (``solvers.contract.Solver``; coop, best)."""
    with reporting(progress, limits.time, f"flow solver {objective.name}") as tick:
        return solve_flow(s, objective, player, limits, tick=tick)
