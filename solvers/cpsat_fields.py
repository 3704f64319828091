"""One seat's fields, coins and third field in a CP-SAT model, advanced placement by placement.

Written from the rules (H2-H5, F1, C1, E3), not from the engine's code. Every placement is one
card planted from anywhere (hand front, face-up or set-aside: the caller decides which card and
whether it happens); before it comes a batch of harvests and maybe the purchase of the third
field. H6 lets a seat harvest whenever it is to move, and its fields change only when it plants,
so batching every harvest just before a placement (or into the final harvest) loses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from model import PlayerState, Setup
from solvers.cpsat_lazy import cp_model

NO_BEAN = -1


@dataclass
class Event:
    """One placement in the model: its harvest batch, purchase and field choice (CP-SAT literals)."""

    card: cp_model.LinearExprT
    hv: list[cp_model.IntVar]
    buy: cp_model.IntVar
    x: list[cp_model.IntVar]
    quiet: cp_model.IntVar  # no harvest and no purchase before this placement


@dataclass
class Step:
    """One placement of a solution: fields harvested before it, a purchase, where it goes."""

    harvest: list[int]
    buy: bool
    field: int | None  # None: this planting is not made
    card: int


def read_step(solver: cp_model.CpSolver, ev: Event) -> Step:
    return Step(harvest=[f for f in range(3) if solver.value(ev.hv[f])], buy=bool(solver.value(ev.buy)),
                field=next((f for f in range(3) if solver.value(ev.x[f])), None),
                card=int(solver.value(ev.card)))


class Seat:
    """The fields (bean, count; bean -1 when empty), the coins and the third field of one seat."""

    def __init__(self, model: cp_model.CpModel, pl: PlayerState, su: Setup, name: str,
                 beans: set[int]) -> None:
        """``beans``: every bean this seat might ever plant (tight domains keep the model small)."""
        self.model, self.name = model, name
        self.nf0 = len(pl.fields)
        self.can_buy = su.third_cost is not None and self.nf0 == 2
        self.cost = su.third_cost or 0
        self.payout = su.payout
        self.top = max(max(r) for r in su.payout)
        self.bean_set = sorted(beans | {f.bean for f in pl.fields if f.count})
        self.bean_dom = cp_model.Domain.from_values([NO_BEAN] + self.bean_set)
        m = model
        self.beans = [m.new_constant(pl.fields[f].bean if f < self.nf0 and pl.fields[f].count else NO_BEAN)
                      for f in range(3)]
        self.counts = [m.new_constant(pl.fields[f].count if f < self.nf0 else 0) for f in range(3)]
        self.most = [pl.fields[f].count if f < self.nf0 else 0 for f in range(3)]  # count bounds
        self.owned3: cp_model.IntVar = m.new_constant(1 if self.nf0 == 3 else 0)
        self.coins: cp_model.IntVar = m.new_constant(len(pl.coins))
        self.coins_most = len(pl.coins)
        self.events: list[Event] = []

    def _bean_var(self, name: str) -> cp_model.IntVar:
        return self.model.new_int_var_from_domain(self.bean_dom, name)

    def pay(self, bean: cp_model.IntVar, count: cp_model.IntVar, most: int, name: str) -> cp_model.IntVar:
        """C1: the coins a field of ``count`` (at most ``most``) cards of ``bean`` pays when harvested."""
        rows = [(NO_BEAN, 0, 0)]
        for b in self.bean_set:
            row = self.payout[b]
            rows += [(b, c, row[min(c, len(row) - 1)]) for c in range(1, most + 1)]
        out = self.model.new_int_var(0, max(r[2] for r in rows), name)
        self.model.add_allowed_assignments([bean, count, out], rows)
        return out

    def place(self, name: str, card: cp_model.LinearExprT, happens: cp_model.IntVar | int) -> Event:
        """Harvest a batch (H4 lenient, H5), maybe buy the third field (F1), plant ``card`` (H3)."""
        m = self.model
        name = f"{self.name}_{name}"
        hv, gain, singles = self._harvest(name, happens)
        mid_b, mid_c = self._left_after(name, hv)
        buy, new_owned, coins_after = self._buy(name, happens, self.coins + cp_model.LinearExpr.sum(gain))
        x, nb, nc = self._plant(name, card, happens, mid_b, mid_c, new_owned)
        self.coins_most += 3 * self.top
        coins = m.new_int_var(0, self.coins_most, f"{name}_coins")
        m.add(coins == coins_after)
        quiet = self._canonical_timing(name, hv, singles, x, buy)
        ev = Event(card, hv, buy, x, quiet)
        self.events.append(ev)
        self.beans, self.counts, self.owned3, self.coins = nb, nc, new_owned, coins
        return ev

    def _harvest(self, name: str, happens: cp_model.IntVar | int
                 ) -> tuple[list[cp_model.IntVar], list[cp_model.IntVar], list[cp_model.IntVar]]:
        """The batch harvested before the placement: one literal per field, the coins each pays (H5)
        and whether it holds one card; a one-card field goes only if every fuller field goes (H4,
        lenient). A placement not made harvests nothing."""
        m = self.model
        beans, counts, owned3 = self.beans, self.counts, self.owned3
        hv = [m.new_bool_var(f"{name}_h{f}") for f in range(3)]
        if not isinstance(happens, int):  # a placement not made harvests nothing: the harvest
            for h in hv:  # can wait for the next placement, where the fields are the same
                m.add_implication(h, happens)
        gain = []
        singles = []
        for f in range(3):
            if f >= self.nf0:  # the third field is harvested only once bought
                m.add_implication(hv[f], owned3)
            m.add(counts[f] >= 1).only_enforce_if(hv[f])
            value = self.pay(beans[f], counts[f], self.most[f], f"{name}_pay{f}")
            g = m.new_int_var(0, self.top, f"{name}_gain{f}")
            m.add(g == value).only_enforce_if(hv[f])
            m.add(g == 0).only_enforce_if(hv[f].negated())
            gain.append(g)
            # H4 (lenient): a one-card field goes only if every fuller field goes in the batch
            single = m.new_bool_var(f"{name}_single{f}")
            m.add(counts[f] == 1).only_enforce_if(single)
            m.add(counts[f] != 1).only_enforce_if(single.negated())
            singles.append(single)
            for g2 in range(3):
                if g2 != f:
                    big = m.new_bool_var(f"{name}_big{f}{g2}")
                    m.add(counts[g2] >= 2).only_enforce_if(big)
                    m.add(counts[g2] <= 1).only_enforce_if(big.negated())
                    m.add_bool_or([hv[f].negated(), single.negated(), big.negated(), hv[g2]])
        return hv, gain, singles

    def _left_after(self, name: str, hv: list[cp_model.IntVar]
                    ) -> tuple[list[cp_model.IntVar], list[cp_model.IntVar]]:
        """Each field's bean and count after the harvest: empty where harvested, else as it was."""
        m = self.model
        mid_b = [self._bean_var(f"{name}_mb{f}") for f in range(3)]
        mid_c = [m.new_int_var(0, self.most[f], f"{name}_mc{f}") for f in range(3)]
        for f in range(3):
            m.add(mid_b[f] == NO_BEAN).only_enforce_if(hv[f])
            m.add(mid_c[f] == 0).only_enforce_if(hv[f])
            m.add(mid_b[f] == self.beans[f]).only_enforce_if(hv[f].negated())
            m.add(mid_c[f] == self.counts[f]).only_enforce_if(hv[f].negated())
        return mid_b, mid_c

    def _buy(self, name: str, happens: cp_model.IntVar | int, coins_mid: cp_model.LinearExpr
             ) -> tuple[cp_model.IntVar, cp_model.IntVar, cp_model.LinearExpr]:
        """F1: the third field bought, once, with the coins after the harvest; the literal, whether
        it is owned after, and the coins left."""
        m = self.model
        owned3 = self.owned3
        buy = m.new_bool_var(f"{name}_buy")
        if not isinstance(happens, int):
            m.add_implication(buy, happens)
        if self.can_buy:
            m.add_implication(buy, owned3.negated())
            m.add(coins_mid >= self.cost).only_enforce_if(buy)
            new_owned = m.new_bool_var(f"{name}_owned3")
            m.add(new_owned == owned3 + buy)  # buy implies not owned: at most one
            return buy, new_owned, coins_mid - self.cost * buy
        m.add(buy == 0)
        return buy, owned3, coins_mid

    def _plant(self, name: str, card: cp_model.LinearExprT, happens: cp_model.IntVar | int,
               mid_b: list[cp_model.IntVar], mid_c: list[cp_model.IntVar], new_owned: cp_model.IntVar
               ) -> tuple[list[cp_model.IntVar], list[cp_model.IntVar], list[cp_model.IntVar]]:
        """``card`` onto one field (when the placement happens) that is empty or holds its type (H3),
        the third only once owned; the literals and each field's bean and count after."""
        m = self.model
        x = [m.new_bool_var(f"{name}_x{f}") for f in range(3)]
        m.add(sum(x) == happens)
        nb = [self._bean_var(f"{name}_b{f}") for f in range(3)]
        self.most = [c + 1 for c in self.most]
        nc = [m.new_int_var(0, self.most[f], f"{name}_c{f}") for f in range(3)]
        for f in range(3):
            if f >= self.nf0:
                m.add_implication(x[f], new_owned)
            fits = m.new_bool_var(f"{name}_fits{f}")  # H3: empty, or the card's own type
            m.add(mid_c[f] == 0).only_enforce_if([x[f], fits.negated()])
            m.add(mid_b[f] == card).only_enforce_if([x[f], fits])
            m.add(nb[f] == card).only_enforce_if(x[f])
            m.add(nc[f] == mid_c[f] + 1).only_enforce_if(x[f])
            m.add(nb[f] == mid_b[f]).only_enforce_if(x[f].negated())
            m.add(nc[f] == mid_c[f]).only_enforce_if(x[f].negated())
        return x, nb, nc

    def _canonical_timing(self, name: str, hv: list[cp_model.IntVar], singles: list[cp_model.IntVar],
                          x: list[cp_model.IntVar], buy: cp_model.IntVar) -> cp_model.IntVar:
        """Canonical harvest timing (removes equivalent plans, keeps an optimal one): a field of
        two or more cards is harvested just before a card goes onto it, or to pay for the third
        field, or so that a one-card field can go in the same batch (H4). Any other such harvest
        can wait: the field does not change until then, so it pays the same (and H4 never stops
        it), and the end harvests it anyway (E3). A one-card field may go at any time: waiting
        could be illegal, once another field has grown past one card (H4). Returns the literal of
        a placement that harvests and buys nothing."""
        m = self.model
        freed = []
        for f in range(3):
            lit = m.new_bool_var(f"{name}_freed{f}")  # a one-card field harvested
            m.add_bool_and([hv[f], singles[f]]).only_enforce_if(lit)
            m.add_bool_or([hv[f].negated(), singles[f].negated(), lit])
            freed.append(lit)
        for f in range(3):
            m.add_bool_or([hv[f].negated(), x[f], buy, singles[f]] + [freed[g] for g in range(3) if g != f])
        quiet = m.new_bool_var(f"{name}_quiet")
        m.add_bool_or(hv + [buy, quiet])
        for lit in hv + [buy]:
            m.add_implication(lit, quiet.negated())
        return quiet

    def final(self) -> cp_model.IntVar:
        """E3: the coins at the end, every field harvested (H4 does not apply)."""
        m = self.model
        out = m.new_int_var(0, self.coins_most + 3 * self.top, f"{self.name}_final")
        pays = [self.pay(b, c, most, f"{self.name}_final{f}")
                for f, (b, c, most) in enumerate(zip(self.beans, self.counts, self.most, strict=True))]
        m.add(out == self.coins + cp_model.LinearExpr.sum(pays))
        return out
