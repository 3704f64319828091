"""The shape of every JSON file the tools read, as strict pydantic models: the state (with each
expansion's part, from its module registered in ``SLOT_SCHEMAS``, as schemas/isla.py), the
game record's lines, the ruleset options, the conformance fixtures and their
sidecars. ``problem(kind, value)`` checks a parsed JSON value against one of them and says, in one
line, where and what is wrong; loaders (records/game.py, schemas/state_json.py, schemas/position_io.py)
call it before any rule check. docs/schemas/ holds the JSON Schemas generated from these models
(``json_schemas()``, written by scripts/make_schemas.py).

Strict: a boolean is ``true`` or ``false``, a count is a whole number (``1.7``, ``true`` and ``"3"``
are not) within its documented bounds, a name is one of its enum. Option ranges come from
``model.rules.OPTION_RANGES``. Only the shape is checked here, never the rules: a position the
rules forbid is ``model.validate.check_state``'s to refuse, with its rule ID.

Importing pydantic takes about 0.1 s, so the loaders import this module inside the functions
that read files, never at the top: a script's ``--help`` does not pay for it.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired, get_type_hints

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Strict,
    Tag,
    TypeAdapter,
    ValidationError,
    create_model,
    with_config,
)
from pydantic_core import ErrorDetails
from typing_extensions import TypedDict

from model.cards import BEAN_NAMES
from model.isla.hooks import ISLA
from model.rules import OPTION_RANGES, out_of_range
from schemas import isla
from schemas.vocabulary import (
    DEPTH,
    FRACTION,
    METER,
    PATTERN_WORDS,
    RULE_ID,
    SEATS,
    STRICT,
    BeanName,
    Cards,
    Count,
    FieldCount,
    HarvestReading,
    PhaseName,
    PresetName,
    ReshuffleReading,
    Seat,
    TieBreak,
    option_bounds,
    says,
)

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_BASE = "urn:bohnanza-reference:schema:"  # + the file name: the schema's $id



# Each expansion's part of the schemas, by its name (``Setup.expansion``), one line each: its ruleset
# options (``OPTIONS``) and its part of the state (``STATE``), added after the base game's below.
SLOT_SCHEMAS: dict[str, ModuleType] = {ISLA.name: isla}

OPTIONS_CONFIG = ConfigDict(strict=True, extra="forbid", title="Ruleset options")


@with_config(OPTIONS_CONFIG)
class BaseOptions(TypedDict, total=False):
    """Ruleset options by ``model.rules.Ruleset`` field name (docs/rules.md, S, V3). An omitted option
    keeps the preset's value; ``null`` where allowed means "as the table of section S says"."""

    beans: Annotated[Cards, says("bean types in the deck before removals (C2, V4, V5)")]
    removed: Annotated[Cards | None, Field(
        description="bean types removed; null: the table of S for the player count")]
    min_players: Annotated[int, option_bounds("min_players")]
    max_players: Annotated[int, option_bounds("max_players")]
    fields: Annotated[int, option_bounds("fields")] | None
    third_field: Annotated[bool | None, says("may a third field be bought (F1); null: table of S")]
    third_field_cost: Annotated[int, option_bounds("third_field_cost")] | None
    hand: Annotated[int, option_bounds("hand")] | None
    face_up: Annotated[int, option_bounds("face_up")] | None
    draw: Annotated[int, option_bounds("draw")] | None
    exhaustions: Annotated[int, option_bounds("exhaustions")] | None
    tie_break: Annotated[TieBreak, says("E4: most cards in hand, farthest seat, or a shared win")]
    harvest: Annotated[HarvestReading, says("the H4 reading")]
    reshuffle: Annotated[ReshuffleReading, says(
        "the E1 reading: shuffle the discard pile at the last card, or when a card is next needed")]
    quick: Annotated[bool, says("V1: no reshuffle, the game ends at the first exhaustion")]
    distinct_fields: Annotated[bool, says("V2: the two phase-1 plantings go to different fields")]
    draw_each: Annotated[bool, says("V4: every player draws 1 in phase 4, active player first")]
    field_beans: Annotated[bool, says("V5: harvesting exactly 2 field beans gives a third field")]
    meters: Annotated[dict[BeanName, Annotated[str, Field(pattern=METER)]], Field(
        description="beanometer overrides (C3): cards for 1, 2, 3, 4 coins, '-' for none")]
    max_offers: Annotated[int, option_bounds("max_offers")]
    max_deal_cards: Annotated[int, option_bounds("max_deal_cards")]



