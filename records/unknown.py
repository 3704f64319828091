"""Records with unknown cards: does some assignment of the cards the writer did not see make the
record legal? (docs/records.md, "Unknown cards".)

A header deck or a reshuffle order may hold ``null`` for a card the writer did not see (an engine
that logs only public information and its own hand). The replay holds each such card as
``UNSEEN + slot`` (``records.annotations``). The unknown cards form pools: the deck's (the cards of
the deck the header does not name) and one per reshuffle with unknowns (the discard pile at that
moment less the order's known cards). A pool's count per bean is the only constraint on a card that
is never revealed, so those cards stay undetermined: any arrangement of what their pool has left.

A card is fixed when the record reveals it: an annotation (``bean``, ``give``, ``take``, ``up``,
``hands``) or a rule that forces it (a planting onto a field of that bean, H3; an accepted deal's
asked beans, T3; a named set-aside bean, T6). Where the rules need a card's bean and neither says it
(a planting onto an empty field, a hand discard, a face-up card named by its index, the duel's
matching discards), the search tries each bean the pool has left, depth first, and backtracks from
a line that fails. The record is legal if some branch replays every line; otherwise the first line
no assignment replays is the deepest line a branch reached, with that branch's reason.

Limits: the base editions and the duel, not La Isla Bohnita; every line is judged (``--all`` does
not apply); the search is exponential in the choices a record leaves open (an unannotated planting
onto an empty field branches up to 11 ways), so a time limit bounds it (verdict ``undecided``).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from model.actions import (
    Accept,
    Action,
    Discard,
    DiscardUp,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    Reshuffle,
    format_action,
)
from model.cards import BEAN_NAMES, difference
from model.core import evolve
from model.engine import IllegalAction, apply, new_game, scores, winners
from model.rules import SETUP_RULES, setup
from model.state import GameState, Phase, PlayerState
from records.annotations import UNSEEN, Fixes, after, before, show, shows
from records.game import Record, end_problems, where
from records.verdicts import DESYNC, Deviation, Verdict


@dataclass
class Slots:
    """The unknown cards: the pool and the name of each slot, and the pools' beans left."""

    pool: list[int] = field(default_factory=list)  # slot -> pool
    name: list[str] = field(default_factory=list)  # slot -> "deck[12]", "line 77 order[3]"
    pools: list[str] = field(default_factory=list)  # pool -> "deck", "the reshuffle of line 77"


@dataclass
class Branch:
    """One partial assignment: the beans left per pool and the slots fixed (slot -> bean, how)."""

    left: list[Counter[int]]
    fixed: dict[int, tuple[int, str]]

    def copy(self) -> Branch:
        return Branch([Counter(c) for c in self.left], dict(self.fixed))


