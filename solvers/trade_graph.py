"""The trade graph of a position: every deal the rules allow now, valued for both sides (T3-T5).

A deal is the active player's proposal and the partner's acceptance as one move (``exact.deals``:
the active player gives hand cards and face-up cards, the partner gives hand cards, at most
``max_cards`` a side, gifts included; never two non-active players, never a received card, T3-T4).
A seat's *value* is its ``solo`` optimum (no more trades; solvers/exact.py) or, with
``value=EXPECTED``, its ``expected solo`` value over the cards it cannot see (solvers/expected.py).
A deal's *gain* for a seat is its value after the deal minus its value now. Only the two sides'
values change: without trades a seat's future depends on its own zones alone.

What is reported:
- ``pareto``: deals that leave neither side worse off and one side better off;
- ``best_for_active``: the deal with the largest gain for the active player among those its partner
  accepts (the partner's gain is not negative), if one gains anything;
- ``best_matching``: the set of pairwise compatible deals (no card used twice, at most the offers
  left this turn) with the largest total gain, over the deals both sides accept. Deals that a
  smaller deal with at least the same total gain dominates (a subset of its cards) are left out
  first, which keeps the optimum. The set is found with networkx ``max_weight_clique`` on the
  complement of the conflict graph (two deals conflict when they use the same card); above
  ``CLIQUE_LIMIT`` candidates, or when the clique uses more deals than offers remain, by a CP-SAT
  set-packing model. It is then applied to the position deal by deal and re-solved: the realised
  gains are reported next to the sum of the deals' gains (gains need not add up).

Memoisation: a seat's value after a deal depends only on that seat's new hand (its first
``hand_reach`` cards), set-aside cards and, for the active player, the face-up cards; values are
cached under that key, and one ``SoloSearch`` per seat keeps its table across all deals.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from math import inf, lcm
from typing import Any

from console.progress import ProgressFn
from model import Accept, Action, GameState, Phase, Propose, apply
from model.cards import BEAN_NAMES
from model.errors import ArgumentError
from model.rules import setup
from solvers.contract import (
    EXPECTED,
    SOLO,
    Budget,
    Limits,
    Objective,
    SolveError,
    TimeLimitExceeded,
    base_game_only,
)
from solvers.cpsat_run import interruptible
from solvers.exact import SoloSearch, deals, default_policy, hand_reach, open_seat
from solvers.expected import check_expected, solve_expected

CLIQUE_LIMIT = 60  # candidates above which the best matching is found by CP-SAT (the clique search
# takes about 17 s on 180 candidates, CP-SAT a fraction of a second)
VALUES = (SOLO, EXPECTED)  # what a seat's value can be: its solo optimum or its expected solo value
PACKING_SECONDS = 60.0  # CP-SAT's limit on the set packing: not proved best by then is an error
Value = int | Fraction


@dataclass(frozen=True)
class Deal:
    """One legal deal from the position: ``propose`` then ``accept``."""

    id: int
    propose: Propose
    accept: Accept
    give: tuple[int, ...]  # beans the active player gives (hand cards, then face-up cards)
    take: tuple[int, ...]  # beans the partner gives
    gain_active: Value
    gain_partner: Value

    @property
    def active(self) -> int:
        return self.propose.player

    @property
    def partner(self) -> int:
        return self.propose.partner

    @property
    def cards(self) -> frozenset[tuple[str, int, int]]:
        """The cards it uses: ("h", seat, hand position) and ("u", -1, face-up index)."""
        a, q = self.active, self.partner
        return frozenset([("h", a, h) for h in self.propose.give_hand]
                         + [("u", -1, u) for u in self.propose.give_up]
                         + [("h", q, h) for h in self.accept.hand])

    @property
    def total(self) -> Value:
        return self.gain_active + self.gain_partner

    @property
    def pareto(self) -> bool:
        a, q = self.gain_active, self.gain_partner
        return a >= 0 and q >= 0 and (a > 0 or q > 0)

    @property
    def kind(self) -> str:
        return "gift" if not self.give or not self.take else "swap"

    def text(self) -> str:
        gives = [f"h{h}" for h in self.propose.give_hand] + [f"u{u}" for u in self.propose.give_up]
        return (f"p{self.active} gives {','.join(gives) or 'nothing'} ({_names(self.give)}) to "
                f"p{self.partner} for {','.join(f'h{h}' for h in self.accept.hand) or 'nothing'} "
                f"({_names(self.take)})")


def _names(beans: tuple[int, ...]) -> str:
    return " ".join(BEAN_NAMES[b] for b in beans) or "-"


@dataclass
class Matching:
    deals: list[Deal]
    predicted: Value  # the sum of the deals' total gains
    realised: dict[int, Value] | None  # per seat: value after every deal minus the value now
    method: str  # "max_weight_clique" or "cp-sat"
    candidates: int  # deals both sides accept, after dominance
    note: str = ""  # why ``realised`` is missing (the re-solve passed its node budget)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def realised_total(self) -> Value | None:
        return None if self.realised is None else sum(self.realised.values(), start=0)


@dataclass
class TradeMap:
    state: GameState
    value: Objective  # SOLO or EXPECTED: what a seat's value is
    values: list[Value]  # every seat's value now
    deals: list[Deal]
    pareto: list[Deal]
    best_for_active: Deal | None
    matching: Matching
    conflicts: Any  # nx.Graph over the matching candidates (deal ids), an edge per shared card
    stats: dict[str, float] = field(default_factory=dict)


class Valuer:
    """Seat values, memoised: ``solo`` through one ``SoloSearch`` per seat, or ``expected``; every
    search within ``time_limit`` seconds from now (None: no limit), reporting to ``progress``."""

    def __init__(self, s: GameState, kind: Objective = SOLO, node_limit: int | None = 2_000_000,
                 memo: bool = True, time_limit: float | None = None,
                 progress: ProgressFn | None = None) -> None:
        if kind not in VALUES:
            raise SolveError(f"a seat's value is {' or '.join(o.name for o in VALUES)}, not {kind.name}")
        self.kind = kind
        self.memo = memo  # False (benchmarks only): a new search for every value, nothing cached
        self.node_limit = node_limit
        self.clock = Budget("the trade graph", None, time_limit, progress)
        self.searches = [SoloSearch(q, budget=self.clock.same_clock(f"p{q}'s solo value"))
                         for q in range(len(s.players))]
        self.cache: dict[tuple[object, ...], Value] = {}
        self.solves = 0
        self.hits = 0
        self.fresh_nodes = 0

    def value(self, s: GameState, q: int, key: tuple[object, ...] | None = None) -> Value:
        if not self.memo:
            self.solves += 1
            fresh = SoloSearch(q, budget=self.clock.same_clock(f"p{q}'s solo value"))
            got = fresh.value(s)
            self.fresh_nodes += fresh.nodes
            return got
        if key is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self.hits += 1
                return hit
        self.solves += 1
        if self.kind is SOLO:
            v: Value = self.searches[q].value(s)
        else:
            left = self.clock.seconds_left()
            limits = Limits(inf if left is None else left, self.node_limit)
            v = solve_expected(s, q, limits, self.clock.progress).value
        if key is not None:
            self.cache[key] = v
        return v

    @property
    def nodes(self) -> int:
        return sum(x.nodes for x in self.searches) + self.fresh_nodes


def _side_key(s: GameState, q: int, hand: tuple[int, ...], aside: tuple[int, ...],
              face_up: tuple[int, ...]) -> tuple[object, ...]:
    """What seat q's value after a deal depends on (the rest of the position is the same for
    every deal from ``s``): its hand's reachable prefix, its set-aside cards, the face-up cards."""
    return (q, hand[:hand_reach(s, q)], tuple(sorted(aside)), face_up)


