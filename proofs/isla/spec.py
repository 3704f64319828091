"""An independent symbolic specification of La Isla Bohnita's part of a turn (RULES.md I1-I9).

Written from RULES.md section I and the readings listed in the docstring of model/isla/state.py, not
from model/isla/moves.py: it reads the ruleset's options, the player count, the beans in play, the card
tables and the exhaustion that ends the game (table S, the I8 reading) from the setup
(``IslaConfig.from_setup``) and works out the prices (I1, I9), fields and draws (I3, I9) itself. Like
proofs/spec.py, every transition is a guard ``guard(S, A)`` and a successor ``after(S, A)`` over
hybrid values (proofs/symbolic.py): Python values for a concrete state (the engine-vs-spec check),
Z3 terms for a symbolic one (the proofs in proofs/isla/invariants.py).

What the state holds: per player its fields, its *land* cards (hand, set-aside and, for the active
player, face-up cards: the sources a field is planted from; per-bean tallies), its coins (per-bean
tallies: which coin cards pay a price is the player's choice, I1 names none), its merchant ships
(the second one with an owned flag) and its pirate ship (owned flag), each ship ``(bean, count,
port)``; the two island rows (front card first, at most 5 cards, I2); the discard pile and the cards
set aside in the duel (tallies); the draw pile (in order: rows are refilled from its top); the
per-turn state (attacked flags per (seat, merchant ship), the pending attack, the captured flag,
the number of sails) and a ghost count of attacks per (seat, merchant ship) this turn.

What it abstracts: trading, turning up and the base game's phase changes belong to proofs/spec.py;
here ``phase``, ``to_move`` and ``pend`` (a trade proposal awaits an answer) are set by the base
game. Planting is "a card of bean b from the player's land onto a fitting field", allowed to the
player to move in any decision phase: an over-approximation of T1/T6/D2 (every engine planting must
satisfy it, not the converse). The end of a turn (draw, row refill, turn change) and the end of the
game (E3: fields harvested, cargo sold) are internal steps that fire by themselves, one at a time.

Ships are numbered 0, 1 (merchant ships) and 2 (the pirate ship); ports 0 (the owner's harbour),
1 (Bohnbay) and 2 (Bohnaco), as in the engine's public notation. A transition's ship, port, field and
seat arguments are concrete numbers (the proofs instantiate each); the load count, the planted bean
and the coins paid may be symbolic.

E1's two readings (``IslaConfig.on_demand``): at-exhaustion, the draw or refill that takes the last
card exhausts the pile (``took``); on-demand, the internal step ``exhaust-at-need`` does when a card
must be drawn or dealt to a row from the empty pile (``n_need``); the duel's set-aside coins return
then (I9). A reshuffle (phase CHANCE) is where the spec's steps stop.

``IslaSpec(cfg, mutant)`` breaks one rule on purpose when ``mutant`` names one of ``MUTANTS``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from model.rules import Setup
from proofs.kernel import (
    CHANCE,
    DECISION_PHASES,
    DRAW,
    ENDTURN,
    FIELD_BEAN,
    FINISH,
    NF,
    OVER,
    PLANT,
    REFILL,
    START,
    TRADE,
    Transition,
    decision_phase,
    field_fits,
    harvestable,
    settle,
    step_table,
)
from proofs.kernel import coins_for as meter_coins
from proofs.kernel import is_bean as kernel_is_bean
from proofs.symbolic import (
    FILL,
    Cond,
    Seq,
    Val,
    all_of,
    any_of,
    count_if,
    implies,
    ite,
    neg,
    pick_seq,
    total,
)

ROW = 5  # cards per island row (I2)
HOME, BOHNBAY, BOHNACO = 0, 1, 2
PORTS = (HOME, BOHNBAY, BOHNACO)
M0, M1, PIRATE = 0, 1, 2
SHIPS = (M0, M1, PIRATE)
MERCHANTS = (M0, M1)

# Phases and bean ids: proofs/kernel.py. The internal phases of the expansion's part of a turn:
INTERNAL_PHASES = (ENDTURN, DRAW, REFILL, START, FINISH)
ALL_PHASES = DECISION_PHASES + INTERNAL_PHASES + (CHANCE, OVER)

# Transition kinds: decisions, then internal steps.
SAIL, HARVEST_ONTO, HARVEST, SELL, SELL_DEFENCE, MOVE, ATTACK, YIELD = 1, 2, 3, 4, 5, 6, 7, 8
BUY_SHIP, BUY_PIRATE, BUY_FIELD, PLANT_LAND, PLANT_CARGO = 9, 10, 11, 12, 13
END_TURN, DRAW_CARD, DRAW_DONE, REFILL_CARD, REFILL_DONE, TURN_CHANGE = 20, 21, 22, 23, 24, 25
FINAL_HARVEST, FINAL_SALE, GAME_OVER, NEED = 26, 27, 28, 29

MUTANTS: dict[str, tuple[str, str]] = {
    "load-other-type": ("I4", "a ship sails to a row whose front card is of another type and loads it"),
    "harvest-onto-pirate": ("I7", "a harvest may be loaded onto the pirate ship"),
    "attack-twice": ("I7", "a merchant ship may be attacked again in the same turn"),
    "sell-for-nothing": ("I6", "a cargo that pays no coin may be sold (thrown overboard)"),
    "move-onto-pirate": ("I7", "merchant cargo may be moved onto the pirate ship"),
    "plant-cargo": ("I5", "a card from a ship may be planted on a field"),
    "yield-overboard": ("I6", "the card an attacked player yields goes to the discard pile"),
    "paid-coins-vanish": ("I1", "coins paid for a ship or field leave the game"),
    "refill-any-row": ("I2", "every row is refilled with 5 cards at the end of a turn, empty or not"),
    "on-demand-at-last-card": ("E1", "with reshuffle=on-demand the pile is still exhausted at its last card"),
}


class Unsupported(ValueError):
    """A ruleset the spec does not model (the message says why)."""


@dataclass(frozen=True)
class IslaConfig:
    """The numbers the expansion needs for one ruleset and player count."""

    players: int
    beans: tuple[int, ...]
    meters: tuple[tuple[int | None, ...], ...]  # by bean id (C1)
    fields: int  # starting fields
    third_cost: int | None  # the third field's price, None if it is never for sale (I1)
    ship_cost: int  # the second merchant ship (I1, I9)
    pirate_cost: int  # the pirate ship (I1, I9)
    max_sails: int  # ship moves per turn (the reading's bound)
    draw: int  # cards drawn at the end of a turn (I3, I9)
    final_exhaustion: int  # E2, I8
    duel: bool  # I9
    strict: bool  # H4 reading
    on_demand: bool = False  # E1 reading reshuffle=on-demand: exhausted when a card is needed

    @staticmethod
    def from_setup(su: Setup) -> IslaConfig:
        """The expansion's numbers, from RULES.md I1, I3 and I9 and the ruleset's own options."""
        r = su.rules
        if not r.option("isla"):
            raise Unsupported("the ruleset is played without La Isla Bohnita")
        if r.field_beans and FIELD_BEAN in su.beans:
            raise Unsupported("V5 field beans are not modelled")
        if r.draw_each:
            raise Unsupported("V4 draws (everyone draws 1) are not modelled")
        n = su.players
        duel = n == 2
        fields = r.fields if r.fields is not None else (3 if n == 3 else 2)
        third = r.third_field_cost if r.third_field_cost is not None else 3  # I1
        if r.draw is not None:
            draw = r.draw
        else:
            draw = 2 if duel else 3 if n <= 4 else 4 if n == 5 else 5  # I3, I9
        return IslaConfig(
            players=n, beans=tuple(su.beans), meters=tuple(tuple(m) for m in su.meters), fields=fields,
            third_cost=third if fields < 3 else None,
            ship_cost=5 if duel else 4 if n <= 4 else 3, pirate_cost=2,  # I1, I9
            max_sails=r.option("max_sails"), draw=draw, final_exhaustion=su.final_exhaustion, duel=duel,
            strict=r.harvest == "strict", on_demand=r.reshuffle == "on-demand")


@dataclass(frozen=True)
class SShip:
    """A ship: ``count`` cards of one ``bean`` (-1 when empty) at port ``at``; ``owned``."""

    bean: Val
    count: Val
    at: Val
    owned: Cond


@dataclass(frozen=True)
class IPlayer:
    fb: tuple[Val, ...]  # field bean, -1 when empty (NF slots; slots >= nf unused)
    fc: tuple[Val, ...]  # field count
    nf: Val  # fields owned
    land: tuple[Val, ...]  # hand, set-aside and face-up cards: per bean of cfg.beans
    coins: tuple[Val, ...]  # coin stack: per bean of cfg.beans
    ships: tuple[SShip, ...]  # merchant 0, merchant 1, pirate


@dataclass(frozen=True)
class IState:
    players: tuple[IPlayer, ...]
    rows: tuple[Seq, ...]  # Bohnbay, Bohnaco: front card first
    draw: Seq  # top first
    discard: tuple[Val, ...]  # per bean of cfg.beans
    out: tuple[Val, ...]  # duel purchases set aside (I9): per bean of cfg.beans
    attacked: tuple[tuple[Cond, ...], ...]  # [seat][merchant ship]: attacked this turn (I7)
    under: tuple[tuple[Cond, ...], ...]  # [seat][merchant ship]: the attack awaiting its answer
    captured: Cond  # the active player's pirate took a card this turn (I6 reading)
    sails: Val  # ship moves this turn
    hits: tuple[tuple[Val, ...], ...]  # ghost: attacks on [seat][merchant ship] this turn
    active: int
    to_move: Val
    phase: Val
    pend: Cond  # a trade proposal awaits its answer (base game)
    final: Cond  # the final exhaustion came while turning up (E2)
    exh: Val  # exhaustions so far (E1)
    todo: Val  # DRAW: cards still to draw
    refill: tuple[Val, ...]  # REFILL: cards still to deal to each row (I2)

    def replace(self, **kw: Any) -> IState:
        return dataclasses.replace(self, **kw)


@dataclass(frozen=True)
class IAction:
    kind: int
    player: int = 0
    ship: int = 0  # the ship named (the source of a move)
    port: int = 0
    take: Val = 0  # cards loaded when sailing (I4)
    field: int = 0
    target: int = 0  # the attacked seat, or the destination ship of a move
    bean: Val = 0  # the planted bean
    pay: tuple[Val, ...] = ()  # coins paid: per bean of cfg.beans


Step = Transition[IState, IAction]


def iff(a: Cond, b: Cond) -> Cond:
    return all_of(implies(a, b), implies(b, a))


class IslaSpec:
    """The expansion's transition system for one configuration."""

    def __init__(self, cfg: IslaConfig, mutant: str | None = None) -> None:
        if mutant is not None and mutant not in MUTANTS:
            raise KeyError(f"unknown Isla mutant {mutant!r}; known: {', '.join(MUTANTS)}")
        self.cfg = cfg
        self.mutant = mutant
        self.n = cfg.players

    # ------------------------------------------------------------------ tallies and the beanometer

    def is_bean(self, x: Val) -> Cond:
        return kernel_is_bean(self.cfg.beans, x)

    def tally(self, t: tuple[Val, ...], b: Val) -> Val:
        """The tally of bean ``b`` (0 for a bean not in play)."""
        out: Val = 0
        for j, bj in enumerate(self.cfg.beans):
            out = ite(b == bj, t[j], out)
        return out

    def bump(self, t: tuple[Val, ...], b: Val, k: Val) -> tuple[Val, ...]:
        """``t`` with ``k`` more cards of bean ``b``."""
        return tuple(ite(b == bj, x + k, x) for bj, x in zip(self.cfg.beans, t, strict=True))

    def coins_for(self, b: Val, n: Val) -> Val:
        """C1: the beanometer over the beans in play (proofs/kernel.py)."""
        return meter_coins(self.cfg.meters, b, n, beans=self.cfg.beans)

    # ------------------------------------------------------------------ small helpers

    def ship(self, s: IState, p: int, k: int) -> SShip:
        return s.players[p].ships[k]

    def with_ship(self, s: IState, p: int, k: int, ship: SShip) -> IState:
        pl = s.players[p]
        ships = pl.ships[:k] + (ship,) + pl.ships[k + 1:]
        return self.with_player(s, p, dataclasses.replace(pl, ships=ships))

    def with_player(self, s: IState, p: int, pl: IPlayer) -> IState:
        return s.replace(players=s.players[:p] + (pl,) + s.players[p + 1:])

    @staticmethod
    def emptied(ship: SShip) -> SShip:
        return SShip(-1, 0, ship.at, ship.owned)

    @staticmethod
    def fits(ship: SShip, b: Val) -> Cond:
        """I4: a ship holds one type only: it takes a card if empty or of its type."""
        return any_of(ship.count == 0, ship.bean == b)

    def no_attack(self, s: IState) -> Cond:
        return all_of(*[neg(x) for row in s.under for x in row])

    def decision(self, s: IState, p: int) -> Cond:
        """The player to move acts, in a decision phase."""
        if not 0 <= p < self.n:
            return False
        return all_of(decision_phase(s.phase), s.to_move == p)

    def own_turn(self, s: IState, p: int) -> bool:
        """I9: in the duel, fields and ships are sold (and ships bought) only on one's own turn."""
        return not self.cfg.duel or p == s.active

    def sea(self, s: IState, p: int) -> Cond:
        """I3, I4, I7 reading: ship moves and attacks are the active player's, in phase 2, with no
        proposal or attack awaiting an answer."""
        if p != s.active:
            return False
        return all_of(self.decision(s, p), s.phase == TRADE, neg(s.pend), self.no_attack(s))

    def anytime(self, s: IState, p: int) -> Cond:
        """Sales, cargo moves, harvests and purchases: whenever that player is to move (H6, I1, I6),
        not while an attack awaits its answer; in the duel on its own turn only (I9)."""
        if not self.own_turn(s, p):
            return False
        return all_of(self.decision(s, p), self.no_attack(s))

    def field_fits(self, pl: IPlayer, f: int, b: Val) -> Cond:
        """H3: an owned field that is empty or of the card's type (proofs/kernel.py)."""
        return field_fits(pl, f, b)

    def harvestable(self, pl: IPlayer, f: int) -> Cond:
        """H4, lenient or strict by the ruleset (proofs/kernel.py)."""
        return harvestable(pl, f, self.cfg.strict)

    def clear_field(self, pl: IPlayer, f: int) -> IPlayer:
        return dataclasses.replace(pl, fb=pl.fb[:f] + (-1,) + pl.fb[f + 1:],
                                   fc=pl.fc[:f] + (0,) + pl.fc[f + 1:])

    def pay_ok(self, pl: IPlayer, pay: tuple[Val, ...], cost: int) -> Cond:
        """I1: ``cost`` of the player's coins, any of them."""
        if len(pay) != len(self.cfg.beans):
            return False
        each = [all_of(x >= 0, x <= c) for x, c in zip(pay, pl.coins, strict=True)]
        return all_of(*each, total(list(pay)) == cost)

    def pay(self, s: IState, p: int, pay: tuple[Val, ...]) -> IState:
        """I1: the coins paid go to the discard pile (I9: set aside in the duel)."""
        pl = s.players[p]
        coins = tuple(c - x for c, x in zip(pl.coins, pay, strict=True))
        s = self.with_player(s, p, dataclasses.replace(pl, coins=coins))
        if self.mutant == "paid-coins-vanish":
            return s
        if self.cfg.duel:
            return s.replace(out=tuple(o + x for o, x in zip(s.out, pay, strict=True)))
        return s.replace(discard=tuple(d + x for d, x in zip(s.discard, pay, strict=True)))

    def harvest_field(self, s: IState, p: int, f: int) -> IState:
        """H5: the beanometer's coins to the coin stack, the rest to the discard pile."""
        pl = s.players[p]
        b, n = pl.fb[f], pl.fc[f]
        k = self.coins_for(b, n)
        pl = dataclasses.replace(self.clear_field(pl, f), coins=self.bump(pl.coins, b, k))
        return self.with_player(s, p, pl).replace(discard=self.bump(s.discard, b, n - k))

    def sale(self, s: IState, p: int, k: int) -> IState:
        """I6: the whole cargo is sold by the beanometer; the rest goes to the discard pile."""
        ship = self.ship(s, p, k)
        b, n = ship.bean, ship.count
        pays = self.coins_for(b, n)
        s = self.with_ship(s, p, k, self.emptied(ship))
        pl = s.players[p]
        s = self.with_player(s, p, dataclasses.replace(pl, coins=self.bump(pl.coins, b, pays)))
        return s.replace(discard=self.bump(s.discard, b, n - pays))

    # ------------------------------------------------------------------ rows (I2, I4)

    @staticmethod
    def take_front(row: Seq, take: Val) -> Seq:
        """I4: the front card and the next ``take - 1`` cards of its type leave the row; the rest
        keep their order."""
        if row.concrete and isinstance(take, int):
            items = row.items()
            left: list[Val] = []
            taken = 0
            for c in items:
                if items and c == items[0] and taken < take:
                    taken += 1
                else:
                    left.append(c)
            return Seq(tuple(left), len(left))
        b = row.slots[0]
        cap = row.cap
        is_b = [all_of(i < row.n, row.slots[i] == b) for i in range(cap)]
        gone = [all_of(is_b[i], count_if(is_b[: i + 1]) <= take) for i in range(cap)]
        slots: list[Val] = []
        for i in range(cap):
            # slot i of the result is the input slot k that is kept and has i kept slots before it
            out: Val = FILL
            for k in range(cap - 1, i - 1, -1):
                before = k - count_if(gone[:k])
                out = ite(all_of(neg(gone[k]), before == i), row.slots[k], out)
            slots.append(out)
        return Seq(tuple(slots), row.n - count_if(gone))

    # ------------------------------------------------------------------ decisions

    def g_sail(self, s: IState, a: IAction) -> Cond:
        """I4: the active player sails an owned merchant ship to another port; at an island port it
        loads the row's front card and up to all the other cards of that type (an empty row loads
        nothing); at home it loads nothing. At most ``max_sails`` moves a turn."""
        p, i, port = a.player, a.ship, a.port
        if not 0 <= p < self.n or i not in MERCHANTS or port not in PORTS:
            return False
        ship = self.ship(s, p, i)
        ok = all_of(self.sea(s, p), ship.owned, ship.at != port, s.sails < self.cfg.max_sails)
        if port == HOME:
            return all_of(ok, a.take == 0)
        row = s.rows[port - 1]
        front = row.at(0)
        fits = True if self.mutant == "load-other-type" else self.fits(ship, front)
        loads = all_of(row.n > 0, fits, a.take >= 1, a.take <= row.count(front))
        return all_of(ok, any_of(all_of(row.n == 0, a.take == 0), loads))

    def n_sail(self, s: IState, a: IAction) -> IState:
        p, i, port = a.player, a.ship, a.port
        ship = self.ship(s, p, i)
        s = s.replace(sails=s.sails + 1)
        if port == HOME:
            return self.with_ship(s, p, i, dataclasses.replace(ship, at=HOME))
        row = s.rows[port - 1]
        front = row.at(0)
        loaded = a.take > 0
        new = SShip(ite(loaded, front, ship.bean), ship.count + a.take, port, ship.owned)
        rows = list(s.rows)
        rows[port - 1] = self.take_front(row, a.take)
        return self.with_ship(s.replace(rows=tuple(rows)), p, i, new)

    def g_harvest_onto(self, s: IState, a: IAction) -> Cond:
        """I5: a harvestable field (H4) goes whole onto an owned merchant ship in its harbour that is
        empty or holds the field's type (same type only)."""
        p, f, i = a.player, a.field, a.ship
        ships = SHIPS if self.mutant == "harvest-onto-pirate" else MERCHANTS
        if not 0 <= p < self.n or i not in ships or not 0 <= f < NF:
            return False
        pl = s.players[p]
        ship = pl.ships[i]
        return all_of(self.anytime(s, p), ship.owned, self.harvestable(pl, f), ship.at == HOME,
                      self.fits(ship, pl.fb[f]))

    def n_harvest_onto(self, s: IState, a: IAction) -> IState:
        p, f, i = a.player, a.field, a.ship
        pl = s.players[p]
        ship = pl.ships[i]
        new = SShip(pl.fb[f], ship.count + pl.fc[f], ship.at, ship.owned)
        s = self.with_player(s, p, self.clear_field(pl, f))
        return self.with_ship(s, p, i, new)

    def g_harvest(self, s: IState, a: IAction) -> Cond:
        """H4-H6: a harvestable field is harvested whenever its owner is to move."""
        p = a.player
        if not 0 <= p < self.n:
            return False
        return all_of(self.anytime(s, p), self.harvestable(s.players[p], a.field))

    def n_harvest(self, s: IState, a: IAction) -> IState:
        return self.harvest_field(s, a.player, a.field)

    def pays(self, ship: SShip) -> Cond:
        """I6: a cargo is sold only if it pays at least one coin."""
        if self.mutant == "sell-for-nothing":
            return True
        return self.coins_for(ship.bean, ship.count) >= 1

    def g_sell(self, s: IState, a: IAction) -> Cond:
        """I6: an owned ship's whole cargo is sold, at any time, if it pays a coin."""
        p, k = a.player, a.ship
        if not 0 <= p < self.n or k not in SHIPS:
            return False
        ship = self.ship(s, p, k)
        return all_of(self.anytime(s, p), ship.owned, ship.count >= 1, self.pays(ship))

    def n_sell(self, s: IState, a: IAction) -> IState:
        return self.sale(s, a.player, a.ship)

    def g_sell_defence(self, s: IState, a: IAction) -> Cond:
        """I7 (I9): the attacked player sells the attacked ship's cargo, if it pays (also off-turn
        in the duel); the attack counts as made."""
        p, k = a.player, a.ship
        if not 0 <= p < self.n or k not in MERCHANTS:
            return False
        ship = self.ship(s, p, k)
        return all_of(self.decision(s, p), s.under[p][k], ship.count >= 1, self.pays(ship))

    def n_sell_defence(self, s: IState, a: IAction) -> IState:
        s = self.sale(s, a.player, a.ship)
        return s.replace(under=self.none_under(), to_move=s.active)

    def none_under(self) -> tuple[tuple[Cond, ...], ...]:
        return tuple((False, False) for _ in range(self.n))

    def g_move(self, s: IState, a: IAction) -> Cond:
        """I6: a whole cargo moves onto another of the player's merchant ships in the same port that
        is empty or holds its type; a pirate's cargo not in the turn it captured (reading)."""
        p, i, j = a.player, a.ship, a.target
        targets = SHIPS if self.mutant == "move-onto-pirate" else MERCHANTS
        if not 0 <= p < self.n or i not in SHIPS or j not in targets or i == j:
            return False
        src, dst = self.ship(s, p, i), self.ship(s, p, j)
        fresh = neg(s.captured) if i == PIRATE and p == s.active else True
        return all_of(self.anytime(s, p), src.owned, src.count >= 1, dst.owned, dst.at == src.at,
                      self.fits(dst, src.bean), fresh)

    def n_move(self, s: IState, a: IAction) -> IState:
        p, i, j = a.player, a.ship, a.target
        src, dst = self.ship(s, p, i), self.ship(s, p, j)
        s = self.with_ship(s, p, j, SShip(src.bean, dst.count + src.count, dst.at, dst.owned))
        return self.with_ship(s, p, i, self.emptied(src))

    def g_attack(self, s: IState, a: IAction) -> Cond:
        """I7: the active player's pirate attacks another player's merchant ship, in its harbour,
        holding cargo of a type the pirate can take, not yet attacked this turn."""
        p, q, i = a.player, a.target, a.ship
        if not 0 <= p < self.n or not 0 <= q < self.n or q == p or i not in MERCHANTS:
            return False
        pirate, ship = self.ship(s, p, PIRATE), self.ship(s, q, i)
        fresh = True if self.mutant == "attack-twice" else neg(s.attacked[q][i])
        return all_of(self.sea(s, p), pirate.owned, ship.owned, fresh, ship.at == HOME, ship.count >= 1,
                      self.fits(pirate, ship.bean))

    def n_attack(self, s: IState, a: IAction) -> IState:
        q, i = a.target, a.ship

        def mark(rows: tuple[tuple[Any, ...], ...], value: Any) -> tuple[tuple[Any, ...], ...]:
            row = rows[q][:i] + (value,) + rows[q][i + 1:]
            return rows[:q] + (row,) + rows[q + 1:]

        return s.replace(attacked=mark(s.attacked, True), under=mark(s.under, True),
                         hits=mark(s.hits, s.hits[q][i] + 1), to_move=q)

    def g_yield(self, s: IState, a: IAction) -> Cond:
        """I7: the attacked player lets one card of the attacked ship go."""
        p = a.player
        if not 0 <= p < self.n:
            return False
        return all_of(self.decision(s, p), any_of(*s.under[p]))

    def n_yield(self, s: IState, a: IAction) -> IState:
        """One card moves from the attacked ship onto the attacker's pirate ship (same type)."""
        p = a.player
        b: Val = -1
        for i in MERCHANTS:
            ship = self.ship(s, p, i)
            b = ite(s.under[p][i], ship.bean, b)
            less = SShip(ite(ship.count > 1, ship.bean, -1), ship.count - 1, ship.at, ship.owned)
            s = self.with_ship(s, p, i, pick_ship(s.under[p][i], less, ship))
        raider = s.active
        if self.mutant == "yield-overboard":
            s = s.replace(discard=self.bump(s.discard, b, 1))
        else:
            pirate = self.ship(s, raider, PIRATE)
            s = self.with_ship(s, raider, PIRATE, SShip(b, pirate.count + 1, pirate.at, pirate.owned))
        return s.replace(under=self.none_under(), captured=True, to_move=raider)

    def g_buy_ship(self, s: IState, a: IAction) -> Cond:
        """I1: a second merchant ship for its price in coins."""
        p = a.player
        if not 0 <= p < self.n:
            return False
        pl = s.players[p]
        return all_of(self.anytime(s, p), neg(pl.ships[M1].owned), self.pay_ok(pl, a.pay, self.cfg.ship_cost))

    def n_buy_ship(self, s: IState, a: IAction) -> IState:
        s = self.pay(s, a.player, a.pay)
        return self.with_ship(s, a.player, M1, SShip(-1, 0, HOME, True))

    def g_buy_pirate(self, s: IState, a: IAction) -> Cond:
        """I1: the pirate ship for its price in coins."""
        p = a.player
        if not 0 <= p < self.n:
            return False
        pl = s.players[p]
        return all_of(self.anytime(s, p), neg(pl.ships[PIRATE].owned),
                      self.pay_ok(pl, a.pay, self.cfg.pirate_cost))

    def n_buy_pirate(self, s: IState, a: IAction) -> IState:
        s = self.pay(s, a.player, a.pay)
        return self.with_ship(s, a.player, PIRATE, SShip(-1, 0, HOME, True))

    def g_buy_field(self, s: IState, a: IAction) -> Cond:
        """I1 (F1): the third field for its price in coins, by a player with two."""
        p, cost = a.player, self.cfg.third_cost
        if not 0 <= p < self.n or cost is None:
            return False
        pl = s.players[p]
        return all_of(self.anytime(s, p), pl.nf == 2, self.pay_ok(pl, a.pay, cost))

    def n_buy_field(self, s: IState, a: IAction) -> IState:
        s = self.pay(s, a.player, a.pay)
        pl = s.players[a.player]
        return self.with_player(s, a.player, dataclasses.replace(pl, nf=pl.nf + 1))

    def g_plant_land(self, s: IState, a: IAction) -> Cond:
        """T1/T6/D2/I3 (abstracted): a card of bean ``b`` from the player's land onto a field (H3)."""
        p = a.player
        if not 0 <= p < self.n:
            return False
        pl = s.players[p]
        return all_of(self.decision(s, p), self.no_attack(s), self.is_bean(a.bean),
                      self.tally(pl.land, a.bean) >= 1, self.field_fits(pl, a.field, a.bean))

    def n_plant_land(self, s: IState, a: IAction) -> IState:
        pl = s.players[a.player]
        f = a.field
        pl = dataclasses.replace(pl, land=self.bump(pl.land, a.bean, -1),
                                 fb=pl.fb[:f] + (a.bean,) + pl.fb[f + 1:],
                                 fc=pl.fc[:f] + (pl.fc[f] + 1,) + pl.fc[f + 1:])
        return self.with_player(s, a.player, pl)

    def g_plant_cargo(self, s: IState, a: IAction) -> Cond:
        """Mutant plant-cargo only: a card from a ship onto a field (I5 forbids it)."""
        p, k = a.player, a.ship
        if not 0 <= p < self.n or k not in SHIPS:
            return False
        pl = s.players[p]
        ship = pl.ships[k]
        return all_of(self.decision(s, p), self.no_attack(s), ship.count >= 1,
                      self.field_fits(pl, a.field, ship.bean))

    def n_plant_cargo(self, s: IState, a: IAction) -> IState:
        p, k, f = a.player, a.ship, a.field
        ship = self.ship(s, p, k)
        b = ship.bean
        s = self.with_ship(s, p, k, SShip(ite(ship.count > 1, b, -1), ship.count - 1, ship.at, ship.owned))
        pl = s.players[p]
        pl = dataclasses.replace(pl, fb=pl.fb[:f] + (b,) + pl.fb[f + 1:],
                                 fc=pl.fc[:f] + (pl.fc[f] + 1,) + pl.fc[f + 1:])
        return self.with_player(s, p, pl)

    # ------------------------------------------------------------------ the end of a turn

    def g_end_turn(self, s: IState, a: IAction) -> Cond:
        return s.phase == ENDTURN

    def n_end_turn(self, s: IState, a: IAction) -> IState:
        """T7, I3: the active player draws; unless the game ends after this turn (E2)."""
        return s.replace(phase=ite(s.final, FINISH, DRAW), todo=ite(s.final, 0, self.cfg.draw))

    def took(self, s: IState) -> IState:
        """E1-E2, I9 after a card leaves the draw pile: at the last card the pile is exhausted; the
        duel's set-aside coins join the discard pile; a reshuffle follows (a chance node), or the
        game ends at once at the final exhaustion or with an empty discard pile. On-demand (E1),
        taking the last card exhausts nothing: that waits for the next need (``n_need``)."""
        if self.cfg.on_demand and self.mutant != "on-demand-at-last-card":
            return s
        out = s.draw.n == 0
        exh = s.exh + ite(out, 1, 0)
        discard, spare = s.discard, s.out
        if self.cfg.duel:
            discard = tuple(ite(out, d + o, d) for d, o in zip(discard, spare, strict=True))
            spare = tuple(ite(out, 0, o) for o in spare)
        end = all_of(out, any_of(exh >= self.cfg.final_exhaustion, total(list(discard)) == 0))
        shuffle = all_of(out, neg(end))
        return s.replace(exh=exh, discard=discard, out=spare,
                         phase=ite(end, FINISH, ite(shuffle, CHANCE, s.phase)),
                         to_move=ite(out, -1, s.to_move))

    def g_draw_card(self, s: IState, a: IAction) -> Cond:
        return all_of(s.phase == DRAW, s.todo > 0, s.draw.n > 0)

    def n_draw_card(self, s: IState, a: IAction) -> IState:
        """T7: the top card of the draw pile to the active player's hand."""
        top = s.draw.at(0)
        pl = s.players[s.active]
        s = self.with_player(s, s.active, dataclasses.replace(pl, land=self.bump(pl.land, top, 1)))
        return self.took(s.replace(draw=s.draw.drop_front(), todo=s.todo - 1))

    def g_draw_done(self, s: IState, a: IAction) -> Cond:
        if self.cfg.on_demand:  # E1 on-demand: an empty pile with cards to draw is a need
            return all_of(s.phase == DRAW, s.todo <= 0)
        return all_of(s.phase == DRAW, any_of(s.todo <= 0, s.draw.n == 0))

    def n_draw_done(self, s: IState, a: IAction) -> IState:
        """I2: after the draw, each row that is empty gets 5 cards, Bohnbay first."""
        if self.mutant == "refill-any-row":
            return s.replace(phase=REFILL, todo=0, refill=(ROW, ROW))
        return s.replace(phase=REFILL, todo=0, refill=tuple(ite(r.n == 0, ROW, 0) for r in s.rows))

    def g_refill_card(self, s: IState, a: IAction) -> Cond:
        return all_of(s.phase == REFILL, any_of(s.refill[0] > 0, s.refill[1] > 0), s.draw.n > 0)

    def n_refill_card(self, s: IState, a: IAction) -> IState:
        """I2: the top card of the draw pile to the back of the row being refilled."""
        top = s.draw.at(0)
        first = s.refill[0] > 0
        rows = (pick_seq(first, s.rows[0].push_back(top), s.rows[0]),
                pick_seq(first, s.rows[1], s.rows[1].push_back(top)))
        refill = (ite(first, s.refill[0] - 1, s.refill[0]), ite(first, s.refill[1], s.refill[1] - 1))
        return self.took(s.replace(rows=rows, refill=refill, draw=s.draw.drop_front()))

    def g_refill_done(self, s: IState, a: IAction) -> Cond:
        if self.cfg.on_demand:
            return all_of(s.phase == REFILL, s.refill[0] <= 0, s.refill[1] <= 0)
        return all_of(s.phase == REFILL, any_of(all_of(s.refill[0] <= 0, s.refill[1] <= 0), s.draw.n == 0))

    def needs(self, s: IState) -> Cond:
        """A card must be taken from the draw pile: drawing (I3) or refilling a row (I2)."""
        return any_of(all_of(s.phase == DRAW, s.todo > 0),
                      all_of(s.phase == REFILL, any_of(s.refill[0] > 0, s.refill[1] > 0)))

    def g_need(self, s: IState, a: IAction) -> Cond:
        """E1 on-demand: a card must be drawn or dealt to a row and the draw pile is empty."""
        if not self.cfg.on_demand:
            return False
        return all_of(self.needs(s), s.draw.n == 0)

    def n_need(self, s: IState, a: IAction) -> IState:
        """E1-E2, I9 on-demand: the pile is exhausted now; the duel's set-aside coins join the
        discard pile; a reshuffle follows (the same card still to take), or the game ends at once
        at the final exhaustion or with an empty discard pile."""
        exh = s.exh + 1
        discard, spare = s.discard, s.out
        if self.cfg.duel:
            discard = tuple(d + o for d, o in zip(discard, spare, strict=True))
            spare = tuple(0 for _ in spare)
        end = any_of(exh >= self.cfg.final_exhaustion, total(list(discard)) == 0)
        return s.replace(exh=exh, discard=discard, out=spare, phase=ite(end, FINISH, CHANCE), to_move=-1)

    def n_refill_done(self, s: IState, a: IAction) -> IState:
        return s.replace(phase=START, refill=(0, 0))

    def g_turn_change(self, s: IState, a: IAction) -> Cond:
        return s.phase == START

    def n_turn_change(self, s: IState, a: IAction) -> IState:
        """T1, I7, I6: the next seat's turn starts; attacks, captures and sails count again."""
        nxt = (s.active + 1) % self.n
        return s.replace(
            active=nxt, to_move=nxt, phase=PLANT, pend=False, todo=0,
            attacked=self.none_under(), under=self.none_under(), captured=False, sails=0,
            hits=tuple((0, 0) for _ in range(self.n)))

    # ------------------------------------------------------------------ the end of the game

    def g_final_harvest(self, s: IState, a: IAction) -> Cond:
        pl = s.players[a.player]
        f = a.field
        return all_of(s.phase == FINISH, f < pl.nf, pl.fc[f] > 0)

    def n_final_harvest(self, s: IState, a: IAction) -> IState:
        """E3: every field is harvested (H4 does not apply)."""
        return self.harvest_field(s, a.player, a.field)

    def g_final_sale(self, s: IState, a: IAction) -> Cond:
        return all_of(s.phase == FINISH, self.ship(s, a.player, a.ship).count > 0)

    def n_final_sale(self, s: IState, a: IAction) -> IState:
        """E3 reading for ships: every cargo is sold by the beanometer (no coin if it pays none)."""
        return self.sale(s, a.player, a.ship)

    def g_game_over(self, s: IState, a: IAction) -> Cond:
        empty = [pl.fc[f] == 0 for pl in s.players for f in range(NF)]
        empty += [ship.count == 0 for pl in s.players for ship in pl.ships]
        return all_of(s.phase == FINISH, *empty)

    def n_game_over(self, s: IState, a: IAction) -> IState:
        return s.replace(phase=OVER, to_move=-1, under=self.none_under())

    # ------------------------------------------------------------------ the transition table

    def transitions(self) -> list[Step]:
        out = [
            Transition(SAIL, "sail", self.g_sail, self.n_sail, rule="I4"),
            Transition(HARVEST_ONTO, "harvest-onto-ship", self.g_harvest_onto, self.n_harvest_onto,
                       rule="I5"),
            Transition(HARVEST, "harvest", self.g_harvest, self.n_harvest, rule="H5"),
            Transition(SELL, "sell", self.g_sell, self.n_sell, rule="I6"),
            Transition(SELL_DEFENCE, "sell-attacked", self.g_sell_defence, self.n_sell_defence, rule="I7"),
            Transition(MOVE, "move-cargo", self.g_move, self.n_move, rule="I6"),
            Transition(ATTACK, "attack", self.g_attack, self.n_attack, rule="I7"),
            Transition(YIELD, "yield", self.g_yield, self.n_yield, rule="I7"),
            Transition(BUY_SHIP, "buy-ship", self.g_buy_ship, self.n_buy_ship, rule="I1"),
            Transition(BUY_PIRATE, "buy-pirate", self.g_buy_pirate, self.n_buy_pirate, rule="I1"),
            Transition(BUY_FIELD, "buy-field", self.g_buy_field, self.n_buy_field, rule="I1"),
            Transition(PLANT_LAND, "plant", self.g_plant_land, self.n_plant_land, rule="I5"),
            Transition(END_TURN, "end-turn", self.g_end_turn, self.n_end_turn, True, rule="T7"),
            Transition(DRAW_CARD, "draw", self.g_draw_card, self.n_draw_card, True, rule="I3"),
            Transition(DRAW_DONE, "draw-done", self.g_draw_done, self.n_draw_done, True, rule="I2"),
            Transition(REFILL_CARD, "refill", self.g_refill_card, self.n_refill_card, True, rule="I2"),
            Transition(REFILL_DONE, "refill-done", self.g_refill_done, self.n_refill_done, True, rule="I2"),
            Transition(TURN_CHANGE, "turn-change", self.g_turn_change, self.n_turn_change, True, rule="I7"),
            Transition(FINAL_HARVEST, "final-harvest", self.g_final_harvest, self.n_final_harvest, True,
                       rule="E3"),
            Transition(FINAL_SALE, "final-sale", self.g_final_sale, self.n_final_sale, True, rule="E3"),
            Transition(GAME_OVER, "game-over", self.g_game_over, self.n_game_over, True, rule="E3"),
        ]
        if self.cfg.on_demand:
            out.append(Transition(NEED, "exhaust-at-need", self.g_need, self.n_need, True, rule="E1"))
        if self.mutant == "plant-cargo":
            out.append(Transition(PLANT_CARGO, "plant-cargo", self.g_plant_cargo, self.n_plant_cargo,
                                  rule="I5"))
        return out

    def instances(self, t: Step, take: Val = 0, bean: Val = 0,
                  pay: tuple[Val, ...] = ()) -> list[IAction]:
        """Every concrete choice of seat, ship, port, field and target for transition ``t``; the
        load count, bean and payment are the given (possibly symbolic) values."""
        n = self.n
        k = t.kind
        seats = range(n)
        if k == SAIL:
            return [IAction(k, p, i, port, take=take) for p in seats for i in SHIPS for port in PORTS]
        if k in (HARVEST_ONTO, PLANT_CARGO):
            return [IAction(k, p, i, field=f) for p in seats for i in SHIPS for f in range(NF)]
        if k in (HARVEST, FINAL_HARVEST):
            return [IAction(k, p, field=f) for p in seats for f in range(NF)]
        if k in (SELL, SELL_DEFENCE, FINAL_SALE):
            return [IAction(k, p, i) for p in seats for i in SHIPS]
        if k == MOVE:
            return [IAction(k, p, i, target=j) for p in seats for i in SHIPS for j in SHIPS if i != j]
        if k == ATTACK:
            return [IAction(k, p, i, target=q) for p in seats for q in seats for i in SHIPS if q != p]
        if k in (YIELD,):
            return [IAction(k, p) for p in seats]
        if k in (BUY_SHIP, BUY_PIRATE, BUY_FIELD):
            return [IAction(k, p, pay=pay) for p in seats]
        if k == PLANT_LAND:
            return [IAction(k, p, field=f, bean=bean) for p in seats for f in range(NF)]
        return [IAction(k)]

    def settle(self, s: IState, limit: int = 400) -> IState:
        """Run the internal steps (concrete state) until a decision point, a chance node or the end.
        At the end of the game (E3) several fields and ships may be enabled at once; their order
        does not change the result (tallies add up), so the first in table order is taken."""
        return settle(s, step_table(self.transitions(), self.instances), INTERNAL_PHASES, limit,
                      any_order=(FINISH,))


def pick_ship(c: Cond, a: SShip, b: SShip) -> SShip:
    if isinstance(c, bool):
        return a if c else b
    return SShip(ite(c, a.bean, b.bean), ite(c, a.count, b.count), ite(c, a.at, b.at),
                 a.owned if a.owned is b.owned else ite(c, a.owned, b.owned))
