"""What one player may see (H7): own hand and coins; others' hand sizes, never their cards or coins;
the draw pile's size, never its order; only the top card of the discard pile. The ruleset's E1
reading is public too: under ``reshuffle=on-demand`` an empty draw pile outside a reshuffle is not
yet exhausted (that happens when a card is next needed), so ``draw_size`` 0 alone does not say it.
Fields, set-aside areas and the trade area are public; so are ships, their cargo and the island
rows (I1-I4)."""

from __future__ import annotations

from typing import Any

from model.cards import BEAN_NAMES
from model.expansions import hooks
from model.state import GameState, Phase


def view(s: GameState, player: int) -> dict[str, Any]:
    """A JSON-able picture of ``s`` as ``player`` sees it (H7)."""
    if not 0 <= player < len(s.players):
        raise ValueError(f"there is no seat p{player}")
    seats = []
    for i, p in enumerate(s.players):
        seat: dict[str, Any] = {
            "fields": [[BEAN_NAMES[f.bean], f.count] if f.count else None for f in p.fields],
            "aside": [BEAN_NAMES[c] for c in p.aside],
            "hand_size": len(p.hand),
        }
        if i == player:
            seat["hand"] = [BEAN_NAMES[c] for c in p.hand]
            seat["coins"] = len(p.coins)
        seats.append(seat)
    over = s.phase == Phase.OVER
    if over:  # E4: the final count is revealed at the end
        for seat, p in zip(seats, s.players, strict=True):
            seat["coins"] = len(p.coins)
    out: dict[str, Any] = {
        "player": player,
        "ruleset": s.setup.rules.name,
        "players": len(s.players),
        "turn": s.turn,
        "active": s.active,
        "phase": s.phase.name.lower(),
        "to_move": s.to_move,
        "planted": s.planted,
        "offers": s.offers,
        "pending": str(s.pending) if s.pending is not None else None,
        "exhaustions": s.exhaustions,
        "reshuffle": s.setup.rules.reshuffle,  # E1: when an empty pile is exhausted
        "draw_size": len(s.draw),
        "discard_size": len(s.discard),
        "discard_top": BEAN_NAMES[s.discard[-1]] if s.discard else None,
        "face_up": [BEAN_NAMES[c] for c in s.face_up],
        "seats": seats,
    }
    codec = hooks(s.setup).codec
    if s.ext is not None and codec is not None:
        out[codec.key] = codec.to_json(s.ext)
    return out