def trade_map(s: GameState, max_cards: int | None = None, value: Objective = SOLO,
              node_limit: int | None = 2_000_000, realise_nodes: int | None = 100_000,
              memo: bool = True, time_limit: float | None = None,
              progress: ProgressFn | None = None) -> TradeMap:
    """Every deal the rules allow in ``s`` (a trading phase, no offer pending), valued for both sides.

    Within ``time_limit`` seconds for every search (None: no limit; past it TimeLimitExceeded, a
    SolveError). ``progress(deals valued, deals, note)`` after every deal and at least every 0.2 s
    while a search runs; Ctrl-C raises KeyboardInterrupt (a partial map is no answer)."""
    t0 = time.perf_counter()
    base_game_only(s, "the trade graph")
    if s.phase != Phase.TRADE or s.pending is not None:
        raise SolveError(f"the position must be in trading with no offer pending (T3), not phase "
                         f"{s.phase.name.lower()}" + (" with an offer pending" if s.pending else ""))
    open_seat(s, "the trade graph", s.active)  # the final pass, not the duel
    if value is EXPECTED:
        check_expected(s, s.active)
    k = s.setup.rules.max_deal_cards if max_cards is None else max_cards
    if k < 0:
        raise ArgumentError("max_cards", k, "must be at least 0")
    wide = s._replace(setup=_with_deal_cards(s, k))  # apply accepts any size; this lists up to k
    listed = deals(wide)
    done = 0

    def report(nodes: int, total: int | None, note: str) -> None:
        assert progress is not None
        progress(done, len(listed), note)

    valuer = Valuer(s, value, node_limit, memo, time_limit, report if progress is not None else None)
    n = len(s.players)
    a = s.active
    values = [valuer.value(s, q) for q in range(n)]
    out: list[Deal] = []
    hand_a = s.players[a].hand
    for prop, acc in listed:
        q = prop.partner
        hand_q = s.players[q].hand
        give = tuple(hand_a[h] for h in prop.give_hand) + tuple(s.face_up[u] for u in prop.give_up)
        take = tuple(hand_q[h] for h in acc.hand)
        new_a = tuple(c for h, c in enumerate(hand_a) if h not in prop.give_hand)
        new_q = tuple(c for h, c in enumerate(hand_q) if h not in acc.hand)
        ups = tuple(c for u, c in enumerate(s.face_up) if u not in prop.give_up)
        key_a = _side_key(s, a, new_a, s.players[a].aside + take, ups)
        key_q = _side_key(s, q, new_q, s.players[q].aside + give, ())
        after: GameState | None = None
        if not memo or key_a not in valuer.cache or key_q not in valuer.cache:
            after = apply(apply(s, prop, check=False), acc, check=False)
        va = valuer.value(after, a, key_a) if after is not None else valuer.value(s, a, key_a)
        vq = valuer.value(after, q, key_q) if after is not None else valuer.value(s, q, key_q)
        out.append(Deal(len(out), prop, acc, give, take, va - values[a], vq - values[q]))
        done += 1
        if progress is not None:
            progress(done, len(listed), "deals valued")
    t_deals = time.perf_counter() - t0
    pareto = [d for d in out if d.pareto]
    accepted = [d for d in out if d.gain_partner >= 0 and d.gain_active > 0]
    best = max(accepted, key=lambda d: (d.gain_active, d.gain_partner, -len(d.cards), -d.id), default=None)
    matching, conflicts = best_matching(s, pareto, values, valuer, realise_nodes)
    stats = {"seconds": time.perf_counter() - t0, "deal_seconds": t_deals, **matching.seconds,
             "deals": len(out),
             "solves": valuer.solves, "cache_hits": valuer.hits, "nodes": valuer.nodes}
    return TradeMap(s, value, values, out, pareto, best, matching, conflicts, stats)


