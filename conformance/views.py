"""Records as another engine would write them: annotated, or with only what one seat saw.

``annotated(states, actions)`` adds to every line the bean annotations a careful writer would
(docs/records.md): the card each plant, discard or harvest moves, a deal's cards, the face-up cards
after every line that changes them. ``public_view(..., seat)`` then writes the record a seat's
engine could log: the deck and the reshuffle orders hold ``null`` except the cards dealt to that
seat, and the seat's hand after every line that changes it. The referee must find both legal
(records/unknown.py searches for the unseen cards); tests and the conformance suite use them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from model.actions import (
    Accept,
    Action,
    Discard,
    DiscardUp,
    Harvest,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    Reshuffle,
)
from model.cards import BEAN_NAMES
from model.state import GameState
from records.game import action_line, initial_deck


def _names(cards: Sequence[int]) -> list[str]:
    return [BEAN_NAMES[c] for c in cards]


def notes_of(s: GameState, a: Action, t: GameState) -> dict[str, Any]:
    """The annotations of action ``a`` from ``s`` to ``t``: what it moves, and the face-up cards
    after it when they changed."""
    out: dict[str, Any] = {}
    p = getattr(a, "player", -1)
    pl = s.players[p] if 0 <= p < len(s.players) else None
    if isinstance(a, Plant) and pl is not None:
        out["bean"] = BEAN_NAMES[pl.hand[0]]
    elif isinstance(a, PlantAside):
        out["bean"] = BEAN_NAMES[a.bean]
    elif isinstance(a, (PlantUp, DiscardUp)):
        out["bean"] = BEAN_NAMES[s.face_up[a.index]]
    elif isinstance(a, Discard) and pl is not None:
        out["bean"] = BEAN_NAMES[pl.hand[a.index]]
    elif isinstance(a, Harvest) and pl is not None:
        out["bean"] = BEAN_NAMES[pl.fields[a.field].bean]
    elif isinstance(a, Propose) and pl is not None:
        out["give"] = _names([pl.hand[h] for h in a.give_hand] + [s.face_up[u] for u in a.give_up])
        out["take"] = _names(a.ask)
    elif isinstance(a, Accept) and pl is not None and s.pending is not None:
        offer = s.pending
        giver = s.players[offer.player]
        out["give"] = _names([pl.hand[h] for h in a.hand])
        out["take"] = _names([giver.hand[h] for h in offer.give_hand] + [s.face_up[u] for u in offer.give_up])
    if sorted(t.face_up) != sorted(s.face_up):
        out["up"] = _names(t.face_up)
    return out


def annotated(states: Sequence[GameState], actions: Sequence[Action]) -> list[dict[str, Any]]:
    """One line per action with its annotations (``states[i]`` is the state before ``actions[i]``)."""
    return [{**action_line(a), **notes_of(states[i], a, states[i + 1])} for i, a in enumerate(actions)]


def public_view(head: dict[str, Any], states: Sequence[GameState], actions: Sequence[Action],
                seat: int) -> list[dict[str, Any]]:
    """The header and lines ``seat``'s engine could log: unseen cards ``null`` (the deck but the
    seat's own dealt cards, every reshuffle order), every card revealed annotated, and the seat's
    hand after each line that changes it."""
    s0 = states[0]
    deck: list[str | None] = list(_names(initial_deck(s0)))
    n, sizes = len(s0.players), s0.setup.hands
    mine, taken, pos = set(), [0] * n, 0
    while any(taken[i] < sizes[i] for i in range(n)):  # S2: dealt one at a time in seat order
        for i in range(n):
            if taken[i] < sizes[i]:
                if i == seat:
                    mine.add(pos)
                taken[i] += 1
                pos += 1
    deck = [c if k in mine else None for k, c in enumerate(deck)]
    lines = []
    for line, (i, a) in zip(annotated(states, actions), enumerate(actions), strict=True):
        if isinstance(a, Reshuffle):
            line["order"] = [None] * len(a.order)
        before, after = states[i].players[seat].hand, states[i + 1].players[seat].hand
        if before != after:
            line["hands"] = {f"p{seat}": _names(after)}
        lines.append(line)
    return [{**head, "deck": deck}, *lines]
