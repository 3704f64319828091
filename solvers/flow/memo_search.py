"""The branch and bound both seat searches share (solvers/flow/seat_dp.py a card per move,
solvers/flow/seat_batch.py a batch per move): f(state) = the most still to make from a state, depth
first, with a memo of proved (lower, upper) bounds per state and aspiration from the bound down.

A subclass gives the bound (``upper``, at least f), the value of a final state (``leaf``) and a
state's children (``children``: (gain + the child's bound, gain, child), best first). A child
left out of ``children(st, alpha)`` must be worth at most alpha; the stored upper bound of a state
counts them so (``complete`` False), or only the children listed when they are all there.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import Generic, TypeVar

S = TypeVar("S", bound=Hashable)
P = TypeVar("P")  # a plan: the moves from a state to its value


class TooLarge(Exception):
    """The search passed its state limit (a deterministic work limit, not a clock). ``bound``:
    the most the seat can still make, as far as the search had proved it (coins included once
    the solver has seen it)."""

    def __init__(self, message: str, bound: int) -> None:
        super().__init__(message)
        self.bound = bound


class MemoSearch(ABC, Generic[S, P]):
    """Depth-first branch and bound over states ``S`` with a memo of proved bounds."""

    name = "the seat search"  # for TooLarge's message

    def __init__(self, max_states: int | None) -> None:
        self.max_states = max_states
        self.memo: dict[S, tuple[int, int]] = {}
        self.expanded = 0

    @abstractmethod
    def upper(self, st: S) -> int:
        """At least f(st)."""

    @abstractmethod
    def leaf(self, st: S) -> int | None:
        """f(st) when nothing is left to play, else None."""

    @abstractmethod
    def children(self, st: S, alpha: int) -> tuple[Sequence[tuple[int, int, S]], bool]:
        """(gain + the child's bound, gain, child), best first; and whether every child is listed
        (if not, those left out are worth at most ``alpha``)."""

    def search(self, st: S, alpha: int) -> int:
        """f(st) if it is above ``alpha``; else an upper bound on f(st) of at most ``alpha``."""
        lo, hi = self.memo.get(st, (-1, -1))
        if hi < 0:
            hi = self.upper(st)
        if lo == hi or hi <= alpha:
            return hi
        v = self.leaf(st)
        if v is not None:
            self.memo[st] = (v, v)
            return v
        self.expanded += 1
        if self.max_states is not None and self.expanded > self.max_states:
            raise TooLarge(f"{self.name} passed {self.max_states} states", -1)
        kids, complete = self.children(st, alpha)
        best = -1  # the best value found (exact), -1: none above the threshold yet
        top = -1 if complete else alpha  # the most any child may still give (a proved upper bound)
        for ub, gain, child in kids:
            bar = max(alpha, best)
            if ub <= bar:
                top = max(top, ub)
                continue
            got = gain + self.search(child, bar - gain)
            if got > bar:
                best = got
            top = max(top, got)
        if best > alpha:
            self.memo[st] = (best, best)
            return best
        self.memo[st] = (lo, min(hi, top))
        return min(hi, top)

    def value(self, st: S) -> int:
        """f(st), exact: aspiration from the bound down (each failure lowers the bound)."""
        hi = self.upper(st)
        while True:
            try:
                v = self.search(st, hi - 1)
            except TooLarge as e:
                e.bound = hi  # every failed aspiration so far proved f(st) <= hi
                raise
            if v >= hi:
                return v
            hi = v

    @abstractmethod
    def plan(self, st: S) -> P:
        """The moves that reach f(st) (the memo holds it exact by then)."""

    def solve(self, root: S, coins: int) -> tuple[int, P]:
        """(coins + f(root), its plan). TooLarge carries the bound proved with the coins added,
        or the exact value when only the plan was missing."""
        try:
            value = coins + self.value(root)
        except TooLarge as e:
            e.bound += coins
            raise
        try:
            return value, self.plan(root)
        except TooLarge as e:
            e.bound = value  # exact already: only the plan is missing
            raise


__all__ = ["MemoSearch", "TooLarge"]
