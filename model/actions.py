"""Actions: small frozen values, one per kind of move, with a text notation that round-trips.

Indices are 0-based: seats ``p2``, hand positions ``h3``, face-up cards ``u1``, fields ``0``.
``parse(format_action(a)) == a`` for every action. Notation (see docs/records.md):

    p0 plant 1                    front hand card onto field 1 (T1, D2)
    p1 plant red 0                a set-aside red bean onto field 0 (T6)
    p0 plant u1 0                 face-up / offered card 1 onto field 0 (duel, D2)
    p1 harvest 1                  harvest field 1 (H4-H6)
    p0 buy                        buy the third field (F1)
    p0 end                        end the current phase (T1, T5, D2)
    p0 offer p2 give h3,u1 ask red,red   propose a deal (T3); "give"/"ask" may be omitted
                                  (a0: a set-aside card, which T4 forbids; records may say it)
    p2 accept h4,h0               accept, giving those hand cards (T3)
    p2 decline                    decline the pending proposal
    p0 discard h3 / p0 discard u1 discard a hand card / an offered card (duel, D2)
    chance reshuffle blue,red,... the new draw pile, top first (E1)

An expansion's actions and their notation are in its own package (``model/isla/actions.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from model.cards import BEAN_NAMES, bean
from model.errors import InputError

MAX_DIGITS = 9  # seats, fields, cards and indices are small; a longer number is no index of the game


def _num(word: str) -> bool:
    """A plain ASCII number (``str.isdigit`` also accepts digits like "²")."""
    return word.isascii() and word.isdigit()


class NotationError(InputError):
    """Text that is not an action in the notation above."""


def clip(text: str, most: int = 80) -> str:
    """``text`` for an error message: at most ``most`` characters (a record line may be huge)."""
    return text if len(text) <= most else f"{text[:most]}... ({len(text)} characters)"


def _int(digits: str, text: str) -> int:
    """The number ``digits`` (ASCII digits); NotationError past ``MAX_DIGITS`` digits (int() of
    thousands of digits is slow or refused, and no index of the game is that large)."""
    if len(digits) > MAX_DIGITS:
        raise NotationError(f"{clip(text)!r}: {clip(digits, 20)!r} is too large for an index "
                            f"(more than {MAX_DIGITS} digits)")
    return int(digits)


@dataclass(frozen=True, slots=True)
class Plant:
    """Plant the front card of the hand on ``field`` (T1; H3: empty or same type)."""

    player: int
    field: int

    def __str__(self) -> str:
        return f"p{self.player} plant {self.field}"


@dataclass(frozen=True, slots=True)
class PlantAside:
    """Plant a set-aside card of type ``bean`` on ``field`` (T4, T6)."""

    player: int
    bean: int
    field: int

    def __str__(self) -> str:
        return f"p{self.player} plant {BEAN_NAMES[self.bean]} {self.field}"


@dataclass(frozen=True, slots=True)
class PlantUp:
    """Plant face-up card ``index`` (turned up or left on offer) on ``field`` (duel, D2)."""

    player: int
    index: int
    field: int

    def __str__(self) -> str:
        return f"p{self.player} plant u{self.index} {self.field}"


@dataclass(frozen=True, slots=True)
class Harvest:
    """Harvest the whole field (H5): whenever that player is to move (H6) unless H4 protects it."""

    player: int
    field: int

    def __str__(self) -> str:
        return f"p{self.player} harvest {self.field}"


@dataclass(frozen=True, slots=True)
class BuyField:
    """Buy the third field (F1)."""

    player: int

    def __str__(self) -> str:
        return f"p{self.player} buy"


@dataclass(frozen=True, slots=True)
class EndPhase:
    """End the current phase: planting (T1), trading (T5), the duel's discard or turn-up step (D2)."""

    player: int

    def __str__(self) -> str:
        return f"p{self.player} end"


@dataclass(frozen=True, slots=True)
class Propose:
    """The active player offers its own cards (hand positions, face-up indices) for bean types (T3).

    ``give_aside`` names set-aside cards (``a0``: the proposer's first set-aside card, in the sorted
    order of the state). No rule allows it (T4: received cards are never traded again); it exists
    so that a record from another engine can say so and the referee can name T4."""

    player: int
    partner: int
    give_hand: tuple[int, ...] = ()
    give_up: tuple[int, ...] = ()
    ask: tuple[int, ...] = ()  # bean types (legal_actions lists them sorted)
    give_aside: tuple[int, ...] = ()  # never legal (T4); only records name them

    def __str__(self) -> str:  # a trading phase lists thousands: the parts are formatted once
        return (f"p{self.player} offer p{self.partner}{_gives(self.give_hand, self.give_up, self.give_aside)}"
                f"{_asks(self.ask)}")


