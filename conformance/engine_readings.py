"""Readings: which documented option values explain another engine best.

RULES.md leaves some choices open and the engine offers them as options (docs/rules.md): when the
discard pile is reshuffled (E1), the tie-break (E4), H4 lenient or strict, the starting fields and
the third field's cost (F1). An engine built on one reading diverges from ours under the others;
``rank`` plays the same games under each reading and orders them by agreement over whole games:
the games compared to their end, then the steps of each game compared before a divergence that
parts the engines (a state or refused one: it ends the comparison of the game, so counting
divergences alone would rank first a reading that breaks every game at once), summed, then by the
divergences found. Readings that score alike are ties (``tied``), reported as such, never as an order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

READINGS: tuple[dict[str, Any], ...] = (
    {}, {"reshuffle": "on-demand"}, {"tie_break": "hand"}, {"tie_break": "seat"}, {"tie_break": "none"},
    {"harvest": "strict"}, {"fields": 2}, {"fields": 3}, {"third_field_cost": 2}, {"third_field_cost": 3},
)


def rank(count: Callable[[dict[str, Any]], tuple[int, ...]],
         readings: tuple[dict[str, Any], ...] = READINGS) -> list[tuple[dict[str, Any], int, int, int, int]]:
    """(reading, divergences, games played, steps agreed, games agreed to the end) for each reading:
    most games agreed to the end first, then most steps agreed, then fewest divergences (ties: in the
    order given). ``count(reading)`` plays the run's games with those option values forced:
    (divergences, games) or (divergences, games, steps agreed, games agreed to the end)."""
    scored = []
    for reading in readings:
        n, games, *more = count(reading)
        agreed, whole = more if more else (0, 0)
        scored.append((reading, n, games, agreed, whole))
    return sorted(scored, key=lambda r: (-r[4], -r[3], r[1]))


def tied(ranked: list[tuple[dict[str, Any], int, int, int, int]]) -> list[bool]:
    """For each ranked reading, whether it scores as the one before it (the same games agreed to the
    end, steps agreed and divergences): nothing in the games played separates the two."""
    return [k > 0 and (r[1], r[3], r[4]) == (ranked[k - 1][1], ranked[k - 1][3], ranked[k - 1][4])
            for k, r in enumerate(ranked)]
