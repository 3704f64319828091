"""La Isla Bohnita CP-SAT ``solo``: a relaxation of P's turns whose optimum bounds every legal line
from above, so a replayed line worth that bound is proved optimal.

P's actions in a turn split into *moves* (plant a hand or face-up card, T1, T5; sail, I4; attack,
I7) and *cash actions* (harvest for coins, H5; harvest onto a merchant ship, I5; sell a cargo, move
a cargo, I6; buy, I1). A cash action touches no row, no other seat and no hand or face-up card,
and it fills no field; ships stay in their ports. So in a run of cash actions between two moves
the cards of each container (field, merchant ship, pirate) stay together (a harvest and a sale
take them whole, a move carries a whole cargo) and end in one place: still there, in one sold
group, or in a merchant ship's cargo; every group and cargo holds one bean and lies in one port
(a field counts as home: I5 loads only a ship at home, I6 moves only in one port), and the coins
end at least 0 (each purchase is paid when made). ``RelaxedModel`` lets a step begin with any
such regrouping (``before_step``), then its one action (the model's own step, which may be a cash
action too). It keeps H4 (lenient) only as a batch and I6's "only for at least one coin" only for
groups with a ship or more than one container, and pays for purchases from the run's end: every
legal run is one of its regroupings, and no regrouping pays more than it sells. It keeps the rule
that captured cargo waits a turn (I6 reading): once P's pirate has captured a card in the turn, a
run leaves the pirate's cargo aboard or sells it alone (a sale with other cards would need it
moved onto a merchant ship first, and a move is all it forbids).

The step bound (``relaxed_steps``): a legal line of P's turn is run, move, run, move, ..., move,
run; one step per move, and one more for the last run (in phase 2). Phase 1's moves are its at most
two plantings (T1), and its last run moves unchanged to phase 2 (``bounds.py``); phase 2's are the
face-up plantings (T5), at most ``max_sails`` sails (I4) and one attack per enemy merchant ship
with cargo now (I7: other seats never load one). With that many steps the relaxation holds a copy
of every legal line, so its optimum is an upper bound on the optimum, and ``prove`` reports a line
proved only when the relaxation has no line worth more (CP-SAT: infeasible).

Canonical forms, each keeping an optimal relaxed line: a run that touches nothing its move reads
or writes (a planting: the fields and the third field; a sail: that ship; an attack: the pirate)
commutes with it, so it can follow the move and join the next run (two regroupings in a row make
one: each container still ends in one place, H4's batch rule holds for the union); so a run before
a move touches that move's state, a phase-1 step with no move has no run (its run waits for phase
2's first), and in phase 2 only the first step with no move (the last run) has one. Two adjacent
moves that commute, with no run between them, come in a fixed order (the exact model's rule).

A third (``linked``): a run with no purchase before a move regroups only containers *linked* to the
move's state. Nodes: the fields (one node, since H4's batch rule ties them), m0, m1, the pirate; two
are joined when one's cards go onto the other or both into one sold group; the move's node is the
fields for a planting, the sailing ship for a sail, the pirate for an attack, and linked means
reachable from it. Why it keeps an optimal line: split such a run into its linked part L and the
rest R (a union of other components). R's actions touch no container of L's, and with no purchase
they share nothing else (sales only add coins; H4 lives inside the fields' node; I6's one coin and
the ports are a group's own), so L alone, then R, is a legal order. The move touches only its own
node (a sail: that ship and a row; an attack: the pirate and an enemy ship; a planting: the fields),
so R is still legal after it, with the same ports, counts, captured flag (the pirate is in L before
an attack) and field counts; R then joins the next run (or phase 2's first, or the last run). A run
with a purchase is left whole (its sales pay for it). Each rewrite moves cash actions later (a
bounded sum of positions grows) or removes an inversion of two commuting moves with an empty run
between them (the positions stay), so the rewrites end. ``per_bean``: the per-bean
redundant cuts.

``prove`` asks for a relaxed line worth one coin more: the whole model first, then, if that search
runs out, one case per set of purchases P can still make (I1; ``purchase_cases``). The cases hold
every line between them, and each drops the coins a purchase may cost from the LP, which the
whole model's search could not close on some turns."""

