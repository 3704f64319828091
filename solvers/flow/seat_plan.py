"""One seat's exact field play, batch by batch, given what it plants and when (H2-H5, F1, C1, E3).

The input is the seat's batches from the counts model (solvers/flow/master.py): phase-1 cards one
at a time (T1), and per turn a phase-3 batch of set-aside cards planted in an order the seat
picks, harvesting between plantings (T6, H6). Written from the rules, not from the engine.

Within a batch every card goes to one of three places, in this order, which loses nothing:
  A. onto a field whose group is harvested in the batch (topped up first, then harvested; the
     fuller fields first, so H4 lets a one-card field go only if no field kept through the batch
     holds two or more);
  B. into groups planted and harvested inside the batch, one after another on a field that is
     free (empty at the start or harvested in A; a group of one card needs H4 as in A); per bean
     the best split of those cards into groups (C1);
  C. onto a field kept through the batch (its own bean, H3), or as the new group a free field
     holds at the end of the batch (one bean a field, H2).
Harvests, and the third field's purchase (F1), wait for the seat's next planting: its fields do
not change before it, so the harvest pays the same and H4 allows it just the same (and the final
harvest, E3, takes every field without H4). The purchase comes after A (with A's coins, the field
is free for B and C) or after B (with B's coins too, free for C).

The counts may be constants (a seat alone, once the flows are fixed: the seats are independent
then) or expressions of the counts model (the joint model, exact for every seat at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model import GameState
from solvers.bounds import gain_table
from solvers.cpsat_lazy import cp_model
from solvers.flow.master import Batch, Expr

NO_BEAN = -1
Lit = Any  # a CP-SAT literal (or its negation) or a 0/1 constant


@dataclass
class _Field:
    bean: dict[int, Lit]  # one-hot over the seat's beans (all 0: empty)
    count: cp_model.IntVar | int
    most: int


@dataclass
class Op:
    """One step of a seat's plan: ("plant", field, bean), ("harvest", field, 0) or ("buy", 0, 0);
    ``turn`` and ``phase`` (1 or 3) say when a planting happens."""

    kind: str
    field: int
    bean: int
    turn: int
    phase: int


@dataclass
class _BatchVars:
    batch: Batch
    start: list[_Field]
    harv: list[Lit]
    add: list[dict[int, cp_model.IntVar]]
    fin: list[dict[int, cp_model.IntVar]]
    inner: dict[int, cp_model.IntVar]
    buy_early: Lit
    buy_late: Lit


@dataclass
class _FieldChoices:
    """One field's part of a batch (``SeatPlan._field_choices``)."""

    harv: Lit  # its group harvested in A
    add: dict[int, cp_model.IntVar]  # the cards topped up onto it, by bean (its own bean, H3)
    gain: Any  # what the harvest pays (0 without one)
    single: Lit  # the harvested group is one card (H4)
    fin: dict[int, cp_model.IntVar]  # the new group it holds at the end (C), by bean
    finb: dict[int, cp_model.IntVar]  # that group's bean, one-hot (H2)


def _best_split(row: tuple[int, ...], n: int) -> list[int]:
    """The group sizes of the best split of n cards of one bean into harvested groups (C1)."""
    def pay(c: int) -> int:
        return row[min(c, len(row) - 1)]

    best = [0] * (n + 1)
    cut = [0] * (n + 1)
    for k in range(1, n + 1):
        best[k], cut[k] = max((pay(g) + best[k - g], g) for g in range(1, k + 1))
    out = []
    while n:
        out.append(cut[n])
        n -= cut[n]
    return out


