"""The referee: judge a game record written by any implementation (docs/records.md).

``check_record(path)`` replays a record to its first deviation: an illegal step (the rule it
breaks) or a desynchronised line (a bean annotation that differs from the replay). With
``every=True`` it goes on after a deviation wherever the record can still be followed: the recorded
action is applied without the rule checks (``apply(..., check=False)``), a reshuffle order that is
not the discard pile is adopted, and the check stops only where the record cannot be followed any
more (an action that does not apply to the state, a reshuffle that is not due...), saying why.
Records with unknown cards (``null``) are judged by ``records.unknown``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from model import jsonio
from model.actions import Action, BuyField, Reshuffle, format_action
from model.core import oldest
from model.engine import IllegalAction, apply, scores, winners
from model.state import GameState, Phase
from records.annotations import after, before
from records.claims import coin_gain, compare_state, state_rule
from records.game import Record, RecordFormatError, end_problems, parse_record, where
from records.unknown import judge  # the records with unknown cards (records/unknown.py)
from records.verdicts import DESYNC as DESYNC  # re-exported: the verdict is the referee's answer
from records.verdicts import Deviation as Deviation
from records.verdicts import Verdict as Verdict


def end_deviations(rec: Record, s: GameState) -> list[Deviation]:
    """The end line's claims the replay's last state denies (``records.game.end_problems``)."""
    return [Deviation(rec.end_line, "end", "illegal", why, rule) for why, rule in end_problems(rec, s)]


def claim_deviation(line: int, name: str, was: GameState, action: Action, s: GameState,
                    claims: dict[str, Any]) -> Deviation | None:
    """The line's ``claims`` (its engine's state after it) against the replay's ``s``: a difference
    is an illegal step, named by the rule of the step that made it (``records.claims.state_rule``)."""
    diffs = compare_state(s, claims)
    if not diffs:
        return None
    keys = [d.part for d in diffs]
    rule = state_rule(was, action, s, keys, claims.get("phase"), coin_gain(was, s, action, claims))
    d = diffs[0]
    why = (f"the record's engine claims {d.part} {d.theirs} after it, the rules give {d.ours}"
           if d.only_ours is None else f"the record's engine claims after it: {d.text('the rules', 'it')}")
    return Deviation(line, name, "illegal", why, rule)


def action_name(action: Action) -> str:
    """An action as messages name it; a reshuffle by its size (its order can be 100 bean names)."""
    if isinstance(action, Reshuffle):
        return f"chance reshuffle of {len(action.order)} cards"
    return format_action(action)


# what applying an action to a state it does not fit raises (the unchecked engine trusts its input)
UNFOLLOWABLE = (IndexError, KeyError, ValueError, TypeError, AssertionError, AttributeError)


def force(s: GameState, action: Action) -> tuple[GameState | None, str]:
    """``action`` applied without the rule checks, or (None, why the record cannot be followed)."""
    if s.phase == Phase.OVER:
        return None, "the game is over and the record goes on"
    if isinstance(action, Reshuffle) != (s.phase == Phase.CHANCE):
        if s.phase == Phase.CHANCE:
            return None, f"a reshuffle is due (E1) and the line is {format_action(action)!r}"
        return None, f"no reshuffle is due (E1): {where(s)}"
    p = getattr(action, "player", 0)
    if not 0 <= p < len(s.players):
        return None, f"there is no seat p{p}"
    try:
        return apply(s, action, check=False), ""
    except IllegalAction as e:
        return None, e.reason
    except UNFOLLOWABLE:
        return None, f"{format_action(action)!r} does not apply to the state ({where(s)})"


@dataclass
class Followed:
    """A replay of a whole record: its deviations, the line where it stopped (0: it reached the
    end) and why, the last state and the number of lines replayed."""

    deviations: list[Deviation] = field(default_factory=list)
    stopped: int = 0
    why: str = ""
    state: GameState | None = None
    steps: int = 0


def follow(rec: Record, every: bool, on_step: Callable[[int, GameState], None] | None = None) -> Followed:
    """Replay ``rec`` to its first deviation, or (``every``) as far as it can be followed;
    ``on_step(k, state)`` hears the state after each action ``k`` replayed (the record viewer's)."""
    s = rec.initial_state()
    out = Followed(state=s)
    unchecked = False  # has a step been applied without the rule checks? (then the state may be
    # one the rules cannot reach, e.g. a pending offer naming a face-up card planted since)
    for i, (line, action) in enumerate(zip(rec.lines, rec.actions, strict=True)):
        notes = rec.notes.get(i)
        name = action_name(action)
        desync = before(s, action, notes)[1] if notes is not None else None
        try:
            nxt = apply(s, action)
        except IllegalAction as e:  # the rule first, then what the record believed (a desync)
            out.deviations.append(Deviation(line, name, "illegal", e.reason, e.rule))
            if desync is not None:
                out.deviations.append(Deviation(line, name, DESYNC, desync))
            if not every:
                return out
            forced, why = force(s, action)
            if forced is None:
                out.stopped, out.why = line, why
                return out
            nxt, unchecked = forced, True
        except UNFOLLOWABLE:  # after IllegalAction, which is a ValueError too
            if not unchecked:
                raise  # a legal state the engine cannot judge: a bug, not the record's
            out.stopped, out.why = line, (f"{name!r} does not apply to the state the unchecked steps "
                                          f"before it left ({where(s)})")
            return out
        if desync is not None and (not out.deviations or out.deviations[-1].line != line):
            out.deviations.append(Deviation(line, name, DESYNC, desync))
            if not every:
                return out
        if rec.coin_payment == "oldest" and isinstance(action, BuyField):
            nxt = oldest(s, nxt, action.player)  # F1 leaves open which coins pay: the record declares it
        before_s, s = s, nxt
        out.state = s
        out.steps += 1
        if on_step is not None:
            on_step(i, s)
        if notes is not None:
            seen = after(s, notes)[1]
            if seen is not None:
                out.deviations.append(Deviation(line, name, DESYNC, seen))
                if not every:
                    return out
            if notes.claims is not None and (claimed := claim_deviation(line, name, before_s, action, s,
                                                                        notes.claims)) is not None:
                out.deviations.append(claimed)
                if not every:
                    return out
    out.deviations += end_deviations(rec, s)[:None if every else 1]  # E3 and E4: one without every
    return out



def first_illegal(rec: Record) -> int | None:
    """The first line the rules forbid, the annotations aside (what the independent spec, which
    knows no annotations, must name too: ``check_record.py --z3``)."""
    bare = Record(rec.rules, rec.players, rec.deck, actions=rec.actions, lines=rec.lines, end=rec.end,
                  end_line=rec.end_line, start=rec.start, coin_payment=rec.coin_payment)
    run = follow(bare, every=False)
    return run.deviations[0].line if run.deviations else None


def verdict(path: str, rec: Record, every: bool = False) -> Verdict:
    """The verdict on a parsed record (without unknown cards)."""
    run = follow(rec, every)
    s = run.state
    assert s is not None
    over = s.phase == Phase.OVER
    result = dict(actions=run.steps, coins=tuple(scores(s)), over=over,
                  winners=tuple(winners(s)) if over else (), record=rec, every=every,
                  deviations=tuple(run.deviations), stopped=run.stopped, why=run.why)
    if not run.deviations:
        return Verdict(path, "legal", **result)  # type: ignore[arg-type]
    status = "illegal" if any(d.kind == "illegal" for d in run.deviations) else DESYNC
    first = next(d for d in run.deviations if d.kind == status)  # the first of the worst kind
    return Verdict(path, status, first.line, first.action, first.reason, first.rule,
                   **result)  # type: ignore[arg-type]


def check_record(path: str, every: bool = False, time_limit: float = 60.0) -> Verdict:
    """Referee one record file: read, parse, replay to its first deviation (or, with ``every``, as far
    as it can be followed). Unknown cards are judged by ``records.unknown.judge`` within ``time_limit``
    seconds."""
    try:
        text = jsonio.read_text(path)
    except jsonio.JSONInputError as e:
        return Verdict(path, "malformed", reason=str(e))
    try:
        rec = parse_record(text)
    except RecordFormatError as e:
        return Verdict(path, "malformed", line=e.line, reason=e.reason)
    if rec.unknown:
        return judge(path, rec, time_limit)
    return verdict(path, rec, every)
