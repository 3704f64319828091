"""Shrinking a divergence to a short reproducer, the way hypothesis shrinks a failing example.

A game is replayed from its actions (``GameSpec.actions``: each is played where our engine allows
it, else our first legal action), so every candidate is a legal game. A candidate is kept when the
engine still shows a divergence of the same cause for the same reason (``Divergence.same``: the
record then gets check_record.py's rule and reason as reported). Passes, repeated while one helps
and the budget lasts: fewer players, option changes that end the game sooner, the actions cut after
the divergence, then runs of actions deleted (halves down to single actions).

A reproducer longer than ``MAX_ACTIONS`` is started from the state before its divergent step.
It is written out as (a) a game record whose last line carries what the engine did (its illegal
action, its end line, or the divergent step with the engine's state after it as the line's
``claims``, docs/records.md), which scripts/check_record.py flags on that line with the rule, and
(b) the position before the divergent step with the perft divide that shows the difference.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
import time
from dataclasses import dataclass
from typing import Any

from conformance.live.client import Engine
from conformance.live.diff import Checks, Divergence, GameSpec, run_game
from model import (
    Action,
    apply,
    legal_actions,
    parse_action,
)
from model.errors import BohnanzaError
from model.perft import divide
from model.state import state_to_json
from records.game import RECORD_FORMAT, RECORD_VERSION, action_line, header, initial_deck
from records.referee import check_record

OPTION_SHRINKS: tuple[dict[str, Any], ...] = (
    {"exhaustions": 1, "draw": 40}, {"exhaustions": 1, "draw": 20}, {"exhaustions": 1}, {"draw": 12},
    {"hand": 3})
MAX_ACTIONS = 40  # a reproducer longer than this is started from the state before its divergence
LONG_ACTIONS = 4 * MAX_ACTIONS  # a divergence further in starts from its state at once
ACTION_KINDS = ("state", "refused")  # the divergent step's action is part of the reproducer


@dataclass
class Reproducer:
    divergence: Divergence  # the shrunk one
    evaluations: int
    seconds: float
    lines: list[dict[str, Any]]  # the record, header first
    flagged: int | None  # the record line that shows the divergence (1-based), None: none can
    note: str  # how the last line shows it
    position: dict[str, Any]  # state JSON before the divergent step
    divide: list[str]  # the perft divide lines that differ

    @property
    def actions(self) -> int:
        return sum(1 for x in self.lines[1:] if "action" in x or "chance" in x)

    def summary(self) -> dict[str, Any]:
        d = self.divergence
        return {"players": len(d.before.players), "options": dict(d.spec.options), "actions": self.actions,
                "deck_used": deck_used(d), "line": self.flagged, "shown_by": self.note,
                "evaluations": self.evaluations, "seconds": round(self.seconds, 2), "divide": self.divide,
                "shrunk": self.evaluations > 0}


def deck_used(d: Divergence) -> int:
    """Cards taken from the deck by the divergent step (the whole deck once it was exhausted)."""
    s0 = d.spec.initial()
    if d.spec.position is not None or d.spec.state is not None:
        return len(s0.draw) - len(d.before.draw) if not d.before.exhaustions else len(s0.draw)
    deck = len(initial_deck(s0))
    return deck if d.before.exhaustions else deck - len(d.before.draw)


def _replay_actions(d: Divergence) -> tuple[Action | None, ...]:
    acts: list[Action | None] = list(d.played)
    if d.kind in ACTION_KINDS and d.action is not None:
        acts.append(parse_action(d.action))
    return tuple(acts)


class _Shrinker:
    def __init__(self, engine: Engine, target: Divergence, checks: Checks, budget: int,
                 seconds: float) -> None:
        self.engine, self.target, self.checks = engine, target, checks
        self.budget, self.deadline = budget, time.monotonic() + seconds
        self.evaluations = 0
        self.strength = 0

    def live(self) -> bool:
        return self.evaluations < self.budget and time.monotonic() < self.deadline

    def test(self, spec: GameSpec) -> Divergence | None:
        """The first divergence of the target's cause and reason in ``spec``, or None."""
        self.evaluations += 1
        if self.engine.proc is None:
            self.engine.open()
        try:
            spec.rules()
            spec.initial()
        except BohnanzaError:
            return None
        run = run_game(self.engine, spec, dataclasses.replace(self.checks), stop=self.target.same)
        if run.failure is not None:
            return None
        found = next((x for x in run.divergences if self.target.same(x)), None)
        if found is None or _strength(found) < self.strength:
            return None  # shorter, but a record no longer shows it as well
        return found

    def replay(self, spec: GameSpec, d: Divergence) -> GameSpec:
        acts = _replay_actions(d)
        return dataclasses.replace(spec, actions=acts, max_steps=len(acts) + 300)

    def shrink(self, d: Divergence) -> Divergence | None:
        spec = self.replay(d.spec, d)
        best = self.test(spec)
        if best is None:
            return None
        self.strength = _strength(best)
        if len(_replay_actions(best)) > LONG_ACTIONS:
            # Far into a game (an exhaustion, a late reshuffle): cutting actions would replay the long
            # game hundreds of times and still stop above MAX_ACTIONS; the state before the step is
            # the shortest reproducer, found in one replay.
            found = self.test(self.near(best))
            if found is not None:
                return found
        spec = self.replay(best.spec, best)
        improved = True
        while improved and self.live():
            improved = False
            for change in OPTION_SHRINKS:
                opts = dict(spec.options)
                if all(opts.get(k) == v for k, v in change.items()) or not self.live():
                    continue
                changed = tuple(sorted({**opts, **change}.items()))
                found = self.test(dataclasses.replace(spec, options=changed))
                if found is not None and len(_replay_actions(found)) <= len(_replay_actions(best)):
                    best, spec, improved = found, self.replay(found.spec, found), True
            rules = spec.rules()
            fixed = spec.position is not None or spec.state is not None  # its seats are the position's
            for n in range(max(rules.min_players, 2), spec.players if not fixed else 0):
                if not self.live():
                    break
                found = self.test(dataclasses.replace(spec, players=n))
                if found is not None:
                    best, spec, improved = found, self.replay(found.spec, found), True
                    break
            size = max(1, len(spec.actions or ()) // 2)
            while size >= 1 and self.live():
                acts = list(spec.actions or ())
                i = len(acts) - size
                while i >= 0 and self.live():
                    cut = dataclasses.replace(spec, actions=tuple(acts[:i] + acts[i + size:]))
                    found = self.test(cut)
                    if found is not None and len(_replay_actions(found)) < len(acts):
                        best, spec, improved = found, self.replay(found.spec, found), True
                        acts = list(spec.actions or ())
                        i = min(i, len(acts)) - size
                    else:
                        i -= size
                size //= 2
        if len(_replay_actions(best)) > MAX_ACTIONS:  # one replay more, whatever the budget left
            found = self.test(self.near(best))
            if found is not None:
                best = found
        return best

    def near(self, d: Divergence) -> GameSpec:
        """``d``'s game started from the state just before its divergent step (a record whose header
        holds that state, docs/records.md): the divergence with none of the game that led there."""
        acts = _replay_actions(d)[len(d.played):]
        return dataclasses.replace(d.spec, position=None, state=json.dumps(state_to_json(d.before)),
                                   actions=acts, max_steps=len(acts) + 300)


def shrink(engine: Engine, d: Divergence, checks: Checks | None = None, budget: int = 200,
           seconds: float = 60.0) -> Reproducer | None:
    """The shortest reproducer of ``d``'s cause and reason found within ``budget`` replays and
    ``seconds``; None if ``d`` does not replay (an engine that is not deterministic)."""
    t0 = time.monotonic()
    sh = _Shrinker(engine, d, checks or Checks(), budget, seconds)
    best = sh.shrink(d)
    if best is None:
        return None
    lines, flagged, note = record_of(best)
    if _strength(best) == 0 and best.kind == "state":
        lines, flagged, note = _followed(engine, sh, best, (lines, flagged, note))
    return Reproducer(best, sh.evaluations, time.monotonic() - t0, lines, flagged, note,
                      state_to_json(best.before), divide_difference(best))


def unshrunk(d: Divergence) -> Reproducer:
    """``d``'s reproducer as found, without replaying anything (an interrupted run keeps it)."""
    lines, flagged, note = record_of(d)
    return Reproducer(d, 0, 0.0, lines, flagged, note, state_to_json(d.before), divide_difference(d))


Shown = tuple[list[dict[str, Any]], int | None, str]  # a record, the line that shows it, how
FOLLOW_DRAWS = (60, 40)  # larger draws end a followed game sooner


def _followed(engine: Engine, sh: _Shrinker, d: Divergence, unflagged: Shown) -> Shown:
    """A state divergence no line can show (coins, a pile): the game followed to its end in both
    engines (with larger draws, where the divergence stays), and the engine's end line (E3, E4)
    if its result differs. The shortest such record."""
    best: Shown | None = None
    base = sh.replay(d.spec, d)
    opts = dict(base.options)
    candidates = [tuple(sorted({**opts, "draw": draw}.items())) for draw in FOLLOW_DRAWS]
    for changed in (*candidates, base.options):
        spec = dataclasses.replace(base, options=changed, follow=True, max_steps=len(d.played) + 400)
        try:
            spec.initial()
        except BohnanzaError:
            continue
        if engine.proc is None:
            engine.open()
        run = run_game(engine, spec, dataclasses.replace(sh.checks, probes=False, legal=False))
        first = next((x for x in run.divergences if x.kind == "state"), None)
        end = next((x for x in run.divergences if x.kind == "end"), None)
        if first is None or not d.same(first) or end is None:
            continue
        lines, flagged, _ = record_of(end)
        if best is None or len(lines) < len(best[0]):
            best = lines, flagged, (f"the engine's end line, the game followed to its end from the "
                                    f"divergence (line {first.step + 2}) [{end.rule}]")
    return best or unflagged


# ---------------------------------------------------------------- the reproducer written out


def record_of(d: Divergence) -> tuple[list[dict[str, Any]], int | None, str]:
    """The record of ``d``'s game up to its step, the line that shows it, and how it shows it."""
    s0 = d.spec.initial()
    if d.spec.position is not None or d.spec.state is not None:
        head: dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION,
                                "state": state_to_json(s0)}
    else:
        head = header(s0, seed=d.spec.seed, about=f"diff_engine reproducer: {d.kind} [{d.rule}]")
    if d.coin_payment != "top":  # F1: the coins the engine pays with, which the referee replays
        head["declares"] = {"coin_payment": d.coin_payment}
    lines = [head] + [action_line(a) for a in d.played]
    if d.kind in ("extra", "accepted") and d.action is not None:
        lines.append(action_line(parse_action(d.action)))
        return lines, len(lines), "the engine's action, which the rules forbid"
    if d.kind == "end":
        result = d.result or {}
        lines.append({"end": {"coins": result.get("coins"), "winners": result.get("winners")}})
        return lines, len(lines), "the engine's end line"
    if d.kind != "state" or d.action is None:
        return lines, None, "none: a record shows the moves an engine made, not the ones it lacks"
    line = action_line(parse_action(d.action))
    view = d.view or {}
    line["claims"] = view
    lines.append(line)
    return lines, len(lines), "the engine's state after the step, as the line's claims"


