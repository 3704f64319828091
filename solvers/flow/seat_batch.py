"""One seat's exact field play, a whole batch at a time (H2-H6, F1, C1, E3, T6).

The problem and the answer are those of solvers/flow/seat_dp.py (the card-level reference, checked
against a brute force): the seat's batches in timeline order, each a phase-1 card or a phase-3
batch planted in an order the seat picks, harvests and the purchase between any two plantings,
E3 at the end. Here one move is a whole batch, so the search's states are the fields and coins
between batches only, and a large batch costs a choice of a split instead of an order of cards.

Why a split is enough. Between two harvests, plantings onto different fields commute, and cards
of one bean are interchangeable. Within a batch each field that starts with cards is either

- kept: topped up with its bean, not harvested in the batch; or
- harvested: topped up with its bean, harvested once, and then free.

A free field (harvested, empty at the start, or bought in the batch) hosts inner groups, planted
and then harvested in the batch, one after the other, and may end with a final group. One free
field can host every inner group, so a batch's play is: each field's role and top-up, the
purchase, and per bean the split of its cards among top-ups, final groups and inner groups.

H4 restricts only one-card harvests (events): a starting one-card field harvested as it is, or an
inner group of one card.

- Lenient (no other field holds more): every kept field must start with at most one card; the
  rest of the batch is ordered around the events (harvests of two or more first, top-ups and
  final groups last).
- Strict (every field holds exactly one): every kept field must start with one card, and at the
  last event the other F - 1 fields must each hold one card of something that is not an event, a
  filler: a kept field, a starting one-card field topped up and harvested later, the first card
  of an inner group of two or more, or of a final group. F is the number of fields then.

The purchase (F1) is made late, after every harvest of the batch and paid by them, when another
field is free; else early, from the coins the batch starts with (then the events see 3 fields).
Buying earlier than that never helps: it adds nothing a free field does not give, and under the
strict reading it needs one more filler.

The search is the seat DP's: depth-first branch and bound with a memo of proved bounds, the
state (batch, fields sorted, coins kept while a purchase is open). A field's count is kept only up
to where its bean's payout stops growing (and at least 2, for H4): beyond, more cards change
nothing. The bound is per bean (solvers.bounds.gain_table) with field capacity priced in: a seat
holds at most as many beans as it can have fields across a batch boundary, so a price per bean
held across a boundary, with that price times the fields given back, bounds the value for any
prices >= 0 (a Lagrangian relaxation); uniform prices and one vector tuned at the root by
subgradient steps are tried (``_Search.tune``), the least bound kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import add, ge

from model import GameState
from solvers.bounds import gain_table
from solvers.contract import SolveError
from solvers.flow.memo_search import MemoSearch, TooLarge
from solvers.flow.seat_dp import EMPTY, SeatRules
from solvers.flow.seat_plan import Op

Field = tuple[int, int]  # (bean, count); EMPTY (-1, 0) is an empty field
Fields = tuple[Field, ...]
Batches = Sequence[tuple[int, str, Mapping[int, int]]]
State = tuple[int, Fields, int]  # (batch, fields sorted and capped, coins kept while a purchase is open)
Key = int  # H4 bookkeeping of a part of a split: 3 * (any event) + fillers (at most 2); 0 when lenient
Rest = list[dict[Key, tuple[int, tuple[int, ...], tuple[int, ...]]]]  # by x: key -> (coins, top-ups, groups)
Choice = tuple[int, tuple[int, ...], tuple[int, ...], int, Key]  # bean, kept top-ups, finals, rest, its key
Raw = tuple[tuple[int, ...], tuple[int, ...], tuple[Choice, ...], str, bool, int]  # a split unwritten


@dataclass(frozen=True)
class Split:
    """One batch's play, by index into the batch's sorted start fields."""

    kept: tuple[tuple[int, int], ...]  # (field, top-up)
    harvested: tuple[tuple[int, int], ...]  # (field, top-up)
    inner: tuple[tuple[int, int], ...]  # (bean, cards): groups planted and harvested in the batch
    finals: tuple[tuple[int, int], ...]  # (bean, cards): groups left on free fields
    buy: str  # "", "early" (before the events) or "late" (after every harvest)


@dataclass(frozen=True)
class SeatResult:
    value: int  # the seat's most coins at the end (E3), exact
    ops: list[Op]  # a plan reaching it, in the order solvers/flow.replay plays it
    states: int  # search states expanded: the work done, for the stats


@dataclass(frozen=True)
class ChildBound:
    """The children's bound, in quarter coins and per price vector (``_Search.upper``): the part
    that does not depend on the child, each bean's part from its end fields, the least total kept."""

    batch: int  # the batch the moves play
    const: tuple[int, ...]  # with a third field from the child on (its price taken by _combine)
    spare: tuple[int, ...]  # less this for a child that does not buy one where one may be bought
    adj: Callable[[int, tuple[int, ...]], tuple[int, ...]]
    keep: int