def to_trading(s: GameState) -> tuple[GameState, list[Action]]:
    """``s`` advanced to the active player's trading phase by its default planting (T1, T2), with
    the moves made; it stops at the end of the turn or the game if no trading phase comes."""
    moved: list[Action] = []
    turn = s.turn
    while s.phase not in (Phase.TRADE, Phase.OVER) and s.to_move == s.active and s.turn == turn:
        a = default_policy(s)
        moved.append(a)
        s = apply(s, a)
    return s, moved


def _with_deal_cards(s: GameState, k: int) -> Any:
    return setup(s.setup.rules.replace(max_deal_cards=k), len(s.players))


# ------------------------------------------------------------------ the best set of compatible deals


def undominated(candidates: list[Deal]) -> list[Deal]:
    """Drop each deal for which a deal with a subset of its cards (same partner) gains as much in
    total: swapping one for the other keeps any packing feasible and its gain at least as high."""
    by_cards = {(d.partner, d.cards): d for d in candidates}
    keep = []
    for d in candidates:
        cards = sorted(d.cards)
        dominated = False
        for size in range(1, len(cards)):
            for sub in combinations(cards, size):
                e = by_cards.get((d.partner, frozenset(sub)))
                if e is not None and e.total >= d.total:
                    dominated = True
                    break
            if dominated:
                break
        if not dominated:
            keep.append(d)
    return keep