def divide_difference(d: Divergence) -> list[str]:
    """The perft divide at the position before the step, the lines where the engine differs:
    depth 1 for a legal-set difference, depth 2 under the divergent action for a state one."""
    s = d.before
    if d.kind in ("extra", "missing", "accepted"):
        ours = {a for a, _ in divide(s, 1)}
        if d.kind == "missing":
            return [f"{d.action}: ours 1, the engine 0"]
        return [f"{d.action}: ours 0 (not in our {len(ours)} actions), the engine 1"]
    if d.kind == "state" and d.action is not None and d.next_actions is not None:
        after = apply(s, parse_action(d.action), False)
        ours = {str(a) for a in legal_actions(after, proposals=False)} if after.to_move >= 0 else set()
        theirs = set(d.next_actions)
        if ours == theirs:
            return []  # the divide agrees: only the state shows the difference
        diff = "".join([f"; the engine lacks {', '.join(sorted(ours - theirs))}" if ours - theirs else "",
                        f"; the engine adds {', '.join(sorted(theirs - ours))}" if theirs - ours else ""])
        return [f"{d.action}: ours {len(ours)}, the engine {len(theirs)} (depth 2, proposals left out){diff}"]
    return []


def check_lines(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """scripts/check_record.py's verdict (``summary()``) on a record."""
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("".join(json.dumps(x) + "\n" for x in lines))
        return check_record(path, every=False).summary()
    finally:
        os.unlink(path)


def check_reproducer(rep: Reproducer) -> dict[str, Any]:
    return check_lines(rep.lines)


def _strength(d: Divergence) -> int:
    """How well a record shows ``d``: 2 an illegal line, 1 a desync, 0 not at all."""
    lines, flagged, _ = record_of(d)
    if flagged is None:
        return 0
    verdict = check_lines(lines)
    if verdict.get("line") != flagged:
        return 0
    return {"illegal": 2, "desync": 1}.get(str(verdict.get("status")), 0)