from __future__ import annotations

from itertools import product
from typing import TypeAlias

from model import GameState, Phase
from model.isla import isla_of
from model.isla.actions import PIRATE
from solvers.bounds import gain_table, hull
from solvers.contract import Budget
from solvers.cpsat_lazy import cp_model
from solvers.cpsat_run import interruptible
from solvers.isla.cpsat import turns as turns_mod
from solvers.isla.cpsat.state import ShipVars, State, hi
from solvers.isla.cpsat.timeline import NO_BEAN, TurnInfo
from solvers.isla.cpsat.turns import IslaModel

MERCHANTS = (3, 4)  # the containers: fields 0-2, merchant ships 3-4, the pirate 5
PIRATE_AT = 5
Lit: TypeAlias = "cp_model.IntVar"  # a string: CP-SAT is loaded by the first model (cpsat_lazy)
CASH = ("harvest", "onto", "sell", "move", "buy")  # the labels of the exact model's cash actions


def relaxed_steps(s: GameState, p: int, info: TurnInfo, max_sails: int) -> tuple[int, int]:
    """The relaxation's steps in each phase of P's turn ``info`` (the module's argument): phase 1
    one per planting (at most 2 and the hand's cards, T1), phase 2 the face-up cards, the sails and
    an attack per enemy merchant ship with cargo now (I7: an attack takes a card, or its owner sells
    the cargo, so an empty ship is no target; the other seats play ``isla_policy``, which never
    sails, harvests onto a ship or moves cargo, so an empty one stays empty), and the last run."""
    enemies = sum(1 for q, fl in enumerate(isla_of(s).fleets) if q != p
                  for ship in fl.merchants if ship.count)
    return min(2, info.hand_available), len(info.face_up) + max_sails + enemies + 1


