"""Game records: JSON Lines that any implementation can write and this engine replays (docs/records.md).

Line 1 is a header (format, version, ruleset and every option, seats, initial deck order, top first);
then one line per action, ``{"action": "p0 plant 1"}``, and one chance line per reshuffle,
``{"chance": "reshuffle", "order": [...]}``. An optional last line ``{"end": {"coins": [...],
"winners": [...]}}`` states the result, which the replay must reproduce. A record may stop early.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from model import jsonio
from model.actions import Action, FieldHarvest, NotationError, Reshuffle, format_action, parse_action
from model.cards import BEAN_INDEX, BEAN_NAMES, difference
from model.engine import IllegalAction, apply, new_game, scores, winners
from model.errors import BohnanzaError, InputError
from model.expansions import hooks
from model.rules import Ruleset, ruleset, setup
from model.state import GameState, Phase
from schemas.position_io import PositionInputError, state_of

RECORD_FORMAT = "bohnanza-record"
RECORD_VERSION = 1


class RecordFormatError(InputError):
    """The record is not well-formed (bad JSON, unknown ruleset or bean, wrong version...)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


class IllegalStep(BohnanzaError):
    """A well-formed record whose step at ``line`` breaks a rule."""

    def __init__(self, line: int, action: str, error: IllegalAction | str, rule: str = "") -> None:
        self.line = line
        self.action = action
        if isinstance(error, IllegalAction):
            self.reason, self.rule = error.reason, error.rule
        else:
            self.reason, self.rule = error, rule
        super().__init__(f"line {line}: illegal {action}: {self.reason} [{self.rule}]")


@dataclass(frozen=True)
class Notes:
    """What a record line says about the cards it moves (bean annotations, docs/records.md): the
    referee checks each against its replay and names a mismatch as a desynchronised record."""

    bean: int | None = None  # the card a plant, discard or harvest moves
    give: tuple[int, ...] | None = None  # cards given: a proposal's (hand, face-up, set-aside), an answer's
    take: tuple[int, ...] | None = None  # what the proposer asks / what the answering seat receives
    up: tuple[int, ...] | None = None  # the face-up cards after the line, in any order
    hands: tuple[tuple[int, tuple[int | None, ...]], ...] = ()  # (seat, hand front first) after the line
    claims: dict[str, Any] | None = None  # the writer's engine's state after the line (records/claims.py)


@dataclass
class Record:
    rules: Ruleset
    players: int
    deck: tuple[int | None, ...]  # top first; None: a card the writer did not see; () with ``start``
    seats: list[str] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)  # source line of each action (1-based)
    end: dict[str, Any] | None = None
    end_line: int = 0
    extra: dict[str, Any] = field(default_factory=dict)  # header keys kept as they are (seed, ...)
    start: GameState | None = None  # the header's state, for a record of a game segment
    notes: dict[int, Notes] = field(default_factory=dict)  # action index -> its line's annotations
    orders: dict[int, tuple[int | None, ...]] = field(default_factory=dict)  # reshuffles with unknowns
    coin_payment: str = "top"  # header.declares: "oldest", the bottom coin cards pay (F1)

    @property
    def unknown(self) -> int:
        """How many cards the writer did not see (``null`` in the deck and the reshuffle orders)."""
        return self.deck.count(None) + sum(o.count(None) for o in self.orders.values())

    def initial_state(self) -> GameState:
        if self.start is not None:
            return self.start
        if self.unknown:
            raise InputError("the record has unknown cards: records.unknown judges it")
        return new_game(self.rules, self.players, deck=self.deck)  # type: ignore[arg-type]


