"""The fuzz suite: valid inputs made by seeded games, corrupted, and run through the tools that read
them, with oracles that tell a wrong verdict from a right one. It never changes what it tests.

Inputs (every case is reproducible from its id ``SEED-KIND-N``; the base inputs from ``SEED``):

- ``records``: game records of seeded bot games (``play.playout.play_game``, ``records.game``),
  base game and La Isla Bohnita, 2-7 players, several presets and options, whole or cut short;
  run through ``records.referee.check_record`` and, for a sample, the ``--z3`` path of
  scripts/check_record.py (``proofs.referee.spec_replay``; ``proofs.isla.referee.isla_replay`` for
  La Isla Bohnita).
- ``positions``: endgame positions cut from seeded games (``solvers.positions.cut``, made small),
  as state JSON files; run through ``solvers.positions.read_position`` and a tiny bounded solve
  (solo, ``solvers.api.solve``: exact search when the position is small, else CP-SAT for a second).
- ``states``: states of seeded games in every phase (trading with an offer pending, phase 3, the
  duel's steps, reshuffles, the end, Isla ships and attacks) as state JSON files; read, checked by
  ``model.validate.check_state``, then every legal action (at most ``MAX_APPLY``) applied.
- ``options``: a preset, a player count and options; ``model.rules.ruleset``, ``setup``,
  ``new_game`` and a few dozen random legal moves.

Mutations: JSON-level (a key dropped, duplicated or swapped; a type changed: int to float, bool,
string, null, list, or a huge integer written as text; a bool to ``"false"``, 0 or 1; a string to
another name of its kind, an unknown name or a number; a list made longer, shorter, empty or nested
deeply), record lines dropped, duplicated, swapped, cut or added, action notation changed (huge
indices, seats that do not exist such as p9, other verbs, La Isla Bohnita moves in a base game),
and byte-level junk (truncation, random bytes, invalid UTF-8, deep ``[[[[`` nesting, NaN).

Outcomes: ``verdict`` (the tool answered: a record's exit code 0/1/2 and its line, a position or
state accepted or refused with a ``BohnanzaError``), ``crash`` (any other exception: its type and
frames), ``hang`` (no answer within the timeout: cases run in worker processes that are killed
and restarted, so a hang inside Z3 or CP-SAT is caught too) and ``wrong`` (an oracle failed).

The oracles (each sound: it fires only on a verdict the rules or the file formats rule out):

- TYPE: a value replaced by one of another type where the format admits one type only (a record's
  players, version, deck, action, order and end counts; a state's integer fields, flags, phase,
  pending offer, bean lists, field counts and todo codes; an option's bool or count) must be refused
  as malformed (a record: exit 2; a state or position: a ``BohnanzaError`` from reading or
  checking; options: ``RulesetError``). Replacements equal in meaning are exempt: a float with a
  whole value (JSON does not tell 4.0 from 4), and the words the option parser reads on purpose
  (``"true"``, ``"3"``: the command line's spelling), so no oracle is made for them.
- RANGE: a count made negative (a state's counts, a field's count, an end line's coins, a count
  option) must be refused the same way.
- SAME: a change of spelling only (keys reordered, a key repeated with its own value, CRLF line
  ends, blank lines in a record, spaces) must give the verdict of the unchanged input.
- PREFIX: a legal record cut at a line boundary before its end line is legal (a record may stop
  early); a record whose end line's coins or winners are changed is not legal.
- SEAT and EXPANSION: an action naming a seat that does not exist, or an expansion's move in a
  record of a game without it (La Isla Bohnita's in a base game record), is never legal.
- SAY-WHY: a verdict other than legal is one line; an illegal step names its line (within the
  file) and a rule ID.
- EVERY: ``--all`` begins with the plain check's deviation (same line, status, rule ID), each
  deviation is one line and a summary line ends them. The base records include each base game
  with bean annotations on every line and as one seat's engine logs it (unseen cards ``null``,
  conformance/views.py); unknown-card records are searched for 1 s (``undecided`` after it).
- SPEC: a mutated record the engine judges legal is legal for the independent spec (``spec_replay``,
  or ``isla_replay`` for an Isla ruleset it models; a sample); on the ``--z3`` sample both referees
  name the same first illegal line.
- REACH: the unchanged states of seeded games are accepted; an accepted state survives
  ``legal_actions`` and ``apply`` of each listed action without an exception, no listed action is
  refused, and every successor is accepted again (an accepted state the rules cannot reach, or a
  check that refuses a reachable one, shows as a successor refused); the states of an options
  case's game are accepted.
- SOLVE: a solver's answer on an accepted position replays (``verify_line``: no "internal error").
"""

from __future__ import annotations

import copy
import json
import multiprocessing
import os
import random
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from conformance.expansions import EXPANSION_FUZZ, EXPANSION_MOVES
from conformance.views import annotated, public_view
from model import BEAN_NAMES, GameState, Phase, apply, chance_outcome, legal_actions, new_game, ruleset
from model.errors import BohnanzaError
from model.expansions import hooks
from model.rules import OPTION_NAMES, PRESETS, Ruleset, setup
from model.state import state_to_json
from model.validate import check_state
from play.bots import BOTS
from play.playout import playout
from proofs.referee import SpecVerdict, spec_replay
from records.game import Record, header, record_lines
from records.referee import check_record, first_illegal
from schemas.position_io import read_json
from schemas.state_json import state_from_json
from solvers.api import solve
from solvers.contract import SOLO, Limits
from solvers.positions import cut, game_seeds, read_position, small

KINDS = ("records", "positions", "states", "options")
ROOT = Path(__file__).resolve().parent.parent
HUGE = "\x00HUGE\x00"  # written as a 5001-digit integer (10**5000) in the JSON text
HUGE_TEXT = "1" + "0" * 5000
MAX_APPLY = 300  # legal actions applied per accepted state (a trading phase lists thousands)
SPEC_EVERY = 4  # one legal mutated record in SPEC_EVERY is replayed by the spec
Z3_EVERY = 10  # one record case in Z3_EVERY runs the --z3 path
UNKNOWN_SECONDS = 1.0  # the unknown-card search's time limit per record (undecided after it)
MEMORY = 6 << 30  # a worker's address space: a runaway allocation is a MemoryError, not the machine's

# ---------------------------------------------------------------- cases and outcomes


@dataclass(frozen=True)
class Case:
    seed: int
    kind: str
    n: int

    @property
    def id(self) -> str:
        return f"{self.seed}-{self.kind}-{self.n}"

    def rng(self) -> random.Random:
        return random.Random(f"fuzz:{self.id}")


def parse_case(text: str) -> Case:
    """``SEED-KIND-N`` (as printed by the fuzz run) -> Case; ValueError when it is not one."""
    parts = text.rsplit("-", 2)
    if len(parts) != 3 or parts[1] not in KINDS or not parts[2].isdigit():
        raise ValueError(f"{text!r} is not a case like 0-records-17 (kinds: {', '.join(KINDS)})")
    return Case(int(parts[0]), parts[1], int(parts[2]))


