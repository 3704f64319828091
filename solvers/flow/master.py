"""The counts model of ``coop`` and ``best`` in the final pass: who plants which beans, when.

Written from the rules, not from the engine's code (the engine only reads the timeline: in the
final pass nothing decided changes which cards enter play when, solvers/timeline.py).

A hand card's identity matters only where phase 1 plants it: the active seat plants the first one
or two cards still in its hand (T1, H1). Everything else is counts per bean:

- per turn, per partner, per bean: the active seat's hand cards to the partner, face-up cards to
  the partner, the partner's hand cards to the active seat; the face-up rest stays with the active
  seat (T3-T5); deals per partner at least ceil(cards each way / ``max_deal_cards``), at most
  ``max_offers`` a turn;
- the front choice of every active turn (which hand positions phase 1 plants) is enumerated:
  every card before them must have left the hand earlier (traded, or planted by an earlier phase 1
  of the same seat), they themselves must not have, and later fronts lie behind earlier ones;
- hand stock per seat and turn: cards leave a hand only if they arrived (draws count from the next
  turn, T7) and are not kept for a later phase 1.

Trading a card of a bean gives the earliest card of that bean not kept for a phase 1 (any hand
position may be traded, T3); with that choice the counts above are exact: every count solution is
a legal play and every legal play has one. Only the seats' fields are relaxed here: a seat ends
with at most its coins plus, per bean, the best split of its fields of that bean and every card of
it the seat plants (``solvers.bounds.gain_table``, an exact table with hull cuts; field capacity,
H3 and H4 are ignored). So the master's optimum bounds the true optimum from above. The exact field
play of each seat, given what it plants and when, is solvers/flow/seat_plan.py's.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from model import GameState, Phase
from solvers.bounds import gain_table, hull
from solvers.contract import SolveError
from solvers.cpsat_lazy import cp_model
from solvers.timeline import Card, TurnPlan, hand_cards, timeline

Expr = Any  # a CP-SAT linear expression or an int (the stubs type sums of both poorly)
COOP_CAPACITY_TURNS = 3  # coop: the capacity cuts up to this many turns left (``capacity_default``)


def capacity_default(s: GameState, floors: bool) -> bool:
    """Whether a run builds the master with its capacity cuts (``FlowMaster._carry``): always for
    ``best`` (``floors``), for ``coop`` up to ``COOP_CAPACITY_TURNS`` turns left. With the H4 cap
    (``FlowMaster._opened``) they proved ``rio5-15cards coop`` (3 turns) in 26 s where the master
    without them stayed at 65 / 67; on 4 turns and more the first master solve with them took 48 s
    or more (``rio4-18cards`` 63 / 64 either way, the whole final pass 61 / 73 against 69 / 73
    without them; docs/lab-notes.md, "The flow solver's record to stop 66")."""
    return floors or len(timeline(s)) <= COOP_CAPACITY_TURNS


@dataclass(frozen=True)
class Front:
    """One phase-1 choice of an active turn: the hand cards planted (none, one or two, H1, T1)."""

    cards: tuple[Card, ...]


@dataclass
class Batch:
    """What one seat plants at one point of the timeline: one phase-1 card, or a phase-3 batch of
    set-aside cards in an order the seat picks (T6). ``counts[bean]`` is an expression (a constant
    once the flows are fixed)."""

    turn: int
    kind: str  # "p1a", "p1b" (phase 1, first and second card) or "p3"
    counts: dict[int, Expr]
    most: int  # at most this many cards


class FlowMaster:
    """The counts model with its relaxed objective parts (``relaxed[q]``: seat q's upper bound)."""

    def __init__(self, s: GameState, model: cp_model.CpModel | None = None, capacity: bool = True,
                 h4: bool = True, seats: Collection[int] | None = None) -> None:
        """``seats``: the seats whose relaxed values are built (default all); ``relaxed[q]`` is
        the constant 0 for the others (a pricing model needs one seat's, solvers/flow/columns.py)."""
        su = s.setup
        if not (s.phase == Phase.PLANT and s.planted == 0) or any(pl.aside for pl in s.players):
            raise SolveError("the flow model starts at the start of a turn (phase 1, nothing planted)")
        self.s = s
        self.n = n = len(s.players)
        self.turns: list[TurnPlan] = timeline(s)
        self.cards: list[list[Card]] = hand_cards(s, self.turns)
        self.m = m = model or cp_model.CpModel()
        self.kd, offers = su.rules.max_deal_cards, su.rules.max_offers
        self.trading = self.kd > 0 and offers > 0
        beans = sorted({c.bean for cs in self.cards for c in cs}
                       | {b for t in self.turns for b in t.face_up})
        self.beans = beans
        K = len(self.turns)
        # flows[k][r][b] = (give, up, back): active -> r hand, face-up -> r, r -> active hand
        self.give: list[dict[int, dict[int, cp_model.IntVar]]] = []
        self.up: list[dict[int, dict[int, cp_model.IntVar]]] = []
        self.back: list[dict[int, dict[int, cp_model.IntVar]]] = []
        self.deals: list[dict[int, cp_model.IntVar]] = []
        self.fronts: list[list[tuple[Front, cp_model.IntVar]]] = []
        for k, t in enumerate(self.turns):
            a = t.active
            g: dict[int, dict[int, cp_model.IntVar]] = {}
            u: dict[int, dict[int, cp_model.IntVar]] = {}
            h: dict[int, dict[int, cp_model.IntVar]] = {}
            d: dict[int, cp_model.IntVar] = {}
            ups = {b: t.face_up.count(b) for b in set(t.face_up)}
            hand_a = self._arrived(a, k)
            room = self.kd * offers if self.trading else 0
            for r in range(n):
                if r == a or not self.trading:
                    continue
                hand_r = self._arrived(r, k)
                g[r] = {b: m.new_int_var(0, min(hand_a.get(b, 0), room), f"g{k}_{r}_{b}")
                        for b in hand_a}
                u[r] = {b: m.new_int_var(0, min(c, room), f"u{k}_{r}_{b}") for b, c in ups.items()}
                h[r] = {b: m.new_int_var(0, min(hand_r.get(b, 0), room), f"h{k}_{r}_{b}")
                        for b in hand_r}
                d[r] = m.new_int_var(0, offers, f"d{k}_{r}")
                m.add(self.kd * d[r] >= sum(g[r].values()) + sum(u[r].values()))
                m.add(self.kd * d[r] >= sum(h[r].values()))
            if d:
                m.add(sum(d.values()) <= offers - (s.offers if k == 0 else 0))
            for b, c in ups.items():
                m.add(sum(u[r][b] for r in u) <= c)
            self.give.append(g)
            self.up.append(u)
            self.back.append(h)
            self.deals.append(d)
            self.fronts.append(self._front_choices(k, a))
        self._hand_stock(K)
        self.batches = [self._batches(q) for q in range(n)]
        self._segments: dict[tuple[int, int, int, int], tuple[Expr, int]] = {}
        self._carried: dict[tuple[int, int], list[cp_model.IntVar]] = {}
        self.capacity = capacity  # the capacity cuts (``_carry``): tighter, and a larger model
        self.h4 = h4  # the cap on fields that all hold cards (``_opened``, ``_first_foreign``)
        self.later = h4 and not capacity  # its count of later foreign beans (``_later_foreign``)
        self._joins: dict[tuple[int, int], cp_model.IntVar] = {}  # (seat, field): x_i of ``_opened``
        self._firsts: dict[tuple[int, int], cp_model.IntVar] = {}  # (seat, bean): g_b of ``_opened``
        self.relaxed = [self._relaxed(q) if seats is None or q in seats else m.new_constant(0)
                        for q in range(n)]
        self._capacity()

    # ----------------------------------------------------------------- hands
    def _arrived(self, q: int, k: int) -> dict[int, int]:
        """Seat q's hand cards per bean that arrived by turn k (start hand, earlier draws)."""
        out: dict[int, int] = {}
        for c in self.cards[q]:
            if c.since <= k:
                out[c.bean] = out.get(c.bean, 0) + 1
        return out

    def _front_choices(self, k: int, a: int) -> list[tuple[Front, cp_model.IntVar]]:
        """Every phase-1 choice of turn k (T1: the first card is forced while the hand holds one;
        the second is optional); exactly one holds."""
        m = self.m
        hand = [c for c in self.cards[a] if c.since <= k]
        # the front can differ from the hand's first cards only once cards can have left it
        moved = any(t.active == a for t in self.turns[:k]) or (self.trading and k > 0)
        opts: list[Front] = []
        if not hand:
            opts.append(Front(()))
        elif not moved:
            opts += [Front((hand[0],))] + ([Front((hand[0], hand[1]))] if len(hand) > 1 else [])
        else:
            opts.append(Front(()))  # every card left the hand before
            for i, c in enumerate(hand):
                opts.append(Front((c,)))
                opts += [Front((c, d)) for d in hand[i + 1:]]
        lits = [(f, m.new_bool_var(f"front{k}_{'_'.join(str(c.index) for c in f.cards) or 'none'}"))
                for f in opts]
        m.add_exactly_one(lit for _, lit in lits)
        return lits

    def planted_in_phase1(self, q: int, k: int, bean: int) -> Expr:
        """Cards of ``bean`` seat q plants in phase 1 of turn k (0 unless q is active then)."""
        if self.turns[k].active != q:
            return 0
        return sum(lit * sum(1 for c in f.cards if c.bean == bean) for f, lit in self.fronts[k])

    def out_by_trade(self, q: int, k: int, bean: int) -> Expr:
        """Cards of ``bean`` leaving seat q's hand by deals in turn k (T3)."""
        a = self.turns[k].active
        if q == a:
            return sum(self.give[k][r].get(bean, 0) for r in self.give[k])
        return self.back[k].get(q, {}).get(bean, 0)

    def _hand_stock(self, K: int) -> None:
        m = self.m
        for q in range(self.n):
            own = [k for k in range(K) if self.turns[k].active == q]
            beans = sorted({c.bean for c in self.cards[q]})
            for k in range(K):
                for b in beans:
                    arrived = sum(1 for c in self.cards[q] if c.since <= k and c.bean == b)
                    traded = sum(self.out_by_trade(q, t, b) for t in range(k + 1))
                    planted = sum(self.planted_in_phase1(q, t, b) for t in own if t <= k)
                    kept = sum(lit for t in own if t > k for f, lit in self.fronts[t]
                               for c in f.cards if c.bean == b and c.since <= k)
                    m.add(traded + planted + kept <= arrived)  # H1: kept for a later phase 1
            for i, k in enumerate(own):
                self._front_rules(q, k, own[:i])

    def _front_rules(self, q: int, k: int, before: list[int]) -> None:
        """The cards before the chosen front left the hand earlier; fronts move back (H1)."""
        m = self.m
        beans = sorted({c.bean for c in self.cards[q]})
        hand = [c for c in self.cards[q] if c.since <= k]
        for f, lit in self.fronts[k]:
            if not f.cards:  # an empty hand: every card that arrived is gone (T1: else it plants)
                need = {b: sum(1 for c in hand if c.bean == b) for b in beans}
            else:
                last = f.cards[-1].index
                mine = {c.index for c in f.cards}
                need = {b: sum(1 for c in hand if c.bean == b and c.index < last and c.index not in mine)
                        for b in beans}
            for b in beans:
                gone = sum(self.out_by_trade(q, t, b) for t in range(k)) + sum(
                    self.planted_in_phase1(q, t, b) for t in before)
                if need[b]:
                    m.add(gone >= need[b]).only_enforce_if(lit)
        if before:  # a later front lies behind every card an earlier phase 1 planted (H1)
            t = before[-1]
            first: Any = sum(lit * f.cards[0].index for f, lit in self.fronts[k] if f.cards)
            behind: Any = sum(lit * f.cards[-1].index for f, lit in self.fronts[t] if f.cards)
            empty = [lit for f, lit in self.fronts[k] if not f.cards]
            m.add(first >= behind + 1).only_enforce_if([e.negated() for e in empty])

    # ----------------------------------------------------------------- what each seat plants
    def _batches(self, q: int) -> list[Batch]:
        out: list[Batch] = []
        for k, t in enumerate(self.turns):
            a = t.active
            if q == a:
                for j, kind in enumerate(("p1a", "p1b")):
                    counts: dict[int, Expr] = {}
                    for f, lit in self.fronts[k]:
                        if len(f.cards) > j:
                            b = f.cards[j].bean
                            counts[b] = counts.get(b, 0) + lit
                    if counts:
                        out.append(Batch(k, kind, counts, 1))
                rest: dict[int, Expr] = {}
                for b in set(t.face_up):
                    rest[b] = t.face_up.count(b) - sum(self.up[k][r].get(b, 0) for r in self.up[k])
                for r in self.back[k]:
                    for b, v in self.back[k][r].items():
                        rest[b] = rest.get(b, 0) + v
                most = len(t.face_up) + sum(most_of(v) for r in self.back[k]
                                            for v in self.back[k][r].values())
                if rest and most:
                    out.append(Batch(k, "p3", rest, min(most, len(t.face_up) + self._room(k))))
            elif q in self.give[k]:
                got: dict[int, Expr] = {}
                for src in (self.give[k][q], self.up[k][q]):
                    for b, v in src.items():
                        got[b] = got.get(b, 0) + v
                most = sum(most_of(v) for v in self.give[k][q].values()) + sum(
                    most_of(v) for v in self.up[k][q].values())
                if got and most:
                    out.append(Batch(k, "p3", got, min(most, self._room(k))))
        return out

    def _room(self, k: int) -> int:
        """The most cards one deal-side can carry in turn k (``max_offers`` deals of
        ``max_deal_cards``)."""
        offers = self.s.setup.rules.max_offers - (self.s.offers if k == 0 else 0)
        return self.kd * offers

    def planted_total(self, q: int, b: int) -> Expr:
        return sum(bt.counts.get(b, 0) for bt in self.batches[q])

    def _relaxed(self, q: int) -> cp_model.IntVar:
        """C1 + H5 per bean, capacity ignored: coins now plus, per bean, the best split of the
        seat's fields of that bean and every card of it the seat plants (an upper bound); then
        capped by the fields a seat can hold at once (``_carry``)."""
        m = self.m
        pl = self.s.players[q]
        terms = []
        top = len(pl.coins)
        for b in sorted(set(self.beans) | {f.bean for f in pl.fields if f.count}):
            mine = [f.count for f in pl.fields if f.count and f.bean == b]
            if not mine and not any(b in bt.counts for bt in self.batches[q]):
                continue
            z, most = self._segment(q, b, 0, len(self.batches[q]))
            terms.append(self._opened(q, b, self._carry(q, b, z, most)))
            top += most
        v = m.new_int_var(0, top, f"relaxed{q}")
        m.add(v == len(pl.coins) + sum(terms) - self._first_foreign(q))
        return v

    def _segment(self, q: int, b: int, lo: int, hi: int) -> tuple[Expr, int]:
        """The most seat q's cards of bean b in batches lo..hi-1 can pay as groups of their own
        (with its fields of b now when lo is 0), C1 with capacity ignored: (expression, its top)."""
        key = (q, b, lo, hi)
        if key in self._segments:
            return self._segments[key]
        m = self.m
        pl = self.s.players[q]
        mine = [f.count for f in pl.fields if f.count and f.bean == b] if lo == 0 else []
        part = [bt for bt in self.batches[q][lo:hi] if b in bt.counts]
        most = sum(bt.most for bt in part)
        table = gain_table(self.s.setup.payout[b], mine, most)
        if most == 0:
            got: tuple[Expr, int] = (table[0], table[0])
        else:
            n_b = m.new_int_var(0, most, f"n{q}_{b}_{lo}_{hi}")
            m.add(n_b == sum(bt.counts[b] for bt in part))
            z = m.new_int_var(0, max(table), f"z{q}_{b}_{lo}_{hi}")
            m.add_element(n_b, table, z)
            for slope, icpt in hull(table):  # the LP sees the concave majorant
                den = slope.denominator * icpt.denominator
                m.add(den * z <= int(slope * den) * n_b + int(icpt * den))
            got = (z, max(table))
        self._segments[key] = got
        return got

    def _carry(self, q: int, b: int, whole: Expr, most: int) -> Expr:
        """Bean b's part of seat q's bound, capped by capacity (H2, F1: at most so many fields).

        At the start of a turn t in which the seat plants (just before its first planting, after
        the harvests before it), a field holds b or none does (``carry[b, t]``). If none does, b's
        cards before and from t lie in different groups and pay at most the two segments' values
        apart (``_segment``). At most as many beans as the seat can have fields (the third
        counted where it may be bought) are carried at once (``_capacity``). Both hold for every
        legal play, so this stays a relaxation; it counts what the plain bound cannot see, that
        a seat receiving many beans in one turn cannot keep them all growing into the next."""
        batches = self.batches[q]
        held = any(f.count and f.bean == b for f in self.s.players[q].fields)
        has = [b in bt.counts for bt in batches]
        starts = [t for t in range(1, len(batches)) if batches[t].turn != batches[t - 1].turn
                  and (held or any(has[:t])) and any(has[t:])]
        if not starts or not self.capacity:
            return whole
        m = self.m
        w = m.new_int_var(0, most, f"w{q}_{b}")
        m.add(w <= whole)
        for t in starts:
            carried = m.new_bool_var(f"carry{q}_{b}_{t}")
            self._carried.setdefault((q, t), []).append(carried)
            apart = self._segment(q, b, 0, t)[0] + self._segment(q, b, t, len(batches))[0]
            m.add(w <= apart + most * carried)
        return w

    def _occupied(self, q: int) -> bool:
        """Every field of seat q holds cards now (the H4 cap, ``_opened``, applies)."""
        return self.h4 and all(f.count for f in self.s.players[q].fields)

    def _opened(self, q: int, b: int, whole: Expr) -> Expr:
        """Bean b's part of seat q's bound when every field holds cards (``_occupied``): if b is
        on some of them, per such field i a count x_i of cards of b that join its group before it
        is harvested (or at the end), so b pays at most ``sum pay(count_i + x_i) + free(rest)``
        (free: the best split of the rest into groups of their own, ``gain_table``); if no field
        holds b (a foreign bean), the same with one group of no cards now, b's first group (g_b
        cards, ``_firsts``). The same as the plain bound, but the x_i and g_b can be capped
        (``_first_foreign``, ``_later_foreign``)."""
        pl = self.s.players[q]
        mine = [(i, f.count) for i, f in enumerate(pl.fields) if f.count and f.bean == b]
        if not self._occupied(q):
            return whole
        m = self.m
        row = self.s.setup.payout[b]
        most = sum(bt.most for bt in self.batches[q] if b in bt.counts)  # cards of b, at most
        if not mine:  # a foreign bean: its first group (g_b cards) and the rest, free
            if not most or not self.later:
                return whole
            mine = [(-1, 0)]
        total: Expr = sum(bt.counts.get(b, 0) for bt in self.batches[q])
        free = gain_table(row, [], most)
        y = m.new_int_var(0, most, f"oy{q}_{b}")
        zy = m.new_int_var(0, max(free), f"of{q}_{b}")
        m.add_element(y, free, zy)
        parts: list[tuple[cp_model.IntVar, cp_model.IntVar, list[int]]] = [(zy, y, free)]
        xs = []
        for i, count in mine:
            alone = [row[min(count + x, len(row) - 1)] for x in range(most + 1)]
            x = m.new_int_var(0, most, f"ox{q}_{i}_{b}")
            z = m.new_int_var(0, max(alone), f"oa{q}_{i}_{b}")
            m.add_element(x, alone, z)
            parts.append((z, x, alone))
            xs.append(x)
            if i < 0:
                self._firsts[(q, b)] = x
            else:
                self._joins[(q, i)] = x
        m.add(y + sum(xs) == total)
        for var, arg, table in parts:
            for slope, icpt in hull(table):  # the LP sees the concave majorants
                den = slope.denominator * icpt.denominator
                m.add(den * var <= int(slope * den) * arg + int(icpt * den))
        w = m.new_int_var(0, sum(max(t) for _, _, t in parts), f"ow{q}_{b}")
        m.add(w <= whole)
        m.add(w <= sum(z for z, _, _ in parts))
        return w

    def _first_foreign(self, q: int) -> Expr:
        """H3-H5 on seat q's fields now, when every one holds cards (``_occupied``): a card of a
        bean no field holds now (a foreign card) goes onto a field harvested before it, or onto a
        third field bought before it (F1). So at each batch with a foreign card, some field's group
        holds, besides its cards now, only cards of its bean planted up to that batch (x_i at most
        those), or the seat has bought its third field, which costs its price; and while a field
        holds two or more, a one-card field is harvested only after it (H4, either reading) or
        after a card of its own bean topped it up. A foreign bean's first card after other
        foreign beans' needs one more such field per earlier first group still on a field
        (``_later_foreign``). Holds for every legal play, so the master stays a relaxation.
        Returns the coins the seat pays for a third field (an expression)."""
        if not self._occupied(q):
            return 0
        m = self.m
        pl = self.s.players[q]
        su = self.s.setup
        held = {f.bean for f in pl.fields}
        full = any(f.count >= 2 for f in pl.fields)
        buy: cp_model.IntVar | None = None
        if su.third_cost is not None and len(pl.fields) < 3:
            buy = m.new_bool_var(f"obuy{q}")
        upto: dict[int, Expr] = {b: 0 for b in held}  # cards of each held bean up to batch j
        aliens = sorted(b for p, b in self._firsts if p == q)  # foreign beans
        before: dict[int, Expr] = {b: 0 for b in aliens}  # cards of each foreign bean before batch j
        somewhen: dict[int, bool] = {b: False for b in aliens}  # can it have cards before batch j?
        for j, bt in enumerate(self.batches[q]):
            for b in held:
                upto[b] = upto[b] + bt.counts.get(b, 0)
            alien = [v for c, v in bt.counts.items() if c not in held]
            if alien:
                foreign = m.new_bool_var(f"oo{q}_{j}")  # a foreign card in batch j
                m.add(sum(alien) <= bt.most * foreign)
                lits = [foreign.negated()] + ([buy] if buy is not None else [])
                closed: list[cp_model.IntVar] = []
                for i, f in enumerate(pl.fields):
                    c = m.new_bool_var(f"oc{q}_{i}_{j}")  # field i harvested by then
                    m.add(self._joins[(q, i)] <= upto[f.bean]).only_enforce_if(c)
                    closed.append(c)
                # H4: a one-card field is harvested alone only after the full ones, or once topped
                # up; one field closed is all the bool_or below asks, so without the later
                # foreign beans' count "topped up" alone is enough (a full one closed serves too)
                for i, f in enumerate(pl.fields):
                    if full and f.count == 1 and not self.later:
                        m.add(upto[f.bean] >= 1).only_enforce_if(closed[i])
                    elif full and f.count == 1:
                        top = m.new_bool_var(f"otop{q}_{i}_{j}")  # field i topped up by then
                        m.add(upto[f.bean] >= 1).only_enforce_if(top)
                        for k, g in enumerate(pl.fields):
                            if g.count >= 2:
                                m.add_bool_or([top, closed[k]]).only_enforce_if(closed[i])
                m.add_bool_or([*lits, *closed])
                self._later_foreign(q, j, bt, aliens, before, somewhen, closed, buy)
            for b in aliens:
                if b in bt.counts:
                    before[b] = before[b] + bt.counts[b]
                    somewhen[b] = True
        if buy is None:
            return 0
        assert su.third_cost is not None
        return su.third_cost * buy

    def _later_foreign(self, q: int, j: int, bt: Batch, aliens: list[int], before: dict[int, Expr],
                       somewhen: dict[int, bool], closed: list[cp_model.IntVar],
                       buy: cp_model.IntVar | None) -> None:
        """``_first_foreign`` for a foreign bean b whose first card comes in batch j, after other
        foreign beans came in earlier batches: at the moment b's first card is planted, each
        earlier foreign bean's first group (``_firsts``: g of its cards) still on a field holds
        one field, and b needs another; the fields free of their group now are the ones
        harvested by then (``closed``) and a bought third. So some earlier bean's first group
        closed by batch j (g at most its cards up to batch j), or one more field is free. Groups
        of held beans planted later, and second groups, are not counted: the count of fields
        taken stays at most the true one, so every legal play satisfies it (a relaxation)."""
        m = self.m
        for b in aliens:
            if b not in bt.counts:
                continue
            opens = []
            for c in aliens:
                if c == b or not somewhen[c]:
                    continue
                seen = m.new_bool_var(f"oseen{q}_{c}_{j}")  # c has cards before batch j
                m.add(before[c] <= most_of(self._firsts[(q, c)]) * seen)
                m.add(before[c] >= seen)
                m.add(self._firsts[(q, c)] >= seen)  # a first group holds a card
                shut = m.new_bool_var(f"oshut{q}_{c}_{j}")  # c's first group closed by then
                m.add(self._firsts[(q, c)] <= before[c] + bt.counts.get(c, 0)).only_enforce_if(shut)
                held = m.new_bool_var(f"ohold{q}_{c}_{j}")
                m.add(held >= seen - shut)
                opens.append(held)
            if not opens:
                continue
            act = m.new_bool_var(f"oact{q}_{b}_{j}")  # b has a card in batch j
            m.add(bt.counts[b] <= bt.most * act)
            when = [act]
            if somewhen[b]:  # b's first card: none before batch j
                mine = m.new_bool_var(f"onew{q}_{b}_{j}")
                m.add(before[b] == 0).only_enforce_if(mine)
                m.add(before[b] >= 1).only_enforce_if(mine.negated())
                when.append(mine)
            free = sum(closed) + (buy if buy is not None else 0)
            m.add(free >= 1 + sum(opens)).only_enforce_if(when)

    def _capacity(self) -> None:
        """At any boundary, a seat's fields hold at most as many beans as it has fields (H2)."""
        su = self.s.setup
        for (q, _), lits in self._carried.items():
            fields = len(self.s.players[q].fields)
            most = max(fields, 3 if su.third_cost is not None else 0)
            if len(lits) > most:
                self.m.add(sum(lits) <= most)

    # ----------------------------------------------------------------- reading a solution
    def front(self, solver: cp_model.CpSolver, k: int) -> Front:
        return next(f for f, lit in self.fronts[k] if solver.value(lit))

    def fixed_batches(self, solver: cp_model.CpSolver | cp_model.CpSolverSolutionCallback, q: int
                      ) -> list[tuple[int, str, dict[int, int]]]:
        """Seat q's batches with the counts of a solution: (turn, kind, bean -> count)."""
        out = []
        for bt in self.batches[q]:
            counts = {b: int(solver.value(v)) if not isinstance(v, int) else v for b, v in bt.counts.items()}
            counts = {b: c for b, c in counts.items() if c}
            if counts:
                out.append((bt.turn, bt.kind, counts))
        return out


def most_of(v: Expr) -> int:
    """The largest value an expression of the master can take (its domain's top; an int is itself)."""
    if isinstance(v, int):
        return v
    assert isinstance(v, cp_model.IntVar)
    dom = list(v.proto.domain)  # the proto's repeated field ignores negative indices
    return int(dom[-1])
