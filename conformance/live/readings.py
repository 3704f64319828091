"""Readings judged by the engine: which documented option values explain another engine's moves.

RULES.md leaves some choices open and the engine offers them as options (docs/rules.md): when the
discard pile is reshuffled (E1), the tie-break (E4), H4 lenient or strict, the starting fields (S)
and the third field's cost (F1). Every reading is judged at the same states, never along the paths
its own bots take (a reading whose bots meet an engine's bug later must not rank first for that):
``collect`` plays our engine alone through the run's seeded games under each reading and keeps the
states where the readings' answers differ (the legal actions, the state after the action played, the
winners at the end; a game's setup, dealt from one deck, for the starting fields); ``judge`` starts
the engine at each such state under each reading (``start`` with the state, or with the deck for a
setup) and compares its legal list, its state after the same action and its winners with ours
under that reading (an engine that cannot start from a state: the state's game replayed from the
deck under the reading). A state where every reading answers alike separates nothing and is not
judged. Two readings are compared at the states judged where they differ: the one the engine agrees
with more often there beats the other; readings are ranked by how many they beat less how many beat
them, then by the states agreed. Readings neither of which beats the other, and that beat as many,
are a tie, with the count of states that would separate them. This module asks the engine only
through ``Engine.ask`` and never plays a game of its bots through it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from conformance.live.client import Engine, EngineFailure
from conformance.live.protocol import Protocol, by_type, by_type_text, choice_of, phase3_seats
from model import (
    BEAN_NAMES,
    Action,
    GameState,
    IllegalAction,
    NotationError,
    Phase,
    Reshuffle,
    apply,
    chance_outcome,
    format_action,
    legal_actions,
    new_game,
    parse_action,
    ruleset,
    scores,
    winners,
)
from model.core import oldest
from model.errors import BohnanzaError
from model.rules import HARVEST_READINGS, RESHUFFLE_READINGS, TIE_BREAKS, setup
from model.state import state_to_json
from play.bots import BOTS
from records.claims import compare_state
from records.game import initial_deck
from schemas.state_json import state_from_json

READINGS: tuple[dict[str, Any], ...] = (
    {}, {"reshuffle": "on-demand"}, {"tie_break": "hand"}, {"tie_break": "seat"}, {"tie_break": "none"},
    {"harvest": "strict"}, {"fields": 2}, {"fields": 3}, {"third_field_cost": 2}, {"third_field_cost": 3},
)
# Every value a declared option may take as a reading (a declared value never hides its alternatives).
VALUES: dict[str, tuple[Any, ...]] = {
    "reshuffle": RESHUFFLE_READINGS, "tie_break": TIE_BREAKS, "harvest": HARVEST_READINGS,
    "fields": (2, 3), "third_field_cost": (2, 3)}
NO_STATE = ("a start from a state (the engine cannot): each state replayed from its game's deck under each "
            "reading (many more engine calls)")
UNEXPLAINED = "unexplained"  # the engine's answer is ours under no reading
STATES = 100  # the states judged by default (--readings-states): each costs about 4 engine calls a reading


@dataclass(frozen=True)
class Reading:
    """One reading: its own values (``own``; none: the presets' own options), the options played
    (``own`` over the values the engine declares), and whether its values are the declared ones."""

    own: tuple[tuple[str, Any], ...]
    options: tuple[tuple[str, Any], ...]
    declared: bool = False

    def label(self) -> str:
        text = " ".join(f"{k}={v}" for k, v in self.own) or "the presets' own options"
        return text + " (declared)" if self.declared else text


def tried(declared: dict[str, Any] | None = None,
          readings: Iterable[dict[str, Any]] = READINGS) -> list[Reading]:
    """The readings to judge: each documented one, and every value of each declared option (the
    declared one marked), each played over the declared values; two that play the same options are
    one (the one naming its values kept)."""
    fixed = dict(declared or {})
    own = [dict(r) for r in readings]
    for k, v in fixed.items():
        own += [{k: w} for w in (*VALUES.get(k, ()), v) if {k: w} not in own]
    out: dict[tuple[tuple[str, Any], ...], Reading] = {}
    for r in own:
        played = tuple(sorted({**fixed, **r}.items()))
        mine = bool(r) and all(fixed.get(k) == v for k, v in r.items())
        if played not in out or not out[played].own:
            out[played] = Reading(tuple(sorted(r.items())), played, mine)
    return list(out.values())


Answer = tuple[frozenset[str], Any, Any]  # legal actions, the next state or "refused", winners


@dataclass
class Point:
    """A state of a game, or its setup (``state`` None: dealt from ``deck``), with the action the
    game played there and our answer under each reading (None where the reading does not apply:
    another number of starting fields than the state's, an option the preset refuses)."""

    game: str
    step: int
    preset: str
    players: int
    state: GameState | None
    action: Action | None
    deck: tuple[int, ...]
    answers: list[Answer | None] = field(default_factory=list)
    path: tuple[tuple[tuple[str, Any], ...], int, str] = ((), 0, "random")  # options, seed, bot of its game

    def differs(self) -> bool:
        seen = [a for a in self.answers if a is not None]
        return any(a != seen[0] for a in seen[1:])


def at(point: Point, reading: Reading) -> GameState | None:
    """The point's state under ``reading`` (its setup dealt under it), or None where it does not
    apply (the preset refuses the options, or another number of starting fields than dealt)."""
    try:
        rules = ruleset(point.preset, dict(reading.options))
        if point.state is None:
            return new_game(rules, point.players, deck=list(point.deck))
        su = setup(rules, point.players)
    except BohnanzaError:
        return None
    if su.fields != point.state.setup.fields:
        return None
    return point.state._replace(setup=su)


def _answer(s: GameState, a: Action | None) -> Answer | None:
    """Our answer at ``s``: the legal actions, the state after ``a`` (the state itself at a setup)
    less its setup (which names the reading), the winners if the game is then over; None where
    the state cannot be under this reading (a draw pile left empty that it would have reshuffled)."""
    legal = frozenset() if s.phase in (Phase.OVER, Phase.CHANCE) else frozenset(
        format_action(x) for x in legal_actions(s, proposals=False))
    if a is None:  # a setup: the state dealt
        return legal, _bare(s), None
    try:
        after = apply(s, a)
    except IllegalAction:
        return legal, "refused", None
    except (IndexError, ValueError):  # a state of another reading this one never reaches (E1)
        return None
    over = winners(after) if after.phase == Phase.OVER else None
    return legal, _bare(after), over


def _bare(s: GameState) -> tuple[Any, ...]:
    """The state less its setup (which names the reading): what two readings' answers compare."""
    return tuple(s)[1:]


def _playout(preset: str, players: int, deck: tuple[int, ...], options: tuple[tuple[str, Any], ...],
             seed: int, bot_name: str, most_steps: int = 5000) -> Iterator[tuple[GameState, Action]]:
    """(state, action) at each step of the game our engine plays from ``deck`` under ``options``
    (the bot and seed of a run's game, a reshuffle at a chance node), to its end."""
    try:
        s = new_game(ruleset(preset, dict(options)), players, deck=list(deck))
    except BohnanzaError:
        return
    bot, rng = BOTS[bot_name], random.Random(seed ^ 0x5EED)
    for _ in range(most_steps):
        if s.phase == Phase.OVER:
            return
        a: Action = chance_outcome(s, rng) if s.phase == Phase.CHANCE else bot(s, rng)
        yield s, a
        s = apply(s, a, bot_name != "random" and s.phase != Phase.CHANCE)


def collect(games: list[tuple[str, str, int, int, str]], readings: list[Reading],
            most_steps: int = 5000) -> tuple[list[Point], int]:
    """(the points where the readings' answers differ, the points seen): the setup of each game
    (label, preset, players, seed, bot) and every state our engine visits playing it under each
    reading (the same bot and seed), each answered under every reading."""
    out: list[Point] = []
    seen: set[tuple[Any, ...]] = set()
    total = 0

    def consider(point: Point, key: tuple[Any, ...]) -> None:
        nonlocal total
        if key in seen:
            return
        seen.add(key)
        total += 1
        for r in readings:
            s = at(point, r)
            point.answers.append(None if s is None else _answer(s, point.action))
        if point.differs():
            out.append(point)

    for label, preset, players, seed, bot_name in games:
        try:
            deck = tuple(initial_deck(new_game(ruleset(preset, dict(readings[0].options)), players, seed)))
        except BohnanzaError:
            continue
        consider(Point(label, 0, preset, players, None, None, deck), ("setup", preset, players, deck))
        for r in readings:
            steps = _playout(preset, players, deck, r.options, seed, bot_name, most_steps)
            for step, (s, a) in enumerate(steps):
                if s.phase != Phase.CHANCE:
                    point = Point(label, step, preset, players, s, a, deck, path=(r.options, seed, bot_name))
                    consider(point, (_bare(s), a))
    return out, total


def chosen(points: list[Point], limit: int) -> list[Point]:
    """At most ``limit`` points, taken in turn from each way the readings part (which readings
    answer alike), so that a rare difference (a tie at the end, E4) is judged beside a common one."""
    ways: dict[tuple[int, ...], list[Point]] = {}
    for p in points:
        classes: list[Answer | None] = []
        way = []
        for a in p.answers:
            if a not in classes:
                classes.append(a)
            way.append(classes.index(a))
        ways.setdefault(tuple(way), []).append(p)
    out: list[Point] = []
    queues = [list(reversed(q)) for q in ways.values()]
    while len(out) < limit and any(queues):
        for q in queues:
            if q and len(out) < limit:
                out.append(q.pop())
    return out


@dataclass
class Judged:
    """The readings judged by the engine: for each reading, the states it was judged at, those the
    engine agrees with it at and those whose start it refused; for each pair, the states judged
    where the two differ and how often the engine agrees with each there."""

    readings: list[Reading]
    seen: int = 0  # points (states and setups) seen in the games
    differing: int = 0  # of them, where the readings' answers differ
    judged: int = 0  # of them, judged by the engine (at most the limit)
    limit: int = STATES
    calls: int = 0  # engine calls made
    agreed: list[int] = field(default_factory=list)
    at: list[int] = field(default_factory=list)
    refused: list[int] = field(default_factory=list)
    unexplained: list[int] = field(default_factory=list)  # states where the answer is no reading's
    apart: dict[tuple[int, int], int] = field(default_factory=dict)  # pair -> differing states seen
    apart_judged: dict[tuple[int, int], tuple[int, int, int]] = field(default_factory=dict)
    unchecked: list[str] = field(default_factory=list)

    def beats(self, i: int, j: int) -> int:
        """1 if at the states judged where readings ``i`` and ``j`` differ the engine agrees with
        ``i`` more often than with ``j``, -1 if less often, 0 if as often (or no such state)."""
        _, x, y = self.apart_judged.get((min(i, j), max(i, j)), (0, 0, 0))
        if i > j:
            x, y = y, x
        return (x > y) - (x < y)

    def score(self, k: int) -> tuple[int, int, int]:
        """Reading ``k``'s score, best first when sorted: the readings it beats less those that beat
        it, each pair judged at the states where the two differ (the same states for both); then the
        most states where the engine agrees, then the fewest where it answers otherwise."""
        net = sum(self.beats(k, j) for j in range(len(self.readings)) if j != k)
        return -net, -self.agreed[k], self.at[k] - self.agreed[k]

    def ranked(self) -> list[int]:
        """The readings' indices, best score first (then fewest starts refused, then as tried)."""
        return sorted(range(len(self.readings)), key=lambda k: (self.score(k), self.refused[k], k))

    def tie(self, i: int, j: int) -> bool:
        """Whether readings ``i`` and ``j`` are a tie: as many readings beaten, and neither beats the
        other where they differ."""
        return self.score(i)[0] == self.score(j)[0] and self.beats(i, j) == 0

    def separating(self, i: int, j: int) -> str:
        """What would separate readings ``i`` and ``j`` (or what does, where they differ)."""
        a, b = self.readings[i].label(), self.readings[j].label()
        n = self.apart.get((min(i, j), max(i, j)), 0)
        if n == 0:
            return f"no state in these games where {a} and {b} differ (more games, --reading-games, may)"
        k, x, y = self.apart_judged.get((min(i, j), max(i, j)), (0, 0, 0))
        if i > j:
            x, y = y, x
        if k == 0:
            return (f"{a} and {b} differ at {_states(n)} of these games, none judged (a larger "
                    "--readings-states may)")
        return (f"{a} and {b} differ at {_states(k)} judged; the engine agrees with {a} at {x}, "
                f"with {b} at {y}")

    def entries(self) -> list[dict[str, Any]]:
        """The ranked readings as --json gives them (``docs/engine-protocol.md``, Readings)."""
        order = self.ranked()
        out = []
        for n, k in enumerate(order):
            tie = n > 0 and self.tie(order[n - 1], k)
            group = [j for j in order if j != k and self.tie(j, k)]
            out.append({"options": dict(self.readings[k].own), "played": dict(self.readings[k].options),
                        "label": self.readings[k].label(), "declared": self.readings[k].declared,
                        "agreed": self.agreed[k], "judged": self.at[k], "refused": self.refused[k],
                        "unexplained": self.unexplained[k] if self.unexplained else 0,
                        "beats": [self.readings[j].label() for j in order if self.beats(k, j) > 0],
                        "tied": tie, "separated_by": {self.readings[j].label(): self.separating(k, j)
                                                      for j in group}})
        return out

    def summary(self) -> dict[str, Any]:
        return {"ranked": self.entries(), "states_seen": self.seen, "states_differing": self.differing,
                "states_judged": self.judged, "limit": self.limit, "engine_calls": self.calls,
                "unchecked": self.unchecked}


def judged_readings(engine: Engine, games: list[tuple[str, str, int, int, str]], protocol: Protocol,
                    limit: int = STATES, tick: Callable[[int], object] | None = None) -> dict[str, Any]:
    """The readings (every value of a declared option too) judged by the engine at the states of
    ``games`` (label, preset, players, seed, bot) where they differ, as --json gives them, with the
    seconds it took."""
    t0 = time.monotonic()
    readings = tried(dict(protocol.options))
    points, seen = collect(games, readings)
    if engine.proc is None:
        engine.open()
    judged = judge(engine, points, readings, protocol, limit, seen, tick)
    return {**judged.summary(), "seconds": round(time.monotonic() - t0, 1)}


def _states(n: int) -> str:
    return f"{n} state{'' if n == 1 else 's'}"


class _Asker:
    """The engine, its calls counted."""

    def __init__(self, engine: Engine) -> None:
        self.engine, self.calls = engine, 0

    def __call__(self, cmd: str, **fields: Any) -> dict[str, Any]:
        self.calls += 1
        return self.engine.ask(cmd, **fields)


def judge(engine: Engine, points: list[Point], readings: list[Reading], protocol: Protocol | None = None,
          limit: int = STATES, seen: int = 0, tick: Callable[[int], object] | None = None) -> Judged:
    """Start the engine at each of at most ``limit`` of ``points`` under each reading that applies
    there and compare its answer with ours under that reading (``Judged``)."""
    out = Judged(readings, seen=seen, differing=len(points), limit=limit, agreed=[0] * len(readings),
                 at=[0] * len(readings), refused=[0] * len(readings), unexplained=[0] * len(readings))
    ask = _Asker(engine)
    protocol = protocol or Protocol()
    from_state = True
    budget = limit * len(readings) * 4  # replays from the deck stop at what starts from a state cost
    stop = False
    for n, p in enumerate(chosen(points, limit)):
        if tick is not None:
            tick(n + 1)
        if stop:
            break
        if p.state is not None and not from_state and ask.calls >= budget:
            note = f"states replayed from the deck past {budget} engine calls (--readings-states {limit})"
            out.unchecked += [] if note in out.unchecked else [note]
            continue
        agrees: dict[int, bool] = {}
        judged = False
        path: list[Action] | None = None
        for k, r in enumerate(readings):
            s = at(p, r)
            if stop or s is None or p.answers[k] is None or not _valid(s):
                continue  # the reading does not reach this state
            verdict: bool | str | None
            try:
                got = _agrees(ask, p, s, protocol) if from_state or p.state is None else "unsupported"
                verdict = _verdict(got, p, k, readings, protocol) if isinstance(got, Replies) else got
                if verdict == "unsupported":
                    if from_state:
                        from_state = False
                        out.unchecked.append(NO_STATE)
                    path = _path(p) if path is None else path
                    verdict = _replayed(ask, p, r, path, protocol)
            except EngineFailure as e:  # one line noted; the engine restarted, the state judged as refused
                out.unchecked.append(f"a state of {p.game}, step {p.step}: {e}")
                verdict = "refused"
                try:
                    engine.open()
                except EngineFailure as again:
                    out.unchecked.append(f"the judging stopped: {again}")
                    stop = True
            if verdict is None:
                continue  # our engine does not play this state's game under the reading
            out.at[k] += 1
            judged = True
            out.refused[k] += verdict == "refused"
            out.agreed[k] += verdict is True
            if verdict == UNEXPLAINED:
                out.unexplained[k] += 1  # a bug of another rule: it separates no reading from another
            else:
                agrees[k] = verdict is True
        out.judged += judged
        for (i, a), (j, b) in ((x, y) for x in agrees.items() for y in agrees.items() if x[0] < y[0]):
            if p.answers[i] != p.answers[j]:
                n, x, y = out.apart_judged.get((i, j), (0, 0, 0))
                out.apart_judged[i, j] = (n + 1, x + a, y + b)
    for p in points:
        for i in range(len(readings)):
            for j in range(i + 1, len(readings)):
                if p.answers[i] is not None and p.answers[j] is not None and p.answers[i] != p.answers[j]:
                    out.apart[i, j] = out.apart.get((i, j), 0) + 1
    out.calls = ask.calls
    return out


@dataclass(frozen=True)
class Replies:
    """What the engine answered at a state: its legal actions (None: not asked or unsupported),
    whether it accepted the action (None: no action), its state after it and its winners."""

    listed: list[str] | None
    accepted: bool | None
    view: dict[str, Any] | None
    result: dict[str, Any] | None


def _agrees(ask: _Asker, p: Point, s: GameState, protocol: Protocol) -> Replies | str:
    """The engine's replies, started at ``s`` (``p`` under one reading) and asked its legal actions,
    the point's action, its state and winners; ``"refused"`` if it does not start there,
    ``"unsupported"`` if it cannot start from a state."""
    if p.state is None:
        reply = ask("start", ruleset=p.preset, options=s.setup.rules.options(), players=p.players,
                    deck=[_name(c) for c in p.deck])
    else:
        reply = ask("start", state=state_to_json(s))
        if "unsupported" in reply:
            return "unsupported"
    if "unsupported" in reply or not reply.get("ok"):
        return "refused"
    return _replies(ask, s, p.action, protocol)


def _replies(ask: _Asker, s: GameState, action: Action | None, protocol: Protocol) -> Replies:
    listed = None
    if s.phase not in (Phase.OVER, Phase.CHANCE):
        reply = ask("legal", proposals=False)
        listed = None if "unsupported" in reply else list(reply["actions"])
    accepted = None
    if action is not None:
        a = by_type(s, action) if protocol.deals == "by-type" else action
        reply = ask("apply", action=format_action(a))
        accepted = None if "unsupported" in reply else bool(reply["accepted"])
        if not accepted:
            return Replies(listed, accepted, None, None)
    reply = ask("state")
    view = None if "unsupported" in reply else reply["state"]
    result = None
    if view is None or view.get("phase") == "over" or s.phase == Phase.OVER or _ends(s, action):
        reply = ask("winners")
        result = None if "unsupported" in reply else reply
    return Replies(listed, accepted, view, result)


def _ends(s: GameState, action: Action | None) -> bool:
    try:
        return action is not None and apply(s, action).phase == Phase.OVER
    except (IllegalAction, IndexError, ValueError):
        return False


def _matches(got: Replies, s: GameState, action: Action | None, protocol: Protocol) -> bool:
    """Whether the engine's replies are ours at ``s`` (one reading's state): its legal actions, its
    acceptance of ``action`` and, after it, its state and winners."""
    if got.listed is not None and s.phase not in (Phase.OVER, Phase.CHANCE) and \
            not _same_list(s, got.listed, protocol):
        return False
    after = s
    if action is not None:
        if got.accepted is None:
            return False
        try:
            after = apply(s, action)
        except IllegalAction:
            return not got.accepted
        except (IndexError, ValueError):
            return False
        if not got.accepted:
            return False
        if protocol.coin_payment == "oldest":
            after = oldest(s, after, getattr(action, "player", 0))
    if got.view is not None and not _same_state(after, got.view):
        return False
    if after.phase == Phase.OVER and got.result is not None:
        coins, best = list(scores(after)), list(winners(after))
        if not got.result["over"] or got.result.get("coins", coins) != coins:
            return False
        if sorted(got.result.get("winners", best)) != best:
            return False
    return True


def _path(p: Point) -> list[Action]:
    """The actions (reshuffles too) that reach point ``p`` in the game it was seen in."""
    options, seed, bot_name = p.path
    steps = _playout(p.preset, p.players, p.deck, options, seed, bot_name, p.step)
    return [a for _, a in steps]


def _replayed(ask: _Asker, p: Point, r: Reading, path: list[Action], protocol: Protocol) -> bool | str | None:
    """``_agrees`` for an engine that cannot start from a state: started from the deck under ``r``,
    the path to ``p`` replayed (an action it refuses that ours allows under ``r``: it disagrees);
    None where our engine under ``r`` does not play that path (the reading never reaches ``p`` so)."""
    try:
        s = new_game(ruleset(p.preset, dict(r.options)), p.players, deck=list(p.deck))
    except BohnanzaError:
        return None
    steps = []
    for a in path:
        if isinstance(a, Reshuffle) != (s.phase == Phase.CHANCE):
            return None
        try:
            after = apply(s, a)
        except (IllegalAction, IndexError, ValueError):
            return None
        steps.append((s, a))
        s = after
    if _answer(s, p.action) is None:
        return None
    reply = ask("start", ruleset=p.preset, options=s.setup.rules.options(), players=p.players,
                deck=[_name(c) for c in p.deck])
    if "unsupported" in reply or not reply.get("ok"):
        return "refused"
    for before, a in steps:
        if isinstance(a, Reshuffle):
            reply = ask("reshuffle", order=[_name(c) for c in a.order])
        else:
            named = by_type(before, a) if protocol.deals == "by-type" else a
            reply = ask("apply", action=format_action(named))
        if "unsupported" in reply or not reply["accepted"]:
            return False
    return _matches(_replies(ask, s, p.action, protocol), s, p.action, protocol)


def _verdict(got: Replies, p: Point, k: int, readings: list[Reading], protocol: Protocol) -> bool | str:
    """True if the engine's replies are ours under reading ``k``; False if not but ours under another
    reading that answers otherwise there (the engine follows that one); ``UNEXPLAINED`` if they are
    ours under no reading (a bug of another rule, as a wrong final harvest where one reading ends the
    game and another does not)."""
    s = at(p, readings[k])
    assert s is not None
    if _matches(got, s, p.action, protocol):
        return True
    for j, r in enumerate(readings):
        other = at(p, r) if p.answers[j] not in (None, p.answers[k]) else None
        if other is not None and _matches(got, other, p.action, protocol):
            return False
    return UNEXPLAINED


def _valid(s: GameState) -> bool:
    """Whether ``s`` is a state the rules allow (docs/state-format.md): what a start may carry."""
    try:
        state_from_json(state_to_json(s))
    except BohnanzaError:
        return False
    return True


def _same_list(s: GameState, actions: list[str], protocol: Protocol) -> bool:
    """Whether the engine's list (proposals left out) is ours at ``s``, less the actions a protocol
    choice explains (docs/engine-protocol.md, "Protocol choices")."""
    typed = protocol.deals == "by-type"
    ours = {format_action(a) for a in legal_actions(s, proposals=False)}
    theirs = {x for x in actions if " offer " not in x}
    if typed:
        ours, theirs = {by_type_text(s, x) for x in ours}, {by_type_text(s, x) for x in theirs}
    for x in theirs - ours:
        try:
            if choice_of(s, parse_action(x), protocol) is None:
                return False
        except NotationError:
            return False
    return ours <= theirs


def _same_state(ours: GameState, view: dict[str, Any]) -> bool:
    seats = phase3_seats(ours)
    return all(d.part == "to_move" and seats and (d.theirs in seats or d.theirs == seats)
               for d in compare_state(ours, view))


def _name(card: int) -> str:
    return BEAN_NAMES[card]