@dataclass
class Outcome:
    case: str
    kind: str
    status: str  # verdict, crash, hang or wrong
    text: str  # the verdict line, the exception, or why the verdict is wrong
    where: str = ""  # crash: type and innermost frames; wrong: the oracle; hang: the target
    mutation: str = ""
    seconds: float = 0.0

    def line(self) -> str:
        head = f"{self.status} {self.where}".strip()
        return f"{head}: --case {self.case}: {self.mutation}: {_short(self.text, 160)}"


class Wrong(Exception):
    """An oracle failed: ``oracle`` is its name (module docstring), the message says why."""

    def __init__(self, oracle: str, why: str) -> None:
        super().__init__(why)
        self.oracle = oracle


def _short(text: object, most: int = 120) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= most else text[:most] + "..."


def crash_where(exc: BaseException) -> str:
    """``Type at file:line`` of the innermost frame in this repository (and the innermost frame
    when that is elsewhere, e.g. in the json module)."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if f.filename.startswith(str(ROOT)) and "conformance/fuzz.py" not in f.filename]
    def name(f: traceback.FrameSummary) -> str:
        path = Path(f.filename)
        try:
            return f"{path.relative_to(ROOT)}:{f.lineno}"
        except ValueError:
            return f"{path.parent.name}/{path.name}:{f.lineno}"
    text = type(exc).__name__
    if ours:
        text += f" at {name(ours[-1])}"
    if frames and (not ours or frames[-1] is not ours[-1]):
        text += f" ({name(frames[-1])})"
    return text


# ---------------------------------------------------------------- the base inputs

Game = tuple[str, int, dict[str, Any], str]  # ruleset, players, options, bot
BASE_GAMES: list[Game] = [
    ("rio-grande", 4, {}, "random"), ("rio-grande", 2, {}, "random"), ("rio-grande", 3, {}, "random-trader"),
    ("rio-grande", 5, {}, "greedy"), ("rio-grande", 6, {}, "random-trader"), ("rio-grande", 7, {}, "random"),
    ("rio-grande", 2, {}, "greedy"), ("amigo", 3, {}, "random-trader"), ("amigo", 5, {}, "random"),
    ("amigo-1997", 4, {}, "random-trader"), ("amigo-v1", 3, {}, "random"),
    ("amigo-v2", 4, {}, "random-trader"), ("rio-grande", 4, {"distinct_fields": True}, "random"),
    ("rio-grande", 4, {"harvest": "strict"}, "random-trader"), ("rio-grande", 4, {"quick": True}, "random"),
    ("rio-grande", 5, {"tie_break": "seat", "max_offers": 3}, "random-trader"),
    ("rio-grande", 4, {"reshuffle": "on-demand"}, "random-trader"),  # E1's other reading
    ("rio-grande", 2, {"reshuffle": "on-demand"}, "greedy"),
]


def _merged(base: list[Game], placed: list[tuple[int, Game]]) -> list[Game]:
    """The base games with each expansion's own at its place in the run's order (a game's seed is
    drawn in that order, so a case keeps its id as games are added)."""
    out = list(base)
    for place, game in sorted(placed, key=lambda pg: pg[0]):
        out.insert(place, game)
    return out


GAMES: list[Game] = _merged(BASE_GAMES, [g for x in EXPANSION_FUZZ.values() for g in x.GAMES])
CUTS: list[tuple[str, int, int, int]] = [  # ruleset, players, cards left, hand size after small()
    ("rio-grande", 3, 8, 2), ("rio-grande", 4, 8, 1), ("rio-grande", 5, 10, 2), ("amigo", 3, 8, 2),
    ("amigo", 4, 8, 1), ("rio-grande", 2, 6, 2), ("amigo-v1", 4, 8, 1), ("rio-grande", 4, 40, 3),
]


@dataclass
class BaseRecord:
    name: str
    lines: list[str]  # JSON text of each line: header, actions, end
    expansion: bool  # an expansion is played
    players: int


@dataclass
class Pools:
    records: list[BaseRecord] = field(default_factory=list)
    states: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    positions: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


def _game(name: str, n: int, options: dict[str, Any], bot: str, seed: int) -> tuple[Ruleset, GameState,
                                                                                   list[Any], list[Any]]:
    rules = ruleset(name, options)
    s0 = new_game(rules, n, seed)
    states, actions = [], []
    for s, a in playout(s0, BOTS[bot], random.Random(seed)):
        states.append(s)
        if a is not None:
            actions.append(a)
    return rules, s0, states, actions


@cache
def pools(seed: int) -> Pools:
    """The valid inputs every case of run ``seed`` starts from."""
    out = Pools()
    rng = random.Random(f"fuzz-pools:{seed}")
    for name, n, options, bot in GAMES:
        game_seed = rng.randrange(10**6)
        rules, s0, states, actions = _game(name, n, options, bot, game_seed)
        label = f"{name} {n}p {options or ''} {bot} seed {game_seed}".replace("  ", " ")
        text = record_lines(header(s0, [bot] * n, seed=game_seed), actions, states[-1])
        played = bool(rules.expansion)
        out.records.append(BaseRecord(label, text.splitlines(), played, n))
        if not played:  # the same game annotated, and as one seat's engine logs it (unseen: null)
            out.records += _views(label, text.splitlines(), states, actions, n, rng.randrange(n))
        by_phase: dict[Phase, list[GameState]] = {}
        for s in states:
            by_phase.setdefault(s.phase, []).append(s)
        for phase, group in sorted(by_phase.items()):
            picked = [group[0], group[-1]] + rng.sample(group, min(4, len(group)))
            if phase == Phase.TRADE:  # offers pending and Isla attacks are rare: take them all
                picked += [s for s in group if s.pending is not None][:4]
                picked += [s for s in group if hooks(s.setup).blocked(s)][:3]
            for s in dict.fromkeys(picked):
                out.states.append((f"{label} {phase.name.lower()} turn {s.turn}", state_to_json(s)))
    seeds = game_seeds(seed)
    for name, n, left, hand in CUTS:
        for _ in range(3):
            game_seed = next(seeds)
            try:
                s = cut(name, n, game_seed, left)
            except BohnanzaError:
                continue
            s = small(s, hand, 6) if left <= 10 else s
            out.positions.append((f"cut {name} {n}p seed {game_seed} left {left}", state_to_json(s)))
            out.states.append((f"cut {name} {n}p seed {game_seed}", state_to_json(s)))
    return out


def _views(label: str, lines: list[str], states: list[GameState], actions: list[Any], n: int,
           seat: int) -> list[BaseRecord]:
    """The record of a game with bean annotations on every line, and the public view of ``seat``
    (conformance/views.py): both legal, so PREFIX and SAME hold for them too."""
    before = _states_before(states, actions)
    head, end = json.loads(lines[0]), lines[-1] if lines[-1].startswith('{"end"') else None
    tail = [end] if end is not None else []
    notes = [dumps(x) for x in annotated(before, actions)]
    public = [dumps(x) for x in public_view(head, before, actions, seat)]
    return [BaseRecord(f"{label} annotated", [lines[0], *notes, *tail], False, n),
            BaseRecord(f"{label} seen by p{seat}", [*public, *tail], False, n)]


def _states_before(states: list[GameState], actions: list[Any]) -> list[GameState]:
    """The state before each action and after the last, replayed (the playout's list may hold
    states the record has no line for)."""
    out = [states[0]]
    for a in actions:
        out.append(apply(out[-1], a))
    return out


# ---------------------------------------------------------------- JSON mutations

JPath = tuple[str | int, ...]


@dataclass
class Mutation:
    """What was changed, and what the oracles require of the verdict (None: nothing)."""

    desc: str
    expect: str | None = None  # "malformed", "same", "not-legal", "legal"
    oracle: str = ""  # the oracle that requires it (module docstring)


def _nodes(obj: Any, path: JPath = ()) -> Iterator[tuple[JPath, Any]]:
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _nodes(v, path + (i,))


def _set(obj: Any, path: JPath, value: Any) -> Any:
    if not path:
        return value
    out = copy.deepcopy(obj)
    node = out
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return out


def _delete(obj: Any, path: JPath) -> Any:
    out = copy.deepcopy(obj)
    node = out
    for k in path[:-1]:
        node = node[k]
    del node[path[-1]]
    return out


def dumps(obj: Any) -> str:
    """JSON text with HUGE written as a 5001-digit integer."""
    return json.dumps(obj, separators=(",", ":")).replace(json.dumps(HUGE), HUGE_TEXT)


PHASE_NAMES = [p.name.lower() for p in Phase]
WORDS = {  # other names of the same kind, for a string replaced by a name that means something else
    "bean": list(BEAN_NAMES) + ["mokka", "Blue", "field "],
    "phase": PHASE_NAMES + ["phase1", "PLANT"],
    "ruleset": list(PRESETS) + ["amigo-2000", ""],
    "other": ["", "x", "p0", "null", "true", "0"],
}


def _word_kind(path: JPath, value: str) -> str:
    if value in BEAN_NAMES:
        return "bean"
    if path[-1:] == ("phase",):
        return "phase"
    if path[-1:] == ("ruleset",):
        return "ruleset"
    return "other"


def type_changes(v: Any, rng: random.Random) -> list[tuple[str, Any, bool]]:
    """(description, new value, equal in meaning?) for replacing ``v`` by another type or value."""
    if isinstance(v, bool):
        return [(f"{v} -> '{str(not v).lower()}'", str(not v).lower(), False),
                (f"{v} -> '{str(v).lower()}'", str(v).lower(), False), (f"{v} -> {int(v)}", int(v), False),
                (f"{v} -> {1 - int(v)}", 1 - int(v), False), (f"{v} -> null", None, False),
                (f"{v} -> [{v}]", [v], False)]
    if isinstance(v, int):
        return [(f"{v} -> {v + 0.5}", v + 0.5, False), (f"{v} -> {float(v)}", float(v), True),
                (f"{v} -> true", True, False), (f"{v} -> false", False, False),
                (f"{v} -> '{v}'", str(v), False), (f"{v} -> null", None, False),
                (f"{v} -> [{v}]", [v], False),
                (f"{v} -> 10**5000", HUGE, False), (f"{v} -> {-1 - v}", -1 - v, False),
                (f"{v} -> {v + 1}", v + 1, False), (f"{v} -> 2**64", 2**64, False),
                (f"{v} -> {{}}", {}, False)]
    if isinstance(v, str):
        other = rng.choice(WORDS[_word_kind((), v)] + WORDS["bean"])
        w = repr(_short(v, 30))
        return [(f"{w} -> {other!r}", other, other == v), (f"{w} -> 3", 3, False),
                (f"{w} -> null", None, False), (f"{w} -> [{w}]", [v], False),
                (f"{w} -> true", True, False), (f"{w} -> 10**5000", HUGE, False)]
    if isinstance(v, list):
        out: list[tuple[str, Any, bool]] = [("list -> []", [], not v), ("list -> null", None, False),
                                            ("list -> 'x'", "x", False), ("list -> {}", {}, False),
                                            ("list nested 60 deep", _deep(v, 60), False)]
        if v:
            i = rng.randrange(len(v))
            out += [(f"list longer (item {i} twice)", v[:i + 1] + v[i:], False),
                    (f"list shorter (item {i} dropped)", v[:i] + v[i + 1:], False)]
        return out
    if isinstance(v, dict):
        return [("object -> []", [], False), ("object -> null", None, False), ("object -> 'x'", "x", False)]
    return [("null -> 0", 0, False), ("null -> 'x'", "x", False), ("null -> []", [], False),
            ("null -> {}", {}, False)]


def _deep(v: Any, depth: int) -> Any:
    for _ in range(depth):
        v = [v]
    return v


def mutate_json(obj: Any, rng: random.Random, strict: Callable[[JPath, Any, Any], str | None]
                ) -> tuple[Any, Mutation]:
    """One change somewhere in ``obj``: a value's type or value, a key dropped, added or swapped.
    ``strict(path, old, new)`` names the oracle that requires a refusal (None: no oracle)."""
    nodes = list(_nodes(obj))
    roll = rng.random()
    if roll < 0.12:
        objects = [(p, v) for p, v in nodes if isinstance(v, dict) and v]
        path, node = rng.choice(objects)
        key = rng.choice(list(node))
        return _delete(obj, path + (key,)), Mutation(f"{_where(path + (key,))} dropped")
    if roll < 0.18:
        objects = [(p, v) for p, v in nodes if isinstance(v, dict) and len(v) >= 2]
        if objects:
            path, node = rng.choice(objects)
            a, b = rng.sample(list(node), 2)
            new = dict(node)
            new[a], new[b] = node[b], node[a]
            return _set(obj, path, new), Mutation(f"{_where(path)}: values of {a} and {b} swapped")
    if roll < 0.22:
        objects = [(p, v) for p, v in nodes if isinstance(v, dict)]
        path, node = rng.choice(objects)
        new = dict(node)
        new[rng.choice(["extra", "Players", "seed", "x" * 3])] = rng.choice([0, "x", None, []])
        return _set(obj, path, new), Mutation(f"{_where(path)}: an unknown key added")
    path, old = rng.choice(nodes[1:] or nodes)
    desc, new, same = rng.choice(type_changes(old, rng))
    mutated = _set(obj, path, new)
    oracle = None if same or new == old and type(new) is type(old) else strict(path, old, new)
    return mutated, Mutation(f"{_where(path)}: {desc}", "malformed" if oracle else None, oracle or "")


def _where(path: JPath) -> str:
    out = ""
    for k in path:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out or "(top)"


def _is_type_change(old: Any, new: Any) -> bool:
    """A value of another JSON type (bool, integer, non-whole number, string, list, object, null),
    or the huge integer; a whole float is the same number as the integer (JSON)."""
    def kind(x: Any) -> str:
        if x is None:
            return "null"
        if isinstance(x, bool):
            return "bool"
        if isinstance(x, int):
            return "int"
        if isinstance(x, float):
            return "int" if x.is_integer() else "float"
        return type(x).__name__
    return new == HUGE or kind(old) != kind(new)


# ---------------------------------------------------------------- byte-level junk


def junk(text: str, rng: random.Random) -> tuple[bytes, str]:
    """Bytes of ``text`` corrupted: cut, random bytes, invalid UTF-8, deep nesting or NaN."""
    data = text.encode()
    roll = rng.randrange(8)
    if roll == 0:
        k = rng.randrange(len(data) + 1)
        return data[:k], f"cut at byte {k} of {len(data)}"
    if roll == 1:
        k = rng.randrange(len(data) + 1)
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12)))
        return data[:k] + noise + data[k:], f"{len(noise)} random bytes at {k}"
    if roll == 2:
        k = rng.randrange(len(data) + 1)
        return data[:k] + b"\xff\xfe\xc3" + data[k:], f"invalid UTF-8 at {k}"
    if roll == 3:
        depth = rng.choice([100, 3000, 100000])
        closed = rng.random() < 0.5
        nest = "[" * depth + ("]" * depth if closed else "")
        k = text.find(":") + 1 if ":" in text else 0
        return (text[:k] + nest + text[k:]).encode(), f"{depth} nested lists {'closed' if closed else 'open'}"
    if roll == 4:
        spots = [i for i in range(1, len(text)) if text[i].isdigit() and text[i - 1] in ":,["]
        if spots:
            k = rng.choice(spots)
            end = k
            while end < len(text) and text[end].isdigit():
                end += 1
            word = rng.choice(["NaN", "Infinity", "-Infinity"])
            return (text[:k] + word + text[end:]).encode(), f"number at {k} -> {word}"
    if roll == 5:
        return b"", "empty file"
    if roll == 6:
        return b"\xef\xbb\xbf" + data, "UTF-8 byte order mark"
    k = rng.randrange(len(data) + 1)
    return data[:k] + b"\x00" + data[k:], f"NUL byte at {k}"


# ---------------------------------------------------------------- records

VERBS = ["plant", "harvest", "buy", "end", "offer", "accept", "decline", "discard", "sail", "sell", "move",
         "attack", "yield", "reshuffle", "chance"]
RECORD_STRICT_INT = {"players", "version"}
BOOL_OPTIONS = {"quick", "distinct_fields", "draw_each", "field_beans", "third_field"} | {
    o for x in EXPANSION_FUZZ.values() for o in x.BOOL_OPTIONS}
INT_OPTIONS = {"min_players", "max_players", "max_offers", "max_deal_cards", "fields", "hand",
               "face_up", "draw", "exhaustions", "third_field_cost"} | {
    o for x in EXPANSION_FUZZ.values() for o in x.INT_OPTIONS}


def _option_strict(key: str, old: Any, new: Any) -> str | None:
    """TYPE/RANGE for one option value: the option parser reads bools and whole numbers, and the
    words ``true``/``false``, digits, ``table``, ``auto`` and ``null`` by design (no oracle)."""
    if isinstance(new, str) or new is None:
        return None
    if key in BOOL_OPTIONS and not isinstance(new, bool):
        return "TYPE"
    if key in INT_OPTIONS:
        if isinstance(new, bool) or isinstance(new, (list, dict)) or (
                isinstance(new, float) and not new.is_integer()):
            return "TYPE"
        if isinstance(new, int) and new < 0:
            return "RANGE"
    return None


def record_strict(path: JPath, old: Any, new: Any) -> str | None:
    """TYPE and RANGE for a record (``path`` starts with the line's role: header, action, chance or end)."""
    role, rest = path[0], path[1:]
    unseen = len(rest) == 2 and rest[0] in ("deck", "order") or len(rest) == 3 and rest[0] == "hands"
    if new is None and unseen:
        return None  # a card the writer did not see (records/unknown.py)
    if role in ("action", "chance") and rest[:1] and rest[0] in ("bean", "give", "take", "up", "hands"):
        return "TYPE" if _is_type_change(old, new) and len(rest) <= 2 + (rest[0] == "hands") else None
    if role == "header":
        if rest in (("players",), ("version",), ("format",), ("deck",)) \
                or len(rest) == 2 and rest[0] == "deck":
            return "TYPE" if _is_type_change(old, new) else None
        if len(rest) == 2 and rest[0] == "options" and isinstance(rest[1], str):
            return _option_strict(rest[1], old, new)
        return None
    if role == "action" and rest == ("action",):
        return "TYPE" if _is_type_change(old, new) else None
    if role == "chance" and (rest in (("chance",), ("order",)) or (len(rest) == 2 and rest[0] == "order")):
        return "TYPE" if _is_type_change(old, new) else None
    if role == "end":
        if rest in (("end",), ("end", "coins")) or (len(rest) == 3 and rest[1] in ("coins", "winners")):
            if _is_type_change(old, new):
                return "TYPE"
            if len(rest) == 3 and isinstance(new, int) and new < 0:
                return "RANGE"
    return None


def _role(obj: Any, k: int) -> str:
    if k == 0:
        return "header"
    if isinstance(obj, dict):
        for role in ("action", "chance", "end"):
            if role in obj:
                return role
    return "other"


def mutate_notation(text: str, rng: random.Random, players: int, expansion: bool) -> tuple[str, Mutation]:
    """One change to an action's notation: a huge index, a seat that does not exist, another verb,
    an expansion's move, a word dropped or added."""
    words = text.split()
    roll = rng.randrange(6)
    if roll == 0:
        spots = [i for i, w in enumerate(words) if any(c.isdigit() for c in w)]
        if spots:
            i = rng.choice(spots)
            digits = rng.choice([10, 30, 5000])
            w = words[i]
            k = next(j for j, c in enumerate(w) if c.isdigit())
            words[i] = w[:k] + "9" * digits
            return " ".join(words), Mutation(f"index {digits} digits long in {_short(text, 40)!r}",
                                             "malformed", "TYPE")
    if roll == 1 and words and words[0].startswith("p"):
        seat = rng.choice([players, 9, 99])
        spots = [i for i, w in enumerate(words) if w.startswith("p") and w[1:].isdigit()]
        i = rng.choice(spots) if spots else 0
        words[i] = f"p{seat}"
        return " ".join(words), Mutation(f"seat p{seat} in {_short(text, 40)!r}", "not-legal", "SEAT")
    if roll == 2 and not expansion:  # an expansion's move in a game without it
        move = rng.choice(EXPANSION_MOVES).format(p=rng.randrange(players), q=rng.randrange(players))
        return move, Mutation(f"expansion move {move!r} for {_short(text, 40)!r}", "not-legal", "EXPANSION")
    if roll == 3 and len(words) >= 2:
        words[1] = rng.choice(VERBS)
        return " ".join(words), Mutation(f"verb -> {words[1]!r} in {_short(text, 40)!r}")
    if roll == 4 and words:
        del words[rng.randrange(len(words))]
        return " ".join(words), Mutation(f"a word dropped from {_short(text, 40)!r}")
    i = rng.randrange(len(words) + 1)
    words.insert(i, rng.choice(["h0", "u1", "0", "red", "p1", "give", "ask", "h0,h0", "-1", "+1", "²"]))
    return " ".join(words), Mutation(f"a word added to {_short(text, 40)!r}")


def make_record(case: Case) -> tuple[bytes, Mutation, BaseRecord, int]:
    """The corrupted record file of ``case``: its bytes, the mutation, the base record and the number
    of its lines kept."""
    rng = case.rng()
    base = rng.choice(pools(case.seed).records)
    lines = list(base.lines)
    if rng.random() < 0.5:  # a legal record cut short (no end line): PREFIX keeps it legal
        lines = lines[:rng.randrange(1, len(lines))]
    kept = len(lines)
    has_end = lines[-1].startswith('{"end"')
    roll = rng.random()
    if roll < 0.08:
        data, desc = junk("\n".join(lines) + "\n", rng)
        return data, Mutation(desc), base, kept
    if roll < 0.14:
        return _same_record(lines, rng), Mutation("spelling only", "same", "SAME"), base, kept
    if roll < 0.26:
        k = rng.randrange(len(lines))
        op = rng.randrange(4)
        if op == 0:
            cut = rng.randrange(1, len(lines) + 1)
            out = lines[:cut]
            if has_end and cut < len(lines):
                return _text(out), Mutation(f"cut after line {cut}", "legal", "PREFIX"), base, kept
            return _text(out), Mutation(f"cut after line {cut}"), base, kept
        if op == 1:
            return _text(lines[:k] + lines[k + 1:]), Mutation(f"line {k + 1} dropped"), base, kept
        if op == 2:
            return _text(lines[:k + 1] + lines[k:]), Mutation(f"line {k + 1} twice"), base, kept
        j = rng.randrange(len(lines))
        out = list(lines)
        out[k], out[j] = out[j], out[k]
        return _text(out), Mutation(f"lines {k + 1} and {j + 1} swapped"), base, kept
    if roll < 0.34 and has_end:  # the end line: PREFIX, TYPE and RANGE
        k = len(lines) - 1
    elif roll < 0.44:  # the header
        k = 0
    else:
        k = rng.randrange(len(lines))
    obj = json.loads(lines[k])
    role = _role(obj, k)
    if role == "end" and roll < 0.30:
        key = "coins" if rng.random() < 0.7 or not obj["end"].get("winners") else "winners"
        values = list(obj["end"][key])
        i = rng.randrange(len(values))
        values[i] = values[i] + rng.choice([1, 2]) if key == "coins" or values[i] == 0 else values[i] - 1
        obj["end"][key] = values
        lines[k] = json.dumps(obj, separators=(",", ":"))
        return _text(lines), Mutation(f"end.{key}[{i}] changed", "not-legal", "PREFIX"), base, kept
    if role == "action" and roll < 0.72:
        new_text, m = mutate_notation(obj["action"], rng, base.players, base.expansion)
        obj["action"] = new_text
        lines[k] = json.dumps(obj, separators=(",", ":"))
        return _text(lines), Mutation(f"line {k + 1}: {m.desc}", m.expect, m.oracle), base, kept
    new, m = mutate_json(obj, rng, lambda p, o, n: record_strict((role,) + p, o, n))
    lines[k] = dumps(new)
    return _text(lines), Mutation(f"line {k + 1} ({role}): {m.desc}", m.expect, m.oracle), base, kept


def _text(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def _same_record(lines: list[str], rng: random.Random) -> bytes:
    """The same record spelled otherwise: CRLF, blank lines, spaces, keys reordered or repeated."""
    out = []
    for raw in lines:
        obj = json.loads(raw)
        items = list(obj.items())
        if rng.random() < 0.3:
            rng.shuffle(items)
        text = "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in items)
        if items and rng.random() < 0.2:
            k, v = rng.choice(items)
            text = "{" + f"{json.dumps(k)}: {json.dumps(v)}, " + text[1:]  # the same key twice, same value
        out.append(text + "}")
        if rng.random() < 0.1:
            out.append("   ")
    return ("\r\n" if rng.random() < 0.5 else "\n").join(out).encode() + b"\n"


def run_record(case: Case, workdir: str) -> Outcome:
    data, m, base, kept = make_record(case)
    path = os.path.join(workdir, f"{case.id}.jsonl")
    Path(path).write_bytes(data)
    verdict = check_record(path, time_limit=UNKNOWN_SECONDS)
    code, text = verdict.code, verdict.text()
    _every_agrees(verdict, check_record(path, every=True, time_limit=UNKNOWN_SECONDS))
    base_verdict = None
    if m.expect == "same":
        base_path = os.path.join(workdir, f"{case.id}.base.jsonl")
        Path(base_path).write_bytes(_text(base.lines[:kept]))
        base_verdict = check_record(base_path, time_limit=UNKNOWN_SECONDS)
        os.unlink(base_path)
    _record_oracles(verdict, m, base_verdict, data)
    rng = random.Random(f"fuzz-spec:{case.id}")
    rec = verdict.record
    if rec is not None and not rec.unknown and _spec_covers(rec):
        if case.n % Z3_EVERY == 0:
            _z3_agrees(verdict)
        elif code == 0 and rng.randrange(SPEC_EVERY) == 0:
            spec = _spec_replay(rec)
            if not spec.legal:
                raise Wrong("SPEC", f"the engine judges it legal, the spec says line {spec.line}: "
                                    f"{spec.action}: {spec.reason}")
    os.unlink(path)
    return Outcome(case.id, case.kind, "verdict", f"exit {code}: {text.replace(path, 'RECORD')}",
                   mutation=m.desc)


def _record_oracles(verdict: Any, m: Mutation, base: Any, data: bytes) -> None:
    code, text = verdict.code, verdict.text()
    if "\n" in text or not text.strip():
        raise Wrong("SAY-WHY", f"the verdict is not one line: {text!r}")
    if verdict.status == "illegal":
        lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
        if not verdict.rule or not verdict.line or not 1 <= verdict.line <= lines:
            raise Wrong("SAY-WHY", f"an illegal step without a line in the file or a rule ID: {text}")
    if m.expect == "malformed" and code != 2:
        raise Wrong(m.oracle, f"a value of the wrong type or range was read: exit {code}, not 2 (malformed)")
    if m.expect == "not-legal" and code == 0:
        raise Wrong(m.oracle, "judged legal")
    if m.expect == "legal" and code != 0:
        raise Wrong(m.oracle, f"a legal record cut short is judged exit {code}")
    if m.expect == "same" and base is not None:
        if (code, verdict.line, verdict.rule) != (base.code, base.line, base.rule):
            raise Wrong("SAME", f"the same record spelled otherwise: exit {code} line {verdict.line}, "
                                f"the original exit {base.code} line {base.line}")


def _every_agrees(first: Any, every: Any) -> None:
    """EVERY: ``--all`` starts where the plain check stops: its first deviation is the plain verdict
    (the same line, status and rule), each deviation is one line, and a summary line ends them."""
    if first.status in ("illegal", "desync") and first.unknown is None:
        d = every.deviations[0] if every.deviations else None
        if d is None or (d.line, d.kind, d.rule) != (first.line, first.status, first.rule):
            raise Wrong("EVERY", f"--all begins with {d} but the plain check says line {first.line} "
                                 f"{first.status} [{first.rule}]")
    elif every.status != first.status:
        raise Wrong("EVERY", f"--all says {every.status}, the plain check {first.status}")
    out = every.lines()
    if any("\n" in x or not x.strip() for x in out):
        raise Wrong("EVERY", f"a line of --all is not one line: {out!r}")
    if every.deviations and every.unknown is None and len(out) != len(every.deviations) + 1:
        raise Wrong("EVERY", f"{len(every.deviations)} deviations but {len(out)} lines")


def _spec_covers(rec: Record) -> bool:
    """Does a spec model this record's ruleset (every base one; an expansion's, as its spec says)?"""
    part = EXPANSION_FUZZ.get(rec.rules.expansion)
    return part is None or part.spec_covers(rec)


def _spec_replay(rec: Record) -> SpecVerdict:
    """The --z3 referee: the base game's spec, or the expansion's for its records."""
    part = EXPANSION_FUZZ.get(rec.rules.expansion)
    return spec_replay(rec) if part is None else part.spec_replay(rec)


def _z3_agrees(verdict: Any) -> None:
    """scripts/check_record.py --z3: both referees name the same first illegal line."""
    spec = _spec_replay(verdict.record)
    engine_line = first_illegal(verdict.record)
    if spec.line != engine_line:
        said = f"line {engine_line}" if engine_line else "legal"
        theirs = f"line {spec.line}: {spec.action}: {spec.reason}" if spec.line else "legal"
        raise Wrong("SPEC", f"the referees disagree: engine {said}, spec {theirs}")


# ---------------------------------------------------------------- states and positions

STATE_INTS = {"active": 0, "to_move": -1, "planted": 0, "first_field": -1, "offers": 0, "exhaustions": 0,
              "resume": 0, "turn": 0}
BEAN_LISTS = {"draw", "discard", "face_up", "out", "hand", "coins", "aside"}


def state_strict(path: JPath, old: Any, new: Any) -> str | None:
    """TYPE and RANGE for a state JSON object (the format of model/state.py)."""
    if not path or path[0] in EXPANSION_FUZZ:  # an expansion's own part
        return None
    key = path[-1]
    if len(path) == 1 and key in STATE_INTS:
        if _is_type_change(old, new):
            return "TYPE"
        low = STATE_INTS[key]
        return "RANGE" if isinstance(new, int) and not isinstance(new, bool) and new < low else None
    if len(path) == 1 and key in ("final", "format", "version", "phase", "ruleset", "players", "todo") \
            or len(path) == 1 and key in BEAN_LISTS:
        return "TYPE" if _is_type_change(old, new) else None
    if len(path) == 1 and key == "pending" and old is not None and new is not None:
        return "TYPE" if _is_type_change(old, new) else None
    if len(path) == 2 and path[0] == "todo":
        return "TYPE" if _is_type_change(old, new) else None
    if len(path) == 2 and path[0] == "options" and isinstance(key, str):
        return _option_strict(key, old, new)
    if path[0] == "players":
        rest = path[1:]
        if len(rest) == 3 and rest[1] in BEAN_LISTS:  # a bean name
            return "TYPE" if _is_type_change(old, new) else None
        if len(rest) == 3 and rest[1] == "fields" and new is None:
            return None  # null is an empty field: another position, not a wrong type
        if len(rest) == 1 or len(rest) == 2 and rest[1] in ("hand", "coins", "aside", "fields") \
                or len(rest) == 3 and rest[1] == "fields":
            return "TYPE" if _is_type_change(old, new) else None
        if len(rest) == 4 and rest[1] == "fields" and rest[3] == 1:  # a field's count
            if _is_type_change(old, new):
                return "TYPE"
            return "RANGE" if isinstance(new, int) and new <= 0 else None
        if len(rest) == 4 and rest[1] == "fields" and rest[3] == 0:
            return "TYPE" if _is_type_change(old, new) else None
    if len(path) == 2 and path[0] in BEAN_LISTS:
        return "TYPE" if _is_type_change(old, new) else None
    return None


def make_state_text(case: Case, source: list[tuple[str, dict[str, Any]]]) -> tuple[bytes, Mutation, str,
                                                                                   dict[str, Any]]:
    rng = case.rng()
    label, obj = rng.choice(source)
    roll = rng.random()
    if roll < 0.06:
        return dumps(obj).encode(), Mutation("unchanged", "accepted", "REACH"), label, obj
    if roll < 0.12:
        items = list(obj.items())
        rng.shuffle(items)
        k, v = rng.choice(items)
        rest = json.dumps(dict(items), indent=rng.choice([None, 1]))[1:]
        text = "{" + f"{json.dumps(k)}: {json.dumps(v)}, " + rest  # the key twice, with its own value
        return text.replace("\n", "\r\n").encode(), Mutation("spelling only", "same", "SAME"), label, obj
    if roll < 0.22:
        data, desc = junk(json.dumps(obj), rng)
        return data, Mutation(desc), label, obj
    if roll < 0.34 and obj.get("pending"):
        played = any(x in obj for x in EXPANSION_FUZZ)  # the state JSON's part of an expansion
        new_text, m = mutate_notation(obj["pending"], rng, len(obj["players"]), played)
        expect = "rejected" if m.oracle else None  # a huge index, no such seat, not an offer (T3)
        change = Mutation(f"pending: {m.desc}", expect, m.oracle)
        return dumps({**obj, "pending": new_text}).encode(), change, label, obj
    new, m = mutate_json(obj, rng, state_strict)
    return dumps(new).encode(), Mutation(m.desc, "rejected" if m.expect == "malformed" else None, m.oracle), \
        label, obj


def run_state(case: Case, workdir: str) -> Outcome:
    data, m, label, base = make_state_text(case, pools(case.seed).states)
    path = os.path.join(workdir, f"{case.id}.json")
    Path(path).write_bytes(data)
    try:
        s = state_from_json(read_json(path))
        check_state(s)
    except BohnanzaError as e:
        if m.expect in ("accepted", "same"):
            raise Wrong(m.oracle, f"a state of a seeded game ({label}) is refused: {e}") from None
        return Outcome(case.id, case.kind, "verdict", f"refused: {e}".replace(path, "STATE"), mutation=m.desc)
    finally:
        os.unlink(path)
    if m.expect == "rejected":
        raise Wrong(m.oracle, "a value of the wrong type or range was read and the state accepted")
    applied = closure(s, random.Random(case.id))
    return Outcome(case.id, case.kind, "verdict", f"accepted; {applied} actions applied", mutation=m.desc)


def closure(s: GameState, rng: random.Random) -> int:
    """REACH: every listed action (a sample of MAX_APPLY) applies and leads to an accepted state."""
    if s.phase == Phase.OVER:
        return 0
    if s.phase == Phase.CHANCE:
        actions: list[Any] = [chance_outcome(s, rng)]
    else:
        actions = legal_actions(s)
        if not actions:
            raise Wrong("REACH", f"p{s.to_move} is to move in {s.phase.name.lower()} but has no legal action")
        if len(actions) > MAX_APPLY:
            actions = rng.sample(actions, MAX_APPLY)
    for a in actions:
        try:
            t = apply(s, a)
        except BohnanzaError as e:
            raise Wrong("REACH", f"legal_actions lists {a} but apply refuses it: {e}") from None
        try:
            check_state(t)
        except BohnanzaError as e:
            raise Wrong("REACH", f"after {a} the state is refused: {e}") from None
    return len(actions)


def run_position(case: Case, workdir: str) -> Outcome:
    data, m, label, base = make_state_text(case, pools(case.seed).positions)
    path = os.path.join(workdir, f"{case.id}.json")
    Path(path).write_bytes(data)
    try:
        s = read_position(path)
    except BohnanzaError as e:
        if m.expect in ("accepted", "same"):
            raise Wrong(m.oracle, f"a position cut from a seeded game ({label}) is refused: {e}") from None
        return Outcome(case.id, case.kind, "verdict", f"refused: {e}".replace(path, "POSITION"),
                       mutation=m.desc)
    finally:
        os.unlink(path)
    if m.expect == "rejected":
        raise Wrong(m.oracle, "a value of the wrong type or range was read and the position accepted")
    small = len(s.draw) <= 8 and all(len(p.hand) <= 4 for p in s.players)
    method = "exact" if small else "cpsat"
    try:
        sol = solve(s, SOLO, method, limits=Limits(time=1.0, nodes=50_000))
    except BohnanzaError as e:
        if "internal error" in str(e):
            raise Wrong("SOLVE", str(e)) from None
        return Outcome(case.id, case.kind, "verdict", f"accepted; solo {method}: {_short(e, 100)}",
                       mutation=m.desc)
    return Outcome(case.id, case.kind, "verdict", f"accepted; solo {method} {sol.value}", mutation=m.desc)


# ---------------------------------------------------------------- options

SAFE_OPTIONS: dict[str, list[Any]] = {
    "tie_break": ["hand", "seat", "none"], "harvest": ["lenient", "strict"], "quick": [True, False],
    "reshuffle": ["at-exhaustion", "on-demand"],
    "distinct_fields": [True, False], "draw_each": [True, False], "max_offers": [0, 1, 3, 10],
    "max_deal_cards": [0, 1, 2], "fields": [None, 2, 3], "third_field": [None, True, False],
    "third_field_cost": [None, 1, 3], "hand": [None, 3, 5], "face_up": [None, 1, 2, 3],
    "draw": [None, 1, 2, 3],
    "exhaustions": [None, 1, 2, 3],
    "meters": [{}, {"cocoa": "1/3/4/-"}], "removed": [None, ["cocoa"], "cocoa,garden"],
    **{k: v for x in EXPANSION_FUZZ.values() for k, v in x.SAFE_OPTIONS.items()},  # sampled sorted
}


def make_options(case: Case) -> tuple[str, int, dict[str, Any], Mutation]:
    rng = case.rng()
    name = rng.choice(list(PRESETS))
    rules = PRESETS[name]
    players = rng.randint(rules.min_players, rules.max_players)
    options = {k: rng.choice(v) for k, v in rng.sample(sorted(SAFE_OPTIONS.items()), rng.randrange(4))}
    roll = rng.random()
    if roll < 0.1:
        return name, players, options, Mutation("valid options")
    if roll < 0.2:
        key = rng.choice(["unknown", "Quick", "max-offers", "name", "face up"])
        options[key] = True
        expect = None if key == "max-offers" else "malformed"
        return name, players, options, Mutation(f"option {key!r}", expect, "TYPE" if expect else "")
    if roll < 0.28:
        other = rng.choice(["amigo-2000", "", "RIO-GRANDE", "rio_grande"])
        return other, players, options, Mutation(f"ruleset {other!r}", "malformed", "TYPE")
    if roll < 0.36:
        n = rng.choice([0, 1, 8, 9, -1, 2**64])
        return name, n, options, Mutation(f"{n} players")
    key = rng.choice(sorted(OPTION_NAMES))
    value = options.get(key, rules.options()[key])
    desc, new, same = rng.choice(type_changes(value, rng))
    if new == HUGE:
        new = 10**5000
    oracle = None if same else _option_strict(key, value, new)
    options[key] = new
    change = Mutation(f"option {key}: {desc}", "malformed" if oracle else None, oracle or "")
    return name, players, options, change


def run_options(case: Case, workdir: str) -> Outcome:
    name, players, options, m = make_options(case)
    try:
        rules = ruleset(name, options)
        setup(rules, players)
        s = new_game(rules, players, case.n)
    except BohnanzaError as e:
        return Outcome(case.id, case.kind, "verdict", f"refused: {_short(e, 200)}", mutation=m.desc)
    if m.expect == "malformed":
        raise Wrong(m.oracle, "an option value of the wrong type or range was read")
    rng = random.Random(case.id)
    steps = 0
    for steps in range(60):  # noqa: B007 (steps: how far the game went)
        try:
            check_state(s)
        except BohnanzaError as e:
            raise Wrong("REACH", f"a state of the game (step {steps}) is refused: {e}") from None
        if s.phase == Phase.OVER:
            break
        if s.phase == Phase.CHANCE:
            s = apply(s, chance_outcome(s, rng))
            continue
        acts = legal_actions(s, proposals=rng.random() < 0.2 and s.setup.rules.max_deal_cards <= 2)
        if not acts:
            raise Wrong("REACH", f"p{s.to_move} is to move in {s.phase.name.lower()} but has no legal action")
        s = apply(s, acts[rng.randrange(len(acts))])
    return Outcome(case.id, case.kind, "verdict", f"accepted; {steps} steps played", mutation=m.desc)


# ---------------------------------------------------------------- running cases

RUNNERS: dict[str, Callable[[Case, str], Outcome]] = {
    "records": run_record, "positions": run_position, "states": run_state, "options": run_options,
}


def describe(case: Case) -> str:
    """What the case changes (without running it)."""
    if case.kind == "records":
        return make_record(case)[1].desc
    if case.kind in ("states", "positions"):
        pool = pools(case.seed).states if case.kind == "states" else pools(case.seed).positions
        return make_state_text(case, pool)[1].desc
    return make_options(case)[3].desc


def run_case(case: Case, workdir: str) -> Outcome:
    """Run one case; every exception but a ``BohnanzaError`` the target answers with is a crash."""
    t0 = time.perf_counter()
    try:
        out = RUNNERS[case.kind](case, workdir)
    except Wrong as w:
        out = Outcome(case.id, case.kind, "wrong", str(w), where=w.oracle, mutation=_safe_describe(case))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 (a crash is what the fuzzer looks for)
        out = Outcome(case.id, case.kind, "crash", f"{type(e).__name__}: {_short(e, 200)}",
                      where=crash_where(e), mutation=_safe_describe(case))
    out.seconds = time.perf_counter() - t0
    return out


def _safe_describe(case: Case) -> str:
    try:
        return describe(case)
    except Exception as e:  # noqa: BLE001 (the description of a crashing case)
        return f"(cannot describe: {type(e).__name__})"


def cases(seed: int, counts: dict[str, int]) -> list[Case]:
    """Every case of a run, kinds interleaved (so each batch mixes fast and slow targets)."""
    out = [Case(seed, kind, n) for kind in KINDS for n in range(counts.get(kind, 0))]
    random.Random(seed).shuffle(out)
    return out


def _worker(conn: Connection, seed: int) -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    except (ImportError, ValueError, OSError):
        pass
    workdir = tempfile.mkdtemp(prefix="fuzz-")
    pools(seed)
    conn.send("ready")
    while True:
        batch = conn.recv()
        if batch is None:
            break
        for text in batch:
            conn.send(run_case(parse_case(text), workdir).__dict__)
    conn.close()


@dataclass
class _Slot:
    proc: Any
    conn: Connection
    batch: list[str] = field(default_factory=list)
    since: float = 0.0
    ready: bool = False
    sent: bool = False  # the batch was sent to this worker


def run_cases(todo: list[Case], workers: int = 2, timeout: float = 5.0, batch: int = 40,
              report: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Run ``todo`` in ``workers`` processes; a case with no answer in ``timeout`` seconds is a hang
    (its worker is killed and a new one takes the rest of its batch)."""
    if not todo:
        return []
    seed = todo[0].seed
    pools(seed)  # built once, inherited by every worker (fork)
    ctx = multiprocessing.get_context("fork")
    queue = [[c.id for c in todo[i:i + batch]] for i in range(0, len(todo), batch)]
    results: list[Outcome] = []
    slots: list[_Slot] = []

    def start() -> _Slot:
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(child, seed), daemon=True)
        proc.start()
        child.close()
        return _Slot(proc, parent, since=time.monotonic())

    def feed(slot: _Slot) -> None:
        if not slot.batch and queue:
            slot.batch, slot.sent = queue.pop(0), False
        if slot.batch and not slot.sent:
            slot.conn.send(slot.batch)
            slot.sent = True
        slot.since = time.monotonic()

    def done(out: Outcome) -> None:
        results.append(out)
        if report is not None:
            report(out)

    try:
        for _ in range(min(workers, len(queue))):
            slots.append(start())
        while slots:
            busy = [s for s in slots if s.batch or not s.ready]
            if not busy:
                break
            ready = wait([s.conn for s in busy], timeout=0.2)
            now = time.monotonic()
            for slot in list(busy):
                if slot.conn in ready:
                    try:
                        msg = slot.conn.recv()
                    except EOFError:  # the worker died (a crash of the interpreter itself)
                        msg = None
                    if msg == "ready":
                        slot.ready = True
                        feed(slot)
                        continue
                    if msg is None:
                        case = slot.batch.pop(0)
                        done(Outcome(case, parse_case(case).kind, "crash", "the worker process died",
                                     where="worker died", mutation=_safe_describe(parse_case(case))))
                        _replace(slots, slot, start)
                        continue
                    done(Outcome(**msg))
                    slot.batch.pop(0)
                    feed(slot)
                elif slot.ready and slot.batch and now - slot.since > timeout:
                    case = slot.batch.pop(0)
                    done(Outcome(case, parse_case(case).kind, "hang", f"no answer in {timeout:g} s",
                                 where=parse_case(case).kind, mutation=_safe_describe(parse_case(case)),
                                 seconds=now - slot.since))
                    _replace(slots, slot, start)
                elif not slot.ready and now - slot.since > 120:
                    raise RuntimeError("a fuzz worker did not start in 120 s")
            for slot in list(slots):
                if slot.ready and not slot.batch and not queue:
                    slot.conn.send(None)
                    slot.proc.join(5)
                    slots.remove(slot)
    finally:  # Ctrl-C, SIGTERM or an error: the workers end now, not when they notice the parent gone
        for slot in slots:
            if slot.proc.is_alive():
                slot.proc.kill()
                slot.proc.join(5)
    return results


def _replace(slots: list[_Slot], slot: _Slot, start: Callable[[], _Slot]) -> None:
    """Kill ``slot``'s worker; a new one takes the rest of its batch once it is ready."""
    slot.proc.kill()
    slot.proc.join(5)
    slot.conn.close()
    new = start()
    new.batch = slot.batch
    slots[slots.index(slot)] = new


def summary(results: list[Outcome], counts: dict[str, int]) -> dict[str, Any]:
    """Counts per kind and outcome, and the groups of crashes, hangs and wrong verdicts."""
    per_kind = {k: {"cases": n, "verdict": 0, "crash": 0, "hang": 0, "wrong": 0}
                for k, n in counts.items() if n}
    groups: dict[tuple[str, str], list[Outcome]] = {}
    for out in sorted(results, key=lambda o: (o.kind, int(o.case.rsplit("-", 1)[1]))):
        per_kind[out.kind][out.status] += 1
        if out.status != "verdict":
            groups.setdefault((out.status, out.where), []).append(out)
    return {"kinds": per_kind, "groups": [
        {"status": status, "where": where, "count": len(group), "cases": [o.case for o in group],
         "example": group[0].line()} for (status, where), group in sorted(groups.items())]}
