"""One state as an SVG picture, for notebooks (``GameState._repr_svg_``) and the record viewer.

Every card of the state is drawn exactly once as an element ``<g class="card" data-zone=Z
data-n=N>``: one card (a hand, the face-up cards, a set-aside area) or a stack of ``N`` cards (a
field, the piles; a coin stack, drawn as one coin with its count), and so do the cards an expansion
draws (``Picture.svg_table``/``svg_seat``: La Isla Bohnita's rows and cargo, drawing/isla.py);
``data-bean`` names the bean when the picture shows it. A face is a tint of its bean's colour under a
band of the full colour, and bean names are written on every card (the palette is colour-blind safe,
but colour alone is never the only cue). In a seat's view (``seat=P``) what ``model.views.view``
hides is hidden (H7): other hands as card backs, other coin stacks as grey coins without their count.

The layout is fixed-width text in a monospace font, so each text's box is known from its length
(``CHAR_W`` x font size) and no two texts overlap (tests/test_svg.py checks it on the SVG itself).
``parts`` gives the picture as independent pieces (the table, each seat), which the record viewer
(scripts/show.py) shares between steps. Standard library and the rules only.
"""

from __future__ import annotations

from drawing.canvas import (
    CARD_H,
    COIN,
    ROW_CARDS,
    STACK_H,
    STACK_W,
    STEP,
    STYLE,
    WIDTH,
    Canvas,
    escape,
)
from drawing.pictures import picture
from model.cards import BEAN_NAMES
from model.core import harvestable
from model.state import GameState
from model.views import view


