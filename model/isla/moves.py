"""La Isla Bohnita moves (I1-I9): sailing, loading, selling, moving cargo, pirate attacks, purchases.

``hooks.py`` hands these to the engine where the expansion changes a turn; the readings of unclear
rules are listed in ``state.py``. Each check raises ``IllegalAction`` naming the rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from model.actions import Action, PlantUp
from model.cards import BEAN_NAMES
from model.core import evolve as _evolve
from model.core import harvestable as _harvestable
from model.core import pay as _pay
from model.core import with_player as _with_player
from model.errors import IllegalAction
from model.isla.actions import (
    PIRATE,
    PORT_NAMES,
    Attack,
    BuyShip,
    HarvestOnto,
    MoveCargo,
    PlantCargo,
    Sail,
    Sell,
    Yield,
    ship_name,
)
from model.isla.setup import IslaSetup, isla_setup
from model.isla.state import EMPTY_SHIP, HOME, REFILL, Fleet, Isla, Ship, isla_of
from model.state import EMPTY, Field, GameState, Phase, PlayerState
from model.steps import STEPS

TRADE = Phase.TRADE


def _fits(ship: Ship, b: int) -> bool:
    """I4: a ship holds one type only."""
    return ship.count == 0 or ship.bean == b


def _pays(s: GameState, ship: Ship) -> int:
    return s.setup.payout[ship.bean][ship.count] if ship.count else 0


def _ship_moves_allowed(s: GameState, p: int) -> bool:
    """Ship moves and attacks: the active player in phase 2, nothing pending (I3, I4, I7)."""
    return p == s.active and s.phase == TRADE and s.pending is None and isla_of(s).attack is None


# ---------------------------------------------------------------- the move generator


def defence(s: GameState) -> list[Action]:
    """I7: the attacked player sells that ship's cargo (if it pays) or yields one card."""
    isla = isla_of(s)
    assert isla.attack is not None
    q, i = isla.attack
    ship = isla.fleets[q].ship(i)
    assert ship is not None
    out: list[Action] = [Yield(q)]
    if _pays(s, ship):
        out.insert(0, Sell(q, i))
    return out


def plant_ups(s: GameState, p: int, fields: tuple[Field, ...]) -> list[Action]:
    """I3: face-up cards onto fitting fields; identical cards get one canonical index (face_up is sorted)."""
    out: list[Action] = []
    seen = -1
    fits = STEPS.fits
    for u, b in enumerate(s.face_up):
        if b != seen:
            seen = b
            out.extend(PlantUp(p, u, i) for i, f in enumerate(fields) if fits(f, b))
    return out


def sea_actions(s: GameState, p: int) -> list[Action]:
    """The active player's ship moves and pirate attacks (I4, I7)."""
    isla = isla_of(s)
    if not _ship_moves_allowed(s, p):
        return []
    fleet = isla.fleets[p]
    out: list[Action] = []
    if isla.sails < isla_setup(s.setup).max_sails:
        for i, ship in enumerate(fleet.merchants):
            for port in range(3):
                if port == ship.at:
                    continue
                if port == HOME:
                    out.append(Sail(p, i, HOME, 0))
                    continue
                row = isla.rows[port - 1]
                if not row:
                    out.append(Sail(p, i, port, 0))
                elif _fits(ship, row[0]):
                    out.extend(Sail(p, i, port, k) for k in range(1, row.count(row[0]) + 1))
    pirate = fleet.pirate
    if pirate is not None:
        for q, other in enumerate(isla.fleets):
            if q == p:
                continue
            for i, ship in enumerate(other.merchants):
                if (ship.at == HOME and ship.count and _fits(pirate, ship.bean)
                        and (q, i) not in isla.attacked):
                    out.append(Attack(p, q, i))
    return out


def anytime_actions(s: GameState, p: int) -> list[Action]:
    """Whenever ``p`` is to move: sell, move cargo, harvest onto a ship, buy ships (I1, I5, I6).

    In the duel only the active player moves, except to answer an attack (I9)."""
    isla = s.ext
    assert isinstance(isla, Isla)  # inlined isla_of: called for every legal_actions
    fleet = isla.fleets[p]
    pl = s.players[p]
    out: list[Action] = []
    for i, ship in fleet.ships():
        if ship.count and _pays(s, ship):
            out.append(Sell(p, i))
    for i, ship in fleet.ships():
        if not ship.count or (i == PIRATE and p == s.active and isla.captured):
            continue
        for j, target in enumerate(fleet.merchants):
            if j != i and target.at == ship.at and _fits(target, ship.bean):
                out.append(MoveCargo(p, i, j))
    strict = s.setup.strict_harvest
    for f, field in enumerate(pl.fields):
        if field.count and _harvestable(pl.fields, f, strict):
            for j, target in enumerate(fleet.merchants):
                if target.at == HOME and _fits(target, field.bean):
                    out.append(HarvestOnto(p, f, j))
    coins = len(pl.coins)
    costs = s.setup.ext  # isla_setup, inlined
    assert isinstance(costs, IslaSetup)
    if len(fleet.merchants) == 1 and coins >= costs.ship_cost:
        out.append(BuyShip(p, False))
    if fleet.pirate is None and coins >= costs.pirate_cost:
        out.append(BuyShip(p, True))
    return out


