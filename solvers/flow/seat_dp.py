"""One seat's exact field play by dynamic programming, given what it plants and when (H2-H6, F1,
C1, E3, T6). Written from the rules, not from the engine nor from solvers/flow/seat_plan.py.

The input is the seat's batches in timeline order (solvers/flow/master.py, counts fixed): a
phase-1 card (T1), or a phase-3 batch of set-aside cards planted in an order the seat picks (T6).

A state between two plantings is the seat's fields by index (bean, count) and its coins. Of two
histories that reach the same fields, the one with more coins dominates: coins only ever help (F1
needs at least the cost; the end value is the coins plus E3's harvest). So the DP keeps, per
fields (and, inside a phase-3 batch, per multiset of cards still to plant), the most coins.

Before each planting the seat may harvest fields one at a time, each as H4 allows at that moment
(lenient or strict, the ruleset's reading), and buy the third field (F1); it waits for a planting
to do so, which loses nothing (H6: its fields do not change in between). At the end every field
is harvested without H4 (E3). The optimum is exact, so it is its own bound.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from model import GameState
from solvers.bounds import gain_table
from solvers.contract import SolveError
from solvers.flow.memo_search import MemoSearch, TooLarge
from solvers.flow.seat_plan import Op

EMPTY = (-1, 0)
Fields = tuple[tuple[int, int], ...]  # (bean, count) per field index; EMPTY is an empty field
Step = tuple[str, int, int]  # ("harvest", bean, n), ("buy", 0, 0), ("plant", bean, n already on the field)


@dataclass(frozen=True)
class SeatRules:
    """What a seat's field play depends on: C1's payout rows, H4's reading, F1's price (None:
    no field to buy)."""

    payout: Sequence[Sequence[int]]  # by bean id
    strict: bool
    cost: int | None

    @classmethod
    def of(cls, s: GameState) -> SeatRules:
        su = s.setup
        if su.rules.field_beans:
            raise SolveError("the seat DP does not cover V5's field beans yet")
        return cls(su.payout, su.strict_harvest, su.third_cost)

    def pay(self, bean: int, n: int) -> int:
        """C1: what a harvest of ``n`` cards of ``bean`` pays."""
        if n == 0:
            return 0
        row = self.payout[bean]
        return row[min(n, len(row) - 1)]

    def harvestable(self, fields: Fields, f: int) -> bool:
        """H4-H5: a field with cards; one with a single card only if no other field holds more
        (lenient) or every field holds exactly one (strict)."""
        n = fields[f][1]
        if n != 1:
            return n > 1
        if self.strict:
            return all(c == 1 for _, c in fields)
        return all(c <= 1 for _, c in fields)


@dataclass(frozen=True)
class SeatResult:
    value: int  # the seat's most coins at the end (E3), exact
    ops: list[Op]  # a plan reaching it, in the order solvers/flow.replay plays it
    states: int  # DP states expanded: the work done, for the stats


State = tuple[int, tuple[int, ...], Fields, int]  # (batch, its cards left, fields sorted, coins kept)
Move = tuple[int, State, Step]  # (coins gained, the state after, the step)


def _canon(fields: Fields) -> Fields:
    """Fields are interchangeable (the bought third one too): a state holds their sorted tuple."""
    return tuple(sorted(fields))


class _Search(MemoSearch[State, list[tuple[int, Step]]]):
    """f(state) = the most coins the seat still makes from ``state`` (E3 included, purchases
    paid), by depth-first branch and bound over the states with a memo of proved bounds.

    Coins matter to the future only through F1 (at least the cost buys the field), so a state
    keeps min(coins, cost) while a purchase is open and 0 after: f does not depend on the rest.
    The bound on f is C1 per bean (solvers.bounds.gain_table: the seat's fields of the bean and
    every card of it still to come, capacity and H4 ignored)."""

    def __init__(self, rules: SeatRules, batches: Sequence[tuple[int, str, Mapping[int, int]]],
                 max_states: int | None) -> None:
        super().__init__(max_states)
        self.rules = rules
        self.beans = [sorted(b for b, x in c.items() if x) for _, _, c in batches]
        self.full = [tuple(c[b] for b in bs) for (_, _, c), bs in zip(batches, self.beans, strict=True)]
        later: list[dict[int, int]] = [{} for _ in range(len(batches) + 1)]
        for j in range(len(batches) - 1, -1, -1):
            later[j] = dict(later[j + 1])
            for b, x in batches[j][2].items():
                later[j][b] = later[j].get(b, 0) + x
        self.later = later  # cards per bean in batches j.. (all of them)
        self.tables: dict[tuple[int, tuple[int, ...], int], int] = {}

    def coins_key(self, fields: Fields, coins: int) -> int:
        cost = self.rules.cost
        return min(coins, cost) if cost is not None and len(fields) == 2 else 0

    def upper(self, st: State) -> int:
        j, left, fields, _ = st
        rows = dict(self.later[j + 1]) if j + 1 < len(self.later) else {}
        if j < len(self.full):
            for b, x in zip(self.beans[j], left, strict=True):
                rows[b] = rows.get(b, 0) + x
        for b, n in fields:
            if n:
                rows.setdefault(b, 0)
        total = 0
        for b, n in rows.items():
            mine = tuple(sorted(c for fb, c in fields if c and fb == b))
            key = (b, mine, n)
            got = self.tables.get(key)
            if got is None:
                got = gain_table(tuple(self.rules.payout[b]), list(mine), n)[n]
                self.tables[key] = got
            total += got
        return total

    def moves(self, st: State) -> list[Move]:
        """Harvests (H4-H5), the purchase (F1), and plantings of a card of the batch (H2, H3)."""
        j, left, fl, ck = st
        rules = self.rules
        out: list[Move] = []
        for f, (b, n) in enumerate(fl):
            if n and (f == 0 or fl[f - 1] != fl[f]) and rules.harvestable(fl, f):
                g = _canon(fl[:f] + (EMPTY,) + fl[f + 1:])
                gain = rules.pay(b, n)
                out.append((gain, (j, left, g, self.coins_key(g, ck + gain)), ("harvest", b, n)))
        if len(fl) == 2 and rules.cost is not None and ck >= rules.cost:
            g = fl + (EMPTY,)
            out.append((-rules.cost, (j, left, _canon(g), 0), ("buy", 0, 0)))
        for i, b in enumerate(self.beans[j]):
            if not left[i]:
                continue
            rest = left[:i] + (left[i] - 1,) + left[i + 1:]
            nj = j
            if not any(rest):
                nj, rest = j + 1, self.full[j + 1] if j + 1 < len(self.full) else ()
            for f, (fb, n) in enumerate(fl):
                if (n == 0 or fb == b) and (f == 0 or fl[f - 1] != fl[f]):
                    g = _canon(fl[:f] + ((b, n + 1),) + fl[f + 1:])
                    out.append((0, (nj, rest, g, ck), ("plant", b, n if fb == b else 0)))
        return out

    def leaf(self, st: State) -> int | None:
        j, _, fl, _ = st
        if j < len(self.full):
            return None
        return sum(self.rules.pay(b, n) for b, n in fl if n)  # E3 harvests every field, without H4

    def children(self, st: State, alpha: int) -> tuple[list[tuple[int, int, State]], bool]:
        scored = sorted(((gain + self.upper(child), gain, child) for gain, child, _ in self.moves(st)),
                        key=lambda x: (-x[0], x[2]))
        return scored, True

    def plan(self, st: State) -> list[tuple[int, Step]]:
        """The steps of a best play from ``st``, with their batches."""
        out: list[tuple[int, Step]] = []
        target = self.value(st)
        while st[0] < len(self.full):
            for gain, child, step in self.moves(st):
                if gain + self.search(child, target - gain - 1) == target:
                    out.append((st[0], step))
                    st, target = child, target - gain
                    break
            else:
                raise SolveError("internal error: the seat DP lost its plan")
        return out


def solve_seat(rules: SeatRules, fields: Fields, coins: int,
               batches: Sequence[tuple[int, str, Mapping[int, int]]],
               max_states: int | None = None) -> SeatResult:
    """The seat's best field play over ``batches`` ((turn, kind, bean -> count), kind "p1a",
    "p1b" or "p3"), from ``fields`` (2 or 3, the third owned) and ``coins``. TooLarge past
    ``max_states`` states searched (None: no limit)."""
    batches = [bt for bt in batches if any(bt[2].values())]
    search = _Search(rules, batches, max_states)
    root_fields = _canon(tuple(fields))
    root: State = (0, search.full[0] if batches else (), root_fields,
                   search.coins_key(root_fields, coins))
    value, steps = search.solve(root, coins)
    ops: list[Op] = []
    fl = list(fields)
    for j, (kind, b, n) in steps:
        turn, bkind, _ = batches[j]
        phase = 1 if bkind in ("p1a", "p1b") else 3
        if kind == "buy":
            fl.append(EMPTY)
            ops.append(Op("buy", 0, 0, turn, phase))
        elif kind == "harvest":
            f = fl.index((b, n))
            fl[f] = EMPTY
            ops.append(Op("harvest", f, 0, turn, phase))
        else:
            f = fl.index((b, n) if n else EMPTY)
            fl[f] = (b, n + 1)
            ops.append(Op("plant", f, b, turn, phase))
    return SeatResult(value, ops, search.expanded)


def solve_seat_in(s: GameState, q: int, batches: Sequence[tuple[int, str, Mapping[int, int]]],
                  max_states: int | None = None) -> SeatResult:
    """Seat ``q`` of ``s`` (its fields and coins now) over ``batches``."""
    pl = s.players[q]
    fields = tuple((f.bean, f.count) if f.count else EMPTY for f in pl.fields)
    return solve_seat(SeatRules.of(s), fields, len(pl.coins), batches, max_states)


__all__ = ["SeatRules", "SeatResult", "TooLarge", "solve_seat", "solve_seat_in", "EMPTY"]
