"""La Isla Bohnita's part of a position read from a file: its cards and its state against I1-I9.

``model.validate.check_state`` calls these through the expansion hooks (``card_zones``,
``check_position``); each problem is a ``PositionError`` naming the state field and the rule.
"""

from __future__ import annotations

from model.errors import PositionError
from model.isla.actions import PORT_NAMES, SHIP_NAMES
from model.isla.setup import isla_setup
from model.isla.state import HOME, ROW, isla_of
from model.state import GameState, Phase


def zones(s: GameState) -> list[tuple[str, tuple[int, ...]]]:
    """Where the expansion keeps cards (card conservation, C2): the rows and every ship."""
    isla = isla_of(s)
    out = [(f"isla.rows.{PORT_NAMES[1 + r]}", row) for r, row in enumerate(isla.rows)]
    for i, fleet in enumerate(isla.fleets):
        for k, ship in fleet.ships():
            where = f"isla.fleets[{i}].{SHIP_NAMES[k]}"
            if ship.count > len(s.setup.deck):  # before the cargo is counted card by card
                raise PositionError(where, f"{ship.count} cards; the deck has {len(s.setup.deck)}", "C2")
            out.append((where, (ship.bean,) * ship.count))
    return out


def check(s: GameState) -> None:
    """Ships, rows and the attack of La Isla Bohnita (I1-I9)."""
    isla = isla_of(s)
    n = len(s.players)
    if s.setup.duel and s.phase in (Phase.OFFER, Phase.TURNED):
        raise PositionError("phase", "the Isla duel plants its turned-up cards in phase 2 and 3", "I9")
    if len(isla.fleets) != n:
        raise PositionError("isla.fleets", f"{len(isla.fleets)} fleets for {n} players", "I1")
    for i, fleet in enumerate(isla.fleets):
        if not 1 <= len(fleet.merchants) <= 2:
            raise PositionError(f"isla.fleets[{i}].merchants", f"{len(fleet.merchants)} merchant ships; "
                                "one, and a second one to buy", "I1")
        for k, ship in fleet.ships():
            where = f"isla.fleets[{i}].{SHIP_NAMES[k]}"
            if (ship.count == 0) != (ship.bean == -1) or ship.count < 0:
                raise PositionError(where, "a ship holds cards of one type, or none", "I4")
            if not 0 <= ship.at < len(PORT_NAMES) or (k == 2 and ship.at != HOME):
                raise PositionError(where, f"port {ship.at} is not one it can be at", "I4")
    for r, row in enumerate(isla.rows):
        if len(row) > ROW:
            raise PositionError(f"isla.rows.{PORT_NAMES[1 + r]}", f"{len(row)} cards; a row holds 5", "I2")
    limit = isla_setup(s.setup).max_sails
    if isla.sails > limit:
        raise PositionError("isla.sails", f"{isla.sails} ship moves; max_sails is {limit}", "I4")
    if isla.attack is not None:
        q, k = isla.attack
        if s.phase != Phase.TRADE or s.to_move != q or isla.attack not in isla.attacked:
            raise PositionError("isla.attack", "an attack is answered by the attacked player in phase 2, "
                                "and is counted as made", "I7")
        target = isla.fleets[q].ship(k) if 0 <= q < n else None
        if target is None or target.count == 0 or isla.fleets[s.active].pirate is None:
            raise PositionError("isla.attack", "the attacked ship must exist and hold cargo, and the "
                                "active player must own a pirate ship", "I7")