def _options() -> Any:
    """The options TypedDict: the base game's, then each expansion's (``OPTIONS``)."""
    fields = get_type_hints(BaseOptions, include_extras=True)
    for mod in SLOT_SCHEMAS.values():
        fields.update(mod.OPTIONS)
    make: Any = TypedDict  # built from a dict made at run time, which the type checker cannot read
    typed = make("Options", fields, total=False)
    typed.__doc__ = BaseOptions.__doc__
    typed.__pydantic_config__ = OPTIONS_CONFIG
    return typed


if TYPE_CHECKING:
    Options = BaseOptions
else:
    Options = _options()

# ---------------------------------------------------------------- the state


FieldJSON = Annotated[tuple[BeanName, FieldCount], Strict(False)]  # [bean, count]: a JSON array of two


class Player(BaseModel):
    """One seat: hand (front card first, H1), fields (``[bean, count]`` or null when empty),
    the coin stack (top last, H5) and the set-aside cards (T4)."""

    model_config = STRICT
    hand: Cards
    fields: list[FieldJSON | None] = []
    coins: Cards
    aside: Cards = []


class BaseState(BaseModel):
    """A whole position (``model.state.state_to_json``): every card's place, whose move, and the
    turn's counters. Piles are lists of bean names: ``draw`` top first, ``discard`` top last."""

    model_config = ConfigDict(strict=True, extra="forbid", title="Bohnanza state")
    format: Literal["bohnanza-state"]
    version: Literal[1]
    ruleset: PresetName
    options: Options | None = None
    players: list[Player]
    draw: Cards
    discard: Cards
    face_up: Cards = []
    out: Cards = Field([], description="cards removed from the game (duel field purchases, F1)")
    active: Annotated[int, Field(ge=0, description="the active player's seat")]
    phase: PhaseName
    to_move: Annotated[int, Field(ge=-1, description="the seat to move; -1 at a chance node or the end")]
    planted: Annotated[int, Field(ge=0, description="phase-1 plantings this turn (T1)")]
    first_field: Annotated[int, Field(ge=-1, description="the field of the first planting, -1 if none (V2)")]
    offers: Annotated[int, option_bounds("max_offers")] = Field(description="proposals made this turn")
    pending: str | None = Field(None, description="the proposal awaiting an answer, in the action notation")
    exhaustions: Annotated[int, Field(ge=0, description="exhaustions of the draw pile so far (E1)")]
    final: bool = Field(False, description="the final exhaustion came while turning up: end after this turn")
    todo: list[int] = Field([], description="cards still to deal: a seat, -1 the trade area, -2/-3 a row")
    resume: Annotated[int, Field(ge=0, le=4, description="at a chance node, the dealing step to resume")]
    turn: Annotated[int, Field(ge=0, description="turns started, from 0")]



def _state() -> Any:
    """The state model: the base game's fields, then each expansion's part under its key (``STATE``,
    null or absent without the expansion)."""
    slots: dict[str, Any] = {key: (mod.STATE | None, None) for key, mod in SLOT_SCHEMAS.items()}
    return create_model("State", __base__=BaseState, __doc__=BaseState.__doc__, **slots)


if TYPE_CHECKING:
    State = BaseState
else:
    State = _state()

# ---------------------------------------------------------------- game records


