"""The game state: immutable tuples of small ints, with an exact JSON round trip.

Chance is explicit: the draw pile's order is part of the state (``draw[0]`` is the top card), so a
state is a complete, reproducible position. Nothing here knows the rules of play; that is engine.py.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple

from model.actions import Propose, parse_action
from model.cards import BEAN_NAMES, UnknownBean, bean
from model.errors import InputError
from model.isla import Isla, IslaFormatError, isla_from_json, isla_to_json
from model.rules import Ruleset, Setup, ruleset, setup

STATE_FORMAT = "bohnanza-state"
STATE_VERSION = 1


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
    isla: Isla | None = None  # ships and island ports (I1-I9); None without the expansion

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
        from model.display import describe

        return describe(self)


def _names(cards: tuple[int, ...]) -> list[str]:
    return [BEAN_NAMES[c] for c in cards]


def state_to_json(s: GameState) -> dict[str, Any]:
    """Every part of the state, beans by name; ``state_from_json`` restores it exactly."""
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
    if s.isla is not None:
        out["isla"] = isla_to_json(s.isla)
    return out


class StateFormatError(InputError):
    """A state JSON object that is malformed; the message names the field."""


def _field_error(where: str, why: str) -> StateFormatError:
    return StateFormatError(f"state field {where}: {why}")


def _bean_tuple(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise _field_error(where, "expected a list of bean names")
    try:
        return tuple(int(bean(x)) if isinstance(x, str) else _not_a_name(x) for x in value)
    except UnknownBean as e:
        raise _field_error(where, str(e)) from None


def _not_a_name(x: Any) -> int:
    raise UnknownBean(f"expected a bean name, got {x!r} (C)")


def _int(obj: dict[str, Any], key: str, low: int = 0) -> int:
    v = obj.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < low:
        raise _field_error(key, f"expected a whole number >= {low}, got {v!r}")
    return v


def _bool(obj: dict[str, Any], key: str) -> bool:
    """A JSON ``true``/``false`` (absent: false); a string like ``"false"`` is refused, not read as true."""
    v = obj.get(key, False)
    if not isinstance(v, bool):
        raise _field_error(key, f"expected true or false, got {v!r}")
    return v


def state_from_json(obj: dict[str, Any]) -> GameState:
    """Read a state written by ``state_to_json``; StateFormatError names the first bad field.

    Only the format is checked here; ``model.validate.check_state`` checks it against the rules.
    """
    if not isinstance(obj, dict):
        raise StateFormatError("a state must be a JSON object")
    if obj.get("format") != STATE_FORMAT or obj.get("version") != STATE_VERSION:
        raise StateFormatError(
            f"state field format/version: expected {STATE_FORMAT!r} version {STATE_VERSION}, "
            f"got {obj.get('format')!r} version {obj.get('version')!r}"
        )
    rules = ruleset(str(obj.get("ruleset", "")), obj.get("options") or {})
    players_json = obj.get("players")
    if not isinstance(players_json, list):
        raise _field_error("players", "expected a list of players")
    su = setup(rules, len(players_json))
    players = []
    for i, pj in enumerate(players_json):
        where = f"players[{i}]"
        if not isinstance(pj, dict):
            raise _field_error(where, "expected an object")
        fields = []
        for j, f in enumerate(pj.get("fields") or []):
            if f is None:
                fields.append(EMPTY)
                continue
            if not (isinstance(f, list) and len(f) == 2 and isinstance(f[0], str) and isinstance(f[1], int)
                    and not isinstance(f[1], bool) and f[1] > 0):  # true is not a count, 3 is not a bean
                raise _field_error(f"{where}.fields[{j}]", f"expected null or [bean, count > 0], got {f!r}")
            try:
                fields.append(Field(int(bean(f[0])), f[1]))
            except ValueError as e:
                raise _field_error(f"{where}.fields[{j}]", str(e)) from None
        players.append(PlayerState(
            hand=_bean_tuple(pj.get("hand"), f"{where}.hand"),
            fields=tuple(fields),
            coins=_bean_tuple(pj.get("coins"), f"{where}.coins"),
            aside=tuple(sorted(_bean_tuple(pj.get("aside", []), f"{where}.aside"))),
        ))
    phase_name = str(obj.get("phase", "")).upper()
    if phase_name not in Phase.__members__:
        raise _field_error("phase", f"unknown phase {obj.get('phase')!r}")
    pending = None
    if obj.get("pending") is not None:
        action = parse_action(str(obj["pending"]))
        if not isinstance(action, Propose):
            raise _field_error("pending", "expected a proposal like 'p0 offer p1 give h0 ask red'")
        pending = action
    isla = None
    if su.isla:
        try:
            isla = isla_from_json(obj.get("isla"))
        except IslaFormatError as e:
            raise StateFormatError(str(e)) from None
    elif obj.get("isla") is not None:
        raise _field_error("isla", "ships and ports are given but the ruleset has isla=false (I1)")
    todo = obj.get("todo", [])
    if not isinstance(todo, list) or not all(isinstance(t, int) for t in todo):
        raise _field_error("todo", "expected a list of seat numbers")
    return GameState(
        setup=su,
        players=tuple(players),
        draw=_bean_tuple(obj.get("draw"), "draw"),
        discard=_bean_tuple(obj.get("discard"), "discard"),
        face_up=tuple(sorted(_bean_tuple(obj.get("face_up", []), "face_up"))),
        out=_bean_tuple(obj.get("out", []), "out"),
        active=_int(obj, "active"),
        phase=Phase[phase_name],
        to_move=_int(obj, "to_move", -1),
        planted=_int(obj, "planted"),
        first_field=_int(obj, "first_field", -1),
        offers=_int(obj, "offers"),
        pending=pending,
        exhaustions=_int(obj, "exhaustions"),
        final=_bool(obj, "final"),
        todo=tuple(todo),
        resume=_int(obj, "resume"),
        turn=_int(obj, "turn"),
        isla=isla,
    )