class Fail(Exception):
    """This branch cannot replay the line: the reason, the rule ID (or ``desync``)."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__(reason)
        self.reason, self.rule = reason, rule


def substitute(s: GameState, fixes: Fixes) -> GameState:
    """``s`` with the unseen cards in ``fixes`` replaced by their beans (face-up and set-aside cards
    re-sorted, as the state keeps them)."""
    if not fixes:
        return s

    def sub(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(fixes.get(c - UNSEEN, c) if c >= UNSEEN else c for c in cards)

    players = tuple(PlayerState(sub(p.hand), p.fields, p.coins, tuple(sorted(sub(p.aside))))
                    for p in s.players)
    return evolve(s, players=players, draw=sub(s.draw), discard=sub(s.discard),
                  face_up=tuple(sorted(sub(s.face_up))))


def _unseen(cards: tuple[int, ...]) -> list[int]:
    return sorted(c - UNSEEN for c in cards if c >= UNSEEN)


class Judge:
    """The depth-first search over the unknown cards of one record."""

    def __init__(self, rec: Record, time_limit: float) -> None:
        self.rec = rec
        self.slots = Slots()
        self.deadline = time.monotonic() + time_limit
        self.time_limit = time_limit
        self.best: tuple[int, int, str, str, str] = (-1, 0, "", "", "")  # depth, line, action, reason, rule
        self.order_slots: dict[int, list[int]] = {}  # action index -> the new slots of its order
        self.order_pool: dict[int, int] = {}
        deck = rec.deck
        self.slots.pools.append("deck")
        for k, c in enumerate(deck):
            if c is None:
                self._slot(0, f"deck[{k}]")
        for i, order in rec.orders.items():
            pool = len(self.slots.pools)
            self.slots.pools.append(f"the reshuffle of line {rec.lines[i]}")
            self.order_pool[i] = pool
            self.order_slots[i] = [self._slot(pool, f"line {rec.lines[i]} order[{k}]")
                                   for k, c in enumerate(order) if c is None]

    def _slot(self, pool: int, name: str) -> int:
        self.slots.pool.append(pool)
        self.slots.name.append(name)
        return len(self.slots.pool) - 1

    # ------------------------------------------------------------ the start

    def start(self) -> tuple[GameState, Branch]:
        rec = self.rec
        deck_left: Counter[int] = Counter(setup(rec.rules, rec.players).deck)
        deck_left.subtract(Counter(c for c in rec.deck if c is not None))
        cards, slot = [], 0
        for c in rec.deck:
            if c is None:
                cards.append(UNSEEN + slot)
                slot += 1
            else:
                cards.append(c)
        s = new_game(rec.rules, rec.players, deck=cards, check=False)
        left = [deck_left] + [Counter() for _ in rec.orders]
        return s, Branch(left, {})

    # ------------------------------------------------------------ fixing cards

    def fix(self, b: Branch, fixes: Fixes, how: str, what: str) -> None:
        """Fix slots to beans, within their pools' counts (S for the deck, E1 for a reshuffle)."""
        for slot, bean in fixes.items():
            pool = self.slots.pool[slot]
            if b.left[pool][bean] <= 0:
                rule = "S" if pool == 0 else "E1"
                holder = "the deck" if pool == 0 else self.slots.pools[pool]
                raise Fail(f"{what}: the record would reveal one {BEAN_NAMES[bean]} more than "
                           f"{holder} holds ({self.slots.name[slot]})", rule)
            b.left[pool][bean] -= 1
            b.fixed[slot] = (bean, how)

    def choices(self, b: Branch, slots: list[int], within: tuple[int, ...] | None = None) -> Iterator[Fixes]:
        """Every assignment of beans to ``slots`` within the pools' counts (and, if given, within
        the beans ``within``); slots of one pool get beans in non-decreasing order (they are
        interchangeable where they lie: face-up cards are sorted, one card is one card)."""
        left = [Counter(c) for c in b.left]
        if within is not None:
            cap = Counter(within)
            left = [Counter({x: min(n, cap[x]) for x, n in c.items()}) for c in left]

        def go(k: int, low: dict[int, int]) -> Iterator[Fixes]:
            if k == len(slots):
                yield {}
                return
            slot = slots[k]
            pool = self.slots.pool[slot]
            for bean in sorted(x for x, n in left[pool].items() if n > 0 and x >= low.get(pool, 0)):
                left[pool][bean] -= 1
                for rest in go(k + 1, {**low, pool: bean}):
                    yield {slot: bean, **rest}
                left[pool][bean] += 1

        yield from go(0, {})

    # ------------------------------------------------------------ one line

    def needed(self, s: GameState, action: Action) -> tuple[Fixes, list[int]]:
        """Before ``action``: the unseen cards the rules force (slot -> bean), and those whose bean
        the rules need but do not say (to be chosen)."""
        forced: Fixes = {}
        p = getattr(action, "player", -1)
        if not 0 <= p < len(s.players):
            return forced, []
        pl = s.players[p]
        if isinstance(action, Plant) and pl.hand and pl.hand[0] >= UNSEEN:
            slot = pl.hand[0] - UNSEEN
            if 0 <= action.field < len(pl.fields) and pl.fields[action.field].count:
                forced[slot] = pl.fields[action.field].bean  # H3: a field holds one bean
                return forced, []
            return forced, [slot]
        if isinstance(action, PlantAside) and action.bean not in pl.aside:
            hidden = _unseen(pl.aside)
            if hidden:
                forced[hidden[0]] = action.bean  # T6: the set-aside card named
            return forced, []
        if isinstance(action, (PlantUp, DiscardUp)) or (isinstance(action, Propose) and action.give_up):
            return forced, _unseen(s.face_up)  # an index into the sorted trade area
        if isinstance(action, Discard) and 0 <= action.index < len(pl.hand):
            return forced, _unseen(pl.hand[action.index:action.index + 1])
        if isinstance(action, Accept) and s.pending is not None \
                and all(0 <= h < len(pl.hand) for h in action.hand):
            given = [pl.hand[h] for h in action.hand]
            want = Counter(s.pending.ask)
            want.subtract(Counter(c for c in given if c < UNSEEN))
            asked = [x for x in sorted(want.elements())]
            for c, bean in zip(sorted(c for c in given if c >= UNSEEN), asked, strict=False):
                forced[c - UNSEEN] = bean  # T3: the asked beans
        return forced, []

    def line(self, b: Branch, i: int, s: GameState) -> tuple[GameState, list[int]]:
        """Replay action ``i`` on ``s`` in branch ``b`` (fixing what the record and the rules
        reveal): the state after it, or ([], the slots to choose first) when the rules need beans
        the record does not give. Fail if no assignment in this branch replays the line."""
        rec = self.rec
        action = rec.actions[i]
        name = format_action(action) if i not in rec.orders else "chance reshuffle"
        notes = rec.notes.get(i)
        if notes is not None:
            fixes, why = before(s, action, notes)
            if why is not None:
                raise Fail(why, DESYNC)
            self.fix(b, fixes, "record", name)
            s = substitute(s, fixes)
        forced, open_ = self.needed(s, action)
        self.fix(b, forced, "record", name)
        s = substitute(s, forced)
        if open_:
            return s, open_
        for _ in range(3):  # the fixes after the line settle at the second replay
            nxt = self.apply(b, i, s, action)
            turned = sorted(set(_unseen(nxt.face_up)) - set(_unseen(s.face_up)))
            if turned and s.setup.duel and (s.discard or nxt.discard):
                return s, turned  # D2 step 3: the matching discards need the turned-up beans
            pending: Fixes = {}
            if notes is not None:
                pending, why = after(nxt, notes)
                if why is not None:
                    raise Fail(why, DESYNC)
            if pending:  # revealed after the line: fix them before it, and replay it with them
                self.fix(b, pending, "record", name)
                s = substitute(s, pending)
                continue
            return nxt, []
        raise AssertionError(f"line {rec.lines[i]}: the annotations' fixes do not settle")

    def apply(self, b: Branch, i: int, s: GameState, action: Action) -> GameState:
        rec = self.rec
        if any(c >= UNSEEN for c in s.discard):
            raise Fail("an unseen card reached the discard pile", "E1")  # never: discards are fixed
        if i in rec.orders:
            if s.phase != Phase.CHANCE:
                raise Fail(f"no reshuffle is due: {where(s)}", "E1")
            order = rec.orders[i]
            known = [c for c in order if c is not None]
            left = Counter(s.discard)
            left.subtract(Counter(known))
            if len(order) != len(s.discard) or any(n < 0 for n in left.values()):
                raise Fail(f"the order has {difference(order, s.discard)} against the discard pile "
                           f"({len(order)} cards for {len(s.discard)})", "E1")
            slots = self.order_slots[i]
            fixed = [b.fixed[k][0] for k in slots if k in b.fixed]  # revealed by this line's annotations
            left.subtract(Counter(fixed))
            b.left[self.order_pool[i]] = +left
            it = iter(slots)
            cards = []
            for c in order:
                k = next(it) if c is None else -1
                cards.append(c if c is not None else b.fixed[k][0] if k in b.fixed else UNSEEN + k)
            return apply(s, Reshuffle(tuple(cards)), check=False)
        try:
            return apply(s, action)
        except IllegalAction as e:
            raise Fail(e.reason, e.rule) from None

    # ------------------------------------------------------------ the search

    def run(self) -> tuple[str, GameState | None, Branch | None]:
        """("legal", last state, branch), ("illegal", None, None) or ("undecided", None, None)."""
        s, b = self.start()
        stack: list[tuple[int, GameState, Branch, Iterator[Fixes], str]] = []
        i = 0
        n = len(self.rec.actions)
        while True:
            try:
                if time.monotonic() > self.deadline:
                    return "undecided", None, None
                if i == n:
                    for why, rule in end_problems(self.rec, s)[:1]:
                        raise Fail(why, rule)
                    return "legal", s, b
                nxt, open_ = self.line(b, i, s)
                if open_:
                    notes = self.rec.notes.get(i)
                    within = notes.up if notes is not None and s.setup.duel else None
                    fits = self.survivors(b, i, nxt, open_, within)
                    how = "record" if len(fits) == 1 else "choice"  # the one bean the line allows
                    stack.append((i, nxt, b, iter(fits), how))
                    raise Fail("", "")  # take the first choice below
                s, i = nxt, i + 1
            except Fail as e:
                if e.reason:
                    self.failed(i, e)
                while stack:
                    at, pre, base, options, how = stack[-1]
                    pick = next(options, None)
                    if pick is None:
                        stack.pop()
                        continue
                    b = base.copy()
                    try:
                        self.fix(b, pick, how, format_action(self.rec.actions[at]))
                    except Fail as f:
                        self.failed(at, f)
                        continue
                    s, i = substitute(pre, pick), at
                    break
                else:
                    return "illegal", None, None

    def survivors(self, b: Branch, i: int, s: GameState, slots: list[int],
                  within: tuple[int, ...] | None) -> list[Fixes]:
        """The choices for ``slots`` with which line ``i`` replays (or needs yet more beans); the
        others fail here, and so does the line when there is no choice at all."""
        picks = self.choices(b, slots, within)
        out, tried = [], False
        for pick in picks:
            tried = True
            trial = b.copy()
            try:
                self.fix(trial, pick, "choice", "")
                self.line(trial, i, substitute(s, pick))
            except Fail as e:
                self.failed(i, e)
                continue
            out.append(pick)
        if not tried:  # no choice at all: the line fails here, and says why (not line 0)
            self.failed(i, self.no_choice(slots, within))
        return out

    def no_choice(self, slots: list[int], within: tuple[int, ...] | None) -> Fail:
        """Why no beans fit ``slots``: the duel's turn-up (D2) annotated with fewer face-up cards
        than it turned up (a desync), or with beans their pool does not have left (S, E1)."""
        names = ", ".join(self.slots.name[k] for k in slots)
        said = "" if within is None else f"the record says the face-up cards are {shows(within)}"
        if within is not None and len(within) < len(slots):
            return Fail(f"{said}, fewer than the {len(slots)} cards turned up ({names})", DESYNC)
        pool = self.slots.pool[slots[0]]
        holder = "the deck" if pool == 0 else self.slots.pools[pool]
        return Fail(f"{said}{'; ' if said else ''}{holder} has no bean left that fits {names}",
                    "S" if pool == 0 else "E1")

    def failed(self, i: int, e: Fail) -> None:
        if i > self.best[0]:
            n = len(self.rec.actions)
            line = self.rec.lines[i] if i < n else self.rec.end_line
            action = ("chance reshuffle" if i in self.rec.orders else format_action(self.rec.actions[i])) \
                if i < n else "end"
            self.best = (i, line, action, e.reason, e.rule)


