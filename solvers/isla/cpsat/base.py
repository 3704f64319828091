"""La Isla Bohnita CP-SAT ``solo``: the model's frame (the timeline read, the domains) and its
helpers (C1 payouts, literals, H2/I4 fits), and the state at the start."""

from __future__ import annotations

from model import GameState
from model.isla import isla_of
from model.isla.setup import isla_setup
from solvers.cpsat_lazy import cp_model
from solvers.isla.cpsat.state import LInt, Segment, ShipVars, State, hi
from solvers.isla.cpsat.timeline import NO_BEAN, read_timeline, row_states

PHASE1_STEPS = 4  # phase 1: at most 2 plantings (T1) and the harvests, sales and purchases around them
PHASE2_EXTRA = 8  # phase 2: the face-up plantings, the sails allowed, and this many more actions


class ModelBase:
    """The frame of the CP-SAT model of Isla ``solo P`` (the package's docstring)."""

    def __init__(self, s: GameState, p: int, phase1_steps: int = PHASE1_STEPS,
                 phase2_extra: int = PHASE2_EXTRA) -> None:
        su = s.setup
        self.phase1_steps, self.phase2_extra = phase1_steps, phase2_extra
        self.exact = True  # every turn of P's has the steps an optimal line needs (``sound_steps``)
        self.s, self.p, self.su = s, p, su
        self.m = cp_model.CpModel()
        isla = isla_of(s)
        self.isla = isla
        self.hand, self.turns = read_timeline(s, p)
        ist = isla_setup(su)
        self.max_sails, self.ship_cost, self.pirate_cost = ist.max_sails, ist.ship_cost, ist.pirate_cost
        self.third_cost = su.third_cost
        self.nf0 = len(s.players[p].fields)
        self.row_order: list[list[tuple[int, ...]]] = []
        self.row_tables: list[list[tuple[int, int, int, int, int]]] = []
        for row in isla.rows:
            order, table = row_states(row)
            self.row_order.append(order)
            self.row_tables.append(table)
        cards = len(self.hand) + sum(len(t.face_up) for t in self.turns) + sum(map(len, isla.rows))
        cards += sum(f.count for f in s.players[p].fields)
        cards += sum(ship.count for fleet in isla.fleets for _, ship in fleet.ships())
        self.cmax = cards
        beans = set(self.hand) | {b for t in self.turns for b in t.face_up} | set(isla.cards())
        self.beans = sorted(beans | {f.bean for f in s.players[p].fields if f.count} | {0})
        self.coin_max = len(s.players[p].coins) + cards * 4 + 8
        self.segments: list[Segment] = []
        self.answers: list[tuple[cp_model.IntVar, cp_model.IntVar]] = []  # (P attacked, P sells)
        # redundant, for the bound: every group P sells (coins, cards), the cards P gains and loses
        self.groups: list[tuple[cp_model.IntVar, cp_model.IntVar, cp_model.IntVar]] = []  # coins, cards, bean
        self.ins: list[LInt] = []
        self.lost: list[LInt] = []
        self.taken: list[list[cp_model.IntVar]] = [[], []]  # the cards loaded from each row (I4)
        self.buys: list[list[cp_model.IntVar]] = [[], [], []]  # P's purchases: third field, ship, pirate (I1)

    # ------------------------------------------------------------ helpers

    def pay(self, bean: LInt, count: cp_model.IntVar, name: str) -> cp_model.IntVar:
        """C1, I6: the coins ``count`` cards of ``bean`` pay (0 for none)."""
        m = self.m
        most = hi(count)
        rows = [(NO_BEAN, 0, 0)]
        for b in self.beans:
            row = self.su.payout[b]
            rows += [(b, c, row[min(c, len(row) - 1)]) for c in range(1, most + 1)]
        b_var = m.new_int_var(NO_BEAN, max(self.beans), f"{name}_b")
        c_var = m.new_int_var(0, most, f"{name}_c")
        m.add(b_var == bean)
        m.add(c_var == count)
        out = m.new_int_var(0, max(r[2] for r in rows), name)
        m.add_allowed_assignments([b_var, c_var, out], rows)
        return out

    def eq(self, x: LInt, v: LInt, name: str) -> cp_model.IntVar:
        """A literal: ``x == v``."""
        lit = self.m.new_bool_var(name)
        self.m.add(x == v).only_enforce_if(lit)
        self.m.add(x != v).only_enforce_if(lit.negated())
        return lit

    def ge(self, x: LInt, v: int, name: str) -> cp_model.IntVar:
        """A literal: ``x >= v``."""
        lit = self.m.new_bool_var(name)
        self.m.add(x >= v).only_enforce_if(lit)
        self.m.add(x <= v - 1).only_enforce_if(lit.negated())
        return lit

    def var(self, lo: int, hi: int, name: str) -> cp_model.IntVar:
        return self.m.new_int_var(lo, hi, name)

    def bean_var(self, name: str) -> cp_model.IntVar:
        return self.m.new_int_var(NO_BEAN, max(self.beans), name)

    def keep(self, new: LInt, old: LInt, changed: list[cp_model.IntVar]) -> None:
        """``new == old`` unless one of ``changed`` holds."""
        self.m.add(new == old).only_enforce_if([c.negated() for c in changed])

    def fits(self, bean: LInt, count: LInt, card: LInt, name: str) -> cp_model.IntVar:
        """I4, H2: a ship or field holding ``count`` of ``bean`` takes ``card`` (empty, or its type)."""
        empty = self.eq(count, 0, f"{name}_e")
        same = self.eq(bean, card, f"{name}_s")
        lit = self.m.new_bool_var(name)
        self.m.add_bool_or([empty, same]).only_enforce_if(lit)
        self.m.add_bool_and([empty.negated(), same.negated()]).only_enforce_if(lit.negated())
        return lit

    # ------------------------------------------------------------ the start

    def start(self) -> State:
        s, p, m = self.s, self.p, self.m
        pl = s.players[p]
        fb = [m.new_constant(pl.fields[f].bean if f < self.nf0 and pl.fields[f].count else NO_BEAN)
              for f in range(3)]
        fc = [m.new_constant(pl.fields[f].count if f < self.nf0 else 0) for f in range(3)]
        fleet = self.isla.fleets[p]
        ships = []
        for i in range(3):
            ship = fleet.ship(i)
            if ship is None:
                ships.append(ShipVars(m.new_constant(NO_BEAN), m.new_constant(0), m.new_constant(0),
                                      m.new_constant(0)))
            else:
                ships.append(ShipVars(m.new_constant(ship.bean if ship.count else NO_BEAN),
                                      m.new_constant(ship.count), m.new_constant(ship.at), m.new_constant(1)))
        others: dict[int, list[tuple[cp_model.IntVar, cp_model.IntVar]]] = {}
        for q, fl in enumerate(self.isla.fleets):
            if q == p:
                continue
            slots = [(m.new_constant(sh.bean if sh.count else NO_BEAN), m.new_constant(sh.count))
                     for sh in fl.merchants]
            if fl.pirate is not None:
                pr = fl.pirate
                slots.append((m.new_constant(pr.bean if pr.count else NO_BEAN), m.new_constant(pr.count)))
            others[q] = slots
        return State(fb, fc, m.new_constant(1 if self.nf0 == 3 else 0), m.new_constant(len(pl.coins)), ships,
                     [m.new_constant(0), m.new_constant(0)], m.new_constant(0), others, m.new_constant(1))

    solver: cp_model.CpSolver | None = None