# ---------------------------------------------------------------- applying the moves


def _set_fleet(isla: Isla, p: int, fleet: Fleet) -> Isla:
    return isla._replace(fleets=isla.fleets[:p] + (fleet,) + isla.fleets[p + 1:])


def _ship_or_fail(s: GameState, p: int, i: int, rule: str) -> Ship:
    ship = isla_of(s).fleets[p].ship(i)
    if ship is None:
        raise IllegalAction(f"p{p} has no ship {ship_name(i)}", rule)
    return ship


def _not_expansion(s: GameState, a: Any) -> None:
    if not isinstance(s.ext, Isla):
        raise IllegalAction(f"{a} is a La Isla Bohnita move; this game is played without it", "I1")


def do_sail(s: GameState, a: Sail, check: bool) -> GameState:
    p, i, port, take = a.player, a.ship, a.port, a.take
    if check:
        _not_expansion(s, a)
        if not _ship_moves_allowed(s, p):
            raise IllegalAction(f"p{p} may sail only as the active player in phase 2", "I3")
        if i == PIRATE:
            raise IllegalAction(f"p{p}'s pirate ship sails only to attack", "I7")
        ship = _ship_or_fail(s, p, i, "I4")
        if not 0 <= port < len(PORT_NAMES) or port == ship.at:
            raise IllegalAction(
                f"p{p}'s {ship_name(i)} is at {PORT_NAMES[ship.at]}; it must sail elsewhere", "I4")
        limit = isla_setup(s.setup).max_sails
        if isla_of(s).sails >= limit:
            raise IllegalAction(f"p{p} has made the {limit} ship moves allowed this turn", "I4")
        row = isla_of(s).rows[port - 1] if port else ()
        if not row and take != 0:
            raise IllegalAction(f"p{p} cannot load {take} cards: the {PORT_NAMES[port]} row is empty", "I4")
        if row:
            b = row[0]
            if not _fits(ship, b):
                raise IllegalAction(
                    f"p{p}'s {ship_name(i)} holds {BEAN_NAMES[ship.bean]} and cannot load the front "
                    f"{BEAN_NAMES[b]} of {PORT_NAMES[port]}: a ship holds one type", "I4")
            if not 1 <= take <= row.count(b):
                raise IllegalAction(
                    f"p{p} must load the front card and at most the {row.count(b)} {BEAN_NAMES[b]} "
                    f"of the {PORT_NAMES[port]} row, not {take}", "I4")
    isla = isla_of(s)
    fleet = isla.fleets[p]
    ship = fleet.merchants[i]
    rows = isla.rows
    if port and take:
        row = rows[port - 1]
        b = row[0]
        left, taken = [], 0
        for c in row:  # the front card and the next ``take - 1`` of its type leave the row
            if c == b and taken < take:
                taken += 1
            else:
                left.append(c)
        new_row = tuple(left)
        rows = (new_row, rows[1]) if port == 1 else (rows[0], new_row)
        ship = Ship(b, ship.count + take, port)
    else:
        ship = ship._replace(at=port)
    isla = _set_fleet(isla, p, fleet.with_ship(i, ship))._replace(rows=rows, sails=isla.sails + 1)
    return _evolve(s, ext=isla)


def do_harvest_onto(s: GameState, a: HarvestOnto, check: bool) -> GameState:
    p, f, i = a.player, a.field, a.ship
    pl = s.players[p]
    if check:
        _not_expansion(s, a)
        if i == PIRATE:
            raise IllegalAction(f"p{p} cannot load a harvest onto its pirate ship", "I7")
        ship = _ship_or_fail(s, p, i, "I5")
        if not 0 <= f < len(pl.fields) or pl.fields[f].count == 0:
            raise IllegalAction(f"p{p} has no planted field {f}", "H5")
        if not _harvestable(pl.fields, f, s.setup.strict_harvest):
            raise IllegalAction(f"p{p} cannot harvest the single bean on field {f} now", "H4")
        if ship.at != HOME:
            raise IllegalAction(f"p{p}'s {ship_name(i)} is at {PORT_NAMES[ship.at]}, not in its harbour",
                                "I5")
        b = pl.fields[f].bean
        if not _fits(ship, b):
            raise IllegalAction(f"p{p}'s {ship_name(i)} holds {BEAN_NAMES[ship.bean]}, not "
                                f"{BEAN_NAMES[b]}: a ship holds one type", "I5")
    field = pl.fields[f]
    isla = isla_of(s)
    fleet = isla.fleets[p]
    ship = fleet.merchants[i]
    new = PlayerState(pl.hand, pl.fields[:f] + (EMPTY,) + pl.fields[f + 1:], pl.coins, pl.aside)
    isla = _set_fleet(isla, p, fleet.with_ship(i, Ship(field.bean, ship.count + field.count, ship.at)))
    return _evolve(s, players=_with_player(s, p, new), ext=isla)


