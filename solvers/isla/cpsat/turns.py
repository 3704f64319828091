"""La Isla Bohnita CP-SAT ``solo``: P's turns step by step (I3-I7, T1, T5, H3-H5, C1), the refill
after P's draw (I2, E2) and the whole model with its end (E3, I8) and redundant bound."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from model import (
    Action,
    Attack,
    BuyField,
    BuyShip,
    GameState,
    Harvest,
    HarvestOnto,
    MoveCargo,
    Phase,
    Plant,
    PlantUp,
    Sail,
    Sell,
)
from solvers.contract import SolveError
from solvers.cpsat_lazy import cp_model
from solvers.isla.cpsat.bounds import sound_steps
from solvers.isla.cpsat.raids import RaidModel
from solvers.isla.cpsat.state import RATE, ROW_CARDS, LInt, Segment, ShipVars, State, Step, hi
from solvers.isla.cpsat.timeline import NO_BEAN, TurnInfo


@dataclass
class _Menu:
    """The action literals of one of P's steps as they are made (``lits``: exactly one holds), each
    also a ``Step`` of the segment ``seg`` (how the line is read back and what commutes)."""

    m: cp_model.CpModel
    name: str
    seg: list[Step]
    lits: list[cp_model.IntVar] = field(default_factory=list)

    def act(self, label: str, make: Callable[[GameState], Action], reads: set[str], writes: set[str],
            coins: int = 0) -> cp_model.IntVar:
        lit = self.m.new_bool_var(f"{self.name}_{label}")
        self.lits.append(lit)
        self.seg.append(Step(lit, make, frozenset(reads | writes), frozenset(writes), coins))
        return lit


@dataclass(frozen=True)
class _Acts:
    """P's choices in one step, by kind (``IslaModel._choices``)."""

    noop: cp_model.IntVar
    plant_f: list[list[tuple[cp_model.IntVar, LInt]]]  # per field: (planting literal, its card)
    any_hand: cp_model.IntVar  # a hand card is planted
    harvest: list[cp_model.IntVar]  # per field
    onto: list[list[cp_model.IntVar]]  # per field, per merchant ship: harvested onto it (I5)
    sell: list[cp_model.IntVar]  # per ship (I6)
    moves: dict[tuple[int, int], cp_model.IntVar]  # (from ship, to merchant ship): cargo moved (I6)
    buy3: cp_model.IntVar
    buyship: cp_model.IntVar
    buypirate: cp_model.IntVar
    sails: dict[tuple[int, int], cp_model.IntVar]  # (merchant ship, port) (I4)
    takes: list[cp_model.IntVar]  # per row: the cards a sail there loads
    attacks: dict[tuple[int, int], cp_model.IntVar]  # (seat, its merchant ship) (I7)


@dataclass(frozen=True)
class _Raids:
    """What P's attacks in one step leave (``IslaModel._raids``)."""

    yields: list[tuple[cp_model.IntVar, cp_model.IntVar]]  # (the target yields a card, its bean)
    others: dict[int, list[tuple[cp_model.IntVar, cp_model.IntVar]]]  # the other seats' ships after
    attacked: dict[tuple[int, int], cp_model.IntVar]  # the ships attacked this turn so far
    captured: cp_model.IntVar  # P's pirate has taken a card this turn
    any_yield: cp_model.IntVar