def conflict_graph(candidates: list[Deal]) -> Any:
    """Deals as nodes (weight: total gain), an edge between two deals that use the same card."""
    import networkx as nx  # here, not at the top: about 0.1 s of every solver front end's start-up

    g = nx.Graph()
    for d in candidates:
        g.add_node(d.id, total=d.total)
    users: dict[tuple[str, int, int], list[int]] = {}
    for d in candidates:
        for c in d.cards:
            users.setdefault(c, []).append(d.id)
    for ids in users.values():
        for i, j in combinations(ids, 2):
            g.add_edge(i, j)
    return g


def best_matching(s: GameState, pareto: list[Deal], values: list[Value], valuer: Valuer,
                  realise_nodes: int | None = None) -> tuple[Matching, Any]:
    import networkx as nx  # loaded by the matching only (``conflict_graph``)

    t0 = time.perf_counter()
    cands = undominated(pareto)
    conflicts = conflict_graph(cands)
    offers_left = s.setup.rules.max_offers - s.offers
    chosen: list[Deal] = []
    method = "max_weight_clique"
    if cands and len(cands) <= CLIQUE_LIMIT:
        scale = lcm(*(Fraction(d.total).denominator for d in cands))
        free = nx.complement(conflicts)
        for d in cands:
            free.nodes[d.id]["w"] = int(Fraction(d.total) * scale)
        ids, _ = nx.max_weight_clique(free, weight="w")
        by_id = {d.id: d for d in cands}
        chosen = sorted((by_id[i] for i in ids), key=lambda d: d.id)
    if cands and (len(cands) > CLIQUE_LIMIT or len(chosen) > offers_left):
        chosen, method = _packing_cpsat(cands, offers_left), "cp-sat"
    predicted = sum((d.total for d in chosen), start=Fraction(0) if valuer.kind is EXPECTED else 0)
    t1 = time.perf_counter()
    note = ""
    try:
        realised: dict[int, Value] | None = _realise(s, chosen, values, valuer, realise_nodes)
    except TimeLimitExceeded:
        raise
    except SolveError:
        realised, note = None, (f"not re-solved: the search after applying the {len(chosen)} deals "
                                f"passed its budget of {realise_nodes:,} nodes")
    seconds = {"matching_seconds": t1 - t0, "realise_seconds": time.perf_counter() - t1}
    return Matching(chosen, predicted, realised, method, len(cands), note, seconds), conflicts


def _packing_cpsat(cands: list[Deal], offers_left: int) -> list[Deal]:
    """Weighted set packing: each card in at most one chosen deal, at most ``offers_left`` deals."""
    from ortools.sat.python import cp_model


    scale = lcm(*(Fraction(d.total).denominator for d in cands))
    m = cp_model.CpModel()
    x = {d.id: m.new_bool_var(f"d{d.id}") for d in cands}
    users: dict[tuple[str, int, int], list[int]] = {}
    for d in cands:
        for c in d.cards:
            users.setdefault(c, []).append(d.id)
    for ids in users.values():
        if len(ids) > 1:
            m.add_at_most_one(x[i] for i in ids)
    m.add(sum(x.values()) <= offers_left)
    m.maximize(sum(int(Fraction(d.total) * scale) * x[d.id] for d in cands))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = PACKING_SECONDS
    with interruptible() as stop:
        status = stop.solve(solver, m)
    if stop.hit:
        raise KeyboardInterrupt  # a packing not proved best is no answer
    if status != cp_model.OPTIMAL:
        raise SolveError(f"the best matching was not proved optimal (CP-SAT {solver.status_name(status)})")
    return [d for d in cands if solver.value(x[d.id])]


def apply_deals(s: GameState, chosen: list[Deal]) -> GameState:
    """The position after every deal of ``chosen`` (compatible: no card used twice), one after another.

    Positions shift as cards leave a hand or the trade area (H1 keeps the order of the rest), so
    each deal's positions are mapped from the original ones."""
    hands = {q: list(range(len(pl.hand))) for q, pl in enumerate(s.players)}
    ups = list(range(len(s.face_up)))
    for d in chosen:
        a, q = d.active, d.partner
        prop = Propose(a, q, tuple(hands[a].index(h) for h in d.propose.give_hand),
                       tuple(ups.index(u) for u in d.propose.give_up), d.propose.ask)
        acc = Accept(q, tuple(sorted(hands[q].index(h) for h in d.accept.hand)))
        s = apply(apply(s, prop), acc)  # checked: the set must be playable as it stands
        for h in d.propose.give_hand:
            hands[a].remove(h)
        for u in d.propose.give_up:
            ups.remove(u)
        for h in d.accept.hand:
            hands[q].remove(h)
    return s