class RelaxedModel(IslaModel):
    """The model of Isla ``solo P`` with every step of P's preceded by a run of cash actions,
    relaxed (the module's docstring): its optimum is at least the optimum."""

    def __init__(self, s: GameState, p: int) -> None:
        super().__init__(s, p)
        # per step: its run is nothing; it touches a field, merchant ship 0 or 1, the pirate
        self.runs: dict[str, tuple[Lit, Lit, list[Lit], Lit]] = {}
        # per step: its run's keep, group and onto literals and whether it buys (``linked``)
        self.links: dict[str, tuple[list[Lit], list[dict[int, Lit]], list[dict[int, Lit]], Lit]] = {}
        self.pirate_groups: list[int] = []  # the runs' groups of the pirate alone (``per_bean``)

    def turn_steps(self, k: int, info: TurnInfo) -> tuple[int, int]:
        return relaxed_steps(self.s, self.p, info, self.max_sails)

    def per_bean(self, rows: list[cp_model.IntVar]) -> None:
        """Redundant, per bean: the groups of one bean hold at most its cards that can ever be P's
        (P's fields and ships; the hand cards phase 1 can reach: planted from the front, at most 2 a
        turn of P's and only cards in hand by its start, T1, H1, so a prefix of the stream no longer
        than ``n`` after ``n = min(n + 2, hand_available)`` turn by turn; the face-up cards of P's
        turns; the row cards loaded by the end, ``row_loads``; and a card per turn of P's from
        each enemy merchant ship whose cargo pays nothing now, I7: one attack a ship a turn, and an
        attacked owner sells a cargo that pays; a cargo that pays now only shrinks by such a sale to
        none, since the other seats never load, C1 pays more for more cards), and pay at most the
        best split of their cards into groups (C1; its concave majorant over every count the rows
        allow, for the LP); each group's coins and cards are split by its bean. With one turn of
        P's left (``pirate_apart``), the groups of the pirate alone and the others are two such
        counts: a card captured in it stays aboard (I6 reading) with no later turn to move it, so
        the enemy cards are the pirate's alone, and its cargo now is counted in both."""
        m, s = self.m, self.s
        mine = [t for t in self.turns if t.active == self.p]
        apart = self.pirate_apart and len(mine) == 1
        cards: dict[int, int] = {}  # the cards of each bean that can ever be P's
        enemy: dict[int, int] = {}  # of them, the enemy cards (a pirate's captures, I7)
        for zone in (self.hand[:turns_mod.hand_reach(mine)], *(t.face_up for t in mine)):
            for b in zone:
                cards[b] = cards.get(b, 0) + 1
        for f in s.players[self.p].fields:
            if f.count:
                cards[f.bean] = cards.get(f.bean, 0) + f.count
        for q, fleet in enumerate(self.isla.fleets):
            for i, ship in fleet.ships():
                if q == self.p:
                    if i != PIRATE or not apart or self.aboard_in_both:  # before a capture it may move
                        cards[ship.bean] = cards.get(ship.bean, 0) + ship.count
                elif i != PIRATE and not self.pays(ship.bean, ship.count):
                    enemy[ship.bean] = enemy.get(ship.bean, 0) + min(ship.count, len(mine))
        own = self.isla.fleets[self.p].pirate
        # the end's groups come last, the pirate's last of them (``IslaModel.build``)
        alone = {*self.pirate_groups, len(self.groups) - 1} if apart else set()
        split: list[tuple[list[cp_model.IntVar], list[cp_model.IntVar]]] = [([], []) for _ in self.groups]
        for b in self.beans:
            loaded, most = self.row_loads(b, rows)
            aboard = own.count if own is not None and own.bean == b else 0
            sets = [([k for k in range(len(self.groups)) if k not in alone], cards.get(b, 0), loaded, most)]
            if apart:  # the pirate's groups: its cargo now and the captures; the others: no capture
                sets.append((sorted(alone), aboard + enemy.get(b, 0), [], 0))
            else:
                sets[0] = (sets[0][0], cards.get(b, 0) + enemy.get(b, 0), loaded, most)
            for ks, n, extra, more in sets:
                pays, sizes = [], []
                for k in ks:
                    g, c, bean = self.groups[k]
                    lit = self.eq(bean, b, f"pb{b}_{k}")
                    pays.append(self.part(g, lit, f"pbp{b}_{k}"))
                    sizes.append(self.part(c, lit, f"pbs{b}_{k}"))
                    split[k][0].append(pays[-1])
                    split[k][1].append(sizes[-1])
                m.add(sum(sizes) <= n + sum(extra))
                for slope, icpt in hull(gain_table(self.su.payout[b], [], n + more)):  # every supply allowed
                    den = slope.denominator * icpt.denominator
                    m.add(den * sum(pays) <= int(slope * den) * sum(sizes) + int(icpt * den))
        for (g, c, _), (pays, sizes) in zip(self.groups, split, strict=True):  # a group's bean is one of them
            m.add(sum(pays) == g)
            m.add(sum(sizes) == c)

    pirate_apart = True  # ``per_bean``: with one turn of P's left, the pirate's groups counted apart
    aboard_in_both = True  # and its cargo now in the others' count too

    def row_loads(self, b: int, rows: list[cp_model.IntVar]) -> tuple[list[cp_model.IntVar], int]:
        """Per island row, how many of its ``b`` cards were loaded by the end (I4), and the most
        they sum to (the rows' ``b`` cards): the row's start less what its last state ``rows[r]``
        (``row_states``) holds. Only P's ships load a row (the others never sail) and a refill
        ends the game (I2, E2), so no other row card is ever P's."""
        out = []
        for r, row in enumerate(self.isla.rows):
            counts = [sum(1 for j, c in enumerate(row) if c == b and j not in left)
                      for left in self.row_order[r]]
            if not any(counts):
                continue
            lit = self.var(0, max(counts), f"rl{b}_{r}")
            self.m.add_element(rows[r], counts, lit)
            out.append(lit)
        return out, sum(hi(v) for v in out)

    def any_of(self, lits: list[cp_model.LinearExprT], name: str) -> cp_model.IntVar:
        """A literal: one of ``lits`` holds (none: false)."""
        if not lits:
            return self.m.new_constant(0)
        lit = self.m.new_bool_var(name)
        self.m.add_max_equality(lit, lits)
        return lit

    def p_turn(self, st: State, k: int, info: TurnInfo) -> State:
        """The exact model's turn, each step's one action a move (the runs do the cash actions)."""
        m = self.m
        done = len(self.segments)
        st = super().p_turn(st, k, info)
        for seg in self.segments[done:]:
            before: list[cp_model.IntVar] | None = [] if seg.phase == Phase.PLANT else None
            for step in seg.steps:
                prefix = step[0].lit.name.split("_", 1)[0]
                quiet, fields, ships, pirate = self.runs[prefix]
                moves = []
                kinds: list[list[cp_model.IntVar]] = [[], [], [], []]  # planting, sail of m0, m1, attack
                for act in step:
                    label = act.lit.name.split("_", 1)[1]
                    if label.startswith(CASH):
                        m.add(act.lit == 0)
                        continue
                    moves.append(act.lit)
                    kind = 3 if label.startswith("attack") else 0 if not label.startswith("sail") else \
                        1 + int(label[4])
                    kinds[kind].append(act.lit)
                    touched = (fields, *ships, pirate)[kind]
                    m.add_bool_or([act.lit.negated(), quiet, touched])  # a run touches its move's state
                if self.only_linked:
                    self.linked(prefix, kinds)
                # a step with no move: in phase 1 its run waits (for phase 2's first); in phase 2 the
                # first such step holds the last run, and the others nothing
                if before is not None:
                    m.add_bool_or([quiet, *moves, *before])
                before = moves if seg.phase == Phase.TRADE else []
        return st

    only_linked = True  # ``linked``'s canonical form
    link_depth = 3  # a path between two of 4 nodes has at most 3 edges

    def linked(self, prefix: str, kinds: list[list[cp_model.IntVar]]) -> None:
        """The canonical form: a run with no purchase, before a move, regroups only containers
        linked to the move's state (the module's docstring). The nodes: the fields (one node: H4
        ties them), m0, m1, the pirate; an edge joins two nodes when one's cards go onto the other
        or both into one sold group; the move's node: the fields for a planting, the sailing
        ship, the pirate for an attack. Linked: reachable from it (3 edges at most)."""
        m = self.m
        keep, group, onto, buy = self.links[prefix]
        node = (0, 0, 0, 1, 2, 3)  # a container's node

        def edge(a: int, b: int) -> list[cp_model.LinearExprT]:
            """The literals that join nodes ``a`` and ``b``: j's cards onto merchant ship i (node
            1 + i), or j in the group anchored at g."""
            out: list[cp_model.LinearExprT] = [onto[j][i] for j in range(6) for i in onto[j]
                                               if {node[j], 1 + i} == {a, b}]
            out += [group[j][g] for j in range(6) for g in group[j]
                    if g != j and {node[j], node[g]} == {a, b}]
            return out

        name = f"{prefix}_run_link"
        joins = {(a, b): self.any_of(edge(a, b), f"{name}_e{a}{b}")
                 for a in range(4) for b in range(a + 1, 4)}
        reach = [self.any_of(list(lits), f"{name}_r0_{a}") for a, lits in enumerate(kinds)]
        for d in range(1, self.link_depth + 1):
            nxt = []
            for a in range(4):
                via = []
                for b in range(4):
                    if b != a:
                        lit = m.new_bool_var(f"{name}_v{d}_{b}{a}")
                        m.add_min_equality(lit, [reach[b], joins[(min(a, b), max(a, b))]])
                        via.append(lit)
                nxt.append(self.any_of([reach[a], *via], f"{name}_r{d}_{a}"))
            reach = nxt
        moving = self.any_of([lit for lits in kinds for lit in lits], f"{name}_moving")
        for j in range(6):
            m.add_bool_or([keep[j], reach[node[j]], buy, moving.negated()])

    def before_step(self, st: State, name: str,
                    captured: cp_model.IntVar) -> tuple[State, cp_model.IntVar | None]:
        """A run of cash actions as a regrouping: each container stays, joins a sold group (anchored
        at its lowest container) or a merchant ship's cargo (one bean, one port, the ship owned);
        purchases paid from the coins at the run's end (I1, I5, I6; H4 as a batch). Once P's pirate
        has captured a card this turn (``captured``), its cargo may not move (I6 reading), so it
        stays or is sold alone. The parts add their constraints in a fixed order."""
        m = self.m
        name = f"{name}_run"
        home = m.new_constant(0)
        cont = [(st.fb[f], st.fc[f], home) for f in range(3)]
        cont += [(sh.bean, sh.count, sh.at) for sh in st.ships]
        full = [self.ge(c, 1, f"{name}_full{j}") for j, (_, c, _) in enumerate(cont)]
        buy3, buys, own3, owned = self._run_purchases(st, name)
        keep, group, onto = self._run_moves(st, name, cont, full, captured)
        gain = self._run_groups(name, cont, group)
        coins = self.var(0, self.coin_max, f"{name}_coins")
        m.add(coins == st.coins + sum(gain) - (self.third_cost or 0) * buy3 - self.ship_cost * buys[0]
              - self.pirate_cost * buys[1])
        # -- the fields: kept or emptied
        fb, fc = [], []
        for f in range(3):
            nb, nc = self.bean_var(f"{name}_fb{f}"), self.var(0, hi(st.fc[f]), f"{name}_fc{f}")
            m.add(nb == st.fb[f]).only_enforce_if(keep[f])
            m.add(nc == st.fc[f]).only_enforce_if(keep[f])
            m.add(nb == NO_BEAN).only_enforce_if(keep[f].negated())
            m.add(nc == 0).only_enforce_if(keep[f].negated())
            fb.append(nb)
            fc.append(nc)
        ships = self._run_ships(st, name, cont, full, keep, onto, owned)
        quiet = m.new_bool_var(f"{name}_quiet")
        m.add(quiet + self.any_of([*(k.negated() for k in keep), buy3, *buys], f"{name}_busy") == 1)
        fields = self.any_of([*(keep[f].negated() for f in range(3)), buy3], f"{name}_fields")
        touch = [self.any_of([keep[MERCHANTS[i]].negated(), *(onto[j][i] for j in range(6) if i in onto[j]),
                              *([buys[0]] if i == 1 else [])], f"{name}_ship{i}") for i in range(2)]
        pirate = self.any_of([keep[PIRATE_AT].negated(), buys[1]], f"{name}_pirate")
        self.runs[name.rsplit("_", 1)[0]] = (quiet, fields, touch, pirate)
        self.links[name.rsplit("_", 1)[0]] = (keep, group, onto, self.any_of([buy3, *buys], f"{name}_buys"))
        return State(fb, fc, own3, coins, ships, st.rows, st.pos, st.others, st.alive), quiet

    def _run_purchases(self, st: State, name: str
                       ) -> tuple[cp_model.IntVar, list[cp_model.IntVar], cp_model.IntVar, list[Lit]]:
        """The run's purchases (F1, I1: the third field, a merchant ship, a pirate ship, each once):
        the third field's literal, the ships', the third field owned after, and every ship owned."""
        m = self.m
        buy3 = m.new_bool_var(f"{name}_buy3")
        if self.third_cost is None or self.nf0 == 3:
            m.add(buy3 == 0)
        m.add_implication(buy3, st.own3.negated())
        own3 = m.new_bool_var(f"{name}_own3")
        m.add(own3 == st.own3 + buy3)
        buys = [m.new_bool_var(f"{name}_buyship"), m.new_bool_var(f"{name}_buypirate")]
        owned: list[Lit] = [st.ships[0].owned]
        for i, lit in ((1, buys[0]), (2, buys[1])):
            m.add_implication(lit, st.ships[i].owned.negated())
            own = m.new_bool_var(f"{name}_own{i}")
            m.add(own == st.ships[i].owned + lit)
            owned.append(own)
        for kind, lit in enumerate((buy3, *buys)):
            self.buys[kind].append(lit)
        return buy3, buys, own3, owned

    def _run_moves(self, st: State, name: str, cont: list[tuple[Lit, Lit, Lit]], full: list[Lit],
                   captured: cp_model.IntVar) -> tuple[list[Lit], list[dict[int, Lit]], list[dict[int, Lit]]]:
        """Where each container's cards go: it stays (``keep``), joins the group sold at container
        ``g`` (``group``, one bean, one port) or a merchant ship's cargo (``onto``); H4 (lenient) as a
        batch: a one-card field goes only once no field of more stays."""
        m = self.m
        keep = [m.new_bool_var(f"{name}_keep{j}") for j in range(6)]
        group = [{g: m.new_bool_var(f"{name}_g{j}_{g}") for g in range(j + 1)} for j in range(6)]
        onto = [{i: m.new_bool_var(f"{name}_to{j}_{i}") for i in range(2) if MERCHANTS[i] != j}
                for j in range(6)]
        # I6 reading: captured cargo does not move this turn; a sale of the pirate's cargo with others
        # would need it moved onto a merchant ship first
        m.add_bool_or([captured.negated(), keep[PIRATE_AT], group[PIRATE_AT][PIRATE_AT]])
        for j, (b, _, at) in enumerate(cont):
            m.add_exactly_one([keep[j], *group[j].values(), *onto[j].values()])
            m.add_implication(full[j].negated(), keep[j])
            for g, lit in group[j].items():
                if g < j:
                    m.add_implication(lit, group[g][g])
                    m.add(b == cont[g][0]).only_enforce_if(lit)
                    m.add(at == cont[g][2]).only_enforce_if(lit)
        # -- H4 (lenient): a one-card field goes only once no field of more stays (none is filled in a run)
        for f in range(3):
            single = self.eq(st.fc[f], 1, f"{name}_single{f}")
            for g in range(3):
                if g != f:
                    big = self.ge(st.fc[g], 2, f"{name}_big{f}_{g}")
                    m.add_bool_or([keep[f], single.negated(), big.negated(), keep[g].negated()])
        return keep, group, onto

    def _run_groups(self, name: str, cont: list[tuple[Lit, Lit, Lit]],
                    group: list[dict[int, Lit]]) -> list[Lit]:
        """The sold groups (C1): each pays for its cards of one bean; a ship's cargo, or a field's
        joined to others on a ship, only for at least one coin (I6; a field alone may be harvested,
        H5). What each pays."""
        m = self.m
        gain = []
        for g in range(6):
            members = [(j, group[j][g]) for j in range(g, 6)]
            size = self.var(0, sum(hi(cont[j][1]) for j, _ in members), f"{name}_size{g}")
            m.add(size == sum(self.part(cont[j][1], lit, f"{name}_y{j}_{g}") for j, lit in members))
            bean = self.bean_var(f"{name}_bean{g}")
            m.add(bean == cont[g][0]).only_enforce_if(group[g][g])
            m.add(bean == NO_BEAN).only_enforce_if(group[g][g].negated())
            pay = self.pay(bean, size, f"{name}_pay{g}")
            if g == PIRATE_AT:
                self.pirate_groups.append(len(self.groups))
            if g >= 3:  # a ship's cargo is sold only for at least one coin (I6)
                m.add(pay >= 1).only_enforce_if(group[g][g])
            else:  # so is a field's joined to others on a ship; a field alone may be harvested (H5)
                for _, lit in members[1:]:
                    m.add(pay >= 1).only_enforce_if(lit)
            self.groups.append((pay, size, bean))
            gain.append(pay)
        return gain

    def _run_ships(self, st: State, name: str, cont: list[tuple[Lit, Lit, Lit]], full: list[Lit],
                   keep: list[Lit], onto: list[dict[int, Lit]], owned: list[Lit]) -> list[ShipVars]:
        """The ships after the run: a merchant's cargo is what joins it (its own if kept), one bean,
        its port, the ship owned; the pirate's is kept or sold."""
        m = self.m
        total = sum(hi(c) for _, c, _ in cont)
        ships = []
        for i in range(2):
            sh = st.ships[i]
            joins = [(j, onto[j][i]) for j in range(6) if i in onto[j]] + [(MERCHANTS[i], keep[MERCHANTS[i]])]
            nb, nc = self.bean_var(f"{name}_b{i}"), self.var(0, min(total, self.cmax), f"{name}_c{i}")
            m.add(nc == sum(self.part(cont[j][1], lit, f"{name}_z{j}_{i}") for j, lit in joins))
            for j, lit in joins:
                b, _, at = cont[j]
                m.add(b == nb).only_enforce_if([lit, full[j]])
                if j != MERCHANTS[i]:
                    m.add_implication(lit, owned[i])
                    m.add(at == sh.at).only_enforce_if(lit)
            empty = self.eq(nc, 0, f"{name}_e{i}")
            m.add(nb == NO_BEAN).only_enforce_if(empty)
            ships.append(ShipVars(nb, nc, sh.at, owned[i]))
        pr = st.ships[2]
        nb, nc = self.bean_var(f"{name}_b2"), self.var(0, hi(pr.count), f"{name}_c2")
        m.add(nb == pr.bean).only_enforce_if(keep[PIRATE_AT])
        m.add(nc == pr.count).only_enforce_if(keep[PIRATE_AT])
        m.add(nb == NO_BEAN).only_enforce_if(keep[PIRATE_AT].negated())
        m.add(nc == 0).only_enforce_if(keep[PIRATE_AT].negated())
        ships.append(ShipVars(nb, nc, pr.at, owned[2]))
        return ships

