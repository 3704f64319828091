"""The viewer's page: one self-contained HTML file (``viewer.html`` with the steps packed in) that
steps through states (a record's, a solved line's, a position), each drawn by drawing/svg.py, each
distinct piece of a picture stored once, gzip-packed and base64-embedded; a deal drawn as who gives
what to whom. ``viewer.build`` makes a page from a source; scripts/show.py and
``solve_endgame.py --html`` write it. With a seat, a page shows only what that seat may see (H7)."""

from __future__ import annotations

import base64
import gzip
import json
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from drawing.canvas import STYLE, WIDTH, bean_colour
from drawing.svg import height, parts
from model.actions import Accept, Action
from model.cards import BEAN_NAMES
from model.errors import UsageError
from model.state import GameState, Phase
from records.game import atomic_write_text

TEMPLATE = Path(__file__).resolve().parent / "viewer.html"


@dataclass
class Page:
    """What the viewer shows: one entry per step (``t`` its title, ``l`` its line, ``p`` the indices
    of its picture's pieces, ``h`` the picture's height, ``c`` the coins, ``g`` what the step earned,
    ``v`` the objective so far, ``d`` a deal, ``x`` its deviations, ``s`` why the replay stopped;
    ``u`` the heading of its run of steps in the step list, a turn, and ``r`` its row under it)."""

    title: str
    seat: int | None
    summary: list[str] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    devs: list[dict[str, Any]] = field(default_factory=list)
    parts: dict[str, int] = field(default_factory=dict)
    extra: str = ""
    start: int = 0
    unit: str = "step"  # what the page numbers its steps by: "line" on a record (the file's lines)
    verdict: str = ""  # what show.py says of it: a record's deviations, a line's value, a position's table
    states: list[GameState] = field(default_factory=list)  # each step's state (not in the page)

    def add(self, s: GameState, title: str, line: int, **more: Any) -> dict[str, Any]:
        ids = [self.parts.setdefault(x, len(self.parts)) for x in parts(s, self.seat)]
        coins = [len(p.coins) if self.sees_coins(s, q) else None for q, p in enumerate(s.players)]
        step = {"t": title, "l": line, "p": ids, "h": height(s), "c": coins, **more}
        self.steps.append(step)
        self.states.append(s)
        return step

    def count(self) -> str:
        """How many steps the page steps through after its start, as the page and the command lines
        say it: the first entry is the start (a position, a record's header state), not a step."""
        return steps_text(len(self.steps) - 1)

    def sees_coins(self, s: GameState, q: int) -> bool:
        """H7: coins are hidden from the other seats until the game is over (E4)."""
        return self.seat is None or q == self.seat or s.phase == Phase.OVER

    def html(self) -> str:
        data = {"steps": self.steps, "devs": self.devs, "parts": list(self.parts), "summary": self.summary,
                "width": WIDTH, "start": self.start, "unit": self.unit}
        packed = base64.b64encode(gzip.compress(json.dumps(data, separators=(",", ":")).encode(), 9, mtime=0))
        out = TEMPLATE.read_text(encoding="utf-8")
        for key, value in (("__STYLE__", STYLE), ("__WIDTH__", str(WIDTH)), ("__EXTRA__", self.extra),
                           ("__TITLE__", escape(self.title)), ("__DATA__", packed.decode())):
            out = out.replace(key, value)
        return out


def steps_text(n: int) -> str:
    return f"{n} step{'s' * (n != 1)}"


def deal_of(s: GameState, a: Action) -> tuple[int, list[int], int, list[int]] | None:
    """T3: (the active player, the cards it gives, the partner, the cards the partner gives) of the
    offer the accept ``a`` takes in ``s``; None for any other action, or nothing pending (illegal)."""
    offer = s.pending
    if not isinstance(a, Accept) or offer is None:
        return None
    act, q = offer.player, offer.partner
    try:
        to_q = ([s.players[act].hand[h] for h in sorted(offer.give_hand)]
                + [s.face_up[u] for u in sorted(offer.give_up)]
                + [s.players[act].aside[i] for i in sorted(offer.give_aside)])
        to_a = [s.players[q].hand[h] for h in sorted(a.hand)]
    except IndexError:
        return None
    return act, to_q, q, to_a


def deal_svg(giver: int, gives: list[int], partner: int, back: list[int]) -> str:
    """A deal drawn as who gives what to whom: two seats, an arrow each way with the cards on it."""
    w, h = 460, 96
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           'class="dealsvg">',
           '<defs><marker id="ah" markerWidth="8" markerHeight="8" refX="6" refY="3" orient="auto">'
           '<path d="M0,0 L6,3 L0,6 z" fill="#333"/></marker></defs>']
    for x, who in ((4, giver), (w - 54, partner)):
        out.append(f'<rect x="{x}" y="30" width="50" height="36" rx="6" fill="#fff8dc" stroke="#c90"/>'
                   f'<text x="{x + 25}" y="55" font-size="18" text-anchor="middle" font-weight="bold">'
                   f'p{who}</text>')
    for y, cards, right in ((22, gives, True), (86, back, False)):
        x0, x1 = (60, w - 60) if right else (w - 60, 60)
        out.append(f'<line x1="{x0}" y1="{y}" x2="{x1}" y2="{y}" stroke="#333" marker-end="url(#ah)"/>')
        label = ", ".join(BEAN_NAMES[b] for b in cards) or "nothing"
        out.append(f'<text x="{w / 2:g}" y="{y - 8}" font-size="16" text-anchor="middle">'
                   f'{escape(label)}</text>')
        for k, b in enumerate(cards):
            out.append(f'<rect x="{70 + 14 * k}" y="{y - 4}" width="10" height="8" fill="{bean_colour(b)}"/>')
    out.append("</svg>")
    return "".join(out)


def check_seat(seat: int | None, players: int, where: str) -> None:
    if seat is not None and not 0 <= seat < players:
        raise UsageError(f"--seat {seat}: {where} has seats p0-p{players - 1}")


def write(page: Page, out: str) -> int:
    """Write the page atomically; its size in bytes."""
    text = page.html()
    atomic_write_text(out, text)
    return len(text.encode())
