"""The game state: immutable tuples of small ints, with an exact JSON round trip.

Chance is explicit: the draw pile's order is part of the state (``draw[0]`` is the top card), so a
state is a complete, reproducible position. Nothing here knows the rules of play; that is engine.py.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import Any, NamedTuple

from model.actions import NotationError, Propose, parse_action
from model.cards import BEAN_INDEX, BEAN_NAMES
from model.errors import InputError
from model.rules import Ruleset, Setup, ruleset, setup

STATE_FORMAT = "bohnanza-state"
STATE_VERSION = 1

# How a state draws itself: as text (``str``: model/display.py's ``describe``, set by model/__init__.py)
# and as a picture (Jupyter's ``_repr_svg_``: drawing/svg.py, the layer above, set by drawing/__init__.py).
# Both sit above the state, so the state names neither (no import circle).
DRAWINGS: dict[str, Callable[[GameState], str]] = {}


class SlotCodec(NamedTuple):
    """An expansion's part of the state (``GameState.ext``) in the state JSON."""

    key: str  # its key in the state JSON, also the ruleset option that turns the expansion on
    holds: str  # what it holds, in words, for errors ("ships and ports")
    rule: str  # the rule that gives the expansion its part of the state
    to_json: Callable[[Any], Any]
    from_json: Callable[[Any], object]
    error: type[InputError]  # what ``from_json`` raises on a malformed part


# The codecs by ``Setup.expansion``, each filled by ``model.expansions.install``: the state names no
# expansion (and imports none: no circle).
SLOT_CODECS: dict[str, SlotCodec] = {}


class Phase(IntEnum):
    """Where the game is. Phase 4 (drawing, T7) has no decisions and never rests in a state."""

    PLANT = 1  # T1 / D2 step 2: plant from the front of the hand
    TRADE = 2  # T2-T5: face-up cards turned up, trading
    PLANT_ASIDE = 3  # T6: everyone plants their set-aside cards
    CHANCE = 5  # E1: the discard pile must be reshuffled (a Reshuffle action)
    OVER = 6  # E3-E4: fields harvested, the game is over
    OFFER = 7  # D2 step 1: plant or discard the cards the opponent left on offer
    DISCARD = 8  # D2 step 2: may discard one hand card
    TURNED = 9  # D2 step 3: plant any of the turned-up cards

    def __str__(self) -> str:  # "trade", as the state JSON names it (an IntEnum would print "2")
        return self.name.lower()


class Field(NamedTuple):
    """H2: a field holds ``count`` cards of one ``bean`` type (bean -1 when empty)."""

    bean: int
    count: int  # type: ignore[assignment]  # shadows tuple.count on purpose


EMPTY = Field(-1, 0)


class PlayerState(NamedTuple):
    hand: tuple[int, ...]  # play order: hand[0] is the front card (H1)
    fields: tuple[Field, ...]
    coins: tuple[int, ...]  # coin stack, bean cards coin side up; top is last (H5)
    aside: tuple[int, ...]  # set-aside area (T4, T5), kept sorted: a multiset

    @property
    def coin_count(self) -> int:
        return len(self.coins)


class GameState(NamedTuple):
    setup: Setup
    players: tuple[PlayerState, ...]
    draw: tuple[int, ...]  # draw pile, top first
    discard: tuple[int, ...]  # discard pile, top last
    face_up: tuple[int, ...]  # active player's trade area / duel offer, kept sorted
    out: tuple[int, ...]  # cards removed from the game (duel field purchases, F1)
    active: int
    phase: Phase
    to_move: int  # -1 at chance nodes and when the game is over
    planted: int  # phase-1 plantings this turn (T1)
    first_field: int  # field of the first phase-1 planting, -1 if none (V2)
    offers: int  # proposals made this turn (max_offers)
    pending: Propose | None  # the proposal awaiting an answer (T3)
    exhaustions: int  # E1
    final: bool  # the final exhaustion happened while turning up: end after this turn (E2)
    todo: tuple[int, ...]  # cards still to deal after a reshuffle: a seat or a ``model.dealing.Deal`` (E1)
    resume: int  # a ``model.dealing.Resume``: at a chance node, the dealing step to go back to
    turn: int  # turns started, from 0
    ext: object | None = None  # the expansion's part of the state, typed by the expansion (e.g. read
    # with ``model.isla.isla_of``); None without one. Its JSON key is the expansion's (``SlotCodec``)

    @property
    def rules(self) -> Ruleset:
        return self.setup.rules

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    def coins(self) -> tuple[int, ...]:
        return tuple(len(p.coins) for p in self.players)

    def to_json(self) -> dict[str, Any]:
        return state_to_json(self)

    def __str__(self) -> str:
        return DRAWINGS["text"](self)  # model.display.describe

    def _repr_svg_(self) -> str | None:
        """Jupyter shows a state as its picture (drawing/svg.py) once ``drawing`` is imported, else
        as its text (None: no picture); ``describe`` is the text one."""
        draw = DRAWINGS.get("svg")
        return None if draw is None else draw(self)


