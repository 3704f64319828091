"""What the cross-check's position makers share (solvers/cross_check.py and every expansion's):
the plan of rulesets and player counts, the seeded generator that skips a cut whose game ends too
early, and exact search's time limit per position."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from solvers.positions import PositionInputError

PLAN = [("rio-grande", 3), ("rio-grande", 4), ("rio-grande", 5), ("amigo", 3), ("amigo", 4), ("amigo", 5)]
TRIES_PER_POSITION = 100  # games cut per position asked, at most (a cut fails when its game ends early)
EXACT_SECONDS = 60.0  # exact search's time limit per position: past it the position is too large

Item = tuple[str, Any, int]  # (label, position, P)


def seeded(count: int, seed: int, what: str, one: Callable[[random.Random, int], Item]) -> list[Item]:
    """``count`` items ``one(rng, k)`` from one seeded generator; a cut whose game ends too early
    (PositionInputError) is skipped, at most ``TRIES_PER_POSITION * count`` tries in all."""
    rng = random.Random(seed)
    out: list[Item] = []
    tries = 0
    while len(out) < count:
        tries += 1
        if tries > TRIES_PER_POSITION * count:
            raise PositionInputError(f"cross-check: {tries - 1} {what} (seed {seed}) and only {len(out)} "
                                     "reached the cut")
        try:
            out.append(one(rng, len(out)))
        except PositionInputError:
            continue
    return out
