"""Protocol choices: how another engine asks for trades, plantings and payments, kept apart from the rules.

RULES.md decides which trades, plantings and payments are allowed; this project's protocol also
fixes how they are asked for: one open offer at a time (T3 allows several), phase 3 seat by seat
(T6 leaves the order to the players), the top coins pay (F1 does not say which cards go), harvests
and field purchases offered to the seat to move only (H6 and F1 allow them at any time), deals that
name the very cards given (T3: the rules say which beans and how many), at most ``max_offers``
proposals a turn and ``max_deal_cards`` cards a side listed (T3 sets no limit). An engine
that chooses otherwise declares it in ``hello`` (``declares``, docs/engine-protocol.md); the harness
maps its choice and reports it in the protocol section, never as a rule break. A choice the engine
did not declare but shows (an action our engine refuses only under our protocol) is reported there
too, with a hint to declare it. ``choice_of`` tells a protocol choice from a rule break.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from model import (
    BEAN_NAMES,
    Accept,
    Action,
    BuyField,
    GameState,
    Harvest,
    IllegalAction,
    NotationError,
    Phase,
    Propose,
    apply,
    format_action,
    parse_action,
)
from model.actions import Offers
from model.core import evolve, paid_by
from model.errors import BohnanzaError, InputError
from model.rules import ruleset

# Each choice: the rule that leaves it open, ours (the default), and the value that declares the other.
CHOICES = ("concurrent_offers", "simultaneous_phase3", "coin_payment", "off_turn_harvests", "deals",
           "offer_limit", "deal_size_limit")
RULE_OF = {"concurrent_offers": "T3", "simultaneous_phase3": "T6", "coin_payment": "F1",
           "off_turn_harvests": "H6", "deals": "T3", "offer_limit": "T3", "deal_size_limit": "T3"}
OURS: dict[str, Any] = {"concurrent_offers": False, "simultaneous_phase3": False, "coin_payment": "top",
                        "off_turn_harvests": False, "deals": "by-card", "offer_limit": "max_offers",
                        "deal_size_limit": "max_deal_cards"}
THEIRS: dict[str, Any] = {"concurrent_offers": True, "simultaneous_phase3": True, "coin_payment": "oldest",
                          "off_turn_harvests": True, "deals": "by-type", "offer_limit": "none",
                          "deal_size_limit": "none"}
HINTS = {c: f"{json.dumps(c)}: {json.dumps(v)}" for c, v in THEIRS.items()}


@dataclass(frozen=True)
class Protocol:
    """What an engine declares (``hello``'s ``declares``); the defaults are this project's protocol."""

    concurrent_offers: bool = False
    simultaneous_phase3: bool = False
    coin_payment: str = "top"
    off_turn_harvests: bool = False
    deals: str = "by-card"  # "by-type": a deal names which beans and how many, not the cards (T3)
    offer_limit: str = "max_offers"  # "none": no limit on the proposals of a turn (T3)
    deal_size_limit: str = "max_deal_cards"  # "none": deals of any size listed (T3)
    options: tuple[tuple[str, Any], ...] = ()

    def declared(self, choice: str) -> bool:
        return bool(getattr(self, choice) != OURS[choice])

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {c: getattr(self, c) for c in CHOICES if self.declared(c)}
        if self.options:
            out["options"] = dict(self.options)
        return out


def from_hello(hello: dict[str, Any]) -> Protocol:
    """The declared protocol; InputError (one line) for an option value none of our presets has."""
    d = hello.get("declares") or {}
    options = dict(d.get("options") or {})
    for key, value in options.items():
        if not any(_allowed(preset, key, value) for preset in ("rio-grande", "amigo", "amigo-1997")):
            raise InputError(f"hello declares option {key}={value!r}, which no preset of ours plays "
                             "(docs/verify-your-engine.md, section 1)")
    return Protocol(bool(d.get("concurrent_offers")), bool(d.get("simultaneous_phase3")),
                    str(d.get("coin_payment") or "top"), bool(d.get("off_turn_harvests")),
                    str(d.get("deals") or "by-card"), str(d.get("offer_limit") or "max_offers"),
                    str(d.get("deal_size_limit") or "max_deal_cards"), tuple(sorted(options.items())))


def _allowed(preset: str, key: str, value: Any) -> bool:
    try:
        ruleset(preset, {key: value})
    except BohnanzaError:
        return False
    return True


def _legal(s: GameState, action: Action) -> bool:
    try:
        apply(s, action)
    except (IllegalAction, IndexError, ValueError):
        return False
    return True


def choice_of(s: GameState, action: Action, protocol: Protocol = Protocol()) -> str | None:
    """The protocol choice under which ``action``, which our engine refuses at ``s``, is legal: a
    proposal while one is open that is legal with none open (``concurrent_offers``); a proposal past
    the turn's ``max_offers`` that is legal with none made (``offer_limit``); a phase-3
    planting, harvest or purchase of a seat with set-aside cards that is not to move, legal were it
    to move, or any other action of it legal were it to move (``simultaneous_phase3``); a harvest or
    field purchase by a seat not to move, legal were it to move (``off_turn_harvests``, outside the
    duels; in phase 3 a harvest of a seat with set-aside cards is ``simultaneous_phase3`` if the engine
    declares that and not this). None: no choice explains it, it breaks a rule."""
    if isinstance(action, Propose) and s.phase == Phase.TRADE:
        if s.pending is not None:
            free = evolve(s, pending=None, to_move=s.active)
            legal = _legal(free, action) or _legal(evolve(free, offers=0), action)
            return "concurrent_offers" if legal else None
        if s.offers >= s.setup.rules.max_offers:
            return "offer_limit" if _legal(evolve(s, offers=0), action) else None
    q = getattr(action, "player", -1)
    if not 0 <= q < len(s.players) or q == s.to_move or s.to_move < 0:
        return None
    phase3 = s.phase == Phase.PLANT_ASIDE and bool(s.players[q].aside)
    harvest = isinstance(action, (Harvest, BuyField)) and not s.setup.duel  # D1, I9: a duel's on its turn
    if phase3 and (not harvest or protocol.simultaneous_phase3 and not protocol.off_turn_harvests):
        choice = "simultaneous_phase3"
    elif harvest:
        choice = "off_turn_harvests"
    else:
        return None
    return choice if _legal(evolve(s, to_move=q), action) else None


def phase3_seats(s: GameState) -> list[int]:
    """The seats that may plant at ``s`` when phase 3 is played at once (T6): those with set-aside cards."""
    return [p for p, pl in enumerate(s.players) if pl.aside] if s.phase == Phase.PLANT_ASIDE else []


def explained_payment(before: GameState, after: GameState, p: int,
                      discard: list[str]) -> GameState | None:
    """Our state after seat ``p``'s purchase with the coin cards the engine's ``discard`` (its cards)
    shows paid, if they are coins of that seat and as many as the price; else None."""
    n = len(before.players[p].coins) - len(after.players[p].coins)
    names = Counter(discard)
    names.subtract(BEAN_NAMES[c] for c in before.discard)
    if any(k < 0 for k in names.values()) or sum(names.values()) != n:
        return None
    stack = Counter(BEAN_NAMES[c] for c in before.players[p].coins)
    if any(stack[b] < k for b, k in names.items()):
        return None
    paid: list[int] = []
    for c in before.players[p].coins:
        if names[BEAN_NAMES[c]] > 0:
            names[BEAN_NAMES[c]] -= 1
            paid.append(c)
    return paid_by(before, after, p, tuple(paid))


def front_most(hand: tuple[int, ...], positions: tuple[int, ...]) -> tuple[int, ...]:
    """``positions`` of ``hand`` named by type: of each bean type they name, as many of the front-most
    cards of that type (sorted); ``positions`` as they are if one is not in the hand."""
    if any(not 0 <= h < len(hand) for h in positions):
        return positions
    want = Counter(hand[h] for h in positions)
    return tuple(sorted(h for b, n in want.items() for h in [k for k, c in enumerate(hand) if c == b][:n]))


def by_type(s: GameState, action: Action) -> Action:
    """``action`` with the hand cards of a deal named by type (``deals: by-type``, T3: which beans and
    how many): a proposal's and an accept's hand positions become the front-most cards of those types."""
    if isinstance(action, Propose) and 0 <= action.player < len(s.players):
        hand = front_most(s.players[action.player].hand, action.give_hand)
        return Propose(action.player, action.partner, hand, action.give_up, action.ask, action.give_aside)
    if isinstance(action, Accept) and 0 <= action.player < len(s.players):
        return Accept(action.player, front_most(s.players[action.player].hand, action.hand))
    return action


def by_type_text(s: GameState, text: str) -> str:
    """``text`` (an action in the notation) named by type (``by_type``); unreadable text as it is."""
    try:
        action = parse_action(text)
    except NotationError:
        return text
    return format_action(by_type(s, action)) if isinstance(action, (Propose, Accept)) else text


def typed_parts(s: GameState, parts: list[Offers]) -> list[Offers]:
    """Our proposals as parts, named by type: the gives of front-most hand cards only."""
    out = []
    for o in parts:
        hand = s.players[o.player].hand
        out.append(Offers(o.player, o.partners, tuple(g for g in o.gives if front_most(hand, g[0]) == g[0]),
                          o.asks))
    return out


def typed_groups(s: GameState, groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An engine's ``offers`` groups with each give named by type (front-most hand cards), once each."""
    out = []
    for g in groups:
        seat = g.get("seat", "")
        p = int(seat[1:]) if seat[1:].isdigit() else -1
        hand = s.players[p].hand if 0 <= p < len(s.players) else ()
        gives = {_typed_give(hand, x): None for x in g["give"]}
        out.append({**g, "give": list(gives)})
    return out


def _typed_give(hand: tuple[int, ...], give: str) -> str:
    words = [x for x in give.split(",") if x]
    try:
        hs = tuple(int(x[1:]) for x in words if x[:1] == "h")
    except ValueError:
        return give
    rest = [x for x in words if x[:1] != "h"]
    return ",".join([f"h{h}" for h in front_most(hand, hs)] + rest)


def oversized(text: str, most: int) -> bool:
    """Whether the proposal ``text`` gives or asks more than ``most`` cards a side (``max_deal_cards``;
    legal under T3, listed by an engine with ``deal_size_limit: none``)."""
    words = text.split()
    if len(words) < 3 or words[1] != "offer":
        return False
    sides = [words[k + 1].split(",") for k in range(len(words) - 1) if words[k] in ("give", "ask")]
    return any(len(x) > most for x in sides)


def pattern_of(text: str | None) -> str:
    """The move of an action's text (``p0 offer p1 give h0`` -> ``offer``), a cause's pattern."""
    words = (text or "").split()
    return words[1] if len(words) > 1 and words[0][:1] == "p" else words[0] if words else ""
