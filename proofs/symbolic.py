"""Hybrid values for the spec: Python ints/bools when concrete, Z3 terms when symbolic.

The spec is written once with these helpers. On a concrete state they evaluate in Python (fast
successors for the engine-vs-spec check); with Z3 variables they build formulas (proofs, and the
enumeration of legal actions with blocking clauses). Sequences are bounded: a fixed number of
slots and a length; slots at or past the length are "don't care" and never compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

Val = Any  # int | z3.ArithRef
Cond = Any  # bool | z3.BoolRef
FILL = -1  # the value of slots past a sequence's length

# (operation, capacity) pairs used on sequences with ghost tallies: proofs.ghost proves each exact.
GHOST_USES: set[tuple[str, int]] = set()


def int_var(name: str) -> Any:
    return z3.Int(name)


def is_concrete(*xs: Any) -> bool:
    return all(isinstance(x, (int, bool)) for x in xs)


def ite(c: Cond, a: Any, b: Any) -> Any:
    if isinstance(c, bool):
        return a if c else b
    if isinstance(a, bool) and isinstance(b, bool):
        return z3.If(c, z3.BoolVal(a), z3.BoolVal(b))
    if isinstance(a, int) and isinstance(b, int):
        return z3.If(c, z3.IntVal(a), z3.IntVal(b))
    return z3.If(c, a, b)


def all_of(*cs: Cond) -> Cond:
    out: list[Any] = []
    for c in cs:
        if c is False:
            return False
        if c is not True:
            out.append(c)
    if not out:
        return True
    return out[0] if len(out) == 1 else z3.And(*out)


def any_of(*cs: Cond) -> Cond:
    out: list[Any] = []
    for c in cs:
        if c is True:
            return True
        if c is not False:
            out.append(c)
    if not out:
        return False
    return out[0] if len(out) == 1 else z3.Or(*out)


def neg(c: Cond) -> Cond:
    return (not c) if isinstance(c, bool) else z3.Not(c)


def implies(a: Cond, b: Cond) -> Cond:
    return any_of(neg(a), b)


def total(xs: list[Val]) -> Val:
    acc: Val = 0
    for x in xs:
        acc = acc + x
    return acc


def count_if(cs: list[Cond]) -> Val:
    return total([ite(c, 1, 0) for c in cs])


def select(slots: list[Val], i: Val, default: Val = FILL) -> Val:
    """``slots[i]`` for a symbolic index (an if-chain); ``default`` when out of range."""
    if isinstance(i, int):
        return slots[i] if 0 <= i < len(slots) else default
    out = default
    for k in range(len(slots) - 1, -1, -1):
        out = ite(i == k, slots[k], out)
    return out


@dataclass(frozen=True)
class Seq:
    """A bounded sequence: ``n`` items in ``slots`` (capacity ``len(slots)``); index 0 first.

    ``tally`` is an optional ghost for the proofs: the number of cards of each bean id, updated by
    every operation with a short formula (``+ [x == b]`` for a push, ...) instead of being recounted
    over the slots. ``ok`` collects the preconditions under which those formulas are exact (each
    operation's formula is proved exact by ``proofs.ghost``), so card conservation becomes linear
    arithmetic over the tallies instead of a comparison of counting circuits.
    """

    slots: tuple[Val, ...]
    n: Val
    tally: tuple[Val, ...] | None = None
    ok: Cond = True

    @property
    def cap(self) -> int:
        return len(self.slots)

    def at(self, i: Val) -> Val:
        return select(list(self.slots), i)

    @property
    def concrete(self) -> bool:
        """Length known: the items can be handled as a Python tuple (no capacity limit)."""
        return isinstance(self.n, int)

    def items(self) -> tuple[Val, ...]:
        assert isinstance(self.n, int)
        return self.slots[: self.n]

    def _next(self, op: str, slots: tuple[Val, ...], n: Val, delta: Any, pre: Cond) -> Seq:
        """The result of operation ``op``: ghost tally ``tally[b] + delta(b)``; ``pre`` its
        precondition. Each (operation, capacity) used with a tally is recorded in GHOST_USES."""
        if self.tally is None:
            return Seq(slots, n)
        GHOST_USES.add((op, self.cap))
        tally = tuple(t + delta(b) for b, t in enumerate(self.tally))
        ok = all_of(self.ok, self.in_bounds(), pre, n >= 0, n <= len(slots))
        return Seq(slots, n, tally, ok)

    def drop_front(self) -> Seq:
        if self.concrete and self.tally is None:
            return Seq(self.items()[1:], self.n - 1)
        first = self.slots[0] if self.slots else FILL
        return self._next("drop_front", self.slots[1:] + (FILL,), self.n - 1,
                          lambda b: neg_count(first == b), self.n >= 1)

    def drop_back(self, k: Val) -> Seq:
        if self.concrete and isinstance(k, int) and self.tally is None:
            return Seq(self.slots[: max(self.n - k, 0)], self.n - k)
        if self.tally is not None and not isinstance(k, int):
            return Seq(self.slots, self.n - k)  # no ghost for a symbolic count
        gone = [self.at(self.n - 1 - j) for j in range(k)] if self.tally is not None else []
        return self._next(f"drop_back({k})", self.slots, self.n - k,
                          lambda b: neg_count(*[x == b for x in gone]), all_of(k >= 0, k <= self.n))

    def push_back(self, x: Val) -> Seq:
        if self.concrete and self.tally is None:
            return Seq(self.items() + (x,), self.n + 1)
        slots = tuple(ite(self.n == i, x, s) for i, s in enumerate(self.slots))
        return self._next("push_back", slots, self.n + 1, lambda b: count_if([x == b]), True)

    def push_front(self, x: Val) -> Seq:
        """Insert ``x`` before the first item (used only by a mutant: H1 forbids it)."""
        if self.concrete and self.tally is None:
            return Seq((x,) + self.items(), self.n + 1)
        return self._next("push_front", (x,) + self.slots[:-1], self.n + 1,
                          lambda b: count_if([x == b]), True)

    def push_copies(self, x: Val, k: Val) -> Seq:
        """Append ``k`` copies of ``x``."""
        n = self.n
        if self.concrete and isinstance(k, int) and self.tally is None:
            return Seq(self.items() + (x,) * max(k, 0), n + k)
        slots = tuple(ite(all_of(n <= i, i < n + k), x, s) for i, s in enumerate(self.slots))
        return self._next("push_copies", slots, n + k, lambda b: ite(x == b, k, 0), k >= 0)

    def push_range(self, other: Seq, start: Val, k: Val) -> Seq:
        """Append ``other[start : start + k]``, in order."""
        n = self.n
        if self.concrete and isinstance(k, int) and isinstance(start, int) and self.tally is None:
            return Seq(self.items() + tuple(other.at(start + j) for j in range(k)), n + k)
        slots = tuple(ite(all_of(n <= i, i < n + k), other.at(start + (i - n)), s)
                      for i, s in enumerate(self.slots))
        if self.tally is not None and not isinstance(k, int):
            return Seq(slots, n + k)
        moved = [other.at(start + j) for j in range(k)] if self.tally is not None else []
        return self._next(f"push_range({k},{other.cap})", slots, n + k,
                          lambda b: count_if([x == b for x in moved]), k >= 0)

    def remove_sorted(self, positions: list[Val], k: Val) -> Seq:
        """Remove the first ``k`` of ``positions`` (strictly increasing); the rest keep their order."""
        if (self.concrete and isinstance(k, int) and all(isinstance(q, int) for q in positions[:k])
                and self.tally is None):
            gone = set(positions[:k])
            return Seq(tuple(x for i, x in enumerate(self.items()) if i not in gone), self.n - k)
        out = []
        kmax = len(positions)
        for i in range(self.cap):
            shift = count_if([all_of(j < k, positions[j] - j <= i) for j in range(kmax)])
            if isinstance(shift, int):
                out.append(self.at(i + shift) if i + shift < self.cap else FILL)
            else:
                out.append(select([self.at(i + s) if i + s < self.cap else FILL
                                   for s in range(kmax + 1)], shift))
        used = [j < k for j in range(kmax)]
        pre = all_of(k >= 0, k <= kmax,
                     *[implies(used[j], all_of(positions[j] >= 0, positions[j] < self.n))
                       for j in range(kmax)],
                     *[implies(used[j], positions[j] > positions[j - 1]) for j in range(1, kmax)])
        gone_cards = [(used[j], self.at(positions[j])) for j in range(kmax)] if self.tally is not None else []
        return self._next(f"remove_sorted({kmax})", tuple(out), self.n - k,
                          lambda b: neg_count(*[all_of(u, x == b) for u, x in gone_cards]), pre)

    def emptied(self) -> Seq:
        """No items (same capacity); the tally is all zeros."""
        if self.tally is None:
            return Seq(self.slots, 0)
        GHOST_USES.add(("emptied", self.cap))
        return Seq(self.slots, 0, (0,) * len(self.tally), True)

    def count(self, b: Val) -> Val:
        if self.concrete and isinstance(b, int) and is_concrete(*self.items()):
            return self.items().count(b)
        return count_if([all_of(i < self.n, s == b) for i, s in enumerate(self.slots)])

    def tally_of(self, b: int) -> Val:
        """The ghost count of bean ``b`` when tracked, else the real count."""
        return self.count(b) if self.tally is None else self.tally[b]

    def in_bounds(self) -> Cond:
        return all_of(self.n >= 0, self.n <= self.cap)

    def same(self, other: Seq) -> Cond:
        """Equal as sequences (lengths and the first ``n`` items)."""
        parts = [self.n == other.n]
        for i in range(min(self.cap, other.cap)):
            parts.append(implies(i < self.n, self.slots[i] == other.slots[i]))
        for i in range(other.cap, self.cap):
            parts.append(i >= self.n)
        for i in range(self.cap, other.cap):
            parts.append(i >= other.n)
        return all_of(*parts)


def neg_count(*cs: Cond) -> Val:
    """Minus the number of true conditions."""
    return 0 - count_if(list(cs))


def pick_seq(c: Cond, a: Seq, b: Seq) -> Seq:
    """``a`` if ``c`` else ``b``, slot by slot (and tally by tally)."""
    if isinstance(c, bool):
        return a if c else b
    cap = max(a.cap, b.cap)
    sa = a.slots + (FILL,) * (cap - a.cap)
    sb = b.slots + (FILL,) * (cap - b.cap)
    slots = tuple(ite(c, x, y) for x, y in zip(sa, sb, strict=True))
    if a.tally is None or b.tally is None:
        return Seq(slots, ite(c, a.n, b.n))
    GHOST_USES.add((f"pick_seq({b.cap})", a.cap))
    tally = tuple(x if x is y else ite(c, x, y) for x, y in zip(a.tally, b.tally, strict=True))
    return Seq(slots, ite(c, a.n, b.n), tally, any_of(all_of(c, a.ok), all_of(neg(c), b.ok)))


def seq_var(name: str, cap: int, tally: int = 0) -> Seq:
    """A symbolic sequence; with ``tally`` > 0, ghost counts for bean ids ``0..tally-1``."""
    ghost = tuple(int_var(f"{name}.t{b}") for b in range(tally)) if tally else None
    return Seq(tuple(int_var(f"{name}[{i}]") for i in range(cap)), int_var(f"{name}.n"), ghost)


def seq_of(values: tuple[int, ...] | list[int], cap: int | None = None) -> Seq:
    cap = len(values) if cap is None else cap
    if len(values) > cap:
        raise ValueError(f"{len(values)} items exceed the capacity {cap}")
    return Seq(tuple(values) + (FILL,) * (cap - len(values)), len(values))
