"""Protocol choices: how another engine asks for trades, plantings and payments, kept apart from the rules.

RULES.md decides which trades, plantings and payments are allowed; this project's protocol also
fixes how they are asked for: one open offer at a time (T3 allows several), phase 3 seat by seat
(T6 leaves the order to the players), the top coins pay (F1 does not say which cards go), harvests
and field purchases offered to the seat to move only (H6 and F1 allow them at any time). An engine
that chooses otherwise declares it in ``hello`` (``declares``, docs/engine-protocol.md); the harness
maps its choice and reports it in the protocol section, never as a rule break. A choice the engine
did not declare but shows (an action our engine refuses only under our protocol) is reported there
too, with a hint to declare it. ``choice_of`` tells a protocol choice from a rule break.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from model import (
    BEAN_NAMES,
    Action,
    BuyField,
    GameState,
    Harvest,
    IllegalAction,
    Phase,
    Propose,
    apply,
)
from model.core import evolve, paid_by
from model.errors import BohnanzaError, InputError
from model.rules import ruleset

CHOICES = ("concurrent_offers", "simultaneous_phase3", "coin_payment", "off_turn_harvests")
RULE_OF = {"concurrent_offers": "T3", "simultaneous_phase3": "T6", "coin_payment": "F1",
           "off_turn_harvests": "H6"}
HINTS = {"concurrent_offers": '"concurrent_offers": true',
         "simultaneous_phase3": '"simultaneous_phase3": true',
         "coin_payment": '"coin_payment": "oldest"',
         "off_turn_harvests": '"off_turn_harvests": true'}


@dataclass(frozen=True)
class Protocol:
    """What an engine declares (``hello``'s ``declares``); the defaults are this project's protocol."""

    concurrent_offers: bool = False
    simultaneous_phase3: bool = False
    coin_payment: str = "top"
    off_turn_harvests: bool = False
    options: tuple[tuple[str, Any], ...] = ()

    def declared(self, choice: str) -> bool:
        return bool(getattr(self, choice) not in (False, "top"))

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
                    tuple(sorted(options.items())))


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
    proposal while one is open that is legal with none open (``concurrent_offers``); a phase-3
    planting, harvest or purchase of a seat with set-aside cards that is not to move, legal were it
    to move, or any other action of it legal were it to move (``simultaneous_phase3``); a harvest or
    field purchase by a seat not to move, legal were it to move (``off_turn_harvests``, outside the
    duels; in phase 3 a harvest of a seat with set-aside cards is ``simultaneous_phase3`` if the engine
    declares that and not this). None: no choice explains it, it breaks a rule."""
    if isinstance(action, Propose) and s.pending is not None and s.phase == Phase.TRADE:
        return "concurrent_offers" if _legal(evolve(s, pending=None, to_move=s.active), action) else None
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
