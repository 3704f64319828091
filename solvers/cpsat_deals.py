"""CP-SAT models of ``coop`` and ``best P``: every seat plants, trades and harvests (T1-T7).

Written from the rules, not from the engine's code; the engine only reads the timeline and
replays the answer. In the final pass nothing anyone decides changes which cards enter play when:
each turn turns up a known number of known cards (T2) and deals a known number to known seats
(T7, V4), so the timeline (active seat, face-up cards, draws per turn; solvers/timeline.py, with
the hand cards by identity and the deals) is fixed. What the seats decide is where each card goes:

- a hand card (known by identity: the seat's hand now, then its draws in order) is planted from
  the front in its owner's phase 1 (T1, H1: the plantings are the first one or two cards still in
  hand, the first forced while the hand holds a card), or traded once in a turn where its owner
  or the partner is active (T3), or stays in hand (E3: it scores nothing);
- a face-up card goes to the active seat (T5) or, by a deal, to another seat (T3);
- traded and face-up cards are set aside and planted by their receiver in that turn's phase 3,
  in an order the receiver picks (T4, T6), never traded again.

Deals: every deal has the active seat on one side (T3). Deals with one partner in one turn add up
to what that partner and the active seat exchange, so the model chooses the exchange and counts
the deals it needs: ``max_deal_cards`` cards a side per deal, ``max_offers`` proposals a turn (the
same space the engine's ``legal_actions`` and the exact search enumerate). Declined offers change
nothing and are never made.

Placements, harvest batches and purchases are solvers/cpsat_fields.py's (H3-H5, F1, E3).
"""

from __future__ import annotations

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
from solvers import cpsat  # cpsat.solve_solo_cpsat looked up at the call (tests patch it)
from solvers.bounds import gain_table, hull
from solvers.contract import DEFAULT_LIMITS, Limits, Objective, Solution, SolveError, Status, calls
from solvers.cpsat_fields import Event, Seat, Step, read_step
from solvers.cpsat_lazy import cp_model
from solvers.cpsat_run import Interrupt, Run, interruptible, reporting, run_model
from solvers.exact import OpenSearch, open_player
from solvers.timeline import (
    Card,
    Deal,
    TurnPlan,
    deal_proposals,
    hand_cards,
    play_deal,
    timeline,
    track_draws,
)


@dataclass
class Plan:
    phase1: list[list[Step]]  # per turn, the active seat's plantings
    deals: list[list[Deal]]  # per turn
    phase3: list[dict[int, list[Step]]]  # per turn, per seat, the set-aside plantings