def do_sell(s: GameState, a: Sell, check: bool) -> GameState:
    p, i = a.player, a.ship
    isla = isla_of(s) if isinstance(s.ext, Isla) else None
    if check:
        _not_expansion(s, a)
        assert isla is not None
        if isla.attack is not None and isla.attack != (p, i):
            q, j = isla.attack
            raise IllegalAction(f"p{q} must first answer the attack on its {ship_name(j)}", "I7")
        ship = _ship_or_fail(s, p, i, "I6")
        if not ship.count:
            raise IllegalAction(f"p{p}'s {ship_name(i)} has no cargo to sell", "I6")
        if not _pays(s, ship):
            raise IllegalAction(
                f"p{p}'s {ship_name(i)} holds {ship.count} {BEAN_NAMES[ship.bean]}, which pays no coin; "
                "cargo is sold only for at least one coin and never thrown overboard", "I6")
    assert isla is not None
    s = sell_cargo(s, p, i)
    isla = isla_of(s)
    if isla.attack == (p, i):  # I7: the sale answers the attack
        s = _evolve(s, ext=isla._replace(attack=None), to_move=s.active)
    return s


def sell_cargo(s: GameState, p: int, i: int) -> GameState:
    """I6 (and H5's split): the beanometer's coins go to the coin stack, the rest to the discard pile."""
    isla = isla_of(s)
    fleet = isla.fleets[p]
    ship = fleet.ship(i)
    assert ship is not None
    isla = _set_fleet(isla, p, fleet.with_ship(i, EMPTY_SHIP._replace(at=ship.at)))
    return STEPS.cash_in(_evolve(s, ext=isla), p, s.players[p].fields, ship.bean, ship.count)


def do_move_cargo(s: GameState, a: MoveCargo, check: bool) -> GameState:
    p, i, j = a.player, a.source, a.target
    if check:
        _not_expansion(s, a)
        source = _ship_or_fail(s, p, i, "I6")
        if j == PIRATE:
            raise IllegalAction(f"p{p} cannot load cargo onto its pirate ship", "I7")
        target = _ship_or_fail(s, p, j, "I6")
        if i == j:
            raise IllegalAction(f"p{p} moves cargo from {ship_name(i)} onto itself", "I6")
        if not source.count:
            raise IllegalAction(f"p{p}'s {ship_name(i)} has no cargo", "I6")
        if target.at != source.at:
            raise IllegalAction(f"p{p}'s {ship_name(i)} and {ship_name(j)} are not in the same port", "I6")
        if not _fits(target, source.bean):
            raise IllegalAction(f"p{p}'s {ship_name(j)} holds {BEAN_NAMES[target.bean]}, not "
                                f"{BEAN_NAMES[source.bean]}: a ship holds one type", "I6")
        if i == PIRATE and p == s.active and isla_of(s).captured:
            raise IllegalAction(f"p{p}'s pirate captured a card this turn; its cargo stays aboard "
                                "until a later turn", "I6")
    isla = isla_of(s)
    fleet = isla.fleets[p]
    src, dst = fleet.ship(i), fleet.ship(j)
    assert src is not None and dst is not None
    fleet = fleet.with_ship(j, Ship(src.bean, dst.count + src.count, dst.at))
    fleet = fleet.with_ship(i, EMPTY_SHIP._replace(at=src.at))
    return _evolve(s, ext=_set_fleet(isla, p, fleet))


