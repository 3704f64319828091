"""The SVG pieces a state's picture is built from (drawing/svg.py) and an expansion draws its own part
with (``drawing.picture.Picture.svg_table``/``svg_seat``): sizes, the colour-blind-safe palette and
``Canvas``. It sits below the expansions' pictures and the picture, so both import it (no circle).
"""

from __future__ import annotations

from model.cards import BEAN_NAMES


def escape(text: str, quote: bool = False) -> str:
    """``xml.sax.saxutils.escape`` (with ``quote``: its ``{'"': "&quot;"}``), without loading
    ``xml.sax``, which pulls in ``http`` and ``email`` when ``import model`` registers the picture."""
    text = text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
    return text.replace('"', "&quot;") if quote else text


FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"
CHAR_W = 0.62  # advance of one monospace character, in font sizes (DejaVu Sans Mono: 0.602)
WIDTH = 1000

# Okabe-Ito and Paul Tol colours: distinguishable with the common colour-vision deficiencies.
PALETTE: tuple[str, ...] = (
    "#8c510a",  # coffee
    "#f0e442",  # wax
    "#0072b2",  # blue
    "#d55e00",  # chili
    "#999933",  # stink
    "#009e73",  # green
    "#e69f00",  # soy
    "#332288",  # blackeyed
    "#cc3311",  # red
    "#44aa99",  # garden
    "#aa4499",  # cocoa
    "#ddcc77",  # field
)

CARD_W, CARD_H, STEP = 60, 42, 64  # a single card, and the pitch of a row of them
STACK_W, STACK_H = 68, 80  # a field (five lines of text), a coin stack, a pile
ROW_CARDS = 10  # hand cards per row before the row wraps
COIN = 52  # a seat's coins: one coin with the count on it

STYLE = (
    f"text{{font-family:{FONT};fill:#111}}"
    ".card>rect{stroke:#333;stroke-width:1}"
    ".back>rect{fill:#6b4f2a}.back text{fill:#fff}"
    ".front>rect{stroke:#000;stroke-width:3}"
    ".h4>rect{stroke-dasharray:4 2;stroke-width:2}"
    ".cap{fill:#444}.hi{font-weight:bold}"
    ".seat>rect.panel{fill:#fafafa;stroke:#bbb}.seat.move>rect.panel{fill:#fff8dc;stroke:#c90}"
    ".coin>rect{stroke:#a07800;stroke-width:2}.coin.hidden>rect{stroke:#888}"
)


def bean_colour(b: int) -> str:
    return PALETTE[b] if 0 <= b < len(PALETTE) else "#888888"


def bean_tint(b: int, white: float = 0.62) -> str:
    """The bean's colour mixed with ``white`` parts of white: a card's face, light enough for black text."""
    rgb = bytes.fromhex(bean_colour(b)[1:])
    return "#" + "".join(f"{round(v + (255 - v) * white):02x}" for v in rgb)


class Canvas:
    """SVG elements with every text placed through ``text`` (monospace: its box follows from it)."""

    def __init__(self) -> None:
        self.out: list[str] = []

    def text(self, x: float, y: float, s: str, size: float = 11, cls: str = "", middle: bool = False) -> None:
        attrs = f' class="{cls}"' if cls else ""
        anchor = ' text-anchor="middle"' if middle else ""
        self.out.append(f'<text x="{x:g}" y="{y:g}" font-size="{size:g}"{anchor}{attrs}>{escape(s)}</text>')

    def rect(self, x: float, y: float, w: float, h: float, fill: str, cls: str = "", rx: float = 4) -> None:
        attrs = f' class="{cls}"' if cls else ""
        self.out.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" '
                        f'fill="{fill}"{attrs}/>')

    def open(self, tag: str, **attrs: object) -> None:
        parts = " ".join(f'{k.rstrip("_").replace("_", "-")}="{escape(str(v), quote=True)}"'
                         for k, v in attrs.items() if v is not None)
        self.out.append(f"<{tag} {parts}>" if parts else f"<{tag}>")

    def close(self, tag: str) -> None:
        self.out.append(f"</{tag}>")

    def card(self, x: float, y: float, zone: str, b: int | None, lines: tuple[str, ...] = (),
             n: int = 1, cls: str = "", w: float = CARD_W, h: float = CARD_H, bold: int = 0) -> None:
        """One card (``n`` 1) or a stack of ``n``; ``b`` None: its face is not shown (a back); the
        ``bold`` line of ``lines`` is the card's name."""
        kind = "card" + (" back" if b is None else "") + (f" {cls}" if cls else "")
        self.open("g", class_=kind, data_zone=zone, data_n=n,
                  data_bean=None if b is None or b < 0 else BEAN_NAMES[b])
        if n > 1:  # the stack's depth, drawn behind it
            self.rect(x + 3, y + 3, w, h, "#ccc", rx=4)
        if b is None or b < 0:
            self.rect(x, y, w, h, "#6b4f2a")
        else:  # the face in the bean's colour: a tint, with a band of the full colour on top
            self.rect(x, y, w, h, bean_tint(b))
            self.out.append(f'<rect x="{x + 1:g}" y="{y + 1:g}" width="{w - 2:g}" height="9" rx="3" '
                            f'fill="{bean_colour(b)}"/>')
        for k, line in enumerate(lines):
            self.text(x + w / 2, y + 22 + 13 * k, line, 10, "hi" if k == bold else "", middle=True)
        self.close("g")
