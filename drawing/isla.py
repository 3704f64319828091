"""La Isla Bohnita's part of a state's SVG picture (``drawing/svg.py``): the island rows (I2), each
seat's ships with their cargo and port (I1, I4), a pirate attack awaiting its answer (I7). Its part
of ``str(state)`` is the expansion's own (model/isla/drawing.py)."""

from __future__ import annotations

from drawing.canvas import CARD_H, STACK_H, STACK_W, STEP, Canvas
from drawing.picture import Picture
from model.cards import BEAN_NAMES
from model.isla.actions import PORT_NAMES, SHIP_NAMES
from model.isla.state import isla_of
from model.state import GameState


def _ship_words(k: int) -> str:
    """Ship ``k`` in words (``SHIP_NAMES`` are the notation's: m0, m1, pirate)."""
    return ("merchant 1", "merchant 2", "pirate")[k] if 0 <= k < 3 else SHIP_NAMES[k]


class IslaPicture(Picture):
    """The rows below the piles, the ships in each seat, the attack on the status line."""

    def svg_status(self, s: GameState) -> str:
        """I7: the attack awaiting its answer, on the table's status line."""
        attack = isla_of(s).attack
        if attack is None:
            return ""
        q, k = attack
        return f" · pirate attack on p{q} {_ship_words(k)}: p{q} sells or yields (I7)"

    def svg_table_height(self, s: GameState) -> int:
        return 2 * (16 + CARD_H + 4)

    def svg_table(self, c: Canvas, s: GameState, y: float) -> None:
        """The two island rows (I2), front card first, from height ``y``."""
        rows = isla_of(s).rows
        for r, name in enumerate(("Bohnbay", "Bohnaco")):
            c.text(10, y + 12, f"{name} row (I2), front card first", 9, "cap")
            for k, b in enumerate(rows[r]):
                c.card(10 + k * STEP, y + 16, f"row.{r}", b, (BEAN_NAMES[b], "front") if k == 0
                       else (BEAN_NAMES[b],), cls="front" if k == 0 else "")
            y += 16 + CARD_H + 4

    def svg_seat_height(self, s: GameState, i: int) -> int:
        return 16 + STACK_H + 4

    def svg_seat(self, c: Canvas, s: GameState, i: int, y: float) -> None:
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


ISLA = IslaPicture()