def _realise(s: GameState, chosen: list[Deal], values: list[Value], valuer: Valuer,
             budget: int | None) -> dict[int, Value]:
    """Apply the set and re-solve each seat it involves (within ``budget`` more search nodes)."""
    if not chosen:
        return {}
    after = apply_deals(s, chosen)
    seats = sorted({d.active for d in chosen} | {d.partner for d in chosen})
    for x in valuer.searches:
        x.budget.node_limit = None if budget is None else x.budget.nodes + budget
    try:
        return {q: valuer.value(after, q) - values[q] for q in seats}
    finally:
        for x in valuer.searches:
            x.budget.node_limit = None


# ------------------------------------------------------------------ output


def number(v: Value) -> int | float:
    """A value as a JSON number: an int, or a float for an expected value that is not whole."""
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else round(float(v), 6)
    return v


def _give_cards(d: Deal) -> list[str]:
    return [f"h{h}" for h in d.propose.give_hand] + [f"u{u}" for u in d.propose.give_up]


def deal_graph(tm: TradeMap) -> Any:
    """A networkx MultiDiGraph: seats as nodes (value now), one edge per deal from the active player
    to its partner (what each side gives, both gains, Pareto, in the best matching)."""
    import networkx as nx  # loaded by the graph's builders only (``conflict_graph``)

    g = nx.MultiDiGraph(value=tm.value.name, active=tm.state.active)
    chosen = {d.id for d in tm.matching.deals}
    for q, v in enumerate(tm.values):
        g.add_node(q, label=f"p{q}", value=number(v), active=q == tm.state.active)
    for d in tm.deals:
        g.add_edge(d.active, d.partner, key=d.id, give=_names(d.give), take=_names(d.take),
                   give_cards=",".join(_give_cards(d)),
                   take_cards=",".join(f"h{h}" for h in d.accept.hand),
                   gain_active=number(d.gain_active), gain_partner=number(d.gain_partner),
                   pareto=d.pareto, matching=d.id in chosen, kind=d.kind)
    return g


def to_json(tm: TradeMap) -> dict[str, Any]:
    def edge(d: Deal) -> dict[str, Any]:
        return {
            "id": d.id, "from": f"p{d.active}", "to": f"p{d.partner}",
            "give": [BEAN_NAMES[b] for b in d.give], "take": [BEAN_NAMES[b] for b in d.take],
            "give_cards": _give_cards(d),
            "take_cards": [f"h{h}" for h in d.accept.hand],
            "gain": {f"p{d.active}": number(d.gain_active), f"p{d.partner}": number(d.gain_partner)},
            "pareto": d.pareto, "kind": d.kind,
            "actions": [str(d.propose), str(d.accept)],
        }

    m = tm.matching
    return {
        "value": tm.value.name,
        "active": f"p{tm.state.active}",
        "nodes": [{"seat": f"p{q}", "value": number(v), "active": q == tm.state.active}
                  for q, v in enumerate(tm.values)],
        "edges": [edge(d) for d in tm.deals],
        "pareto": [d.id for d in tm.pareto],
        "best_for_active": tm.best_for_active.id if tm.best_for_active is not None else None,
        "best_matching": {
            "deals": [d.id for d in m.deals], "method": m.method, "candidates": m.candidates,
            "predicted_gain": number(m.predicted),
            "realised_gain": (None if m.realised is None
                              else {f"p{q}": number(v) for q, v in m.realised.items()}),
            "realised_total": None if m.realised_total is None else number(m.realised_total),
            **({"note": m.note} if m.note else {}),
        },
        "conflicts": {"nodes": tm.conflicts.number_of_nodes(), "edges": tm.conflicts.number_of_edges()},
        "stats": {k: round(v, 4) if isinstance(v, float) else v for k, v in tm.stats.items()},
    }