Give = tuple[tuple[int, ...], tuple[int, ...]]  # hand positions, face-up indices


@dataclass(frozen=True, slots=True)
class Offers:
    """Proposals as parts (T3): every ``Propose(player, partner, hand, up, ask)`` for a partner of
    ``partners``, a ``(hand, up)`` of ``gives`` and an ask of ``asks``, in that order, except the one
    that gives and asks nothing. The move generator lists a trading phase's thousands of proposals
    as a few of these; ``actions`` and ``texts`` spell them out, in the same order."""

    player: int
    partners: tuple[int, ...]
    gives: tuple[Give, ...]
    asks: tuple[tuple[int, ...], ...]

    def actions(self) -> list[Propose]:
        p = self.player
        return [Propose(p, q, hs, us, ask) for q in self.partners for hs, us in self.gives
                for ask in self.asks if hs or us or ask]

    def give_parts(self) -> list[str]:
        """Each give as the notation ends a proposal with it (``" give h0,u1"``; ``""``: nothing)."""
        return [_gives(hs, us, ()) for hs, us in self.gives]

    def ask_parts(self) -> list[str]:
        """Each ask as the notation ends a proposal with it (``" ask red,soy"``; ``""``: nothing)."""
        return [_asks(ask) for ask in self.asks]

    def texts(self) -> list[str]:
        """``[format_action(a) for a in self.actions()]``, without building the actions."""
        gives, asks = self.give_parts(), self.ask_parts()
        out: list[str] = []
        for q in self.partners:
            head = f"p{self.player} offer p{q}"
            out += [head + g + k for g in gives for k in asks if g or k]
        return out

    def count(self) -> int:
        empty = ((), ()) in self.gives and () in self.asks
        return len(self.partners) * (len(self.gives) * len(self.asks) - empty)


@lru_cache(maxsize=4096)
def _gives(hand: tuple[int, ...], up: tuple[int, ...], aside: tuple[int, ...]) -> str:
    gives = [f"h{i}" for i in hand] + [f"u{i}" for i in up] + [f"a{i}" for i in aside]
    return " give " + ",".join(gives) if gives else ""


@lru_cache(maxsize=4096)
def _asks(ask: tuple[int, ...]) -> str:
    return " ask " + ",".join(BEAN_NAMES[b] for b in ask) if ask else ""


@dataclass(frozen=True, slots=True)
class Accept:
    """The partner accepts the pending proposal, giving these hand positions (T3)."""

    player: int
    hand: tuple[int, ...] = ()

    def __str__(self) -> str:
        text = f"p{self.player} accept"
        if self.hand:
            text += " " + ",".join(f"h{i}" for i in self.hand)
        return text


@dataclass(frozen=True, slots=True)
class Decline:
    """The partner declines the pending proposal (T3: both sides must agree)."""

    player: int

    def __str__(self) -> str:
        return f"p{self.player} decline"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard the hand card at ``index`` (duel step 2, D2)."""

    player: int
    index: int

    def __str__(self) -> str:
        return f"p{self.player} discard h{self.index}"


@dataclass(frozen=True, slots=True)
class DiscardUp:
    """Discard the card left on offer at ``index`` (duel step 1, D2)."""

    player: int
    index: int

    def __str__(self) -> str:
        return f"p{self.player} discard u{self.index}"


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Chance: the discard pile becomes the draw pile in this order, top first (E1)."""

    order: tuple[int, ...]

    def __str__(self) -> str:
        return ("chance reshuffle " + ",".join(BEAN_NAMES[b] for b in self.order)).rstrip()


class ExpansionAction:
    """The base of an expansion's actions (``model/isla/actions.py``): the engine applies them with
    the expansion's ``handlers`` and ``parse_action`` reads them with its ``notation``."""

    __slots__ = ()
    player: int


class FieldHarvest(ExpansionAction):
    """An expansion's action that harvests a whole field as ``Harvest`` does (H4-H6), e.g. onto a
    ship (I5): the referee's annotations and claims read its ``field`` as a harvest's."""

    __slots__ = ()
    field: int


Action = (
    Plant | PlantAside | PlantUp | Harvest | BuyField | EndPhase | Propose | Accept | Decline
    | Discard | DiscardUp | Reshuffle | ExpansionAction
)

# The expansions' notations (``Expansion.notation``: seat, verb, arguments, text -> an action, or
# None if the words are not its own), each added by ``model.expansions.install``: the base notation
# names no expansion. They are asked before the base verbs.
NOTATIONS: list[Callable[[int, str, list[str], str], Action | None]] = []