class DealsModel:
    """The model of the rest of the game with every seat's decisions and every allowed deal."""

    def __init__(self, s: GameState) -> None:
        su = s.setup
        if not (s.phase == Phase.PLANT and s.planted == 0) or any(pl.aside for pl in s.players):
            raise SolveError("the CP-SAT coop/best model starts at the start of a turn "
                             "(phase 1, nothing planted)")
        if su.strict_harvest or su.rules.distinct_fields or su.rules.field_beans:
            raise SolveError("the CP-SAT coop/best model covers H4's lenient reading without V2/V5 so far")
        self.s = s
        n = len(s.players)
        self.turns = timeline(s)
        self.cards = hand_cards(s, self.turns)
        m = self.model = cp_model.CpModel()
        in_play = {c.bean for cs in self.cards for c in cs} | {b for tn in self.turns for b in tn.face_up}
        self.seats = [Seat(m, s.players[q], su, f"p{q}", in_play) for q in range(n)]
        k_cards, offers = su.rules.max_deal_cards, su.rules.max_offers
        # uses[card] = {(turn, kind, seat): literal}: kind "plant" (phase 1) or "give" (to seat)
        self.uses: dict[Card, dict[tuple[int, str, int], cp_model.IntVar]] = {}
        for q in range(n):
            for c in self.cards[q]:
                lits: dict[tuple[int, str, int], cp_model.IntVar] = {}
                for k, turn in enumerate(self.turns):
                    if k < c.since:
                        continue
                    a = turn.active
                    if q == a:
                        lits[(k, "plant", q)] = m.new_bool_var(f"c{q}_{c.index}_t{k}_plant")
                        partners = [r for r in range(n) if r != q] if k_cards and offers else []
                    else:
                        partners = [a] if k_cards and offers else []
                    for r in partners:
                        lits[(k, "give", r)] = m.new_bool_var(f"c{q}_{c.index}_t{k}_to{r}")
                m.add(sum(lits.values()) <= 1)  # a card leaves the hand once (T4: never traded again)
                self.uses[c] = lits
        self.up_to: list[list[dict[int, cp_model.IntVar]]] = []  # per turn, per face-up card: seat -> lit
        self.phase1_events: list[list[Event]] = []
        self.phase3_events: list[dict[int, list[Event]]] = []
        self.planted: list[list[tuple[int, cp_model.IntVar]]] = [[] for _ in range(n)]  # (bean, lit)
        for k, turn in enumerate(self.turns):
            self._turn(k, turn, k_cards, offers)
        self._order_identical_cards()

    def _order_identical_cards(self) -> None:
        """Symmetry: after a seat's last phase 1 its hand order no longer matters (H1 only
        decides what phase 1 plants), so two cards of one bean are interchangeable from then on:
        the later one is traded only once the earlier one has left the hand."""
        m = self.model
        for q, cards in enumerate(self.cards):
            own = [k for k, turn in enumerate(self.turns) if turn.active == q]
            last = own[-1] if own else 0
            by_bean: dict[int, list[Card]] = {}
            for c in cards:
                by_bean.setdefault(c.bean, []).append(c)
            for same in by_bean.values():
                for c, d in zip(same, same[1:], strict=False):
                    start = max(last, d.since)
                    for k in range(start, len(self.turns)):
                        later = [lit for (t, kind, _), lit in self.uses[d].items()
                                 if kind == "give" and start <= t <= k]
                        earlier = [lit for (t, _, _), lit in self.uses[c].items() if t <= k]
                        if later:
                            m.add(sum(later) <= sum(earlier))

    def remaining(self, c: Card, k: int) -> cp_model.LinearExpr:
        """1 if card ``c`` is still in its owner's hand at the start of turn ``k``."""
        return 1 - cp_model.LinearExpr.sum([lit for (t, _, _), lit in self.uses[c].items() if t < k])

    def _turn(self, k: int, turn: TurnPlan, k_cards: int, offers: int) -> None:
        m, n, a = self.model, len(self.seats), turn.active
        # phase 1 (T1, H1): the plantings are the first one or two cards still in hand
        hand = [c for c in self.cards[a] if c.since <= k]
        plant = [self.uses[c][(k, "plant", a)] for c in hand]
        self.planted[a] += [(c.bean, lit) for c, lit in zip(hand, plant, strict=True)]
        planted = sum(plant)
        m.add(planted <= 2)
        first = [m.new_bool_var(f"t{k}_first{i}") for i in range(len(hand))]
        for i, c in enumerate(hand):
            m.add(planted >= self.remaining(c, k))  # the first planting is forced (T1)
            m.add_implication(first[i], plant[i])
            for j in range(i):
                # H1: a later card is planted only if every earlier card still in hand is too
                m.add(plant[i] + self.remaining(hand[j], k) - plant[j] <= 1)
                m.add_implication(first[i], plant[j].negated())
        h1, h2 = m.new_bool_var(f"t{k}_one"), m.new_bool_var(f"t{k}_two")
        m.add(h1 + h2 == planted)
        m.add_implication(h2, h1)
        m.add(sum(first) == h1)
        card1 = sum(c.bean * f for c, f in zip(hand, first, strict=True))
        card2 = sum(c.bean * (p - f) for c, p, f in zip(hand, plant, first, strict=True))
        seat = self.seats[a]
        self.phase1_events.append([seat.place(f"t{k}_p0", card1, h1), seat.place(f"t{k}_p1", card2, h2)])
        # phase 2 (T2-T5): each face-up card goes to one seat; deals counted per partner
        ups: list[dict[int, cp_model.IntVar]] = []
        for u in range(len(turn.face_up)):
            to = {r: m.new_bool_var(f"t{k}_up{u}_to{r}") for r in range(n) if r == a or (k_cards and offers)}
            m.add_exactly_one(to.values())
            ups.append(to)
        self.up_to.append(ups)
        received: dict[int, list[tuple[int, cp_model.IntVar]]] = {r: [] for r in range(n)}  # (bean, lit)
        for u, b in enumerate(turn.face_up):
            for r, lit in ups[u].items():
                received[r].append((b, lit))
        deals = []
        for r in range(n):
            if r == a or not (k_cards and offers):
                continue
            out = [lit for lit in (self.uses[c].get((k, "give", r)) for c in hand) if lit is not None]
            out += [ups[u][r] for u in range(len(ups))]
            back = [(c, self.uses[c].get((k, "give", a))) for c in self.cards[r] if c.since <= k]
            back_lits = [lit for _, lit in back if lit is not None]
            d = m.new_int_var(0, offers, f"t{k}_deals{r}")
            m.add(k_cards * d >= sum(out))
            m.add(k_cards * d >= sum(back_lits))
            deals.append(d)
            for c in hand:
                give = self.uses[c].get((k, "give", r))
                if give is not None:
                    received[r].append((c.bean, give))
            for c, lit_back in back:
                if lit_back is not None:
                    received[a].append((c.bean, lit_back))
        if deals:
            m.add(sum(deals) <= offers - (self.s.offers if k == 0 else 0))
        # phase 3 (T6): each seat plants what it received, in an order it picks
        events: dict[int, list[Event]] = {}
        for r in range(n):
            self.planted[r] += received[r]
            if received[r]:
                cap = k_cards * offers + (len(turn.face_up) if r == a else 0)
                events[r] = self._plant_aside(k, r, received[r], min(cap, len(received[r])))
        self.phase3_events.append(events)

    def _plant_aside(self, k: int, r: int, received: list[tuple[int, cp_model.IntVar]],
                     slots: int) -> list[Event]:
        """Slots in planting order (T6); slot j holds one bean or nothing (the empty ones last);
        per bean, as many slots as cards of it received. ``slots``: the most cards seat ``r`` can
        receive this turn (the face-up cards, plus ``max_deal_cards`` a deal)."""
        m = self.model
        beans = sorted({b for b, _ in received})
        used = []
        events: list[Event] = []
        prev: cp_model.IntVar | None = None
        for j in range(slots):
            lits = {b: m.new_bool_var(f"t{k}_p{r}_s{j}_{b}") for b in beans}
            on = m.new_bool_var(f"t{k}_p{r}_s{j}_on")
            m.add(sum(lits.values()) == on)
            if prev is not None:
                m.add_implication(on, prev)
            prev = on
            used.append(lits)
            card = sum(b * lit for b, lit in lits.items())
            ev = self.seats[r].place(f"t{k}_s{j}", card, on)
            if events:
                # set-aside cards go down in any order (T6): between harvests, plantings on
                # different fields commute, so after the first they go in field order
                before = events[-1]
                m.add(sum(f * x for f, x in enumerate(before.x)) <= sum(f * x for f, x in enumerate(ev.x))
                      ).only_enforce_if([on, ev.quiet, before.quiet])
            events.append(ev)
        for b in beans:
            m.add(sum(u[b] for u in used) == sum(lit for bb, lit in received if bb == b))
        return events

    def read(self, solver: cp_model.CpSolver) -> Plan:
        n = len(self.seats)
        plan = Plan([], [], [])
        for k, turn in enumerate(self.turns):
            a = turn.active
            plan.phase1.append([read_step(solver, ev) for ev in self.phase1_events[k]])
            deals = []
            for r in range(n):
                if r == a:
                    continue
                give = [c for c in self.cards[a] if (lit := self.uses[c].get((k, "give", r))) is not None
                        and solver.value(lit)]
                back = [c for c in self.cards[r] if (lit := self.uses[c].get((k, "give", a))) is not None
                        and solver.value(lit)]
                up = [turn.face_up[u] for u, to in enumerate(self.up_to[k])
                      if r in to and solver.value(to[r])]
                if give or back or up:
                    deals.append(Deal(r, give, up, back))
            plan.deals.append(deals)
            steps = {r: [read_step(solver, ev) for ev in evs] for r, evs in self.phase3_events[k].items()}
            plan.phase3.append({r: [st for st in sts if st.field is not None] for r, sts in steps.items()})
        return plan