def prove(s: GameState, p: int, value: int, time_limit: float, workers: int,
          clock: Budget | None = None, whole: bool = True) -> bool:
    """True when the relaxation has no line worth more than ``value`` (CP-SAT proves it infeasible
    within ``time_limit``, or within what is left of ``clock``, work units with a work limit): then
    no legal line does, and a line worth ``value`` is optimal. The whole model first, with
    ``WHOLE_SHARE`` of what is left; then, if that search ran out, case by case over the purchases
    P can still make (``purchase_cases``): every line falls in one case, and each is a smaller
    search (measured: a turn whose whole model stayed open after 40 deterministic seconds, amigo
    4p game 21363, closes in 13 over its eight cases, where others take longer in cases). Not
    ``whole``: the cases alone."""
    clock = clock or Budget("the Isla relaxation", None, time_limit)
    model = RelaxedModel(s, p)
    objective = model.build()
    model.m.add(objective >= value + 1)
    with interruptible() as stop:

        def status_of(m: cp_model.CpModel, until: float) -> int:
            """CP-SAT's status on ``m`` within fraction ``until`` of the clock."""
            solver = cp_model.CpSolver()
            clock.limit(solver, until)
            solver.parameters.num_workers = workers
            status = stop.solve(solver, m)
            clock.charge(solver)
            return int(status)

        if whole:
            status = status_of(model.m, clock.fraction() + (1 - clock.fraction()) * WHOLE_SHARE)
            if status != cp_model.UNKNOWN:
                return status == cp_model.INFEASIBLE
        for case in purchase_cases(model):
            m = model.m.clone()
            for kind, on in case:  # each kind is bought once at most (unowned before, owned after)
                m.add(sum(m.get_int_var_from_proto_index(b.index) for b in model.buys[kind]) == on)
            if status_of(m, 1.0) != cp_model.INFEASIBLE:
                return False
    return True


WHOLE_SHARE = 0.5  # of the proof's budget: the whole relaxation, before its purchase cases


def purchase_cases(model: IslaModel) -> list[list[tuple[int, int]]]:
    """The cases of ``prove``: which purchases P makes (I1: the third field, the second merchant ship,
    the pirate ship), as (kind, 0 or 1) for each kind P does not own at the start: how many of that
    kind it buys (``IslaModel.buys``). Every line falls in one case: a purchase needs the kind
    unowned and owns it after, so the model buys each once at most."""
    fleet = model.isla.fleets[model.p]
    open_ = [kind for kind, free in enumerate((model.nf0 == 2 and model.third_cost is not None,
                                               len(fleet.merchants) < 2, fleet.pirate is None)) if free]
    return [list(zip(open_, values, strict=True)) for values in product((0, 1), repeat=len(open_))]