def _seat_height(s: GameState, i: int) -> int:
    p = s.players[i]
    rows = max(1, -(-len(p.hand) // ROW_CARDS))
    h = 30 + max(STACK_H + 4, rows * (CARD_H + 18))
    if p.aside:
        h += 16 + CARD_H + 4
    if s.ext is not None:
        h += picture(s).svg_seat_height(s, i)
    return h + 6


def _seat(c: Canvas, s: GameState, i: int, y0: int, hand_shown: bool, coins_shown: bool) -> None:
    """Seat ``i`` at height ``y0``: fields (H2-H4), coins (H5), hand in order (H1), set-aside cards
    (T4), then the expansion's part (``Picture.svg_seat``)."""
    p = s.players[i]
    su = s.setup
    moving = s.to_move == i
    c.open("g", class_="seat" + (" move" if moving else ""), data_seat=i, transform=f"translate(0,{y0})")
    c.rect(2, 0, WIDTH - 4, _seat_height(s, i) - 4, "#fafafa", "panel")
    marks = [f"p{i}"]
    if s.active == i:
        marks.append("active player")
    if moving:
        marks.append("to move")
    c.text(10, 16, " · ".join(marks), 13, "hi")
    c.text(270, 16, f"{len(p.hand)} cards in hand" + ("" if hand_shown else " (hidden, H7)"), 10, "cap")
    y = 30
    for j, f in enumerate(p.fields):
        x = 10 + j * (STACK_W + 8)
        if not f.count:
            c.rect(x, y, STACK_W, STACK_H, "#f0f0f0", rx=4)
            c.text(x + STACK_W / 2, y + 36, f"field {j}", 10, "cap", middle=True)
            continue
        pays = su.payout[f.bean][f.count] if f.bean < len(su.payout) else 0
        # H4 explains a choice only to the seat that makes it: marked on the seat to move's fields
        protected = moving and f.count == 1 and not harvestable(p.fields, j, su.strict_harvest)
        lines: tuple[str, ...] = (f"field {j}", BEAN_NAMES[f.bean],
                                  f"{f.count} card" + ("s" if f.count > 1 else ""), f"pays {pays}")
        if protected:
            lines = (*lines, "H4 kept")
        c.card(x, y, f"p{i}.fields.{j}", f.bean, lines, n=f.count, cls="h4" if protected else "",
               w=STACK_W, h=STACK_H, bold=1)
    x, y1 = 10 + 3 * (STACK_W + 8), y + (STACK_H - COIN) / 2
    # coins (H5): a coin with the count on it; hidden (H7): a grey coin, not even the count
    c.open("g", class_="card coin" + ("" if coins_shown else " hidden"), data_zone=f"p{i}.coins",
           data_n=len(p.coins) if coins_shown else None)
    c.rect(x, y1, COIN, COIN, "#f2cf4a" if coins_shown else "#c8c8c8", rx=COIN / 2)
    c.text(x + COIN / 2, y1 + 19, "coins", 10, "cap", middle=True)
    c.text(x + COIN / 2, y1 + 37, str(len(p.coins)) if coins_shown else "hidden", 15 if coins_shown else 10,
           "hi", middle=True)
    c.close("g")
    hx = 330
    if p.hand:
        c.text(hx, y - 2, "hand, front card h0 first (H1)", 10, "cap")
    for k, b in enumerate(p.hand):
        cx = hx + (k % ROW_CARDS) * STEP
        cy = y + 4 + (k // ROW_CARDS) * (CARD_H + 18)
        face = BEAN_NAMES[b] if hand_shown else "back"
        c.card(cx, cy, f"p{i}.hand", b if hand_shown else None, (face, f"h{k} front" if k == 0 else f"h{k}"),
               cls="front" if k == 0 else "")
    rows = max(1, -(-len(p.hand) // ROW_CARDS))
    y += max(STACK_H + 4, rows * (CARD_H + 18))
    if p.aside:
        c.text(10, y + 12, "set aside (T4): planted after trading (T6)", 10, "cap")
        for k, b in enumerate(p.aside):
            c.card(10 + k * STEP, y + 16, f"p{i}.aside", b, (BEAN_NAMES[b],))
        y += 16 + CARD_H + 4
    if s.ext is not None:
        picture(s).svg_seat(c, s, i, y)
    c.close("g")


def _table_height(s: GameState) -> int:
    h = 48 + STACK_H + 10
    if s.ext is not None:
        h += picture(s).svg_table_height(s)
    return h + 6


def _table(c: Canvas, s: GameState) -> None:
    """The piles and their counts, the face-up cards, exhaustions (E1-E2), phase and seat to move,
    then the expansion's part (``Picture.svg_status``, ``svg_table``)."""
    su = s.setup
    c.open("g", class_="table")
    c.rect(2, 0, WIDTH - 4, _table_height(s) - 4, "#eef3ee", rx=6)
    who = f"p{s.to_move}" if s.to_move >= 0 else "nobody"
    c.text(10, 18, f"{su.rules.name} · {len(s.players)} players · turn {s.turn} · active p{s.active} · "
                   f"phase {s.phase.name.lower()} · to move {who}", 13, "hi")
    ex = f"exhaustions {s.exhaustions} of {su.final_exhaustion} (E1-E2)"
    if s.final:
        ex += " · final pass"
    if s.pending is not None:
        ex += f" · pending offer: {s.pending}"
    if s.ext is not None:
        ex += picture(s).svg_status(s)
    c.text(10, 36, ex, 11)
    y = 46
    c.card(10, y, "draw", None, ("draw", str(len(s.draw))), n=len(s.draw), w=STACK_W, h=STACK_H)
    top = s.discard[-1] if s.discard else -1
    if s.discard:
        c.card(90, y, "discard", top, (BEAN_NAMES[top], "discard", str(len(s.discard))), n=len(s.discard),
               w=STACK_W, h=STACK_H)
    else:
        c.rect(90, y, STACK_W, STACK_H, "#f0f0f0")
        c.text(90 + STACK_W / 2, y + 30, "discard", 10, "cap", middle=True)
        c.text(90 + STACK_W / 2, y + 43, "0", 10, "cap", middle=True)
    x = 170
    if s.out:
        c.card(x, y, "out", None, ("out", str(len(s.out))), n=len(s.out), w=STACK_W, h=STACK_H)
        x += 80
    c.text(x + 10, y + 10, "face up (T2)" if s.face_up else "face up: none", 10, "cap")
    for k, b in enumerate(s.face_up):
        c.card(x + 10 + k * STEP, y + 16, "face_up", b, (BEAN_NAMES[b], f"u{k}"))
    if s.ext is not None:
        picture(s).svg_table(c, s, y + STACK_H + 10)
    c.close("g")


def parts(s: GameState, seat: int | None = None) -> list[str]:
    """The picture's pieces: the table, then each seat (each placed by its own transform)."""
    shown = [(True, True)] * len(s.players)
    if seat is not None:
        v = view(s, seat)  # H7: what seat P may see
        shown = [("hand" in x, "coins" in x) for x in v["seats"]]
    out: list[str] = []
    c = Canvas()
    _table(c, s)
    out.append("".join(c.out))
    y = _table_height(s)
    for i in range(len(s.players)):
        c = Canvas()
        _seat(c, s, i, y, *shown[i])
        out.append("".join(c.out))
        y += _seat_height(s, i)
    return out


def height(s: GameState) -> int:
    return _table_height(s) + sum(_seat_height(s, i) for i in range(len(s.players)))


def header(h: int, title: str = "") -> str:
    """The ``<svg>`` opening tag and style for a picture ``h`` high (``parts`` fill it)."""
    t = f"<title>{escape(title)}</title>" if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{h}" '
            f'viewBox="0 0 {WIDTH} {h}" class="bohnanza">{t}<style>{STYLE}</style>')


def svg(s: GameState, seat: int | None = None) -> str:
    """``s`` as an SVG document; with ``seat``, only what that seat may see (H7)."""
    title = f"Bohnanza {s.setup.rules.name}, turn {s.turn}"
    if seat is not None:
        title += f", as p{seat} sees it"
    return header(height(s), title) + "".join(parts(s, seat)) + "</svg>"