def solve_deals_cpsat(s: GameState, objective: Objective, player: int | None = None,
                      limits: Limits = DEFAULT_LIMITS, floors: list[int] | None = None,
                      tick: Callable[[float, float, float], None] | None = None) -> Solution:
    """``coop`` or ``best`` by CP-SAT within ``limits.time`` seconds on ``limits.workers`` workers;
    ``best`` first computes every other seat's ``solo`` optimum (CP-SAT too) unless ``floors`` are
    given. The line is replayed through the engine.

    One Ctrl-C ends the run (cpsat_run.interruptible): during the main search, its best plan
    (status "feasible", interrupted); during the search without trades, that plan; before any
    plan (the floors, the models), KeyboardInterrupt."""
    goal = objective
    if not goal.trades:
        raise SolveError(f"objective {objective.name!r}: this model solves coop and best")
    p = open_player(s, objective, player)
    time_limit, workers = limits.time, limits.workers
    t0 = time.perf_counter()
    with interruptible() as stop:
        if goal.floors and floors is None:
            floors = _floors(s, time_limit, workers, stop)
        dm = DealsModel(s)
        m = dm.model
        finals: list[Any] = [seat.final() for seat in dm.seats]  # CP-SAT expressions, as coins
        if goal.floors:
            assert floors is not None
            for q, v in enumerate(finals):
                if q != p:
                    m.add(v >= floors[q])  # no one accepts less than their own solo optimum
        m.maximize(goal.value(finals, p))
        _bean_bounds(dm, finals)
        start = time.perf_counter()
        fallback = _no_trade_plan(dm, time_limit * 0.3, workers, stop)
        try:
            if fallback is not None:
                _hint(m, fallback)
            left = max(time_limit - (time.perf_counter() - start), 0.1)
            run = run_model(m, left, workers, tick, bound_only=fallback is not None)
        except KeyboardInterrupt:
            if fallback is None:
                raise
            run = Run(fallback, "none", 0, True)  # stopped before the main search had a plan
    bound: float | None = run.solver.best_objective_bound if run.solver is not fallback else None
    if run.status == "none":  # no plan with trades in time: the one without is the answer so far
        assert fallback is not None
        run = Run(fallback, Status.FEASIBLE, 1, run.interrupted)
        if bound is not None and bound < run.solver.objective_value:
            bound = None  # stopped before the search proved any bound
    solver = run.solver
    value = round(solver.objective_value)  # a double: 6.999... is 7
    line, end = replay(s, dm, dm.read(solver))
    coins = [len(q.coins) for q in end.players]
    got = goal.value(coins, p)
    if got != value:
        raise SolveError(f"the CP-SAT plan replays to {got}, not its value {value}")
    stats = run.stats(t0)
    if bound is not None:  # never above the beanometer's bound (a search stopped early reports
        # its variables' domains, e.g. 600 coins)
        bound = min(int(bound), OpenSearch(objective, p).upper(s))
    stats.bound = bound  # the full model's (a fallback plan's own bound assumed no trades)
    stats.floors = floors
    return Solution(objective, p, value, line, coins, status=Status(run.status), stats=stats)