def judge(path: str, rec: Record, time_limit: float = 60.0) -> Verdict:
    """The verdict on a record with unknown cards: legal for some assignment (saying which cards stay
    undetermined), illegal or desync at the first line no assignment replays, or undecided."""
    if rec.rules.expansion:
        x = SETUP_RULES[rec.rules.expansion]
        return Verdict(path, "malformed", reason=f"{path}: unknown cards: {x.called} records "
                                                 f"({x.rule_ids}) must name every card")
    if rec.start is not None:
        return Verdict(path, "malformed", reason=f"{path}: unknown cards: a record that starts from a "
                                                 "state has no deck to leave unknown")
    j = Judge(rec, time_limit)
    status, s, b = j.run()
    total = rec.unknown
    if status == "undecided":
        depth, line, *_ = j.best
        reach = f"; the longest replayable prefix so far ends before line {line}" if depth >= 0 else ""
        return Verdict(path, "undecided", reason=f"no assignment of the {total} unknown cards found or "
                                                 f"ruled out within {j.time_limit:g} s{reach}",
                       record=rec, unknown={"unknown": total})
    if status == "illegal":
        _, line, action, reason, rule = j.best
        kind = DESYNC if rule == DESYNC else "illegal"
        why = f"no assignment of the unknown cards replays this line: {reason}"
        dev = Deviation(line, action, kind, why, "" if kind == DESYNC else rule)
        return Verdict(path, kind, line, action, why, dev.rule, record=rec, deviations=(dev,),
                       unknown={"unknown": total})
    assert s is not None and b is not None
    record_fixed = sorted(k for k, (_, how) in b.fixed.items() if how == "record")
    chosen = sorted(k for k, (_, how) in b.fixed.items() if how == "choice")
    hidden = {k for k in range(len(j.slots.pool)) if k not in b.fixed}
    places: Counter[str] = Counter()
    for seat, p in enumerate(s.players):
        places[f"p{seat} hand"] += sum(c >= UNSEEN for c in p.hand)
        places[f"p{seat} set aside"] += sum(c >= UNSEEN for c in p.aside)
    places["draw pile"] += sum(c >= UNSEEN for c in s.draw)
    places["face up"] += sum(c >= UNSEEN for c in s.face_up)
    info: dict[str, object] = {
        "unknown": total, "determined": len(record_fixed), "chosen": len(chosen), "undetermined": len(hidden),
        "cards": {j.slots.name[k]: {"bean": show(b.fixed[k][0]), "by": b.fixed[k][1]}
                  for k in sorted(b.fixed)},
        "undetermined_cards": [j.slots.name[k] for k in sorted(hidden)],
        "undetermined_at_end": {k: v for k, v in places.items() if v},
        "left": {j.slots.pools[p]: {BEAN_NAMES[x]: n for x, n in sorted(c.items()) if n > 0}
                 for p, c in enumerate(b.left) if sum(c.values())},
    }
    said = f"{len(record_fixed)} revealed by the record"
    if chosen:
        said += f", {len(chosen)} chosen by the search (others may fit too)"
    said += f", {len(hidden)} never revealed"
    over = s.phase == Phase.OVER
    return Verdict(path, "legal", reason=said, actions=len(rec.actions), coins=tuple(scores(s)), over=over,
                   winners=tuple(winners(s)) if over else (), record=rec, unknown=info)
