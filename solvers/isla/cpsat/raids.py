"""La Isla Bohnita CP-SAT ``solo``: another seat's turn with a pirate ship, its attack rounds and
P's answers (I7, ``isla_policy``)."""

from __future__ import annotations

from typing import Any

from solvers.isla.cpsat.base import ModelBase
from solvers.isla.cpsat.state import ShipVars, State, hi
from solvers.isla.cpsat.timeline import NO_BEAN

Var = Any  # a CP-SAT variable or expression of the model (its type is loaded with CP-SAT)


class RaidModel(ModelBase):
    """The model's frame and the other seats' raids."""

    def raid_turn(self, st: State, k: int, q: int) -> State:
        """I7: seat ``q``'s pirate attacks, round after round, the fullest valid cargo first. The
        parts add their constraints in a fixed order (the same model run to run)."""
        m, p = self.m, self.p
        targets: list[tuple[int, int]] = [(p, 0), (p, 1)]
        for r in st.others:
            if r != q:
                n = len(self.isla.fleets[r].merchants)
                targets += [(r, i) for i in range(n)]
        done = {t: m.new_constant(0) for t in targets}
        pirate = st.others[q][-1]
        for rnd in range(len(targets)):
            name = f"t{k}r{rnd}"
            pick, cargo = self._attack(st, name, targets, done, pirate)
            st, done, pirate = self._answers(st, name, q, targets, pick, cargo, done, pirate)
        return st

    def _attack(self, st: State, name: str, targets: list[tuple[int, int]], done: dict[tuple[int, int], Var],
                pirate: tuple[Var, Var]) -> tuple[list[Var], list[tuple[Var, Var]]]:
        """One round's attack (``isla_policy``): of the valid targets (a cargo the pirate's fits, not
        attacked yet this turn; P's ships at home and owned), the first by cargo, then the lower
        seat, bean and ship; the pirate attacks while it can. Per target: picked, and its cargo."""
        m, p = self.m, self.p
        pirate_b, pirate_c = pirate
        keys, valid, cargo = [], [], []
        for (r, i) in targets:
            if r == p:
                sh = st.ships[i]
                b, c = sh.bean, sh.count
                home = self.eq(sh.at, 0, f"{name}_home{i}")
                ready = [home, sh.owned]
            else:
                b, c = st.others[r][i]
                ready = []
            cargo.append((b, c))
            full = self.ge(c, 1, f"{name}_full{r}_{i}")
            fit = self.fits(pirate_b, pirate_c, b, f"{name}_fit{r}_{i}")
            v = m.new_bool_var(f"{name}_valid{r}_{i}")
            conds = [st.alive, full, fit, done[(r, i)].negated(), *ready]
            m.add_bool_and(conds).only_enforce_if(v)
            m.add_bool_or([x.negated() for x in conds] + [v])
            valid.append(v)
            key = self.var(-1, (self.cmax + 1) * 1000, f"{name}_key{r}_{i}")
            # the rank: cargo, then the lower seat, the lower bean, the lower ship (isla_policy)
            m.add(key == c * 1000 + (9 - r) * 40 + (15 - b) * 2 + (1 - i)).only_enforce_if(v)
            m.add(key == -1).only_enforce_if(v.negated())
            keys.append(key)
        pick = [m.new_bool_var(f"{name}_pick{r}_{i}") for (r, i) in targets]
        top = self.var(-1, (self.cmax + 1) * 1000, f"{name}_top")
        m.add_max_equality(top, keys)
        for j, lit in enumerate(pick):
            m.add_implication(lit, valid[j])
            m.add(keys[j] == top).only_enforce_if(lit)
        some = m.new_bool_var(f"{name}_some")
        m.add(some == sum(pick))
        m.add_bool_or(valid + [some.negated()])
        for v in valid:  # the pirate attacks while it can (isla_policy)
            m.add_implication(v, some)
        return pick, cargo

    def _answers(self, st: State, name: str, q: int, targets: list[tuple[int, int]], pick: list[Var],
                 cargo: list[tuple[Var, Var]], done: dict[tuple[int, int], Var],
                 pirate: tuple[Var, Var]) -> tuple[State, dict[tuple[int, int], Var], tuple[Var, Var]]:
        """The round's answer (I7): P chooses to sell or yield; another seat sells when the cargo
        pays. The state after it, the targets attacked so far, and ``q``'s pirate ship."""
        m, p = self.m, self.p
        new_done = {}
        yields = []
        fleet_p = list(st.ships)
        others = {r: list(slots) for r, slots in st.others.items()}
        gain_p = []
        for j, (r, i) in enumerate(targets):
            lit = pick[j]
            b, c = cargo[j]
            now = m.new_bool_var(f"{name}_done{r}_{i}")
            m.add_max_equality(now, [done[(r, i)], lit])
            new_done[(r, i)] = now
            value = self.pay(b, c, f"{name}_pay{r}_{i}")
            pays = self.ge(value, 1, f"{name}_pays{r}_{i}")
            sold = m.new_bool_var(f"{name}_sold{r}_{i}")
            m.add_implication(sold, lit)
            m.add_implication(sold, pays)
            if r != p:
                m.add_bool_or([lit.negated(), pays.negated(), sold])
            else:
                self.answers.append((lit, sold))
                gain_p.append(self._sold_cargo(name, i, value, sold, b, c))
            y = m.new_bool_var(f"{name}_y{r}_{i}")
            m.add_bool_and([lit, sold.negated()]).only_enforce_if(y)
            m.add_bool_or([lit.negated(), sold, y])
            if r == p:
                self.lost.append(y)
            yields.append((y, b))
            nb, nc = self.bean_var(f"{name}_nb{r}_{i}"), self.var(0, hi(c), f"{name}_nc{r}_{i}")
            m.add(nc == 0).only_enforce_if(sold)
            m.add(nc == c - 1).only_enforce_if(y)
            self.keep(nc, c, [lit])
            emptied = self.eq(nc, 0, f"{name}_emp{r}_{i}")
            m.add(nb == NO_BEAN).only_enforce_if(emptied)
            m.add(nb == b).only_enforce_if(emptied.negated())
            if r == p:
                sh = st.ships[i]
                fleet_p[i] = ShipVars(nb, nc, sh.at, sh.owned)
            else:
                others[r][i] = (nb, nc)
        pirate_b, pirate_c = pirate
        pb, pc = self.bean_var(f"{name}_pb"), self.var(0, hi(pirate_c) + 1, f"{name}_pc")
        for y, b in yields:  # a yielded card goes onto the pirate
            m.add(pb == b).only_enforce_if(y)
            m.add(pc == pirate_c + 1).only_enforce_if(y)
        self.keep(pb, pirate_b, [y for y, _ in yields])
        self.keep(pc, pirate_c, [y for y, _ in yields])
        others[q][-1] = (pb, pc)
        coins = st.coins
        if gain_p:
            coins = self.var(0, self.coin_max, f"{name}_coins")
            m.add(coins == st.coins + sum(gain_p))
        after = State(st.fb, st.fc, st.own3, coins, fleet_p, st.rows, st.pos, others, st.alive)
        return after, new_done, (pb, pc)

    def _sold_cargo(self, name: str, i: int, value: Var, sold: Var, b: Var, c: Var) -> Var:
        """P sells its attacked ship ``i``'s cargo (I7): the coins, and the group sold (C1 bound)."""
        m = self.m
        g = self.var(0, self.coin_max, f"{name}_g{i}")
        m.add(g == value).only_enforce_if(sold)
        m.add(g == 0).only_enforce_if(sold.negated())
        cs = self.var(0, hi(c), f"{name}_cs{i}")
        m.add(cs == c).only_enforce_if(sold)
        m.add(cs == 0).only_enforce_if(sold.negated())
        self.groups.append((g, cs, b))
        return g