def _bean_bounds(dm: DealsModel, finals: list[cp_model.IntVar]) -> None:
    """Redundant cuts for the LP relaxation: a seat ends with at most its coins plus, per bean,
    the concave majorant of ``_gain_table`` at the number of cards of that bean it plants."""
    m = dm.model
    su = dm.s.setup
    for q, (v, pl) in enumerate(zip(finals, dm.s.players, strict=True)):
        per_bean: dict[int, list[cp_model.IntVar]] = {}
        for b, lit in dm.planted[q]:
            per_bean.setdefault(b, []).append(lit)
        for f in pl.fields:
            if f.count:
                per_bean.setdefault(f.bean, [])
        terms = []
        for b, lits in per_bean.items():
            mine = [f.count for f in pl.fields if f.count and f.bean == b]
            table = gain_table(su.payout[b], mine, len(lits))
            z = m.new_int_var(0, max(table), f"ub_p{q}_{b}")
            for slope, icpt in hull(table):
                den = slope.denominator * icpt.denominator
                m.add(den * z <= int(slope * den) * sum(lits) + int(icpt * den))
            terms.append(z)
        m.add(v <= len(pl.coins) + sum(terms))


def _floors(s: GameState, time_limit: float, workers: int, stop: Interrupt) -> list[int]:
    """Every seat's proved ``solo`` optimum by CP-SAT (``best``'s floors); KeyboardInterrupt
    when Ctrl-C stops one before its proof (no later one starts)."""
    floors = []
    for q in range(len(s.players)):
        sol = cpsat.solve_solo_cpsat(s, q, Limits(time_limit, workers=workers))
        if sol.status != Status.OPTIMAL:
            stop.check()
            raise SolveError(f"p{q}'s solo optimum was not proved within {time_limit} s: best needs it")
        floors.append(sol.value)
    return floors