MaybeCards = list[BeanName | None]  # ``null``: a card the writer did not see (docs/records.md)


class RecordDeclares(BaseModel):
    """How the engine that wrote the record plays where the rules leave it open: F1 does not say
    which coin cards pay for the third field (``oldest``: the bottom of the stack)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    coin_payment: Literal["top", "oldest"] = Field("top", description="which coin cards pay (F1)")


class RecordHeader(BaseModel):
    """The first line of a game record (docs/records.md): the ruleset and every option, the seats
    and the whole deck before dealing, top card first (``null`` for a card the writer did not see);
    or, for a game segment, the state it starts from (the state JSON) instead of the deck. Other
    keys (seed, about...) are kept."""

    model_config = ConfigDict(strict=True, extra="allow", title="Game record header", json_schema_extra={
        "oneOf": [{"required": ["ruleset", "players", "deck"], "not": {"required": ["state"]}},
                  {"required": ["state"], "not": {"required": ["deck"]}}]})
    format: Literal["bohnanza-record"]
    version: Literal[1]
    ruleset: PresetName | None = None
    options: Options = {}
    players: Annotated[int, Field(ge=2, le=SEATS)] | None = None
    seats: list[str] = []
    deck: MaybeCards | None = None
    state: dict[str, Any] | None = Field(None, description="the state JSON the record starts from "
                                         "(docs/state-format.md), instead of a deck")
    declares: RecordDeclares | None = Field(None, description="the writer's protocol choices the "
                                            "referee replays (docs/engine-protocol.md)")


@with_config(ConfigDict(strict=True, extra="forbid"))
class Hands(TypedDict, total=False):
    """Hands the writer saw after the line, front first, by seat (``null``: a card not seen)."""

    p0: MaybeCards
    p1: MaybeCards
    p2: MaybeCards
    p3: MaybeCards
    p4: MaybeCards
    p5: MaybeCards
    p6: MaybeCards


# The lines after the header are TypedDicts, not models: a record has thousands of them, and the
# whole body is checked in one call (``line_problem``) without building an object per line.


@with_config(ConfigDict(strict=True, extra="allow", title="Action line"))
class ActionLine(TypedDict):
    """One decision in the action notation, e.g. ``p0 plant 1``, with what the writer believes it
    moves (bean annotations, checked by the referee: a mismatch is a desynchronised record)."""

    action: str
    bean: NotRequired[BeanName]  # the card planted, discarded or harvested
    give: NotRequired[Cards]  # a proposal's or an answer's cards given
    take: NotRequired[Cards]  # the cards received
    up: NotRequired[Cards]  # the face-up cards after this line
    hands: NotRequired[Hands]
    claims: NotRequired[View]  # the writer's engine's state after it (records/claims.py)


@with_config(ConfigDict(strict=True, extra="allow", title="Chance line",
                        json_schema_extra={"not": {"required": ["action"]}}))  # that is an action line
class ChanceLine(TypedDict):
    """A reshuffle (E1): the new draw pile, top first, a permutation of the discard pile."""

    chance: Literal["reshuffle"]
    order: MaybeCards
    up: NotRequired[Cards]  # the face-up cards after this line (a reshuffle while turning up)
    hands: NotRequired[Hands]
    claims: NotRequired[View]


@with_config(ConfigDict(strict=True, extra="allow", title="End"))
class End(TypedDict):
    """The result the replay must reproduce: final coins per seat (E3) and the winners (E4)."""

    coins: list[Count]
    winners: NotRequired[list[Count]]


@with_config(ConfigDict(strict=True, extra="allow", title="End line", json_schema_extra={
    "not": {"anyOf": [{"required": ["action"]}, {"required": ["chance"]}]}}))
class EndLine(TypedDict):
    """The optional last line of a finished game."""

    end: End


LINE_KINDS = ("action", "chance", "end")  # a line's kind is the first of these keys it has (docs/records.md)


def line_kind(line: Any) -> str | None:
    """``action``, ``chance`` or ``end``: the kind of a record line (None: none of them)."""
    if isinstance(line, dict):
        for key in LINE_KINDS:
            if key in line:
                return key
    return None


RecordLine = ActionLine | ChanceLine | EndLine
TaggedLine = Annotated[Annotated[ActionLine, Tag("action")] | Annotated[ChanceLine, Tag("chance")]
                       | Annotated[EndLine, Tag("end")], Discriminator(line_kind)]


# ---------------------------------------------------------------- conformance fixtures


class Fixture(BaseModel):
    """What perft and endgame fixtures share: a name, how it was made, and the position."""

    model_config = STRICT
    version: Literal[1]
    name: str
    description: str
    ruleset: PresetName
    players: Annotated[int, Field(ge=2, le=SEATS)]
    phase: PhaseName
    to_move: Annotated[int, Field(ge=-1, le=SEATS - 1)]
    state: State


class PerftFixture(Fixture):
    """A position and the number of legal action sequences of each length (docs/conformance.md)."""

    model_config = ConfigDict(strict=True, extra="forbid", title="Perft fixture")
    format: Literal["bohnanza-perft"]
    perft: dict[Annotated[str, Field(pattern=DEPTH)], Count]


class EndgameValue(BaseModel):
    """One proved optimum: the objective, for which seat, the value and the solver that proved it."""

    model_config = STRICT
    objective: Literal["solo", "coop", "best", "duel", "expected"]
    player: Seat
    value: int | Annotated[str, Field(pattern=FRACTION)]
    approx: float | None = None
    open_average: Annotated[str, Field(pattern=FRACTION)] | None = None
    solver: str


class EndgameFixture(Fixture):
    """A position and its optimal values per objective (docs/endgames.md, docs/conformance.md)."""

    model_config = ConfigDict(strict=True, extra="forbid", title="Endgame fixture")
    format: Literal["bohnanza-endgame"]
    values: list[EndgameValue]


class LegalVerdict(BaseModel):
    """The sidecar of a legal record: its result after the last line."""

    model_config = STRICT
    status: Literal["legal"]
    over: bool
    steps: Count
    coins: list[Count]
    winners: list[Seat] = []
    about: str = ""


class IllegalVerdict(BaseModel):
    """The sidecar of an illegal record: its first illegal line and the rule a referee must name."""

    model_config = STRICT
    status: Literal["illegal"]
    line: Annotated[int, Field(ge=1)]
    rule: Annotated[str, Field(pattern=RULE_ID)]
    why: str
    base: str
    change: str


class PlantedDeviation(BaseModel):
    """One deviation planted in a referee record: its line, ``illegal`` (with the rule ID a referee
    must name) or ``desync`` (an annotation the replay contradicts), and what was planted."""

    model_config = STRICT
    line: Annotated[int, Field(ge=1)]
    status: Literal["illegal", "desync"]
    rule: Annotated[str, Field(pattern=RULE_ID)] | None = None
    why: str


class RefereeVerdict(BaseModel):
    """The sidecar of a referee record (records/referee/, docs/conformance.md): what was planted.
    ``deviations`` lists every one ``check_record.py --all`` must report, in line order (for a record
    with unknown cards, the first line no assignment replays); ``stopped`` the line past which the
    record cannot be followed (null: followed to the end); the result when it is legal."""

    model_config = STRICT
    status: Literal["legal", "illegal", "desync"]
    unknown: bool = Field(description="the record has unknown cards (null): the search's verdict")
    deviations: list[PlantedDeviation]
    stopped: Annotated[int, Field(ge=1)] | None
    over: bool | None = None
    coins: list[Count] | None = None
    winners: list[Seat] = []
    about: str
    base: str
    changes: list[str]


def _expect_kind(value: Any) -> str | None:
    """``referee`` for a referee record's sidecar (it lists deviations), else its status."""
    if isinstance(value, dict):
        return "referee" if "deviations" in value else value.get("status")
    return None