def do_attack(s: GameState, a: Attack, check: bool) -> GameState:
    p, q, i = a.player, a.target, a.ship
    isla = isla_of(s) if isinstance(s.ext, Isla) else None
    if check:
        _not_expansion(s, a)
        assert isla is not None
        if not _ship_moves_allowed(s, p):
            raise IllegalAction(f"p{p} may attack only as the active player in phase 2", "I7")
        pirate = isla.fleets[p].pirate
        if pirate is None:
            raise IllegalAction(f"p{p} has no pirate ship", "I7")
        if not 0 <= q < len(s.players) or q == p:
            raise IllegalAction(f"p{p} cannot attack p{q}", "I7")
        if i == PIRATE:
            raise IllegalAction("a pirate ship attacks merchant ships only", "I7")
        ship = _ship_or_fail(s, q, i, "I7")
        if (q, i) in isla.attacked:
            raise IllegalAction(f"p{q}'s {ship_name(i)} was attacked this turn already; once per turn", "I7")
        if ship.at != HOME:
            raise IllegalAction(f"p{q}'s {ship_name(i)} is at {PORT_NAMES[ship.at]}, not in its harbour",
                                "I7")
        if not ship.count:
            raise IllegalAction(f"p{q}'s {ship_name(i)} has no cargo to capture", "I7")
        if not _fits(pirate, ship.bean):
            raise IllegalAction(f"p{p}'s pirate holds {BEAN_NAMES[pirate.bean]} and cannot take "
                                f"{BEAN_NAMES[ship.bean]}: a ship holds one type", "I7")
    assert isla is not None
    isla = isla._replace(attacked=tuple(sorted(isla.attacked + ((q, i),))), attack=(q, i))
    return _evolve(s, ext=isla, to_move=q)


def do_yield(s: GameState, a: Yield, check: bool) -> GameState:
    q = a.player
    if check:
        _not_expansion(s, a)
        if isla_of(s).attack is None or isla_of(s).attack[0] != q:  # type: ignore[index]
            raise IllegalAction(f"p{q} has no attack to answer", "I7")
    isla = isla_of(s)
    assert isla.attack is not None
    _, i = isla.attack
    p = s.active
    victim = isla.fleets[q]
    ship = victim.merchants[i]
    b = ship.bean
    left = Ship(b, ship.count - 1, ship.at) if ship.count > 1 else EMPTY_SHIP._replace(at=ship.at)
    isla = _set_fleet(isla, q, victim.with_ship(i, left))
    raider = isla.fleets[p]
    pirate = raider.pirate
    assert pirate is not None
    isla = _set_fleet(isla, p, raider.with_ship(PIRATE, Ship(b, pirate.count + 1, pirate.at)))
    return _evolve(s, ext=isla._replace(attack=None, captured=True), to_move=p)


def do_buy_ship(s: GameState, a: BuyShip, check: bool) -> GameState:
    p = a.player
    what = "pirate ship" if a.pirate else "second merchant ship"
    if check:
        _not_expansion(s, a)
    costs = isla_setup(s.setup)
    cost = costs.pirate_cost if a.pirate else costs.ship_cost
    if check:
        fleet = isla_of(s).fleets[p]
        if (fleet.pirate is not None) if a.pirate else len(fleet.merchants) >= 2:
            raise IllegalAction(f"p{p} already has a {what}", "I1")
        if len(s.players[p].coins) < cost:
            raise IllegalAction(f"p{p} has {len(s.players[p].coins)} coins; the {what} costs {cost}",
                                "I9" if s.setup.duel else "I1")
    isla = isla_of(s)
    fleet = isla.fleets[p]
    if a.pirate:
        fleet = Fleet(fleet.merchants, EMPTY_SHIP)
    else:
        fleet = Fleet(fleet.merchants + (EMPTY_SHIP,), fleet.pirate)
    # I1: the coins go to the discard pile; I9: in the duel set aside, back at the next reshuffle
    return _pay(_evolve(s, ext=_set_fleet(isla, p, fleet)), p, cost)


def do_plant_cargo(s: GameState, a: PlantCargo, check: bool) -> GameState:
    _not_expansion(s, a)
    raise IllegalAction(f"p{a.player} cannot plant cargo from its {ship_name(a.ship)}: island beans "
                        "count as harvested and never go onto a field", "I5")


HANDLERS: dict[type, Callable[[GameState, Any, bool], GameState]] = {
    Sail: do_sail,
    HarvestOnto: do_harvest_onto,
    Sell: do_sell,
    MoveCargo: do_move_cargo,
    Attack: do_attack,
    Yield: do_yield,
    BuyShip: do_buy_ship,
    PlantCargo: do_plant_cargo,
}


# ---------------------------------------------------------------- automatic steps


def refill_todo(s: GameState) -> tuple[int, ...]:
    """I2: at the end of the turn (after the draw) each empty row gets 5 cards, Bohnbay first."""
    rows = isla_of(s).rows
    return tuple(code for r, code in enumerate(REFILL) if not rows[r] for _ in range(5))


def sell_all(s: GameState) -> GameState:
    """E3 reading for ships: every cargo is sold at the end by the beanometer (no coin if it pays none)."""
    isla = isla_of(s)
    for p, fleet in enumerate(isla.fleets):
        for i, ship in fleet.ships():
            if ship.count:
                s = sell_cargo(s, p, i)
    return _evolve(s, ext=isla_of(s)._replace(attack=None))