def _no_trade_plan(dm: DealsModel, time_limit: float, workers: int, stop: Interrupt
                   ) -> cp_model.CpSolver | None:
    """The best plan without trades (each seat's own best, a legal start that ``best``'s floors
    also allow), found by the same model with every trade fixed off: the solver holding it, or
    None when none was found in time. Its plan is the fallback answer and the main search's hint."""
    m = dm.model
    off = [lit for lits in dm.uses.values() for (_, kind, _), lit in lits.items() if kind == "give"]
    off += [lit for k, ups in enumerate(dm.up_to) for to in ups for r, lit in to.items()
            if r != dm.turns[k].active]
    m.add_assumptions([lit.negated() for lit in off])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    try:
        status = stop.solve(solver, m)
    finally:
        m.clear_assumptions()
    return solver if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None


def _hint(m: cp_model.CpModel, solver: cp_model.CpSolver) -> None:
    """Hint every variable with the solver's solution: the search then improves on it."""
    for i in range(len(m.proto.variables)):
        v = m.get_int_var_from_proto_index(i)
        m.add_hint(v, solver.value(v))


def replay(s: GameState, dm: DealsModel, plan: Plan) -> tuple[list[Action], GameState]:
    """Play the plan through the engine, checked; hand cards are followed by identity (H1)."""
    k_cards = s.setup.rules.max_deal_cards
    n = len(s.players)
    ids: list[list[Card]] = [list(dm.cards[q][:len(s.players[q].hand)]) for q in range(n)]
    arrivals = [iter(dm.cards[q][len(s.players[q].hand):]) for q in range(n)]
    line: list[Action] = []
    t0 = s.turn
    queue: list[Action] = []
    steps: list[Step] = []
    stage: tuple[int, int, int] | None = None  # (turn, phase, seat) the step list belongs to

    def act(a: Action) -> None:
        nonlocal s
        before = s
        s = apply(s, a)  # checked: the line must be legal
        line.append(a)
        track_draws(before, s, ids, arrivals)
        for q in range(n):
            if [c.bean for c in ids[q]] != list(s.players[q].hand):
                raise SolveError(f"internal error: the replay lost track of p{q}'s hand after {a}")

    while s.phase != Phase.OVER:
        k = s.turn - t0
        a_seat = s.active
        if s.phase == Phase.TRADE:
            if stage != (k, 2, a_seat):
                stage = (k, 2, a_seat)
                queue = deal_proposals(plan.deals[k], k_cards, a_seat, ids, s)
            if not queue:
                act(EndPhase(a_seat))
                continue
            prop = queue.pop(0)
            assert isinstance(prop, Propose)
            play_deal(prop, plan.deals[k], ids, act)
            continue
        p = s.to_move
        if stage != (k, s.phase, p):
            stage = (k, s.phase, p)
            steps = [Step(list(st.harvest), st.buy, st.field, st.card) for st in
                     (plan.phase1[k] if s.phase == Phase.PLANT else plan.phase3[k].get(p, []))
                     if st.field is not None]
        if not steps:
            act(EndPhase(p))  # phase 1: no second planting
            continue
        st = steps[0]
        if st.harvest:
            fields = s.players[p].fields  # the fuller fields first: H4 lets a single go only then
            f = max(st.harvest, key=lambda g: fields[g].count)
            st.harvest.remove(f)
            act(Harvest(p, f))
        elif st.buy:
            st.buy = False
            act(BuyField(p))
        else:
            assert st.field is not None
            steps.pop(0)
            if s.phase == Phase.PLANT:
                front = ids[p].pop(0)
                act(Plant(p, st.field))
                if front.bean != st.card:
                    raise SolveError(f"internal error: the model planted {st.card}, "
                                     f"the hand front is {front.bean}")
            else:
                act(PlantAside(p, st.card, st.field))
    return line, s


@calls(solve_deals_cpsat)
def solve(s: GameState, objective: Objective, player: int | None, limits: Limits,
          progress: ProgressFn | None) -> Solution:
    """``solve_deals_cpsat`` behind the one solver signature (``solvers.contract.Solver``)."""
    with reporting(progress, limits.time, f"CP-SAT {objective.name}") as tick:
        return solve_deals_cpsat(s, objective, player, limits, tick=tick)