Verdict = Annotated[Annotated[LegalVerdict, Tag("legal")] | Annotated[IllegalVerdict, Tag("illegal")]
                    | Annotated[RefereeVerdict, Tag("referee")], Discriminator(_expect_kind)]


# ---------------------------------------------------------------- the engine driver protocol
# docs/engine-protocol.md: JSON lines between scripts/diff_engine.py (the harness) and a shim that
# drives another engine. Requests carry ``id`` and ``cmd``; every reply repeats the ``id``.

Command = Literal["hello", "start", "legal", "apply", "reshuffle", "state", "winners", "quit"]
PROTOCOL_COMMANDS = ("hello", "start", "legal", "apply", "reshuffle", "state", "winners", "quit")


class Request(BaseModel):
    """One request of the harness. ``start`` carries ``ruleset``, ``options``, ``players`` and
    ``deck`` (top first), or ``state`` (a state JSON); ``legal`` carries ``proposals``; ``apply``
    an ``action`` in the notation (docs/records.md); ``reshuffle`` the new draw pile ``order``."""

    model_config = ConfigDict(strict=True, extra="forbid", title="Engine protocol request")
    id: Count
    cmd: Command
    ruleset: PresetName | None = None
    options: Options | None = None
    players: Annotated[int, Field(ge=2, le=SEATS)] | None = None
    deck: Cards | None = None
    state: dict[str, Any] | None = Field(None, description="a state JSON (docs/state-format.md)")
    proposals: bool | None = Field(None, description="legal: list the trading proposals too")
    action: str | None = Field(None, description="apply: one action in the notation")
    order: Cards | None = Field(None, description="reshuffle: the new draw pile, top first (E1)")


