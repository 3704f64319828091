"""La Isla Bohnita drawn: its part of ``str(state)`` (model/display.py) and of the state's SVG picture
(model/svg.py), which reach it through the ``Expansion`` drawing hooks (``hooks.py``): ships and
cargo (I1, I4-I6), the island rows (I2), a pirate attack awaiting its answer (I7)."""

from __future__ import annotations

from model.canvas import CARD_H, STACK_H, STACK_W, STEP, Canvas
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


def _ship_words(k: int) -> str:
    """Ship ``k`` in words (``SHIP_NAMES`` are the notation's: m0, m1, pirate)."""
    return ("merchant 1", "merchant 2", "pirate")[k] if 0 <= k < 3 else SHIP_NAMES[k]


def svg_status(s: GameState) -> str:
    """I7: the attack awaiting its answer, on the table's status line."""
    attack = isla_of(s).attack
    if attack is None:
        return ""
    q, k = attack
    return f" · pirate attack on p{q} {_ship_words(k)}: p{q} sells or yields (I7)"


def svg_table_height(s: GameState) -> int:
    return 2 * (16 + CARD_H + 4)


def svg_table(c: Canvas, s: GameState, y: float) -> None:
    """The two island rows (I2), front card first, from height ``y``."""
    rows = isla_of(s).rows
    for r, name in enumerate(("Bohnbay", "Bohnaco")):
        c.text(10, y + 12, f"{name} row (I2), front card first", 9, "cap")
        for k, b in enumerate(rows[r]):
            c.card(10 + k * STEP, y + 16, f"row.{r}", b, (BEAN_NAMES[b], "front") if k == 0
                   else (BEAN_NAMES[b],), cls="front" if k == 0 else "")
        y += 16 + CARD_H + 4


def svg_seat_height(s: GameState, i: int) -> int:
    return 16 + STACK_H + 4


def svg_seat(c: Canvas, s: GameState, i: int, y: float) -> None:
    """Seat ``i``'s ships (I1): cargo and port, from height ``y``."""
    c.text(10, y + 12, "ships (I1): cargo and port", 9, "cap")
    for n, (k, ship) in enumerate(isla_of(s).fleets[i].ships()):
        x = 10 + n * (STACK_W + 50)
        where = (_ship_words(k), f"at {PORT_NAMES[ship.at]}")
        if ship.count:
            c.card(x, y + 16, f"p{i}.ship.{k}", ship.bean,
                   (BEAN_NAMES[ship.bean], f"{ship.count} cargo", *where), n=ship.count,
                   w=STACK_W + 40, h=STACK_H + 4)
        else:
            c.rect(x, y + 16, STACK_W + 40, STACK_H + 4, "#e8f0f8")
            for m, line in enumerate(("empty", *where)):
                c.text(x + (STACK_W + 40) / 2, y + 38 + 13 * m, line, 10, "cap", middle=True)