class SeatPlan:
    """Seat ``q``'s fields over its batches; ``final`` is its coins at the end (E3)."""

    def __init__(self, m: cp_model.CpModel, s: GameState, q: int, batches: list[Batch],
                 beans: set[int], labels: list[int] | None = None) -> None:
        """``labels``: the batches' indices in the counts model's list (variable names follow
        them, so a seat solved alone can hint the joint model)."""
        self.m, self.q, self.name = m, q, f"s{q}"
        su = s.setup
        pl = s.players[q]
        self.payout = su.payout
        self.nf0 = len(pl.fields)
        self.can_buy = su.third_cost is not None and self.nf0 == 2
        self.cost = su.third_cost or 0
        planted = {b for bt in batches for b in bt.counts}
        self.beans = sorted((planted & beans) | {f.bean for f in pl.fields if f.count})
        fields = []
        for f in range(3):
            if f < self.nf0 and pl.fields[f].count:
                fl = pl.fields[f]
                fields.append(_Field({b: int(b == fl.bean) for b in self.beans}, fl.count, fl.count))
            else:
                fields.append(_Field({b: 0 for b in self.beans}, 0, 0))
        self.fields = fields
        self.owned: Lit = 1 if self.nf0 == 3 else 0
        self.coins: Any = len(pl.coins)  # a linear expression
        self.batches: list[_BatchVars] = []
        for j, bt in enumerate(batches):
            self._batch(f"{self.name}b{labels[j] if labels else j}", bt)
        self.final = m.new_int_var(0, 10_000, f"{self.name}_final")
        m.add(self.final == self.coins + sum(self._pay(fl, fl.count, f"{self.name}_end{f}")
                                             for f, fl in enumerate(self.fields)))

    # ------------------------------------------------------------------ helpers
    def _bool(self, name: str) -> cp_model.IntVar:
        return self.m.new_bool_var(name)

    def _pay(self, fl: _Field, count: cp_model.LinearExprT, name: str, most: int | None = None
             ) -> cp_model.LinearExprT:
        """C1: what a group of ``count`` cards of the field's bean pays (0 when empty)."""
        m = self.m
        most = fl.most if most is None else most
        terms: list[cp_model.LinearExprT] = []
        for b, lit in fl.bean.items():
            if isinstance(lit, int) and lit == 0:
                continue
            row = self.payout[b]
            table = [row[min(c, len(row) - 1)] for c in range(most + 1)]
            if isinstance(lit, int) and isinstance(count, int):
                terms.append(table[min(count, most)])
                continue
            c = m.new_int_var(0, most, f"{name}_c{b}")
            m.add(c == count)
            v = m.new_int_var(0, max(table), f"{name}_v{b}")
            m.add_element(c, table, v)
            if isinstance(lit, int):
                terms.append(v)
            else:
                g = m.new_int_var(0, max(table), f"{name}_g{b}")
                m.add(g == v).only_enforce_if(lit)
                m.add(g == 0).only_enforce_if(lit.negated())
                terms.append(g)
        return sum(terms)

    def _empty(self, fl: _Field, name: str) -> Lit:
        if isinstance(fl.count, int):
            return int(fl.count == 0)
        e = self._bool(name)
        self.m.add(fl.count == 0).only_enforce_if(e)
        self.m.add(fl.count >= 1).only_enforce_if(e.negated())
        return e

    def _big(self, fl: _Field, name: str) -> Lit:
        if isinstance(fl.count, int):
            return int(fl.count >= 2)
        b = self._bool(name)
        self.m.add(fl.count >= 2).only_enforce_if(b)
        self.m.add(fl.count <= 1).only_enforce_if(b.negated())
        return b

    # ------------------------------------------------------------------ one batch
    def _batch(self, name: str, bt: Batch) -> None:
        """One batch (the module docstring: A, a purchase, B, a purchase, C); the seat's fields,
        coins and third field move on to the state after it. The parts add their variables and
        constraints in a fixed order (so the model's names and order are the same run to run)."""
        m = self.m
        beans = [b for b in self.beans if b in bt.counts]
        most = bt.most
        start = self.fields
        empty = [self._empty(fl, f"{name}_e{f}") for f, fl in enumerate(start)]
        big = [self._big(fl, f"{name}_big{f}") for f, fl in enumerate(start)]
        fs = [self._field_choices(name, f, fl, empty[f], beans, most) for f, fl in enumerate(start)]
        harv = [x.harv for x in fs]
        inner, inner_pay, lone = self._inner(name, beans, most)
        self._h4(big, harv, [x.single for x in fs], lone)
        gain = [x.gain for x in fs]
        buy_e, buy_l = self._purchase(name, gain, inner_pay)
        owned_b = self.owned + buy_e
        owned_c = owned_b + buy_l
        self._places(name, beans, empty, harv, inner, [x.finb for x in fs], owned_b, owned_c)
        for b in beans:  # every card of the batch is planted (T6)
            m.add(sum(fs[f].add.get(b, 0) for f in range(3)) + sum(fs[f].fin[b] for f in range(3))
                  + inner[b] == bt.counts[b])
        new_fields = [self._after(name, f, fl, empty[f], fs[f], most) for f, fl in enumerate(start)]
        self.batches.append(_BatchVars(bt, start, harv, [x.add for x in fs], [x.fin for x in fs], inner,
                                       buy_e, buy_l))
        self.coins = self.coins + sum(gain) + sum(inner_pay) - self.cost * (buy_e + buy_l)
        self.owned = owned_c if isinstance(owned_c, int) else _as_bool(m, owned_c, f"{name}_own")
        self.fields = new_fields

    def _field_choices(self, name: str, f: int, fl: _Field, empty: Lit, beans: list[int],
                       most: int) -> _FieldChoices:
        """Field ``f`` in the batch: the cards topped up onto it (its own bean, H3), whether its
        group is harvested in A (only with cards, H5) and what that pays, whether that group is a
        single card (H4), and the new group it holds at the end (one bean a field, H2)."""
        m = self.m
        if isinstance(empty, int) and empty == 1:
            h: Lit = 0
        else:
            h = self._bool(f"{name}_h{f}")
            if not isinstance(empty, int):
                m.add_implication(h, empty.negated())  # a harvest needs cards (H5)
        a = {}
        for b in beans:
            lit = fl.bean.get(b, 0)
            if isinstance(lit, int) and lit == 0:
                continue
            v = m.new_int_var(0, most, f"{name}_a{f}_{b}")
            if not isinstance(lit, int):
                m.add(v == 0).only_enforce_if(lit.negated())  # H3: onto its own bean only
            a[b] = v
        n_at = fl.most + most
        gain: Any
        single: Lit
        if isinstance(h, int) and h == 0:
            gain, single = 0, 0
        else:
            assert not isinstance(h, int)
            cnt = m.new_int_var(0, n_at, f"{name}_hc{f}")
            m.add(cnt == fl.count + sum(a.values()))
            pay = self._pay(fl, cnt, f"{name}_hp{f}", n_at)
            gain = m.new_int_var(0, 10_000, f"{name}_gain{f}")
            m.add(gain == pay).only_enforce_if(h)
            m.add(gain == 0).only_enforce_if(h.negated())
            single = self._bool(f"{name}_one{f}")  # a one-card group harvested (H4)
            m.add(cnt == 1).only_enforce_if([h, single])
            m.add(cnt != 1).only_enforce_if([h, single.negated()])
            m.add_implication(single, h)
        fb = {b: self._bool(f"{name}_fb{f}_{b}") for b in beans}
        fv = {b: m.new_int_var(0, most, f"{name}_f{f}_{b}") for b in beans}
        for b in beans:
            m.add(fv[b] >= 1).only_enforce_if(fb[b])
            m.add(fv[b] == 0).only_enforce_if(fb[b].negated())
        if beans:
            m.add_at_most_one(fb.values())  # one bean a field (H2)
        return _FieldChoices(h, a, gain, single, fv, fb)

    def _inner(self, name: str, beans: list[int], most: int
               ) -> tuple[dict[int, cp_model.IntVar], list[Any], list[cp_model.IntVar]]:
        """B: the cards of each bean planted and harvested inside the batch, what the best split
        into groups pays (C1), and whether they are exactly one card (a group of one, H4)."""
        m = self.m
        inner = {b: m.new_int_var(0, most, f"{name}_in{b}") for b in beans}
        inner_pay: list[Any] = []
        lone = []
        for b in beans:
            table = gain_table(self.payout[b], [], most)
            v = m.new_int_var(0, max(table), f"{name}_inp{b}")
            m.add_element(inner[b], table, v)
            inner_pay.append(v)
            one = self._bool(f"{name}_lone{b}")  # exactly one card: a group of one (H4)
            m.add(inner[b] == 1).only_enforce_if(one)
            m.add(inner[b] != 1).only_enforce_if(one.negated())
            lone.append(one)
        return inner, inner_pay, lone

    def _h4(self, big: list[Lit], harv: list[Lit], single: list[Lit], lone: list[cp_model.IntVar]) -> None:
        """H4: a one-card group (harvested in A, or grown in B) goes only if every field kept
        through the batch holds at most one card."""
        m = self.m
        for f in range(3):
            for other in range(3):
                if other == f or (isinstance(big[other], int) and big[other] == 0):
                    continue
                _clause(m, [(single[f], True), (big[other], True), (harv[other], False)])
        for one in lone:
            for other in range(3):
                if isinstance(big[other], int) and big[other] == 0:
                    continue
                _clause(m, [(one, True), (big[other], True), (harv[other], False)])

    def _purchase(self, name: str, gain: list[Any], inner_pay: list[Any]) -> tuple[Lit, Lit]:
        """The third field (F1): bought after A (with A's coins) or after B (with B's too), once."""
        m = self.m
        owned = self.owned
        if self.can_buy and not (isinstance(owned, int) and owned == 1):
            buy_e: Lit = self._bool(f"{name}_buyA")
            buy_l: Lit = self._bool(f"{name}_buyB")
            assert not isinstance(buy_e, int) and not isinstance(buy_l, int)
            m.add(owned + buy_e + buy_l <= 1)
            coins_a = self.coins + sum(gain)
            m.add(coins_a >= self.cost).only_enforce_if(buy_e)
            m.add(coins_a + sum(inner_pay) >= self.cost).only_enforce_if(buy_l)
            return buy_e, buy_l
        return 0, 0

    def _places(self, name: str, beans: list[int], empty: list[Lit], harv: list[Lit],
                inner: dict[int, cp_model.IntVar], finb: list[dict[int, cp_model.IntVar]], owned_b: Lit,
                owned_c: Lit) -> None:
        """Where B and C may go: a free field (empty at the start or harvested in A; the third only
        once owned, ``owned_b`` for B and ``owned_c`` for C) hosts B's groups, if any, and holds
        C's new group."""
        m = self.m
        free = []
        for f in range(3):
            fr = self._bool(f"{name}_free{f}")
            _clause(m, [(fr, True), (empty[f], False), (harv[f], False)])
            free.append(fr)
        host = []
        for f in range(3):
            hs = self._bool(f"{name}_host{f}")
            m.add_implication(hs, free[f])
            if f >= self.nf0:
                if isinstance(owned_b, int):
                    if owned_b == 0:
                        m.add(hs == 0)
                else:
                    m.add(hs <= owned_b)
            host.append(hs)
        if beans:
            any_inner = self._bool(f"{name}_inner")
            m.add(sum(inner.values()) >= 1).only_enforce_if(any_inner)
            m.add(sum(inner.values()) == 0).only_enforce_if(any_inner.negated())
            m.add(sum(host) >= any_inner)
        for f in range(3):
            for b in beans:
                m.add_implication(finb[f][b], free[f])
                if f >= self.nf0:
                    if isinstance(owned_c, int):
                        if owned_c == 0:
                            m.add(finb[f][b] == 0)
                    else:
                        m.add(finb[f][b] <= owned_c)

    def _after(self, name: str, f: int, fl: _Field, empty: Lit, x: _FieldChoices, most: int) -> _Field:
        """Field ``f`` after the batch: its group kept (not empty, not harvested) and topped up, plus
        C's cards; its bean the kept one or C's new one."""
        m = self.m
        h = x.harv
        kept: Lit
        if isinstance(empty, int) and empty == 1:
            kept = 0
        elif isinstance(h, int):  # nothing to harvest: kept unless empty
            kept = empty.negated() if not isinstance(empty, int) else 1 - empty
        else:
            kept = self._bool(f"{name}_kept{f}")
            _clause(m, [(kept, False), (empty, False), (h, False)])
            m.add_implication(kept, h.negated())
            if not isinstance(empty, int):
                m.add_implication(kept, empty.negated())
        bean: dict[int, Lit] = {}
        for b in self.beans:
            old = fl.bean.get(b, 0)
            fb_b = x.finb.get(b, 0)
            if isinstance(old, int) and isinstance(kept, int):
                keep_b: Lit = old * kept
            else:
                keep_b = self._bool(f"{name}_kb{f}_{b}")
                _clause(m, [(keep_b, True), (old, False)])
                _clause(m, [(keep_b, True), (kept, False)])
                _clause(m, [(old, True), (kept, True), (keep_b, False)])
            if isinstance(keep_b, int) and isinstance(fb_b, int):
                bean[b] = keep_b + fb_b
            else:
                nb = self._bool(f"{name}_nb{f}_{b}")
                m.add(nb == keep_b + fb_b)
                bean[b] = nb
        n_most = fl.most + most
        cnt = m.new_int_var(0, n_most, f"{name}_nc{f}")
        kc = m.new_int_var(0, n_most, f"{name}_kc{f}")
        if isinstance(kept, int):
            m.add(kc == (fl.count + sum(x.add.values())) * kept)
        else:
            m.add(kc == fl.count + sum(x.add.values())).only_enforce_if(kept)
            m.add(kc == 0).only_enforce_if(kept.negated())
        m.add(cnt == kc + sum(x.fin.values()))
        return _Field(bean, cnt, n_most)

    # ------------------------------------------------------------------ reading a plan
    def ops(self, solver: cp_model.CpSolver) -> list[Op]:
        """The seat's steps in the order A, purchase, B, purchase, C (module docstring)."""
        def val(x: cp_model.LinearExprT) -> int:
            return x if isinstance(x, int) else int(solver.value(x))

        out: list[Op] = []
        for bv in self.batches:
            k = bv.batch.turn
            ph = 1 if bv.batch.kind in ("p1a", "p1b") else 3
            counts = [val(fl.count) for fl in bv.start]
            harvested = [f for f in range(3) if val(bv.harv[f])]
            harvested.sort(key=lambda f: -(counts[f] + sum(val(v) for v in bv.add[f].values())))
            for f in harvested:  # A: top up, then harvest, the fuller fields first (H4)
                for b, v in bv.add[f].items():
                    out += [Op("plant", f, b, k, ph)] * val(v)
                out.append(Op("harvest", f, 0, k, ph))
            if val(bv.buy_early):
                out.append(Op("buy", 0, 0, k, ph))
            inner = {b: val(v) for b, v in bv.inner.items() if val(v)}
            if inner:  # B: on a free field that no final group of this batch needs yet
                free = [f for f in range(3) if counts[f] == 0 or f in harvested]
                owned_b = val(self._owned_before(bv)) + val(bv.buy_early)
                free = [f for f in free if f < self.nf0 or owned_b]
                host = free[0]
                for b, n in inner.items():
                    for g in _best_split(self.payout[b], n):
                        out += [Op("plant", host, b, k, ph)] * g
                        out.append(Op("harvest", host, 0, k, ph))
            if val(bv.buy_late):
                out.append(Op("buy", 0, 0, k, ph))
            for f in range(3):  # C: kept fields topped up, new groups
                if f not in harvested:
                    for b, v in bv.add[f].items():
                        out += [Op("plant", f, b, k, ph)] * val(v)
                for b, v in bv.fin[f].items():
                    out += [Op("plant", f, b, k, ph)] * val(v)
        return out

    def _owned_before(self, bv: _BatchVars) -> Lit:
        i = self.batches.index(bv)
        if i == 0:
            return 1 if self.nf0 == 3 else 0
        prev = self.batches[i - 1]
        return _sum_lit(self._owned_before(prev), prev.buy_early, prev.buy_late)


def _sum_lit(*xs: Lit) -> Lit:
    return sum(xs)


def _clause(m: cp_model.CpModel, terms: list[tuple[Lit, bool]]) -> None:
    """Add the clause OR(lit, or its negation when the flag is set); 0/1 constants are folded."""
    lits = []
    for x, neg in terms:
        if isinstance(x, int):
            if (x == 1) != neg:
                return  # already true
            continue
        lits.append(x.negated() if neg else x)
    m.add_bool_or(lits)


def _as_bool(m: cp_model.CpModel, expr: cp_model.LinearExprT, name: str) -> cp_model.IntVar:
    b = m.new_bool_var(name)
    m.add(b == expr)
    return b


__all__ = ["SeatPlan", "Op", "Expr", "NO_BEAN"]