class _Reply(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow")
    id: Count


class Unsupported(_Reply):
    """The engine cannot answer this request; the harness checks less and says what."""

    unsupported: str


class Failed(_Reply):
    """The engine failed on this request (a bug of the shim or the engine): the game stops."""

    error: str


class Declares(BaseModel):
    """The engine's own trading and planting protocol, where it is not this project's (T3: one open
    offer; T6: phase 3 seat by seat; F1: the top coins pay), and the option values it always plays."""

    model_config = ConfigDict(strict=True, extra="forbid")
    concurrent_offers: bool = Field(False, description="several offers may be open at once (T3)")
    simultaneous_phase3: bool = Field(False, description="every seat plants its set-aside cards at once (T6)")
    coin_payment: Literal["top", "oldest"] = Field("top", description="which coin cards pay (F1)")
    off_turn_harvests: bool = Field(False, description="a seat not to move may harvest, buy a field (H6, F1)")
    deals: Literal["by-card", "by-type"] = Field("by-card", description="deals name the cards given, or only "
                                                 "which beans and how many (T3)")
    offer_limit: Literal["max_offers", "none"] = Field("max_offers", description="proposals a turn: at most "
                                                       "max_offers, or no limit (T3)")
    deal_size_limit: Literal["max_deal_cards", "none"] = Field(
        "max_deal_cards", description="deals listed: at most max_deal_cards cards a side, or any size (T3)")
    options: Options = Field(default_factory=lambda: Options(), description="option values it always plays")


class Hello(_Reply):
    """Who the engine is and what it claims: presets with their player counts (all if omitted), and
    what it ``declares``: its protocol choices and fixed option values (docs/engine-protocol.md)."""

    name: str
    protocol: Literal[1]
    presets: dict[PresetName, list[Annotated[int, Field(ge=2, le=SEATS)]]] | None = None
    declares: Declares | None = None


class Started(_Reply):
    """``ok`` false: the engine refuses this game (an option it does not have), with its reason."""

    ok: bool
    reason: str | None = None


class OfferParts(BaseModel):
    """Proposals as parts: ``SEAT offer PARTNER give GIVE ask ASK`` for every partner, give and ask
    listed (``""``: none), except the one that gives and asks nothing (T3)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    seat: str = Field(description="the proposer, p0 ..")
    partners: list[str] = Field(description="the seats offered to")
    give: list[str] = Field(description='what is given, as after "give" (h1,u0), or "" for nothing')
    ask: list[str] = Field(description='what is asked, as after "ask" (red,soy), or "" for nothing')


class Legal(_Reply):
    """Every action the seat to move may take, in the notation, in any order; ``proposals`` false
    when the list leaves the trading proposals out; ``offers``, optional: proposals as parts, besides
    those ``actions`` lists."""

    actions: list[str]
    proposals: bool = True
    offers: list[OfferParts] | None = None


class Applied(_Reply):
    """The action (or reshuffle) accepted and done, or refused with the engine's reason."""

    accepted: bool
    reason: str | None = None


class ViewPlayer(BaseModel):
    """One seat as the engine sees it; a key left out is not compared."""

    model_config = ConfigDict(strict=True, extra="allow")
    hand: Cards | None = Field(None, description="front card first (H1)")
    fields: list[FieldJSON | None] | None = Field(None, description="[bean, count] or null when empty")
    coins: Count | None = Field(None, description="coins on the stack (H5)")
    aside: Cards | None = Field(None, description="set-aside cards, in any order (T4, T5)")


class View(BaseModel):
    """The state as the engine sees it; piles as a card count or as their cards (draw top first)."""

    model_config = ConfigDict(strict=True, extra="allow")
    players: list[ViewPlayer] | None = None
    face_up: Cards | None = Field(None, description="the trade area, in any order (T2)")
    draw: Count | Cards | None = None
    discard: Count | Cards | None = None
    phase: PhaseName | None = None
    to_move: Annotated[int, Field(ge=-1)] | list[Count] | None = Field(
        None, description="the seat to move (-1: a chance node), or the seats that may act (phase 3 at once)")
    active: Count | None = None


class StateReply(_Reply):
    state: View


class Result(_Reply):
    """Whether the game is over (E2), the coins per seat (E3) and the winners (E4)."""

    over: bool
    coins: list[Count] | None = None
    winners: list[Count] | None = None


REPLIES = {"hello": Hello, "start": Started, "legal": Legal, "apply": Applied, "reshuffle": Applied,
           "state": StateReply, "winners": Result}
Reply = Hello | Started | Legal | Applied | StateReply | Result | Unsupported | Failed


# ---------------------------------------------------------------- checking


ADAPTERS: dict[str, TypeAdapter[Any]] = {
    "state": TypeAdapter(State),
    **{key: TypeAdapter(mod.STATE) for key, mod in SLOT_SCHEMAS.items()},
    "options": TypeAdapter(Options),
    "record-header": TypeAdapter(RecordHeader),
    "record-line": TypeAdapter(RecordLine),
    "record-body": TypeAdapter(list[TaggedLine]),
    "perft": TypeAdapter(PerftFixture),
    "endgame": TypeAdapter(EndgameFixture),
    "record-expect": TypeAdapter(Verdict),
    "referee-expect": TypeAdapter(RefereeVerdict),
    "engine-request": TypeAdapter(Request),
    "engine-reply": TypeAdapter(Reply),
    **{f"engine-{cmd}": TypeAdapter(model) for cmd, model in REPLIES.items()},
    "engine-unsupported": TypeAdapter(Unsupported),
    "engine-error": TypeAdapter(Failed),
}


def problem(kind: str, value: Any, at: str = "") -> str | None:
    """None if ``value`` (parsed JSON) has the shape ``kind`` (a key of ``ADAPTERS``); else one line,
    ``PATH: what is wrong`` (``at`` leads the path, e.g. ``header``), from the first error found."""
    try:
        ADAPTERS[kind].validate_python(value)
    except ValidationError as e:
        return describe(e.errors(include_url=False)[0], at, kind)
    return None


def line_problem(lines: list[Any]) -> tuple[int, str] | None:
    """None if every record line (after the header) has its kind's shape; else the index of the
    first bad one and what is wrong there (``PATH: reason``, the path within the line)."""
    try:
        ADAPTERS["record-body"].validate_python(lines)
    except ValidationError as e:
        err = e.errors(include_url=False)[0]
        index, *rest = err["loc"]
        assert isinstance(index, int)
        err["loc"] = tuple(rest[1:])  # without the index and the kind (the union's tag)
        return index, describe(err)
    return None


_TAGS = {"int", "str", "bool", "float", "none", "list", "dict", "constrained-str", "constrained-int",
         "legal", "illegal"}  # what pydantic puts in a location for a branch of a union


def path(loc: tuple[int | str, ...], at: str = "") -> str:
    """A location as a JSON path: ``players[1].fields[0][1]``."""
    out = at
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in _TAGS or part == "[key]" or part.endswith("]"):
            continue
        else:
            out += f".{part}" if out else part
    return out or "(top)"


def _show(value: Any) -> str:
    """A value as JSON text, cut short to keep a message on one line."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else f"{text[:30]}... ({len(text)} characters)"


def describe(err: ErrorDetails, at: str = "", within: str = "") -> str:
    """One pydantic error as ``PATH: reason``, in the project's words (``within``: the kind of the
    checked value, the parent of a top-level key)."""
    loc = tuple(err["loc"])
    kind, value, ctx = err["type"], err["input"], err.get("ctx") or {}
    where = path(loc, at)
    key = next((p for p in reversed(loc) if isinstance(p, str) and p not in _TAGS), "")
    in_options = (loc[-2] if len(loc) >= 2 else within) == "options"
    if kind in ("greater_than_equal", "less_than_equal") and in_options and key in OPTION_RANGES \
            and isinstance(value, int):
        return f"{where}: {out_of_range(key, value)}"
    shown = _show(value)
    if kind == "int_type":
        why = f"{shown} is not a whole number" if isinstance(value, float) else \
            f"expected a whole number, got {shown}"
    elif kind == "greater_than_equal":
        why = f"expected a whole number >= {ctx['ge']}, got {shown}"
    elif kind == "greater_than":
        why = f"expected a whole number > {ctx['gt']}, got {shown}"
    elif kind == "less_than_equal":
        why = f"expected a whole number <= {ctx['le']}, got {shown}"
    elif kind == "bool_type":
        why = f"expected true or false, got {shown}"
    elif kind == "string_type":
        why = f"expected a string, got {shown}"
    elif kind == "float_type":
        why = f"expected a number, got {shown}"
    elif kind == "literal_error":
        expected = str(ctx.get("expected", ""))
        if "'blackeyed'" in expected:
            why = (f"unknown bean {shown}; beans are {', '.join(BEAN_NAMES)} (C)" if isinstance(value, str)
                   else f"expected a bean name, got {shown} (C)")
        else:
            names = expected.replace("'", '"')
            why = f"expected {names}, got {shown}"
    elif kind in ("list_type", "tuple_type"):
        why = f"expected a list, got {shown}"
    elif kind in ("dict_type", "model_type", "model_attributes_type", "typed_dict_type"):
        why = f"expected an object, got {shown}"
    elif kind == "missing":
        why = "missing"
    elif kind == "extra_forbidden":
        if in_options:
            why = f"unknown option; options are {', '.join(Options.__annotations__)}"
        else:
            why = "unknown key"
    elif kind in ("too_short", "too_long"):
        if ctx.get("field_type") == "Tuple":
            why = f"expected a list of 2 items, got {shown}"
        else:
            bound = f"at least {ctx['min_length']}" if kind == "too_short" else f"at most {ctx['max_length']}"
            why = f"expected {bound} items, got {ctx.get('actual_length')}"
    elif kind == "string_pattern_mismatch":
        why = f"{shown} is not {PATTERN_WORDS.get(str(ctx.get('pattern')), 'of the documented form')}"
    elif kind == "union_tag_invalid":
        where = path(loc + (str(ctx.get("discriminator", "")).strip("'"),), at)
        tags = str(ctx.get("expected_tags")).replace("'", '"')
        why = f"expected {tags}, got {_show(ctx.get('tag'))}"
    else:
        why = err["msg"]
    return f"{where}: {why}"


# ---------------------------------------------------------------- the published JSON Schemas


SCHEMAS: dict[str, tuple[str, str, str]] = {  # file: (ADAPTERS key, title, description)
    "state.schema.json": (
        "state", "Bohnanza state",
        "A whole Bohnanza position as model.state.state_to_json writes it (docs/records.md, State JSON)."),
    "options.schema.json": (
        "options", "Bohnanza ruleset options",
        "Ruleset options by model.rules.Ruleset field name, as in a record header or a state "
        "(docs/records.md, Ruleset options)."),
    "record-header.schema.json": (
        "record-header", "Bohnanza game record header",
        "The first line of a game record (JSON Lines, docs/records.md)."),
    "record-line.schema.json": (
        "record-line", "Bohnanza game record line",
        "Every line after the header: an action, a chance (reshuffle) or the end line (docs/records.md); "
        "the first of the keys action, chance, end that a line has gives its kind. Other keys are "
        "allowed and ignored."),
    "perft.schema.json": (
        "perft", "Bohnanza perft fixture",
        "tests/conformance/perft/NAME.json: a position and its perft counts (docs/conformance.md)."),
    "endgame.schema.json": (
        "endgame", "Bohnanza endgame fixture",
        "tests/conformance/endgames/NAME.json: a position and its proved optimal values "
        "(docs/conformance.md, docs/endgames.md)."),
    "record-expect.schema.json": (
        "record-expect", "Bohnanza record verdict",
        "tests/conformance/records/*/NAME.expect.json: the verdict a referee must give a record "
        "(docs/conformance.md)."),
    "engine-request.schema.json": (
        "engine-request", "Bohnanza engine protocol request",
        "One line the harness (scripts/diff_engine.py) writes to an engine's shim "
        "(docs/engine-protocol.md)."),
    "engine-reply.schema.json": (
        "engine-reply", "Bohnanza engine protocol reply",
        "One line a shim writes back: the reply to the request of the same id, per command, or "
        "unsupported, or error (docs/engine-protocol.md)."),
}


_BEAN_ENUM = {"enum": list(BEAN_NAMES), "type": "string"}
_BEAN_DEF = {"description": "a bean type (docs/rules.md, C), by its name in the notation", **_BEAN_ENUM}


def _share_beans(node: Any) -> tuple[Any, bool]:
    """``node`` with every inline bean enum replaced by a reference to ``$defs/Bean``."""
    if node == _BEAN_ENUM:
        return {"$ref": "#/$defs/Bean"}, True
    if isinstance(node, dict):
        pairs = [(k, _share_beans(v)) for k, v in node.items()]
        return {k: v for k, (v, _) in pairs}, any(used for _, (_, used) in pairs)
    if isinstance(node, list):
        items = [_share_beans(v) for v in node]
        return [v for v, _ in items], any(used for _, used in items)
    return node, False


def json_schemas() -> dict[str, str]:
    """file name -> the text of each published JSON Schema (draft 2020-12), as docs/schemas/ holds it."""
    out = {}
    for name, (kind, title, description) in SCHEMAS.items():
        body, beans = _share_beans(ADAPTERS[kind].json_schema())
        body.pop("title", None)
        body.pop("description", None)
        if beans:
            body["$defs"] = {"Bean": _BEAN_DEF, **body.get("$defs", {})}
        schema = {"$schema": SCHEMA_DIALECT, "$id": SCHEMA_BASE + name, "title": title,
                  "description": description, **body}
        out[name] = json.dumps(schema, indent=2) + "\n"
    return out
