"""A readable text picture of a state (hands in order, fields, coins, piles) for people."""

from __future__ import annotations

from model.cards import BEAN_NAMES
from model.expansions import hooks
from model.state import GameState, Phase


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(BEAN_NAMES[c] for c in cards) or "-"


def describe(s: GameState) -> str:
    """The state in lines: the table, one line per seat, then the expansion's lines
    (``Expansion.seat_text``, ``table_text``)."""
    r = s.setup.rules
    x = hooks(s.setup)
    lines = [
        f"{r.name}, {len(s.players)} players, turn {s.turn}, active p{s.active}, "
        f"phase {s.phase.name.lower()}, to move "
        + (f"p{s.to_move}" if s.to_move >= 0 else "nobody"),
        f"draw pile {len(s.draw)} cards{_pending_exhaustion(s)}, discard {len(s.discard)} (top "
        f"{BEAN_NAMES[s.discard[-1]] if s.discard else '-'}), exhaustions {s.exhaustions}"
        f"/{s.setup.final_exhaustion}" + (" (final)" if s.final else ""),
    ]
    if s.face_up:
        lines.append(f"face up: {_cards(s.face_up)}")
    if s.pending is not None:
        lines.append(f"pending: {s.pending}")
    for i, p in enumerate(s.players):
        fields = ", ".join(f"{f.count} {BEAN_NAMES[f.bean]}" if f.count else "empty" for f in p.fields)
        line = f"p{i}: coins {len(p.coins)} | fields [{fields}] | hand {_cards(p.hand)}"
        if p.aside:
            line += f" | set aside {_cards(p.aside)}"
        if s.ext is not None:
            line += x.seat_text(s, i)
        lines.append(line)
    if s.ext is not None:
        lines.extend(x.table_text(s))
    return "\n".join(lines)


def _pending_exhaustion(s: GameState) -> str:
    """E1 on-demand: an empty pile outside a reshuffle is exhausted when a card is next needed."""
    if s.draw or not s.setup.on_demand or s.final or s.phase in (Phase.CHANCE, Phase.OVER):
        return ""
    return " (exhausted when a card is next needed, E1 on-demand)"

