"""La Isla Bohnita as text: its part of ``str(state)`` (model/display.py), which reaches it through
the ``Expansion`` text hooks (``hooks.py``): ships and cargo (I1, I4-I6), the island rows (I2), a
pirate attack awaiting its answer (I7). Its part of the SVG picture is drawing/isla.py."""

from __future__ import annotations

from model.cards import BEAN_NAMES
from model.isla.actions import PORT_NAMES, SHIP_NAMES
from model.isla.state import Ship, isla_of
from model.state import GameState


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(BEAN_NAMES[c] for c in cards) or "-"


def _ship(ship: Ship | None, k: int) -> str:
    assert ship is not None
    cargo = f"{ship.count} {BEAN_NAMES[ship.bean]}" if ship.count else "empty"
    return f"{SHIP_NAMES[k]} {cargo} at {PORT_NAMES[ship.at]}"


def seat_text(s: GameState, i: int) -> str:
    """Seat ``i``'s ships, cargo and ports (I1, I4)."""
    fleet = isla_of(s).fleets[i]
    return " | ships " + ", ".join(_ship(fleet.ship(k), k) for k, _ in fleet.ships())


def table_text(s: GameState) -> list[str]:
    """The island rows (I2) and the attack awaiting its answer (I7)."""
    isla = isla_of(s)
    lines = [f"island rows: bohnbay {_cards(isla.rows[0])} | bohnaco {_cards(isla.rows[1])}"]
    if isla.attack is not None:
        q, k = isla.attack
        lines.append(f"pirate attack on p{q} {SHIP_NAMES[k]}: p{q} sells or yields")
    return lines