def _names(cards: tuple[int, ...]) -> list[str]:
    return [BEAN_NAMES[c] for c in cards]


def state_to_json(s: GameState) -> dict[str, Any]:
    """Every part of the state, beans by name; ``decode_state`` restores it exactly."""
    out: dict[str, Any] = {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "ruleset": s.setup.rules.name,
        "options": s.setup.rules.options(),
        "players": [
            {
                "hand": _names(p.hand),
                "fields": [[BEAN_NAMES[f.bean], f.count] if f.count else None for f in p.fields],
                "coins": _names(p.coins),
                "aside": _names(p.aside),
            }
            for p in s.players
        ],
        "draw": _names(s.draw),
        "discard": _names(s.discard),
        "face_up": _names(s.face_up),
        "out": _names(s.out),
        "active": s.active,
        "phase": s.phase.name.lower(),
        "to_move": s.to_move,
        "planted": s.planted,
        "first_field": s.first_field,
        "offers": s.offers,
        "pending": str(s.pending) if s.pending is not None else None,
        "exhaustions": s.exhaustions,
        "final": s.final,
        "todo": list(s.todo),
        "resume": s.resume,
        "turn": s.turn,
    }
    if s.ext is not None:
        codec = SLOT_CODECS[s.setup.expansion]
        out[codec.key] = codec.to_json(s.ext)
    return out


class StateFormatError(InputError):
    """A state JSON object that is malformed; the message names the field (a JSON path)."""


def _field_error(where: str, why: str) -> StateFormatError:
    return StateFormatError(f"{where}: {why}")


def _cards(names: list[str]) -> tuple[int, ...]:
    return tuple(BEAN_INDEX[x] for x in names)


def check_format(obj: Any) -> None:
    """A state JSON is an object of this format and version, checked before its shape and its values
    (``schemas.state_json.state_from_json``); StateFormatError says which it is not."""
    if not isinstance(obj, dict):
        raise StateFormatError("a state must be a JSON object")
    version = obj.get("version")
    if obj.get("format") != STATE_FORMAT or type(version) is not int or version != STATE_VERSION:
        raise StateFormatError(
            f"format/version: expected {STATE_FORMAT!r} version {STATE_VERSION}, "
            f"got {obj.get('format')!r} version {version!r}"
        )


def decode_state(obj: dict[str, Any]) -> GameState:
    """The state a state JSON of the published shape holds: the inverse of ``state_to_json``.

    The shape is the loader's to check first: ``schemas.state_json.state_from_json`` reads a state
    from outside (format, then shape, then this), a value ``state_to_json`` wrote needs no check.
    StateFormatError names a value the shape allows that this ruleset does not (a pending action
    that is no proposal, an expansion's part given or missing).
    """
    rules = ruleset(obj["ruleset"], obj.get("options") or {})
    su = setup(rules, len(obj["players"]))
    players = tuple(
        PlayerState(
            hand=_cards(pj["hand"]),
            fields=tuple(EMPTY if f is None else Field(BEAN_INDEX[f[0]], f[1]) for f in pj.get("fields", ())),
            coins=_cards(pj["coins"]),
            aside=tuple(sorted(_cards(pj.get("aside", ())))),
        )
        for pj in obj["players"]
    )
    pending = None
    if obj.get("pending") is not None:
        try:
            action = parse_action(obj["pending"])
        except NotationError as e:
            raise _field_error("pending", str(e)) from None
        if not isinstance(action, Propose):
            raise _field_error("pending", "expected a proposal like 'p0 offer p1 give h0 ask red'")
        pending = action
    ext = _ext_from_json(obj, su)
    return GameState(
        setup=su,
        players=players,
        draw=_cards(obj["draw"]),
        discard=_cards(obj["discard"]),
        face_up=tuple(sorted(_cards(obj.get("face_up", ())))),
        out=_cards(obj.get("out", ())),
        active=obj["active"],
        phase=Phase[obj["phase"].upper()],
        to_move=obj["to_move"],
        planted=obj["planted"],
        first_field=obj["first_field"],
        offers=obj["offers"],
        pending=pending,
        exhaustions=obj["exhaustions"],
        final=obj.get("final", False),
        todo=tuple(obj.get("todo", ())),
        resume=obj["resume"],
        turn=obj["turn"],
        ext=ext,
    )


def _ext_from_json(obj: dict[str, Any], su: Setup) -> object | None:
    """The expansion's part of a state JSON, required when the ruleset plays it, refused otherwise."""
    ext = None
    codec = SLOT_CODECS.get(su.expansion)
    if codec is not None:
        if obj.get(codec.key) is None:
            raise _field_error(codec.key, f"missing: the ruleset has {codec.key}=true ({codec.rule})")
        try:
            ext = codec.from_json(obj[codec.key])
        except codec.error as e:
            raise StateFormatError(str(e)) from None
    for other in SLOT_CODECS.values():
        if other is not codec and obj.get(other.key) is not None:
            raise _field_error(other.key, f"{other.holds} are given but the ruleset has {other.key}=false "
                                          f"({other.rule})")
    return ext