def format_action(action: Action) -> str:
    return str(action)


def parse_seat(word: str, text: str) -> int:
    if len(word) < 2 or word[0] != "p" or not _num(word[1:]):
        raise NotationError(f"{clip(text)!r}: {clip(word, 20)!r} is not a seat like p0")
    return _int(word[1:], text)


def parse_number(word: str, text: str, what: str = "field") -> int:
    if not _num(word):
        raise NotationError(f"{clip(text)!r}: {clip(word, 20)!r} is not a {what} number")
    return _int(word, text)


def _indices(word: str, prefix: str, text: str) -> tuple[int, ...]:
    out = []
    for item in word.split(","):
        if len(item) < 2 or item[0] != prefix or not _num(item[1:]):
            raise NotationError(f"{clip(text)!r}: {clip(item, 20)!r} is not a card like {prefix}0")
        out.append(_int(item[1:], text))
    return tuple(out)


def _beans(word: str, text: str) -> tuple[int, ...]:
    try:
        return tuple(int(bean(x)) for x in word.split(","))
    except ValueError as e:
        raise NotationError(f"{clip(text)!r}: {e}") from None


def parse_action(text: str) -> Action:
    """Read one action in the notation of this module; NotationError says what is wrong."""
    words = text.split()
    if not words:
        raise NotationError("empty action")
    if words[0] == "chance":
        if len(words) == 3 and words[1] == "reshuffle":
            return Reshuffle(_beans(words[2], text))
        if len(words) == 2 and words[1] == "reshuffle":
            return Reshuffle(())
        raise NotationError(f"{clip(text)!r}: expected 'chance reshuffle BEAN,BEAN,...'")
    if len(words) < 2:
        raise NotationError(f"{clip(text)!r}: expected a seat and a verb, like 'p0 plant 1'")
    p = parse_seat(words[0], text)
    verb, args = words[1], words[2:]
    for notation in NOTATIONS:
        action = notation(p, verb, args, text)
        if action is not None:
            return action
    if verb == "plant":
        if len(args) == 1:
            return Plant(p, parse_number(args[0], text))
        if len(args) == 2:
            if args[0][:1] == "u" and _num(args[0][1:]):
                return PlantUp(p, _int(args[0][1:], text), parse_number(args[1], text))
            return PlantAside(p, _beans(args[0], text)[0] if "," not in args[0]
                              else _bad(text, "plant takes one bean"), parse_number(args[1], text))
        raise NotationError(f"{clip(text)!r}: expected 'plant FIELD', 'plant BEAN FIELD' or "
                            "'plant uI FIELD'")
    if verb == "harvest" and len(args) == 1:
        return Harvest(p, parse_number(args[0], text))
    if verb == "buy" and not args:
        return BuyField(p)
    if verb == "end" and not args:
        return EndPhase(p)
    if verb == "decline" and not args:
        return Decline(p)
    if verb == "accept" and len(args) <= 1:
        return Accept(p, _indices(args[0], "h", text) if args else ())
    if verb == "discard" and len(args) == 1 and "," not in args[0]:
        if args[0][:1] == "u":
            return DiscardUp(p, _indices(args[0], "u", text)[0])
        return Discard(p, _indices(args[0], "h", text)[0])
    if verb == "offer" and args:
        partner = parse_seat(args[0], text)
        rest = args[1:]
        give_hand: tuple[int, ...] = ()
        give_up: tuple[int, ...] = ()
        give_aside: tuple[int, ...] = ()
        ask: tuple[int, ...] = ()
        if rest[:1] == ["give"] and len(rest) >= 2:
            hs: list[str] = []
            us: list[str] = []
            aside: list[str] = []
            for item in rest[1].split(","):
                {"h": hs, "a": aside}.get(item[:1], us).append(item)
            give_hand = _indices(",".join(hs), "h", text) if hs else ()
            give_up = _indices(",".join(us), "u", text) if us else ()
            give_aside = _indices(",".join(aside), "a", text) if aside else ()
            rest = rest[2:]
        if rest[:1] == ["ask"] and len(rest) >= 2:
            ask = _beans(rest[1], text)
            rest = rest[2:]
        if rest:
            raise NotationError(f"{clip(text)!r}: expected 'offer pN [give h0,u1,a0] [ask BEAN,...]'")
        return Propose(p, partner, give_hand, give_up, ask, give_aside)
    raise NotationError(f"{clip(text)!r}: unknown action {verb!r} or wrong arguments")


def _bad(text: str, why: str) -> int:
    raise NotationError(f"{clip(text)!r}: {why}")