class IslaModel(RaidModel):
    """The CP-SAT model of Isla ``solo P`` (the package's docstring)."""

    # ------------------------------------------------------------ one of P's steps

    def p_step(self, st: State, name: str, phase: Phase, ups: list[cp_model.IntVar] | None,
               face: tuple[int, ...], attacked: dict[tuple[int, int], cp_model.IntVar],
               captured: cp_model.IntVar, seg: list[Step]) -> tuple[State, cp_model.IntVar, cp_model.IntVar,
                                                                    cp_model.IntVar, cp_model.IntVar]:
        """One action of P or nothing; returns the new state, the nothing literal, the hand-planting
        literal, the sail literal and the new ``captured``. ``ups``: per face-up card, whether it
        is planted in this step (phase 2). The parts add their constraints in a fixed order (the
        model, and so CP-SAT's search, is the same from run to run)."""
        m = self.m
        menu = _Menu(m, name, seg)
        acts = self._choices(menu, st, phase, ups, face)
        fb, fc = self._fields(st, name, acts)
        gain = self._sale(st, name, acts)
        own3, coins = self._purchases(st, name, acts, gain)
        rows, fronts = self._rows(st, name, acts)
        raids = self._raids(st, name, acts, attacked, captured)
        self.ins += [acts.any_hand, raids.any_yield, *acts.takes, *(ups or [])]
        ships = [self._ship(st, name, i, acts, fronts, raids.yields, captured) for i in range(3)]
        pos = self.var(0, len(self.hand), f"{name}_pos")
        m.add(pos == st.pos + acts.any_hand)
        attacked.clear()
        attacked.update(raids.attacked)
        sail_any = m.new_bool_var(f"{name}_sail")
        m.add(sail_any == sum(acts.sails.values()))
        after = State(fb, fc, own3, coins, ships, rows, pos, raids.others, st.alive)
        return after, acts.noop, acts.any_hand, sail_any, raids.captured

    def _choices(self, menu: _Menu, st: State, phase: Phase, ups: list[cp_model.IntVar] | None,
                 face: tuple[int, ...]) -> _Acts:
        """Every action P may take in the step, one literal each, and nothing: exactly one holds."""
        m, p, name = self.m, self.p, menu.name
        act = menu.act
        fields = {"f0", "f1", "f2", "own3"}  # a harvest reads every field (H4)
        noop = m.new_bool_var(f"{name}_noop")
        menu.lits.append(noop)
        m.add_implication(st.alive.negated(), noop)
        plant_f, any_hand = self._plantings(menu, st, phase, ups, face)
        # -- harvests (H4, H5, I5)
        harvest = [act(f"harvest{f}", _now(Harvest(p, f)), fields, {f"f{f}"}, 1) for f in range(3)]
        onto = [[act(f"onto{f}_{i}", _now(HarvestOnto(p, f, i)), fields, {f"f{f}", f"s{i}"})
                 for i in range(2)] for f in range(3)]
        sell = [act(f"sell{i}", _now(Sell(p, i)), set(), {f"s{i}"}, 1) for i in range(3)]
        moves = {(i, j): act(f"move{i}_{j}", _now(MoveCargo(p, i, j)), {"captured"},
                             {f"s{i}", f"s{j}"}) for i in range(3) for j in range(2) if i != j}
        buy3 = act("buy3", _now(BuyField(p)), set(), {"own3"}, -1)
        buyship = act("buyship", _now(BuyShip(p, False)), set(), {"s1"}, -1)
        buypirate = act("buypirate", _now(BuyShip(p, True)), set(), {"s2"}, -1)
        for kind, lit in enumerate((buy3, buyship, buypirate)):
            self.buys[kind].append(lit)
        sails: dict[tuple[int, int], cp_model.IntVar] = {}
        takes = [self.var(0, ROW_CARDS, f"{name}_take{r}") for r in range(2)]
        if phase == Phase.TRADE:
            for i in range(2):
                for port in range(3):
                    take = takes[port - 1] if port else None
                    sails[(i, port)] = act(
                        f"sail{i}_{port}",
                        self._sail(p, i, port, take),
                        set(), {f"s{i}", f"row{port}"} if port else {f"s{i}"})
        attacks: dict[tuple[int, int], cp_model.IntVar] = {}
        if phase == Phase.TRADE:
            for q, slots in st.others.items():
                has_pirate = self.isla.fleets[q].pirate is not None
                for i in range(len(slots) - (1 if has_pirate else 0)):
                    attacks[(q, i)] = act(f"attack{q}_{i}", _now(Attack(p, q, i)), set(),
                                          {"s2", "captured", f"o{q}_{i}"})
        m.add_exactly_one(menu.lits)
        return _Acts(noop, plant_f, any_hand, harvest, onto, sell, moves, buy3, buyship, buypirate, sails,
                     takes, attacks)

    def _plantings(self, menu: _Menu, st: State, phase: Phase, ups: list[cp_model.IntVar] | None,
                   face: tuple[int, ...]) -> tuple[list[list[tuple[cp_model.IntVar, LInt]]], cp_model.IntVar]:
        """The plantings (H3; T1 the hand's front card, I3 a face-up card): per field, each planting
        literal with its card, and the literal that a hand card is planted."""
        m, p, name = self.m, self.p, menu.name
        plant_f: list[list[tuple[cp_model.IntVar, LInt]]] = [[] for _ in range(3)]
        hand_lits: list[cp_model.IntVar] = []
        if phase == Phase.PLANT:
            at = self.var(0, max(len(self.hand) - 1, 0), f"{name}_at")
            card = self.var(NO_BEAN, max(self.beans), f"{name}_card")
            m.add_element(at, list(self.hand) or [NO_BEAN], card)
            for f in range(3):
                lit = menu.act(f"plant{f}", _now(Plant(p, f)), {"own3"}, {"hand", f"f{f}"})
                hand_lits.append(lit)
                plant_f[f].append((lit, card))
            any_hand = m.new_bool_var(f"{name}_hand")
            m.add(any_hand == sum(hand_lits))
            m.add(at == st.pos).only_enforce_if(any_hand)
            m.add(at == 0).only_enforce_if(any_hand.negated())
        else:
            any_hand = m.new_constant(0)
        if ups is not None:
            for j, b in enumerate(face):
                here = []
                for f in range(3):
                    lit = menu.act(f"up{j}_{f}", _plant_up(p, b, f), {"own3"},
                                   {f"up{j}", f"f{f}"})
                    plant_f[f].append((lit, b))
                    here.append(lit)
                m.add(ups[j] == sum(here))
        return plant_f, any_hand

    def _fields(self, st: State, name: str,
                acts: _Acts) -> tuple[list[cp_model.IntVar], list[cp_model.IntVar]]:
        """The fields after the step: emptied by a harvest (H4 lenient: a single goes only while no
        other field holds more; the third only if owned), or grown by a planting that fits."""
        m = self.m
        single = [self.eq(st.fc[f], 1, f"{name}_single{f}") for f in range(3)]
        big = [self.ge(st.fc[f], 2, f"{name}_big{f}") for f in range(3)]
        fb = [self.bean_var(f"{name}_fb{f}") for f in range(3)]
        fc = [self.var(0, hi(st.fc[f]) + (1 if acts.plant_f[f] else 0), f"{name}_fc{f}") for f in range(3)]
        for f in range(3):
            out = [acts.harvest[f]] + acts.onto[f]
            gone = m.new_bool_var(f"{name}_gone{f}")
            m.add(gone == sum(out))
            m.add(st.fc[f] >= 1).only_enforce_if(gone)
            if f >= self.nf0:
                m.add_implication(gone, st.own3)
            for g in range(3):  # H4 lenient: a single goes only while no other field holds more
                if g != f:
                    m.add_bool_or([gone.negated(), single[f].negated(), big[g].negated()])
            m.add(fb[f] == NO_BEAN).only_enforce_if(gone)
            m.add(fc[f] == 0).only_enforce_if(gone)
            planted = []
            for plit, pcard in acts.plant_f[f]:
                planted.append(plit)
                if f >= self.nf0:
                    m.add_implication(plit, st.own3)
                ok = self.fits(st.fb[f], st.fc[f], pcard, f"{name}_fit{f}_{len(planted)}")
                m.add_implication(plit, ok)
                m.add(fb[f] == pcard).only_enforce_if(plit)
                m.add(fc[f] == st.fc[f] + 1).only_enforce_if(plit)
            self.keep(fb[f], st.fb[f], [gone, *planted])
            self.keep(fc[f], st.fc[f], [gone, *planted])
        return fb, fc

    def _sale(self, st: State, name: str, acts: _Acts) -> cp_model.IntVar:
        """What is sold in the step, one field or one ship (C1, I6; a ship only for at least one
        coin), and the coins it pays."""
        m = self.m
        sold_b = self.bean_var(f"{name}_sb")
        sold_c = self.var(0, max(hi(v) for v in [*st.fc, *(sh.count for sh in st.ships)]), f"{name}_sc")
        sources = [(acts.harvest[f], st.fb[f], st.fc[f]) for f in range(3)]
        sources += [(acts.sell[i], st.ships[i].bean, st.ships[i].count) for i in range(3)]
        for slit, sbean, scount in sources:
            m.add(sold_b == sbean).only_enforce_if(slit)
            m.add(sold_c == scount).only_enforce_if(slit)
        selling = m.new_bool_var(f"{name}_selling")
        m.add(selling == sum(lit for lit, _, _ in sources))
        m.add(sold_b == NO_BEAN).only_enforce_if(selling.negated())
        m.add(sold_c == 0).only_enforce_if(selling.negated())
        gain = self.pay(sold_b, sold_c, f"{name}_gain")
        self.groups.append((gain, sold_c, sold_b))
        for i in range(3):
            m.add(st.ships[i].count >= 1).only_enforce_if(acts.sell[i])
            m.add(gain >= 1).only_enforce_if(acts.sell[i])  # I6: only for at least one coin
        return gain

    def _purchases(self, st: State, name: str, acts: _Acts,
                   gain: cp_model.IntVar) -> tuple[cp_model.IntVar, cp_model.IntVar]:
        """The purchases (F1, I1: a third field, a merchant ship, a pirate ship, each once and paid
        for), and P's coins after the step."""
        m = self.m
        buy3, buyship, buypirate = acts.buy3, acts.buyship, acts.buypirate
        own3 = m.new_bool_var(f"{name}_own3")
        if self.third_cost is not None and self.nf0 == 2:
            m.add_implication(buy3, st.own3.negated())
            m.add(own3 == st.own3 + buy3)
        else:
            m.add(buy3 == 0)
            m.add(own3 == st.own3)
        m.add(st.coins >= (self.third_cost or 0)).only_enforce_if(buy3)
        m.add_implication(buyship, st.ships[1].owned.negated())
        m.add(st.coins >= self.ship_cost).only_enforce_if(buyship)
        m.add_implication(buypirate, st.ships[2].owned.negated())
        m.add(st.coins >= self.pirate_cost).only_enforce_if(buypirate)
        coins = self.var(0, self.coin_max, f"{name}_coins")
        m.add(coins == st.coins + gain - (self.third_cost or 0) * buy3 - self.ship_cost * buyship
              - self.pirate_cost * buypirate)
        return own3, coins

    def _rows(self, st: State, name: str, acts: _Acts) -> tuple[list[cp_model.IntVar], list[cp_model.IntVar]]:
        """The island rows after the step (I4: a sail to a row takes its front cards) and their
        front cards."""
        m = self.m
        rows = []
        fronts = []
        for r in range(2):
            to_r = [acts.sails[(i, r + 1)] for i in range(2) if (i, r + 1) in acts.sails]
            sailing = m.new_bool_var(f"{name}_to{r}")
            m.add(sailing == sum(to_r))
            new_row = self.var(0, len(self.row_order[r]) - 1, f"{name}_row{r}")
            front = self.var(-2, max(self.beans), f"{name}_front{r}")
            m.add_allowed_assignments([sailing, st.rows[r], acts.takes[r], new_row, front],
                                      self.row_tables[r])
            m.add(acts.takes[r] <= len(self.isla.rows[r]) * sailing)  # redundant: no sail, no load
            self.taken[r].append(acts.takes[r])
            rows.append(new_row)
            fronts.append(front)
        return rows, fronts

    def _raids(self, st: State, name: str, acts: _Acts, attacked: dict[tuple[int, int], cp_model.IntVar],
               captured: cp_model.IntVar) -> _Raids:
        """P's pirate attacks (I7): each merchant ship of another seat at most once a turn, a cargo
        the pirate's fits; the target sells it when that pays, else yields a card."""
        m = self.m
        pirate = st.ships[2]
        new_captured = m.new_bool_var(f"{name}_captured")
        yields: list[tuple[cp_model.IntVar, cp_model.IntVar]] = []  # (attack yields, bean)
        new_others: dict[int, list[tuple[cp_model.IntVar, cp_model.IntVar]]] = {}
        new_attacked = dict(attacked)
        for (q, i), lit in acts.attacks.items():
            tb, tc = st.others[q][i]
            m.add_implication(lit, pirate.owned)
            m.add(tc >= 1).only_enforce_if(lit)
            if (q, i) in attacked:
                m.add_implication(lit, attacked[(q, i)].negated())
            ok = self.fits(pirate.bean, pirate.count, tb, f"{name}_pfit{q}_{i}")
            m.add_implication(lit, ok)
            pays = self.ge(self.pay(tb, tc, f"{name}_tp{q}_{i}"), 1, f"{name}_tpays{q}_{i}")
            y = m.new_bool_var(f"{name}_yield{q}_{i}")
            m.add_bool_and([lit, pays.negated()]).only_enforce_if(y)
            m.add_bool_or([lit.negated(), pays, y])
            yields.append((y, tb))
            was = attacked.get((q, i))
            now = m.new_bool_var(f"{name}_att{q}_{i}")
            if was is None:
                m.add(now == lit)
            else:
                m.add_max_equality(now, [was, lit])
            new_attacked[(q, i)] = now
            # the target: sold (empty) when it pays, else one card fewer
            nb, nc = self.bean_var(f"{name}_ob{q}_{i}"), self.var(0, hi(tc), f"{name}_oc{q}_{i}")
            sold = m.new_bool_var(f"{name}_osold{q}_{i}")
            m.add_bool_and([lit, pays]).only_enforce_if(sold)
            m.add_bool_or([lit.negated(), pays.negated(), sold])
            m.add(nc == 0).only_enforce_if(sold)
            m.add(nc == tc - 1).only_enforce_if(y)
            emptied = self.eq(nc, 0, f"{name}_oemp{q}_{i}")
            m.add(nb == NO_BEAN).only_enforce_if(emptied)
            m.add(nb == tb).only_enforce_if(emptied.negated())
            self.keep(nc, tc, [lit])
            new_others.setdefault(q, list(st.others[q]))[i] = (nb, nc)
        for q in st.others:
            new_others.setdefault(q, list(st.others[q]))
        any_yield = m.new_bool_var(f"{name}_anyyield")
        m.add(any_yield == sum(y for y, _ in yields))
        m.add_max_equality(new_captured, [captured, any_yield])
        return _Raids(yields, new_others, new_attacked, new_captured, any_yield)

    def _ship(self, st: State, name: str, i: int, acts: _Acts, fronts: list[cp_model.IntVar],
              yields: list[tuple[cp_model.IntVar, cp_model.IntVar]], captured: cp_model.IntVar) -> ShipVars:
        """Ship ``i`` after the step (0, 1 merchant ships, 2 the pirate; I4-I7): bought, sold,
        loaded by a harvest at home (I5) or at an island port (I4), sailed, filled by captures (I7),
        its cargo moved (I6); else as it was."""
        m = self.m
        sell, onto, sails, moves = acts.sell, acts.onto, acts.sails, acts.moves
        sh = st.ships[i]
        fuller = [hi(v) for v in st.fc] + [hi(x.count) for x in st.ships] + [ROW_CARDS]
        grow = 1 if i == 2 else max(fuller)  # one action a step: the most one load adds
        nb = self.bean_var(f"{name}_b{i}")
        nc = self.var(0, min(hi(sh.count) + grow, self.cmax), f"{name}_c{i}")
        nat = m.new_int_var(0, 2, f"{name}_at{i}") if i < 2 else sh.at
        owned = m.new_bool_var(f"{name}_own{i}") if i > 0 else sh.owned
        if i == 1:
            m.add(owned == sh.owned + acts.buyship)
        elif i == 2:
            m.add(owned == sh.owned + acts.buypirate)
        changed: list[cp_model.IntVar] = [sell[i]]
        m.add(nc == 0).only_enforce_if(sell[i])
        m.add(nb == NO_BEAN).only_enforce_if(sell[i])
        if i < 2:
            for f in range(3):  # I5: a harvest onto a merchant ship at home, same type
                lit = onto[f][i]
                changed.append(lit)
                m.add_implication(lit, sh.owned)
                m.add(sh.at == 0).only_enforce_if(lit)
                m.add_implication(lit, self.fits(sh.bean, sh.count, st.fb[f], f"{name}_ofit{f}_{i}"))
                m.add(nb == st.fb[f]).only_enforce_if(lit)
                m.add(nc == sh.count + st.fc[f]).only_enforce_if(lit)
            for port in range(3):  # I4: sail elsewhere, loading at an island port
                if (i, port) not in sails:
                    continue
                lit = sails[(i, port)]
                changed.append(lit)
                m.add_implication(lit, sh.owned)
                m.add(sh.at != port).only_enforce_if(lit)
                m.add(nat == port).only_enforce_if(lit)
                if port == 0:
                    m.add(nb == sh.bean).only_enforce_if(lit)
                    m.add(nc == sh.count).only_enforce_if(lit)
                    continue
                front, take = fronts[port - 1], acts.takes[port - 1]
                loads = self.ge(front, 0, f"{name}_loads{i}_{port}")
                ok = self.fits(sh.bean, sh.count, front, f"{name}_sf{i}_{port}")
                m.add_bool_or([lit.negated(), loads.negated(), ok])
                m.add(nb == front).only_enforce_if([lit, loads])
                m.add(nc == sh.count + take).only_enforce_if([lit, loads])
                m.add(nb == sh.bean).only_enforce_if([lit, loads.negated()])
                m.add(nc == sh.count).only_enforce_if([lit, loads.negated()])
            sail_lits = [sails[(i, port)] for port in range(3) if (i, port) in sails]
            self.keep(nat, sh.at, sail_lits)
        else:  # the pirate: its captures (I7)
            for yl, yb in yields:
                changed.append(yl)
                m.add(nb == yb).only_enforce_if(yl)
                m.add(nc == sh.count + 1).only_enforce_if(yl)
        for (a, j), lit in moves.items():  # I6: a whole cargo onto a merchant ship in the same port
            src = st.ships[a]
            if a == i:
                changed.append(lit)
                m.add(nc == 0).only_enforce_if(lit)
                m.add(nb == NO_BEAN).only_enforce_if(lit)
            if j == i:
                changed.append(lit)
                m.add_implication(lit, sh.owned)
                m.add(src.count >= 1).only_enforce_if(lit)
                m.add(src.at == sh.at).only_enforce_if(lit)
                m.add_implication(lit, self.fits(sh.bean, sh.count, src.bean, f"{name}_mfit{a}_{j}"))
                m.add(nb == src.bean).only_enforce_if(lit)
                m.add(nc == sh.count + src.count).only_enforce_if(lit)
                if a == 2:  # not pirate cargo captured this turn (I6 reading)
                    m.add_implication(lit, captured.negated())
        self.keep(nb, sh.bean, changed)
        self.keep(nc, sh.count, changed)
        return ShipVars(nb, nc, nat, owned)

    def _sail(self, p: int, i: int, port: int, take: cp_model.IntVar | None) -> Callable[[GameState], Action]:
        """I4: the sail, loading as many cards as the solution's ``take``, read after solving."""
        def make(t: GameState) -> Action:
            assert self.solver is not None
            return Sail(p, i, port, int(self.solver.value(take)) if take is not None else 0)
        return make


    # ------------------------------------------------------------ P's turn

    def turn_steps(self, k: int, info: TurnInfo) -> tuple[int, int]:
        """The steps of P's turn ``info`` (the ``k``-th of the timeline) in phase 1 and phase 2: the
        caps, at most ``sound_steps``; ``exact`` stays true only where the caps reach it."""
        sound = sound_steps(self.s, self.p, info, not any(t.active == self.p for t in self.turns[:k]),
                            self.max_sails)
        cap2 = len(info.face_up) + self.max_sails + self.phase2_extra
        self.exact = self.exact and self.phase1_steps >= sound.phase1 and cap2 >= sound.phase2
        return min(self.phase1_steps, sound.phase1), min(cap2, sound.phase2)

    def before_step(self, st: State, name: str,
                    captured: cp_model.IntVar) -> tuple[State, cp_model.IntVar | None]:
        """What happens before each of P's steps, and a literal true when that is nothing (None:
        always): nothing here (``RelaxedModel``: a run of sales, harvests, loads, moves and
        purchases). ``captured``: P's pirate has taken a card this turn (I6 reading)."""
        return st, None

    def p_turn(self, st: State, k: int, info: TurnInfo) -> State:
        m = self.m
        captured = m.new_constant(0)
        attacked: dict[tuple[int, int], cp_model.IntVar] = {}
        start_pos = st.pos
        seg1 = Segment(info.turn, Phase.PLANT)
        prev_noop: cp_model.IntVar | None = None
        plants = []
        steps1, steps2 = self.turn_steps(k, info)
        quiet: dict[int, list[cp_model.IntVar | None]] = {1: [], 2: []}
        for j in range(steps1):
            seg1.steps.append([])
            st, q = self.before_step(st, f"t{k}a{j}", captured)
            quiet[1].append(q)
            st, noop, hand, _, captured = self.p_step(st, f"t{k}a{j}", Phase.PLANT, None, (), attacked,
                                                      captured,
                                                      seg1.steps[-1])
            plants.append(hand)
            if prev_noop is not None:
                m.add_implication(prev_noop, noop)  # the nothings last
            prev_noop = noop
        n = info.hand_available
        count = cp_model.LinearExpr.sum(plants)
        has = self.ge(-start_pos, 1 - n, f"t{k}_has")
        m.add(count >= 1).only_enforce_if([has, st.alive])  # T1: the first planting is forced
        m.add(count <= 2)
        m.add(start_pos + count <= n)
        ups = [m.new_bool_var(f"t{k}_u{j}") for j in range(len(info.face_up))]
        planted = [m.new_int_var(0, 1, f"t{k}_upsum{j}") for j in range(len(info.face_up))]
        seg2 = Segment(info.turn, Phase.TRADE)
        prev_noop = None
        sails = []
        up_lits: list[list[cp_model.IntVar]] = [[] for _ in info.face_up]
        for j in range(steps2):
            seg2.steps.append([])
            st, q = self.before_step(st, f"t{k}b{j}", captured)
            quiet[2].append(q)
            now = [m.new_bool_var(f"t{k}b{j}_u{x}") for x in range(len(info.face_up))]
            st, noop, _, sail, captured = self.p_step(st, f"t{k}b{j}", Phase.TRADE, now, info.face_up,
                                                      attacked,
                                                      captured, seg2.steps[-1])
            for x, lit in enumerate(now):
                up_lits[x].append(lit)
            sails.append(sail)
            if prev_noop is not None:
                m.add_implication(prev_noop, noop)
            prev_noop = noop
        for x in range(len(info.face_up)):  # T5: every face-up card planted, once
            m.add(planted[x] == sum(up_lits[x]))
            m.add(planted[x] == st.alive)
            m.add(ups[x] == planted[x])
        m.add(sum(sails) <= self.max_sails)  # the ship moves a turn (I4 reading, max_sails)
        self.segments += [seg1, seg2]
        for seg, qs in ((seg1, quiet[1]), (seg2, quiet[2])):  # adjacent actions that commute, with
            for cur, nxt, q in zip(seg.steps, seg.steps[1:], qs[1:], strict=False):  # nothing between:
                for a_i, a in enumerate(cur):  # a fixed order
                    for b in nxt[:a_i]:
                        if a.commutes(b):
                            m.add_bool_or([a.lit.negated(), b.lit.negated()] + ([q.negated()] if q is not None
                                                                                 else []))
        # I2, E2: a row empty after the draw is refilled; from a pile of 1-5 cards the game ends
        if info.left >= 1:
            empty = [self.eq(st.rows[r], self.row_order[r].index(()), f"t{k}_empty{r}")
                     if () in self.row_order[r] else m.new_constant(0) for r in range(2)]
            if info.left > ROW_CARDS and any(() in order for order in self.row_order):
                raise SolveError(f"a row P empties in its turn would be refilled from a pile of {info.left} "
                                 "cards, which changes the cards to come (I2): the Isla CP-SAT model refuses "
                                 "it")
            alive = m.new_bool_var(f"t{k}_alive")
            m.add_bool_and([st.alive, empty[0].negated(), empty[1].negated()]).only_enforce_if(alive)
            m.add_bool_or([st.alive.negated(), empty[0], empty[1], alive])
            st = State(st.fb, st.fc, st.own3, st.coins, st.ships, st.rows, st.pos, st.others, alive)
        return st

    # ------------------------------------------------------------ the whole model

    def build(self) -> cp_model.IntVar:
        st = self.start()
        for k, info in enumerate(self.turns):
            if info.active == self.p:
                st = self.p_turn(st, k, info)
            elif self.isla.fleets[info.active].pirate is not None:
                st = self.raid_turn(st, k, info.active)
        m = self.m
        final = [self.pay(st.fb[f], st.fc[f], f"end_f{f}") for f in range(3)]
        final += [self.pay(st.ships[i].bean, st.ships[i].count, f"end_s{i}") for i in range(3)]
        out = self.var(0, self.coin_max + 100, "final")
        m.add(out == st.coins + sum(final))  # E3, I8: every field and cargo sold at the end
        self.groups += [(final[f], st.fc[f], st.fb[f]) for f in range(3)]
        self.groups += [(final[3 + i], st.ships[i].count, st.ships[i].bean) for i in range(3)]
        # Redundant (the bound CP-SAT proves with): P's cards are conserved, sold group by group,
        # and no group pays more than its cards times the beanometer's best rate (C1).
        pl = self.s.players[self.p]
        start = sum(f.count for f in pl.fields) + sum(sh.count for _, sh in self.isla.fleets[self.p].ships())
        m.add(cp_model.LinearExpr.sum([c for _, c, _ in self.groups] + self.lost) == start + sum(self.ins))
        num = max((self.su.payout[b][min(c, len(self.su.payout[b]) - 1)] * RATE + c - 1) // c
                  for b in self.beans for c in range(1, self.cmax + 1))
        for g, c, _ in self.groups:
            m.add(RATE * g <= num * c)
        for r in range(2):  # a row's cards are loaded once (no refill before the end, I2)
            m.add(sum(self.taken[r]) <= len(self.isla.rows[r]))
        self.per_bean(st.rows)
        return out

    def per_bean(self, rows: list[cp_model.IntVar]) -> None:
        """Redundant per-bean cuts, given the rows' last states ``rows``: none in the exact model
        (``RelaxedModel.per_bean``)."""

    def pays(self, bean: int, count: int) -> bool:
        """C1: ``count`` cards of ``bean`` pay at least a coin."""
        row = self.su.payout[bean]
        return count > 0 and row[min(count, len(row) - 1)] > 0

    def part(self, x: cp_model.IntVar, lit: cp_model.IntVar, name: str) -> cp_model.IntVar:
        """``x`` if ``lit``, else 0."""
        y = self.var(0, hi(x), name)
        self.m.add(y == x).only_enforce_if(lit)
        self.m.add(y == 0).only_enforce_if(lit.negated())
        return y


def hand_reach(mine: list[TurnInfo]) -> int:
    """How many cards of P's hand stream phase 1 can plant in P's turns ``mine``: from the front
    (H1), at most 2 a turn and only cards in hand by its start (T1): ``n = min(n + 2, available)``
    turn by turn."""
    n = 0
    for t in mine:
        n = min(n + 2, t.hand_available)
    return n


def _now(a: Action) -> Callable[[GameState], Action]:
    """An action known when the model is built."""
    return lambda t: a


def _plant_up(p: int, b: int, f: int) -> Callable[[GameState], Action]:
    """T5, I3: the face-up ``b`` onto field ``f`` (its index in the face-up cards of the moment)."""
    return lambda t: PlantUp(p, t.face_up.index(b), f)

