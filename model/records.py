"""Game records: JSON Lines that any implementation can write and this engine replays (docs/records.md).

Line 1 is a header (format, version, ruleset and every option, seats, initial deck order, top first);
then one line per action, ``{"action": "p0 plant 1"}``, and one chance line per reshuffle,
``{"chance": "reshuffle", "order": [...]}``. An optional last line ``{"end": {"coins": [...],
"winners": [...]}}`` states the result, which the replay must reproduce. A record may stop early.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from model import jsonio
from model.actions import Action, NotationError, Reshuffle, format_action, parse_action
from model.cards import BEAN_INDEX, BEAN_NAMES
from model.engine import IllegalAction, apply, new_game, scores, winners
from model.errors import BohnanzaError, InputError
from model.rules import Ruleset, ruleset, setup
from model.state import GameState, Phase

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


@dataclass
class Record:
    rules: Ruleset
    players: int
    deck: tuple[int, ...]
    seats: list[str] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)  # source line of each action (1-based)
    end: dict[str, Any] | None = None
    end_line: int = 0
    extra: dict[str, Any] = field(default_factory=dict)  # header keys kept as they are (seed, ...)

    def initial_state(self) -> GameState:
        return new_game(self.rules, self.players, deck=self.deck)


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

    With La Isla Bohnita the two island rows come first (I2)."""
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
    rows = s0.isla.rows[0] + s0.isla.rows[1] if s0.isla is not None else ()
    return rows + tuple(dealt) + s0.draw


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
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=target.suffix or ".tmp")
    os.close(fd)
    try:
        write(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; the file gets the usual permissions
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
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
    shape (``model.schemas.RecordHeader``), then the ruleset, the player count and the deck (S)."""
    from model.schemas import problem

    if head.get("format") != RECORD_FORMAT:
        raise RecordFormatError(no, f"header format must be {RECORD_FORMAT!r}, got {head.get('format')!r}")
    version = head.get("version")
    if type(version) is not int or version != RECORD_VERSION:
        raise RecordFormatError(
            no, f"unsupported format version {version!r}; this engine reads version {RECORD_VERSION}")
    why = problem("record-header", head, "header")
    if why is not None:
        raise RecordFormatError(no, why)
    players = head["players"]
    try:
        rules = ruleset(head["ruleset"], head.get("options", {}))
        su = setup(rules, players)
    except InputError as e:
        raise RecordFormatError(no, str(e)) from None
    deck = _cards(head["deck"])
    if sorted(deck) != sorted(su.deck):
        raise RecordFormatError(
            no, f"header.deck: not the {len(su.deck)} cards of {rules.name} with {players} players "
                f"({len(deck)} given) [S]")
    return Record(rules=rules, players=players, deck=deck, seats=list(head.get("seats", [])),
                  extra={k: v for k, v in head.items() if k not in _HEADER_KEYS})


_HEADER_KEYS = ("format", "version", "ruleset", "options", "players", "seats", "deck")


def parse_record(text: str) -> Record:
    """Read a record; RecordFormatError names the line and what is malformed (not rule breaks).

    Every line is checked against its schema (model/schemas.py) before it is read; keys a line's
    schema does not name are ignored."""
    from model.schemas import line_kind, line_problem

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
                rec.actions.append(parse_action(obj["action"]))
            except NotationError as e:
                raise RecordFormatError(no, f"bad action: {e}") from None
        elif kind == "chance":
            rec.actions.append(Reshuffle(_cards(obj["order"])))
        else:
            rec.end, rec.end_line = obj["end"], no
            continue
        rec.lines.append(no)
    return rec


def read_record(path: str | os.PathLike[str]) -> Record:
    """The record in a file; JSONInputError if it cannot be read, RecordFormatError if malformed."""
    return parse_record(jsonio.read_text(path))


def replay_steps(rec: Record) -> Iterator[tuple[int, Action, GameState]]:
    """Yield (line, action, state after it); IllegalStep at the first action the rules forbid."""
    s = rec.initial_state()
    for line, action in zip(rec.lines, rec.actions, strict=True):
        try:
            s = apply(s, action)
        except IllegalAction as e:
            raise IllegalStep(line, format_action(action), e) from None
        yield line, action, s
    if s.phase == Phase.CHANCE and rec.end is not None:
        raise IllegalStep(rec.end_line, "end", "the record ends where a reshuffle is due", "E1")
    if rec.end is not None:
        if s.phase != Phase.OVER:
            raise IllegalStep(rec.end_line, "end", "the record claims an end but the game is not over", "E2")
        claimed = list(rec.end["coins"])
        if claimed != list(scores(s)):
            raise IllegalStep(rec.end_line, "end",
                              f"the record claims coins {claimed} but the replay gives "
                              f"{list(scores(s))}", "E3")
        if "winners" in rec.end and list(rec.end["winners"]) != list(winners(s)):
            raise IllegalStep(rec.end_line, "end",
                              f"the record claims winners {rec.end['winners']} but the rules give "
                              f"{list(winners(s))}", "E4")


def replay(rec: Record) -> GameState:
    """The state at the end of the record; IllegalStep at the first illegal step."""
    s = rec.initial_state()
    for step in replay_steps(rec):
        s = step[2]
    return s


@dataclass(frozen=True)
class Verdict:
    """The referee's verdict on one record file: ``legal`` (every step replays; ``over`` says whether
    the game ended), ``illegal`` (the first illegal step: line, action, reason, rule ID) or
    ``malformed`` (the file cannot be read as a record)."""

    path: str
    status: str  # "legal", "illegal" or "malformed"
    line: int | None = None
    action: str | None = None
    reason: str = ""
    rule: str = ""
    actions: int = 0
    coins: tuple[int, ...] = ()
    over: bool = False
    winners: tuple[int, ...] = ()
    record: Record | None = None  # parsed, unless malformed

    @property
    def code(self) -> int:
        """The exit code: 0 legal, 1 illegal, 2 malformed."""
        return {"legal": 0, "illegal": 1}.get(self.status, 2)

    def text(self) -> str:
        """One line: ``PATH: legal, ...``, ``PATH:LINE: illegal ACTION: REASON [RULE]`` or the
        reason a file is malformed."""
        if self.status == "malformed":
            return f"{self.path}:{self.line}: malformed record: {self.reason}" if self.line else self.reason
        if self.status == "illegal":
            return f"{self.path}:{self.line}: illegal {self.action}: {self.reason} [{self.rule}]"
        out = f"{self.path}: legal, {self.actions} actions, final coins {list(self.coins)}"
        if self.over:
            return out + f", winners {['p' + str(w) for w in self.winners]}"
        return out + " (game in progress)"

    def summary(self) -> dict[str, object]:
        """The JSON object ``check_record.py --json`` prints (docs/records.md)."""
        if self.status == "malformed":
            if self.line is None:
                return {"record": self.path, "status": "malformed"}
            return {"record": self.path, "status": "malformed", "line": self.line, "reason": self.reason}
        if self.status == "illegal":
            return {"record": self.path, "status": "illegal", "line": self.line, "action": self.action,
                    "reason": self.reason, "rule": self.rule}
        info: dict[str, object] = {"record": self.path, "status": "legal", "actions": self.actions,
                                   "coins": list(self.coins), "over": self.over}
        if self.over:
            info["winners"] = list(self.winners)
        return info


def check_record(path: str) -> Verdict:
    """Referee one record file (docs/records.md): read, parse, replay to its first illegal step."""
    try:
        text = jsonio.read_text(path)
    except jsonio.JSONInputError as e:
        return Verdict(path, "malformed", reason=str(e))
    try:
        rec = parse_record(text)
    except RecordFormatError as e:
        return Verdict(path, "malformed", line=e.line, reason=e.reason)
    state = rec.initial_state()
    count = 0
    try:
        for step in replay_steps(rec):
            state = step[2]
            count += 1
    except IllegalStep as e:
        return Verdict(path, "illegal", e.line, e.action, e.reason, e.rule, record=rec)
    over = state.phase == Phase.OVER
    return Verdict(path, "legal", actions=count, coins=tuple(scores(state)), over=over,
                   winners=tuple(winners(state)) if over else (), record=rec)
