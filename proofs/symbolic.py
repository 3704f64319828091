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

# Symbolic integers are Z3 Ints, or bit-vectors of this width when set (bit-blasting decides the
# counting arguments of card conservation far faster; every value stays far from overflow).
_WIDTH = {"bits": 0}


def use_bitvectors(bits: int) -> None:
    """0: unbounded Ints; otherwise signed bit-vectors of ``bits`` bits for new variables."""
    _WIDTH["bits"] = bits


def int_var(name: str) -> Any:
    bits = _WIDTH["bits"]
    return z3.BitVec(name, bits) if bits else z3.Int(name)


def _const(x: int) -> Any:
    bits = _WIDTH["bits"]
    return z3.BitVecVal(x, bits) if bits else z3.IntVal(x)


def is_concrete(*xs: Any) -> bool:
    return all(isinstance(x, (int, bool)) for x in xs)


def ite(c: Cond, a: Any, b: Any) -> Any:
    if isinstance(c, bool):
        return a if c else b
    if isinstance(a, bool) and isinstance(b, bool):
        return z3.If(c, z3.BoolVal(a), z3.BoolVal(b))
    if isinstance(a, int) and isinstance(b, int):
        return z3.If(c, _const(a), _const(b))
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
    """A bounded sequence: ``n`` items in ``slots`` (capacity ``len(slots)``); index 0 first."""

    slots: tuple[Val, ...]
    n: Val

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

    def drop_front(self) -> Seq:
        if self.concrete:
            return Seq(self.items()[1:], self.n - 1)
        return Seq(self.slots[1:] + (FILL,), self.n - 1)

    def drop_back(self, k: Val) -> Seq:
        if self.concrete and isinstance(k, int):
            return Seq(self.slots[: max(self.n - k, 0)], self.n - k)
        return Seq(self.slots, self.n - k)

    def push_back(self, x: Val) -> Seq:
        if self.concrete:
            return Seq(self.items() + (x,), self.n + 1)
        return Seq(tuple(ite(self.n == i, x, s) for i, s in enumerate(self.slots)), self.n + 1)

    def push_copies(self, x: Val, k: Val) -> Seq:
        """Append ``k`` copies of ``x``."""
        n = self.n
        if self.concrete and isinstance(k, int):
            return Seq(self.items() + (x,) * max(k, 0), n + k)
        return Seq(tuple(ite(all_of(n <= i, i < n + k), x, s) for i, s in enumerate(self.slots)), n + k)

    def push_range(self, other: Seq, start: Val, k: Val) -> Seq:
        """Append ``other[start : start + k]``, in order."""
        n = self.n
        if self.concrete and isinstance(k, int) and isinstance(start, int):
            return Seq(self.items() + tuple(other.at(start + j) for j in range(k)), n + k)
        return Seq(tuple(ite(all_of(n <= i, i < n + k), other.at(start + (i - n)), s)
                         for i, s in enumerate(self.slots)), n + k)

    def remove_sorted(self, positions: list[Val], k: Val) -> Seq:
        """Remove the first ``k`` of ``positions`` (strictly increasing); the rest keep their order."""
        if self.concrete and isinstance(k, int) and all(isinstance(q, int) for q in positions[:k]):
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
        return Seq(tuple(out), self.n - k)

    def count(self, b: Val) -> Val:
        if self.concrete and isinstance(b, int) and is_concrete(*self.items()):
            return self.items().count(b)
        return count_if([all_of(i < self.n, s == b) for i, s in enumerate(self.slots)])

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


def seq_var(name: str, cap: int) -> Seq:
    return Seq(tuple(int_var(f"{name}[{i}]") for i in range(cap)), int_var(f"{name}.n"))


def seq_of(values: tuple[int, ...] | list[int], cap: int | None = None) -> Seq:
    cap = len(values) if cap is None else cap
    if len(values) > cap:
        raise ValueError(f"{len(values)} items exceed the capacity {cap}")
    return Seq(tuple(values) + (FILL,) * (cap - len(values)), len(values))