def _add(a: Key, b: Key) -> Key:
    """Two parts' H4 bookkeeping together: any event, fillers counted up to 2."""
    return 3 * ((a // 3) | (b // 3)) + min(2, a % 3 + b % 3)


def _put(d: dict[Key, tuple[int, tuple[int, ...], tuple[int, ...]]], key: Key, v: int,
         tops: tuple[int, ...], groups: tuple[int, ...]) -> None:
    old = d.get(key)
    if old is None or v > old[0]:
        d[key] = (v, tops, groups)


class _Batches:
    """The moves of one batch from a state: every split, keyed by the fields it ends with."""

    def __init__(self, rules: SeatRules) -> None:
        self.rules = rules
        self.sat = {b: max(2, next(i for i, v in enumerate(row) if v == row[-1]))
                    for b, row in enumerate(rules.payout) if row}
        self.rests: dict[tuple[int, tuple[int, ...], int, bool, bool], Rest] = {}
        self.inner: dict[tuple[int, int, bool], Rest] = {}
        self.options: dict[tuple[int, int, tuple[int, ...], tuple[int, ...], bool, int],
                           dict[tuple[Fields, int, Key], tuple[int, Choice, tuple[int, ...]]]] = {}

    def cap(self, b: int, n: int) -> int:
        return min(n, self.sat[b])

    def groups(self, b: int, most: int, allow1: bool) -> Rest:
        """By r: the best split of r cards of bean b into inner groups, per H4 key."""
        key = (b, most, allow1)
        got = self.inner.get(key)
        if got is not None:
            return got
        strict, pay = self.rules.strict, self.rules.pay
        table: Rest = [{0: (0, (), ())}]
        for r in range(1, most + 1):
            d: dict[Key, tuple[int, tuple[int, ...], tuple[int, ...]]] = {}
            for g in range(1 if allow1 else 2, r + 1):
                part = (3 if g == 1 else 1) if strict else 0
                for k, (v, _, gs) in table[r - g].items():
                    _put(d, _add(k, part) if strict else 0, v + pay(b, g), (), (g,) + gs)
            table.append(d)
        self.inner[key] = table
        return table

    def rest(self, b: int, harvested: tuple[int, ...], most: int, allow1: bool, free: bool) -> Rest:
        """By x: the best use of x cards of bean b on its harvested fields (top-ups, then the
        harvest) and inner groups, per H4 key (an untouched one-card field is an event, a topped-up
        one a filler)."""
        key = (b, harvested, most, allow1, free)
        got = self.rests.get(key)
        if got is not None:
            return got
        strict, pay = self.rules.strict, self.rules.pay
        zero: tuple[int, tuple[int, ...], tuple[int, ...]] = (0, (), ())
        none: Rest = [{0: zero}] + [{} for _ in range(most)]  # no free field: no inner group
        table = self.groups(b, most, allow1) if free else none
        for n in harvested:
            nxt: Rest = []
            for x in range(most + 1):
                d: dict[Key, tuple[int, tuple[int, ...], tuple[int, ...]]] = {}
                for t in range(x + 1):
                    if n == 1 and t == 0:
                        if not allow1:
                            continue
                        part = 3 if strict else 0
                    else:
                        part = 1 if strict and n == 1 else 0
                    for k, (v, tops, gs) in table[x - t].items():
                        _put(d, _add(k, part) if strict else 0, v + pay(b, n + t), tops + (t,), gs)
                nxt.append(d)
            table = nxt
        self.rests[key] = table
        return table

    def moves(self, fields: Fields, ck: int, counts: Mapping[int, int], later: Mapping[int, int],
              bound: ChildBound) -> dict[tuple[Fields, int], tuple[int, Raw, int]]:
        """(end fields sorted and capped, coins kept) -> (coins gained net of a purchase, the split,
        gain + the child's bound), for the children whose bound passes ``bound.keep``.

        ``later``: the seat's cards per bean in the batches after this one. A field left with two
        or more cards of a bean with none to come is parked: harvesting it now instead pays the
        same, sooner, and leaves an empty field, which does anything the parked one does (it is
        harvestable under H4 whenever the parked one is not in the way). So such splits are not
        moves: kept fields of those beans stay at one card, and their final groups hold one."""
        rules = self.rules
        cost = rules.cost
        full = [i for i, (_, n) in enumerate(fields) if n]
        empties = len(fields) - len(full)
        can_buy = cost is not None and len(fields) == 2
        beans = sorted({b for b, x in counts.items() if x} | {fields[i][0] for i in full})
        out: dict[tuple[Fields, int], tuple[int, Raw, int]] = {}
        seen: set[tuple[Field, ...]] = set()
        for mask in range(1 << len(full)):
            kept = [full[i] for i in range(len(full)) if mask >> i & 1]
            if any(fields[i][1] >= 2 and not later.get(fields[i][0]) for i in kept):
                continue  # parked
            harvested = [full[i] for i in range(len(full)) if not mask >> i & 1]
            sig = tuple(fields[i] for i in kept)
            if sig in seen:
                continue  # the same roles on equal fields
            seen.add(sig)
            kept_beans = {fields[i][0] for i in kept}
            free0 = empties + len(harvested)
            if rules.strict:
                allow1 = all(fields[i][1] == 1 for i in kept)
            else:
                allow1 = all(fields[i][1] <= 1 for i in kept)
            for buy in (("", "early" if free0 == 0 else "late") if can_buy else ("",)):
                if buy == "early" and ck < (cost or 0):
                    continue
                free = free0 + (buy != "")
                if free == 0 and any(x and b not in kept_beans for b, x in counts.items()):
                    continue
                self._combine(fields, ck, counts, later, beans, kept, harvested, free, buy, allow1,
                              bound, out)
        return out

    def _options(self, b: int, kept: list[int], harvested: tuple[int, ...], c: int, parked: bool,
                 allow1: bool, free: int, bound: ChildBound,
                 ) -> dict[tuple[Fields, int, Key], tuple[int, Choice, tuple[int, ...]]]:
        """Bean b's part of a split: (its end fields, its final groups, H4 key) -> (coins, the
        choice, its part of the child's bound per price). ``kept``: the counts of its kept fields."""
        cap = self.cap
        table = self.rest(b, harvested, c, allow1, free > 0)
        opts: dict[tuple[Fields, int, Key], tuple[int, Choice, tuple[int, ...]]] = {}
        for tops in ([(0,) * len(kept)] if parked else _splits(len(kept), c)):
            used = sum(tops)
            ends = [(b, cap(b, n + t)) for n, t in zip(kept, tops, strict=True)]
            for fin in _groups(free, min(c - used, free) if parked else c - used, 1 if parked else c):
                x = c - used - sum(fin)
                if not table[x]:
                    continue
                items = tuple(sorted(ends + [(b, cap(b, g)) for g in fin]))
                adj = bound.adj(b, tuple(n for _, n in items))
                for k, (v, _, _) in table[x].items():
                    okey = (items, len(fin), k)
                    old = opts.get(okey)
                    if old is None or v > old[0]:
                        opts[okey] = (v, (b, tops, fin, x, k), tuple(SCALE * v + a for a in adj))
        return opts

    def _combine(self, fields: Fields, ck: int, counts: Mapping[int, int], later: Mapping[int, int],
                 beans: list[int], kept: list[int], harvested: list[int], free: int, buy: str,
                 allow1: bool, bound: ChildBound,
                 out: dict[tuple[Fields, int], tuple[int, Raw, int]]) -> None:
        """Every split of the batch's beans under fixed roles, combined bean by bean and keyed by
        the fields they leave (a dict per step keeps the best of equal keys). The child's bound is
        a sum over beans (``_Search.upper``), so a partial split whose bound, with the best of
        every bean still to come, cannot pass ``bound.keep`` is dropped at once."""
        rules = self.rules
        cost = rules.cost or 0
        const = [c - (SCALE * cost if buy else spare)
                 for c, spare in zip(bound.const, bound.spare, strict=True)]
        per_bean: list[dict[tuple[Fields, int, Key], tuple[int, Choice, tuple[int, ...]]]] = []
        for b in beans:
            kb = [i for i in kept if fields[i][0] == b]
            hb = tuple(fields[i][1] for i in harvested if fields[i][0] == b)
            okey = (bound.batch, b, tuple(fields[i][1] for i in kb), hb, allow1, free)
            got = self.options.get(okey)
            if got is None:
                got = self.options[okey] = self._options(b, [fields[i][1] for i in kb], hb, counts.get(b, 0),
                                                         not later.get(b), allow1, free, bound)
            if not got:
                return
            per_bean.append(got)
        # the best each bean still to come can add, per price
        rest = [[0] * len(const) for _ in range(len(per_bean) + 1)]
        for i in range(len(per_bean) - 1, -1, -1):
            tops_i = [max(o[2][p] for o in per_bean[i].values()) for p in range(len(const))]
            rest[i] = [a + t for a, t in zip(rest[i + 1], tops_i, strict=True)]
        keep = bound.keep
        # the price whose bound is the least: each bean's options by their part of it, best first,
        # so that the pairs below stop at the first that cannot pass it
        main = min(range(len(const)), key=lambda p: const[p] + rest[0][p])
        if const[main] + rest[0][main] < keep:
            return
        # key: (end fields of the beans so far, final groups so far, H4 key) -> (coins, choices, scores)
        acc: dict[tuple[Fields, int, Key], tuple[int, tuple[Choice, ...], tuple[int, ...]]] = {
            ((), 0, 0): (0, (), tuple(0 for _ in const))}
        strict = rules.strict
        for i, opts in enumerate(per_bean):
            floor = [keep - c - r for c, r in zip(const, rest[i + 1], strict=True)]
            ranked = sorted(((sc2[main], nf2, items2, k2, v2, ch2, sc2)
                             for (items2, nf2, k2), (v2, ch2, sc2) in opts.items()), key=lambda o: -o[0])
            nxt: dict[tuple[Fields, int, Key], tuple[int, tuple[Choice, ...], tuple[int, ...]]] = {}
            for (items, nf, k), (v, ch, sc) in acc.items():
                need = floor[main] - sc[main]
                room = free - nf
                for top, nf2, items2, k2, v2, ch2, sc2 in ranked:
                    if top < need:
                        break  # and every later option of this bean
                    if nf2 > room:
                        continue
                    both = tuple(map(add, sc, sc2))
                    if not all(map(ge, both, floor)):
                        continue  # its bound cannot pass
                    key = (items + items2, nf + nf2, _add(k, k2) if strict else 0)
                    was = nxt.get(key)
                    if was is None or v + v2 > was[0]:
                        nxt[key] = (v + v2, ch + (ch2,), both)
            acc = nxt
        n_end = len(fields) + (buy != "")
        events_f = len(fields) + (buy == "early")
        for (items, nf, k), (v, ch, sc) in acc.items():
            if rules.strict and k >= 3 and (k % 3) + len(kept) + nf < events_f - 1:
                continue  # H4 strict: too few fillers to hold every field at one card
            if buy == "late" and ck + v < cost:
                continue
            end = tuple(sorted(items + (EMPTY,) * (n_end - len(items))))
            net = v - cost if buy else v
            ck2 = min(ck + v, cost) if (rules.cost is not None and n_end == 2) else 0
            best = out.get((end, ck2))
            if best is None or net > best[0]:
                ub = min(a + c for a, c in zip(sc, const, strict=True)) // SCALE
                out[(end, ck2)] = (net, (tuple(kept), tuple(harvested), ch, buy, allow1, free), ub)

    def split(self, fields: Fields, raw: Raw) -> Split:
        """A move's split, written out (only for the plan: moves keep it raw)."""
        kept, harvested, choices, buy, allow1, free = raw
        kept_t: list[tuple[int, int]] = []
        harv_t: list[tuple[int, int]] = []
        inner: list[tuple[int, int]] = []
        finals: list[tuple[int, int]] = []
        for b, tops, fin, x, k in choices:
            kb = [i for i in kept if fields[i][0] == b]
            kept_t += list(zip(kb, tops, strict=True))
            finals += [(b, g) for g in fin]
            hbi = [i for i in harvested if fields[i][0] == b]
            hb = tuple(fields[i][1] for i in hbi)
            _, htops, groups = self.rest(b, hb, x, allow1, free > 0)[x][k]
            harv_t += list(zip(hbi, htops, strict=True))
            inner += [(b, g) for g in groups]
        return Split(tuple(kept_t), tuple(harv_t), tuple(inner), tuple(finals), buy)


def _splits(k: int, most: int) -> list[tuple[int, ...]]:
    """Every k-tuple of non-negative counts with sum at most ``most``."""
    if k == 0:
        return [()]
    return [(t,) + rest for t in range(most + 1) for rest in _splits(k - 1, most - t)]


def _groups(k: int, most: int, size: int) -> list[tuple[int, ...]]:
    """Every multiset of at most k group sizes (each 1 to ``size``) with sum at most ``most``,
    largest first."""
    out: list[tuple[int, ...]] = [()]

    def go(prefix: tuple[int, ...], top: int, left: int) -> None:
        if len(prefix) == k:
            return
        for g in range(1, min(top, left) + 1):
            out.append(prefix + (g,))
            go(prefix + (g,), g, left - g)

    go((), size, most)
    return out


SCALE = 4  # the seat bound's unit: a quarter coin (``_Search.upper``)
UNIFORM = (0, 2, 4)  # uniform Lagrangian prices per boundary, in quarter coins, beside the tuned one
TUNING = 30  # subgradient steps that tune the per-boundary prices at the root


class _Search(MemoSearch[State, list[Split]]):
    """f(state) = the most coins the seat still makes from ``state`` (E3 included, purchases
    paid), by the shared branch and bound (solvers/flow/memo_search.py); children are made only above
    the threshold (``moves``), so those left out count as worth the threshold."""

    name = "the batch seat search"

    def __init__(self, rules: SeatRules, batches: Batches, max_states: int | None) -> None:
        super().__init__(max_states)
        self.rules = rules
        self.counts = [{b: x for b, x in c.items() if x} for _, _, c in batches]
        later: list[dict[int, int]] = [{} for _ in range(len(batches) + 1)]
        for j in range(len(batches) - 1, -1, -1):
            later[j] = dict(later[j + 1])
            for b, x in self.counts[j].items():
                later[j][b] = later[j].get(b, 0) + x
        self.later = later  # cards per bean in batches j..
        self.tables: dict[tuple[int, tuple[int, ...], int], int] = {}
        self.spans: dict[tuple[int, tuple[int, ...], int, int], int] = {}
        n = len(self.counts)
        self.prices: list[tuple[int, ...]] = [(0,) + (x,) * max(0, n - 1) for x in UNIFORM]
        self.base: list[list[int]] = []
        self.batch = _Batches(rules)
        self.made: dict[State, tuple[int, list[tuple[int, int, State, Raw]]]] = {}  # moves, by alpha

    def coins_key(self, fields: Fields, coins: int) -> int:
        cost = self.rules.cost
        return min(coins, cost) if cost is not None and len(fields) == 2 else 0

    def canon(self, fields: Sequence[Field]) -> Fields:
        return tuple(sorted((b, self.batch.cap(b, n)) if n else EMPTY for b, n in fields))

    def gain(self, b: int, mine: tuple[int, ...], n: int) -> int:
        """solvers.bounds.gain_table's U[n] for bean b, fields of b holding ``mine``."""
        key = (b, mine, n)
        got = self.tables.get(key)
        if got is None:
            got = self.tables[key] = gain_table(tuple(self.rules.payout[b]), list(mine), n)[n]
        return got

    def held(self, b: int, mine: tuple[int, ...], j: int, pi: int) -> int:
        """In quarter coins, the most bean b can pay from batch j on (its fields ``mine`` and
        its cards to come), less the price (``self.prices[pi]``) of every batch boundary one of
        its groups spans: the best cut of batches j.. into segments, each paying what
        gain_table gives its cards."""
        key = (b, mine, j, pi)
        got = self.spans.get(key)
        if got is None:
            got = self.spans[key] = self._cut(b, mine, j, self.prices[pi])[0]
        return got

    def _cut(self, b: int, mine: tuple[int, ...], j: int, price: Sequence[int]) -> tuple[int, list[int]]:
        """``held`` for one price vector (price[t]: boundary t, between batches t - 1 and t),
        with the boundaries the best cut holds b across."""
        n = len(self.counts)
        if n <= j:
            return SCALE * self.gain(b, mine, 0), []
        acc = [0] * (n + 1)  # acc[t]: the prices of boundaries 1..t
        for t in range(1, n):
            acc[t] = acc[t - 1] + price[t]
        best: list[tuple[int, int]] = [(0, j)] * (n + 1)
        for k in range(j + 1, n + 1):
            best[k] = max((best[i][0] + SCALE * self.gain(b, mine if i == j else (), self.between(b, i, k))
                           - (acc[k - 1] - acc[i] if k - 1 > i else 0), i) for i in range(j, k))
        held: list[int] = []
        k = n
        while k > j:
            i = best[k][1]
            held += range(i + 1, k)
            k = i
        return best[n][0], held

    def tune(self, root: State) -> None:
        """Per-boundary prices for the root, by subgradient steps on the Lagrangian dual (a
        boundary held by more beans than the seat can have fields gets dearer, one held by
        fewer cheaper); the best vector found joins the uniform ones. Then each price vector's
        part of the bound that does not depend on the fields, per batch."""
        j, fields, _ = root
        n = len(self.counts)
        fcount = len(fields) if self.rules.cost is None else 3  # the most at a boundary
        beans = set(self.later[j]) | {b for b, c in fields if c}
        mine = {b: tuple(c for fb, c in fields if fb == b and c) for b in beans}
        price = [0] + [2] * max(0, n - 1)
        best: tuple[int, tuple[int, ...]] | None = None
        step, stale = 4, 0
        for it in range(TUNING if n > j + 1 else 0):
            total = self.room(len(fields), sum(price[j + 1:]))
            used = [0] * n
            for b in sorted(beans):
                v, held = self._cut(b, mine[b], j, price)
                total += v
                for t in held:
                    used[t] += 1
            if best is None or total < best[0]:
                best, stale = (total, tuple(price)), 0
            else:
                stale += 1
            if stale >= 6 or all(used[t] <= fcount and (used[t] == fcount or price[t] == 0)
                                 for t in range(j + 1, n)):
                break  # optimal for the dual (no boundary over capacity, none priced idle) or stuck
            price = [0] + [max(0, price[t] + step * (used[t] - fcount)) for t in range(1, n)]
            if it % 10 == 9:
                step = max(1, step // 2)
        if best is not None and best[1] not in self.prices:
            self.prices.append(best[1])
        self.base = [[sum(self.held(b, (), k, pi) for b in row) for pi in range(len(self.prices))]
                     for k, row in enumerate(self.later)]

    def room(self, nfields: int, tail: int) -> int:
        """The capacity's part of the Lagrangian bound over boundaries priced ``tail`` in all:
        each field pays the prices; a third field that may still be bought is worth them less
        its price (F1: bought once, its coins gone), or nothing."""
        cost = self.rules.cost
        if cost is None or nfields >= 3:
            return nfields * tail
        return 2 * tail + max(0, tail - SCALE * cost)

    def tail(self, pi: int, j: int) -> int:
        """The prices of the boundaries after batch j (j + 1 .. the last)."""
        return sum(self.prices[pi][j + 1:])

    def between(self, b: int, i: int, k: int) -> int:
        """The seat's cards of bean b in batches i..k-1."""
        return self.later[i].get(b, 0) - self.later[k].get(b, 0)

    def upper(self, st: State) -> int:
        """C1 per bean over the fields and every card still to come, H4 ignored; capacity
        (H2, F1) by a Lagrangian price per bean held on a field across a batch boundary: at
        most as many beans as the seat can have fields are held at a boundary, so any price
        >= 0 gives a bound; the least of a few prices is kept."""
        j, fields, _ = st
        bounds = []
        for pi in range(len(self.prices)):
            total = self.base[j][pi] + self.room(len(fields), self.tail(pi, j))
            seen = -1
            for b, n in fields:  # sorted: the fields of a bean are together
                if n and b != seen:
                    seen = b
                    mine = tuple(c for fb, c in fields if fb == b)
                    total += self.held(b, mine, j, pi) - self.held(b, (), j, pi)
            bounds.append(total)
        return min(bounds) // SCALE

    def moves(self, st: State, alpha: int) -> list[tuple[int, int, State, Raw]]:
        """(gain + the child's bound, gain, child, split) for the children whose bound is above
        ``alpha``, best bound first. Kept per state with the alpha they were made for."""
        got = self.made.get(st)
        if got is not None and got[0] <= alpha:
            return [m for m in got[1] if m[0] > alpha]
        j, fields, ck = st
        prices = range(len(self.prices))

        def adj(b: int, mine: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(self.held(b, mine, j + 1, p) - self.held(b, (), j + 1, p) for p in prices)

        tails = [self.tail(p, j + 1) for p in prices]
        buyable = self.rules.cost is not None and len(fields) == 2
        bound = ChildBound(j, tuple(self.base[j + 1][p] + self.room(3 if buyable else len(fields), tails[p])
                                    for p in prices),
                           tuple(self.room(3, t) - self.room(2, t) if buyable else 0 for t in tails),
                           adj, SCALE * (alpha + 1))
        moves = self.batch.moves(fields, ck, self.counts[j], self.later[j + 1], bound)
        out = [(ub, gain, (j + 1, end, ck2), raw) for (end, ck2), (gain, raw, ub) in moves.items()]
        out.sort(key=lambda m: (-m[0], -m[1], m[2]))  # deterministic: ties by state
        self.made[st] = (alpha, out)
        return out

    def leaf(self, st: State) -> int | None:
        j, fields, _ = st
        if j < len(self.counts):
            return None
        return sum(self.rules.pay(b, n) for b, n in fields if n)  # E3 harvests every field, without H4

    def children(self, st: State, alpha: int) -> tuple[list[tuple[int, int, State]], bool]:
        return [(ub, gain, child) for ub, gain, child, _ in self.moves(st, alpha)], False

    def plan(self, st: State) -> list[Split]:
        """A best play's splits, batch by batch."""
        out: list[Split] = []
        target = self.value(st)
        while st[0] < len(self.counts):
            for _, gain, child, raw in self.moves(st, target - 1):
                if gain + self.search(child, target - gain - 1) == target:
                    out.append(self.batch.split(st[1], raw))
                    st, target = child, target - gain
                    break
            else:
                raise SolveError("internal error: the batch seat search lost its plan")
        return out


class _Board:
    """A seat's real fields as a plan is written out: every step checked (H3, H4, F1)."""

    def __init__(self, rules: SeatRules, fields: Sequence[Field], coins: int) -> None:
        self.rules = rules
        self.fl: list[Field] = [(b, n) for b, n in fields]
        self.coins = coins
        self.ops: list[Op] = []
        self.turn, self.phase = 0, 1

    def _fail(self, what: str) -> SolveError:
        return SolveError(f"internal error: the batch seat plan {what} (fields {self.fl})")

    def plant(self, f: int, b: int, n: int = 1) -> None:
        for _ in range(n):
            fb, c = self.fl[f]
            if c and fb != b:
                raise self._fail(f"plants bean {b} on field {f} (H3)")
            self.fl[f] = (b, c + 1)
            self.ops.append(Op("plant", f, b, self.turn, self.phase))

    def harvest(self, f: int) -> None:
        fields: Fields = tuple(self.fl)
        if not self.rules.harvestable(fields, f):
            raise self._fail(f"harvests field {f} against H4")
        b, c = self.fl[f]
        self.coins += self.rules.pay(b, c)
        self.fl[f] = EMPTY
        self.ops.append(Op("harvest", f, 0, self.turn, self.phase))

    def buy(self) -> None:
        cost = self.rules.cost
        if cost is None or len(self.fl) != 2 or self.coins < cost:
            raise self._fail("buys the third field against F1")
        self.coins -= cost
        self.fl.append(EMPTY)
        self.ops.append(Op("buy", 0, 0, self.turn, self.phase))

    def empty(self, taken: set[int] = frozenset()) -> int:  # type: ignore[assignment]
        for f, (_, c) in enumerate(self.fl):
            if c == 0 and f not in taken:
                return f
        raise self._fail("has no free field")

    def play(self, start: Sequence[int], split: Split) -> None:
        """Write out one batch in an order that makes it legal (module docstring): ``start``
        maps the split's sorted start fields to real field indices."""
        strict = self.rules.strict
        kept = [(start[i], t) for i, t in split.kept]
        harvested = [(start[i], self.fl[start[i]][1], t) for i, t in split.harvested]
        ones = [b for b, g in split.inner if g == 1]
        bigs = [(b, g) for b, g in split.inner if g >= 2]
        pinned = [f for f, n, t in harvested if n == 1 and t == 0]
        late: list[tuple[int, int]] = []  # strict: one-card fields held as fillers, harvested later
        if strict and (pinned or ones):
            need = len(self.fl) + (split.buy == "early") - 1 - len(kept)
            late = [(f, t) for f, n, t in harvested if n == 1 and t][:max(0, need)]
        for f, n, t in harvested:  # harvests of two or more first
            if t and (f, t) not in late:
                self.plant(f, self.fl[f][0], t)
            if n + t >= 2 and (f, t) not in late:
                self.harvest(f)
        if split.buy == "early":
            self.buy()
        placed: dict[int, tuple[str, int, int]] = {}  # field -> (kind, bean, cards) begun
        finals = list(split.finals)
        if strict and (pinned or ones):
            self._events(pinned, ones, bigs, finals, kept, late, placed)
        else:
            for f in pinned:
                self.harvest(f)
            for b in ones:
                f = self.empty()
                self.plant(f, b)
                self.harvest(f)
        for f, (kind, b, g) in list(placed.items()):
            if kind == "inner":
                self.plant(f, b, g - 1)
                self.harvest(f)
                del placed[f]
        for f, t in late:
            self.plant(f, self.fl[f][0], t)
            self.harvest(f)
        for b, g in bigs:
            f = self.empty(set(placed))
            self.plant(f, b, g)
            self.harvest(f)
        if split.buy == "late":
            self.buy()
        for f, t in kept:
            self.plant(f, self.fl[f][0], t)
        for f, (_, b, g) in placed.items():
            self.plant(f, b, g - 1)
        for b, g in finals:
            self.plant(self.empty(set(placed)), b, g)

    def _events(self, pinned: list[int], ones: list[int], bigs: list[tuple[int, int]],
                finals: list[tuple[int, int]], kept: list[tuple[int, int]], late: list[tuple[int, int]],
                placed: dict[int, tuple[str, int, int]]) -> None:
        """H4 strict: the one-card harvests, every field at one card at each. F - 1 fillers stay
        on the board (kept one-card fields, one-card fields harvested later, first cards of
        inner groups of 2+ and of final groups); the other field cycles through the events."""
        pinned, ones = list(pinned), list(ones)
        fillers = len(kept) + len(late)
        while pinned or ones or any(p[0] == "one" for p in placed.values()):
            if all(c == 1 for _, c in self.fl):
                f = pinned.pop(0) if pinned else next((f for f in placed if placed[f][0] == "one"), -1)
                if f < 0:
                    raise self._fail("holds only fillers at one card (H4 strict)")
                placed.pop(f, None)
                self.harvest(f)
                continue
            f = self.empty(set(placed))
            if fillers < len(self.fl) - 1 and (bigs or finals):
                kind, (b, g) = ("inner", bigs.pop(0)) if bigs else ("final", finals.pop(0))
                placed[f] = (kind, b, g)
                fillers += 1
            elif ones:
                placed[f] = ("one", ones.pop(0), 1)
            else:
                raise self._fail("runs out of cards to hold the fields at one (H4 strict)")
            self.plant(f, placed[f][1])


def solve_seat(rules: SeatRules, fields: Sequence[Field], coins: int, batches: Batches,
               max_states: int | None = None) -> SeatResult:
    """The seat's best field play over ``batches`` ((turn, kind, bean -> count), kind "p1a",
    "p1b" or "p3"), from ``fields`` (2 or 3, the third owned) and ``coins``, with a plan.
    TooLarge past ``max_states`` states expanded (None: no limit)."""
    batches = [bt for bt in batches if any(bt[2].values())]
    search = _Search(rules, batches, max_states)
    root_fields = search.canon(fields)
    root: State = (0, root_fields, search.coins_key(root_fields, coins))
    search.tune(root)
    value, splits = search.solve(root, coins)
    board = _Board(rules, fields, coins)
    for (turn, kind, _), split in zip(batches, splits, strict=True):
        board.turn, board.phase = turn, 1 if kind in ("p1a", "p1b") else 3
        order = sorted(range(len(board.fl)), key=lambda f: search.canon([board.fl[f]]))
        board.play(order, split)
    end = board.coins + sum(rules.pay(b, n) for b, n in board.fl if n)
    if end != value:
        raise SolveError(f"internal error: the batch seat plan makes {end}, the search {value}")
    return SeatResult(value, board.ops, search.expanded)


def solve_seat_in(s: GameState, q: int, batches: Batches, max_states: int | None = None) -> SeatResult:
    """Seat ``q`` of ``s`` (its fields and coins now) over ``batches``."""
    pl = s.players[q]
    fields = tuple((f.bean, f.count) if f.count else EMPTY for f in pl.fields)
    return solve_seat(SeatRules.of(s), fields, len(pl.coins), batches, max_states)


__all__ = ["SeatResult", "Split", "TooLarge", "solve_seat", "solve_seat_in"]
