"""Bean annotations: what a record line says about the cards it moves, checked against the replay.

A writer may add to an action line the bean it believes the action moves (``"bean"``), a deal's
cards (``"give"``, ``"take"``), the face-up cards after the line (``"up"``) and hands it saw
(``"hands"``); docs/records.md has the table. A known card that differs from the annotation is a
desynchronised record (the writer's view and the replay went apart), not a rule break.

In a record with unknown cards (``null`` in the deck or a reshuffle order) the replay holds an
unseen card as ``UNSEEN + slot``; an annotation about an unseen card does not disagree but *fixes*
it: the functions here return those fixes (slot -> bean) with the first disagreement, if any, and
``records/unknown.py`` applies them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from model.actions import (
    Accept,
    Action,
    Discard,
    DiscardUp,
    FieldHarvest,
    Harvest,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
)
from model.cards import BEAN_NAMES
from model.state import GameState
from records.game import Notes

UNSEEN = 1000  # card values from here on are cards the writer did not see: UNSEEN + slot

Fixes = dict[int, int]  # slot -> bean


def show(card: int) -> str:
    """A card's bean name, or ``unseen`` for a card the record did not reveal."""
    return BEAN_NAMES[card] if 0 <= card < UNSEEN and card < len(BEAN_NAMES) else "unseen"


def shows(cards: Sequence[int]) -> str:
    return ", ".join(show(c) for c in cards) or "nothing"


def _match(said: Sequence[int], cards: Sequence[int], fixes: Fixes) -> bool:
    """Do the beans ``said`` match ``cards`` as multisets, unseen cards taking the beans left over
    (in the order said, to the unseen cards in slot order)? The unseen cards' beans go to ``fixes``."""
    known = Counter(c for c in cards if c < UNSEEN)
    unseen = sorted(c for c in cards if c >= UNSEEN)
    rest = Counter(said)
    rest.subtract(known)
    if len(said) != len(cards) or any(n < 0 for n in rest.values()):
        return False
    left = []  # the beans said beyond the known cards: the unseen cards' beans
    for b in said:
        if rest[b] > 0:
            rest[b] -= 1
            left.append(b)
    fixes.update({c - UNSEEN: b for c, b in zip(unseen, left, strict=True)})
    return True


def _one(said: int, card: int, fixes: Fixes) -> bool:
    if card >= UNSEEN:
        fixes[card - UNSEEN] = said
        return True
    return card == said


def _given(s: GameState, a: Propose) -> list[int] | None:
    """The cards a proposal names, in notation order (hand, face-up, set-aside); None if one is not there."""
    pl = s.players[a.player]
    out: list[int] = []
    for idx, zone in ((a.give_hand, pl.hand), (a.give_up, s.face_up), (a.give_aside, pl.aside)):
        if any(not 0 <= i < len(zone) for i in idx):
            return None
        out.extend(zone[i] for i in idx)
    return out


def before(s: GameState, action: Action, notes: Notes) -> tuple[Fixes, str | None]:
    """The annotations about the cards ``action`` is about to move (``bean``, ``give``, ``take``),
    checked in the state before it: (fixes for unseen cards, the first mismatch or None).
    An annotation about a card that is not there is left to the rules (the replay names T1, T3...)."""
    fixes: Fixes = {}
    p = getattr(action, "player", -1)
    if not 0 <= p < len(s.players):
        return fixes, None
    pl = s.players[p]
    b = notes.bean
    if b is not None:
        said = BEAN_NAMES[b]
        if isinstance(action, Plant) and pl.hand and not _one(b, pl.hand[0], fixes):
            return fixes, f"the record says {said}, p{p}'s front card is {show(pl.hand[0])}"
        if isinstance(action, PlantAside) and action.bean != b:
            return fixes, f"the record says {said}, the action plants {show(action.bean)}"
        if isinstance(action, (PlantUp, DiscardUp)) and 0 <= action.index < len(s.face_up):
            u = action.index
            if not _one(b, s.face_up[u], fixes):
                return fixes, f"the record says {said}, face-up card u{u} is {show(s.face_up[u])}"
        if isinstance(action, Discard) and 0 <= action.index < len(pl.hand):
            h = action.index
            if not _one(b, pl.hand[h], fixes):
                return fixes, f"the record says {said}, p{p}'s hand card h{h} is {show(pl.hand[h])}"
        if isinstance(action, (Harvest, FieldHarvest)) and 0 <= action.field < len(pl.fields):
            f = pl.fields[action.field]
            if f.count and f.bean != b:
                return fixes, f"the record says {said}, p{p}'s field {action.field} holds {show(f.bean)}"
    if isinstance(action, Propose):
        if notes.take is not None and sorted(notes.take) != sorted(action.ask):
            return fixes, (f"the record says p{p} takes {shows(notes.take)}, the proposal asks for "
                           f"{shows(action.ask)}")
        cards = _given(s, action)
        if notes.give is not None and cards is not None and not _match(notes.give, cards, fixes):
            why = f"the record says p{p} gives {shows(notes.give)}, the proposal names {shows(cards)}"
            missing = [x for x in notes.give if x not in pl.hand and x not in s.face_up]
            if missing and s.planted and any(f.count and f.bean == missing[0] for f in pl.fields):
                bean = show(missing[0])
                why += (f" (p{p} holds no {bean}: it planted {s.planted} "
                        f"card{'s' if s.planted > 1 else ''} this turn, and a field holds {bean})")
            return fixes, why
    if isinstance(action, Accept) and s.pending is not None:
        offer = s.pending
        if notes.give is not None and all(0 <= h < len(pl.hand) for h in action.hand):
            cards = [pl.hand[h] for h in action.hand]
            if not _match(notes.give, cards, fixes):
                return fixes, f"the record says p{p} gives {shows(notes.give)}, it names {shows(cards)}"
        got = _given(s, offer)
        if notes.take is not None and got is not None and not _match(notes.take, got, fixes):
            return fixes, f"the record says p{p} receives {shows(notes.take)}, the offer gives {shows(got)}"
    return fixes, None


def after(s: GameState, notes: Notes) -> tuple[Fixes, str | None]:
    """The annotations about the state after the line (``up``, ``hands``): (fixes, first mismatch)."""
    fixes: Fixes = {}
    if notes.up is not None and not _match(notes.up, s.face_up, fixes):
        return fixes, f"the record says the face-up cards are {shows(notes.up)}, they are {shows(s.face_up)}"
    for seat, said in notes.hands:
        if seat >= len(s.players):
            return fixes, f"the record shows a hand for p{seat}; there are {len(s.players)} seats"
        hand = s.players[seat].hand
        if len(said) != len(hand):
            return fixes, f"the record says p{seat} holds {len(said)} cards, it holds {len(hand)}"
        for i, (x, c) in enumerate(zip(said, hand, strict=True)):
            if x is not None and not _one(x, c, fixes):
                return fixes, f"the record says p{seat}'s hand card h{i} is {show(x)}, it is {show(c)}"
    return fixes, None