def header(s0: GameState, seats: Sequence[str] = (), **extra: Any) -> dict[str, Any]:
    """The header line for a game that starts at ``s0`` (a fresh game: its deck is rebuilt)."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "ruleset": s0.setup.rules.name,
        "options": s0.setup.rules.options(),
        "players": len(s0.players),
        "seats": list(seats),
        "deck": [BEAN_NAMES[c] for c in initial_deck(s0)],
        **extra,
    }


def initial_deck(s0: GameState) -> tuple[int, ...]:
    """The deck order, top first, that deals into ``s0`` (turn 0, nothing played yet).

    The cards an expansion is dealt first come first (S2; La Isla Bohnita's two rows, I2)."""
    n = len(s0.players)
    hands = [list(p.hand) for p in s0.players]
    sizes = s0.setup.hands
    dealt: list[int] = []
    taken = [0] * n
    while any(taken[i] < sizes[i] for i in range(n)):  # S2: one at a time, in seat order
        for seat in range(n):
            if taken[seat] < sizes[seat]:
                dealt.append(hands[seat][taken[seat]])
                taken[seat] += 1
    return hooks(s0.setup).dealt_first(s0) + tuple(dealt) + s0.draw


def action_line(action: Action) -> dict[str, Any]:
    if isinstance(action, Reshuffle):
        return {"chance": "reshuffle", "order": [BEAN_NAMES[c] for c in action.order]}
    return {"action": format_action(action)}


def record_lines(head: dict[str, Any], actions: Sequence[Action], final: GameState | None = None) -> str:
    out = [json.dumps(head, separators=(",", ":"))]
    out.extend(json.dumps(action_line(a), separators=(",", ":")) for a in actions)
    if final is not None and final.phase == Phase.OVER:
        out.append(json.dumps({"end": {"coins": list(scores(final)), "winners": list(winners(final))}},
                              separators=(",", ":")))
    return "\n".join(out) + "\n"


def atomic_write(path: str | os.PathLike[str], write: Callable[[str], object]) -> None:
    """Call ``write(tmp)`` on a temporary file beside ``path`` (same suffix), then rename it into place:
    readers see the old file or the whole new one, never a part."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    # The name is known before the file exists, so a Ctrl-C at any point after it finds the file to
    # remove (with mkstemp, one landing between its return and the ``try`` left a temporary file).
    tmp = str(target.parent / f".{target.name}.{secrets.token_hex(8)}{target.suffix or '.tmp'}")
    try:
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))  # the usual permissions
        write(tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically (``atomic_write``)."""
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def write_record(path: str | os.PathLike[str], head: dict[str, Any], actions: Sequence[Action],
                 final: GameState | None = None) -> None:
    atomic_write_text(path, record_lines(head, actions, final))


def _cards(names: list[str]) -> tuple[int, ...]:
    return tuple(BEAN_INDEX[x] for x in names)


def _maybe_cards(names: list[str | None]) -> tuple[int | None, ...]:
    return tuple(None if x is None else BEAN_INDEX[x] for x in names)


def _lines(text: str) -> list[tuple[int, dict[str, Any]]]:
    """(line number, JSON object) for each line that is not blank (``model.jsonio`` reads them)."""
    objs: list[tuple[int, dict[str, Any]]] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = jsonio.loads(raw)
        except jsonio.JSONInputError as e:
            at = f" at column {e.column}" if e.column else ""
            raise RecordFormatError(no, f"bad JSON: {e.reason.removeprefix('not JSON: ')}{at}") from None
        if not isinstance(obj, dict):
            raise RecordFormatError(no, "each line must be a JSON object")
        objs.append((no, obj))
    return objs


def _header(no: int, head: dict[str, Any]) -> Record:
    """The record the header line starts: format and version first (which schema applies), then its
    shape (``schemas.shapes.RecordHeader``), then the ruleset, the player count and the deck (S), or
    the state it starts from."""
    from schemas.shapes import problem  # the pydantic edge: loaded by a loader only

    if head.get("format") != RECORD_FORMAT:
        raise RecordFormatError(no, f"header format must be {RECORD_FORMAT!r}, got {head.get('format')!r}")
    version = head.get("version")
    if type(version) is not int or version != RECORD_VERSION:
        raise RecordFormatError(
            no, f"unsupported format version {version!r}; this engine reads version {RECORD_VERSION}")
    why = problem("record-header", head, "header")
    if why is not None:
        raise RecordFormatError(no, why)
    extra = {k: v for k, v in head.items() if k not in _HEADER_KEYS}
    seats = list(head.get("seats", []))
    paid = str((head.get("declares") or {}).get("coin_payment", "top"))
    if "state" in head:
        return replace(_segment(no, head, seats, extra), coin_payment=paid)
    for key in ("ruleset", "players", "deck"):
        if head.get(key) is None:
            raise RecordFormatError(no, f"header.{key}: missing (or give the starting state as header.state)")
    players = head["players"]
    try:
        rules = ruleset(head["ruleset"], head.get("options", {}))
        su = setup(rules, players)
    except InputError as e:
        raise RecordFormatError(no, str(e)) from None
    deck = _maybe_cards(head["deck"])
    if len(deck) != len(su.deck) or not _within(deck, su.deck):
        seen = f"; its known cards have {difference(deck, su.deck)} against the deck" if None in deck else ""
        raise RecordFormatError(
            no, f"header.deck: not the {len(su.deck)} cards of {rules.name} with {players} players "
                f"({len(deck)} given{seen or ': ' + difference(deck, su.deck)}) [S]")
    return Record(rules=rules, players=players, deck=deck, seats=seats, extra=extra, coin_payment=paid)


def _within(cards: Sequence[int | None], deck: Sequence[int]) -> bool:
    """Are the known ``cards`` part of ``deck`` (as many of each bean at most)?"""
    have = Counter(c for c in cards if c is not None)
    return not have - Counter(deck)


def _segment(no: int, head: dict[str, Any], seats: list[str], extra: dict[str, Any]) -> Record:
    """A record that starts from ``header.state`` (a game segment): the state is read and checked as
    every state file is (docs/state-format.md); ruleset, options and players, if given, must agree."""
    if head.get("deck") is not None:
        raise RecordFormatError(no, "header: give a deck or a state, not both")
    try:
        s = state_of(head["state"], "header.state", fixtures=False)
    except PositionInputError as e:
        raise RecordFormatError(no, str(e)) from None
    rules = s.setup.rules
    for key, mine in (("ruleset", rules.name), ("players", len(s.players))):
        if head.get(key) is not None and head[key] != mine:
            raise RecordFormatError(no, f"header.{key}: {head[key]!r}, but header.state has {mine!r}")
    if "options" in head:
        try:
            said = ruleset(rules.name, head["options"])
        except InputError as e:
            raise RecordFormatError(no, str(e)) from None
        if said != rules:
            raise RecordFormatError(no, "header.options: not the options of header.state")
    return Record(rules=rules, players=len(s.players), deck=(), seats=seats, extra=extra, start=s)


_HEADER_KEYS = ("format", "version", "ruleset", "options", "players", "seats", "deck", "state", "declares")

# which annotations a line may carry, by what its action moves (docs/records.md)
_BEAN_ACTIONS = ("Plant", "PlantAside", "PlantUp", "Discard", "DiscardUp", "Harvest")  # and a FieldHarvest
_DEAL_ACTIONS = ("Propose", "Accept")


def _notes(no: int, obj: dict[str, Any], action: Action | None) -> Notes | None:
    """The annotations of one line (None if it has none); a key that cannot apply to the line's
    action is malformed (``"bean"`` on ``p0 end``), unknown keys are ignored."""
    if not any(k in obj for k in ("bean", "give", "take", "up", "hands", "claims")):
        return None
    kind = type(action).__name__ if action is not None else "Reshuffle"
    if "bean" in obj and kind not in _BEAN_ACTIONS and not isinstance(action, FieldHarvest):
        raise RecordFormatError(no, f"bean: names the card a plant, discard or harvest moves; "
                                    f"{_said(action)} moves none")
    for key in ("give", "take"):
        if key in obj and kind not in _DEAL_ACTIONS:
            raise RecordFormatError(no, f"{key}: names the cards of a proposal or an answer, not of "
                                        f"{_said(action)}")
    hands = [(int(seat[1:]), _maybe_cards(cards)) for seat, cards in sorted(obj.get("hands", {}).items())]
    return Notes(
        bean=BEAN_INDEX[obj["bean"]] if "bean" in obj else None,
        give=_cards(obj["give"]) if "give" in obj else None,
        take=_cards(obj["take"]) if "take" in obj else None,
        up=_cards(obj["up"]) if "up" in obj else None,
        hands=tuple(hands),
        claims=obj.get("claims"))


def _said(action: Action | None) -> str:
    return f"{format_action(action)!r}" if action is not None else "a reshuffle"


def parse_record(text: str) -> Record:
    """Read a record; RecordFormatError names the line and what is malformed (not rule breaks).

    Every line is checked against its schema (schemas/shapes.py) before it is read; keys a line's
    schema does not name are ignored."""
    from schemas.shapes import line_kind, line_problem  # the pydantic edge: loaded by a loader only

    objs = _lines(text)
    if not objs:
        raise RecordFormatError(1, "empty record: no header line")
    rec = _header(*objs[0])
    bad = line_problem([obj for _, obj in objs[1:]])  # the whole body at once: lines are many
    bad_at, why = bad if bad is not None else (-1, "")
    for i, (no, obj) in enumerate(objs[1:]):
        if rec.end is not None:
            raise RecordFormatError(no, "nothing may follow the end line")
        kind = line_kind(obj)
        if kind is None:
            raise RecordFormatError(no, "expected an action, chance or end line")
        if i == bad_at:
            raise RecordFormatError(no, why)
        if kind == "action":
            try:
                action: Action = parse_action(obj["action"])
            except NotationError as e:
                raise RecordFormatError(no, f"bad action: {e}") from None
        elif kind == "chance":
            order = _maybe_cards(obj["order"])
            if None in order:
                rec.orders[len(rec.actions)] = order
                action = Reshuffle(())
            else:
                action = Reshuffle(order)  # type: ignore[arg-type]
        else:
            rec.end, rec.end_line = obj["end"], no
            continue
        notes = _notes(no, obj, action if kind == "action" else None)
        if notes is not None:
            rec.notes[len(rec.actions)] = notes
        rec.actions.append(action)
        rec.lines.append(no)
    return rec


def read_record(path: str | os.PathLike[str]) -> Record:
    """The record in a file; JSONInputError if it cannot be read, RecordFormatError if malformed."""
    return parse_record(jsonio.read_text(path))


def where(s: GameState) -> str:
    """Where a replay stands, for messages: turn, phase, seat to move, cards left, exhaustions (E1, E2)."""
    if s.phase == Phase.OVER:
        return "the replay's game is over"
    mover = f"p{s.to_move} to move" if s.to_move >= 0 else "a reshuffle due"
    final = ", the final pass" if s.final else ""
    return (f"the replay is at turn {s.turn}, phase {s.phase.name.lower()}, {mover}, "
            f"{len(s.draw)} cards in the draw pile, exhaustion {s.exhaustions} of "
            f"{s.setup.final_exhaustion}{final}")


def end_problems(rec: Record, s: GameState) -> list[tuple[str, str]]:
    """(reason, rule ID) for each claim of the end line the replay's last state ``s`` denies: the
    game must be over (E1, E2) with the coins (E3) and winners (E4) the record claims."""
    if rec.end is None:
        return []
    if s.phase == Phase.CHANCE:
        return [(f"the record ends where a reshuffle is due ({where(s)})", "E1")]
    if s.phase != Phase.OVER:
        return [(f"the record claims an end but the game is not over: {where(s)}", "E2")]
    out = []
    claimed = list(rec.end["coins"])
    if claimed != list(scores(s)):
        out.append((f"the record claims coins {claimed} but the replay gives {list(scores(s))}", "E3"))
    if "winners" in rec.end and list(rec.end["winners"]) != list(winners(s)):
        out.append((f"the record claims winners {rec.end['winners']} but the rules give "
                    f"{list(winners(s))}", "E4"))
    return out


def replay_steps(rec: Record) -> Iterator[tuple[int, Action, GameState]]:
    """Yield (line, action, state after it); IllegalStep at the first action the rules forbid.
    Bean annotations are not checked here (``records.referee`` does)."""
    s = rec.initial_state()
    for line, action in zip(rec.lines, rec.actions, strict=True):
        try:
            s = apply(s, action)
        except IllegalAction as e:
            raise IllegalStep(line, format_action(action), e) from None
        yield line, action, s
    for reason, rule in end_problems(rec, s)[:1]:
        raise IllegalStep(rec.end_line, "end", reason, rule)


def replay(rec: Record) -> GameState:
    """The state at the end of the record; IllegalStep at the first illegal step."""
    s = rec.initial_state()
    for step in replay_steps(rec):
        s = step[2]
    return s
