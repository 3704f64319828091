"""Upper bounds on the coins still to be made, from the beanometer alone (C1).

Shared by the exact search (to prune) and the CP-SAT models (as redundant cuts). Both must stay
upper bounds: tests/test_bounds.py checks them against solved positions.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache


def gain_table(row: tuple[int, ...], fields: list[int], most: int) -> list[int]:
    """U[n]: the most coins one seat can make from one bean with ``n`` more cards of it, given its
    fields of that bean now (``fields``: their counts): extra cards topping up those fields or
    forming new groups, every group harvested once (C1). Field capacity, H3 and H4 are ignored,
    so U is an upper bound."""
    def pay(c: int) -> int:
        return row[min(c, len(row) - 1)]

    groups = [0] * (most + 1)  # best split of n new cards into groups
    for n in range(1, most + 1):
        groups[n] = max(pay(g) + groups[n - g] for g in range(1, n + 1))
    best = groups[:]  # best[n]: n cards over the fields seen so far and new groups
    for c in fields:
        best = [max(pay(c + a) + best[n - a] for a in range(n + 1)) for n in range(most + 1)]
    return best


@cache
def best_split(row: tuple[int, ...], n: int) -> int:
    """The most ``n`` cards of one bean pay split into groups each sold once (C1): ``gain_table``
    with no field, cached (the Isla searches ask it at every bound)."""
    return gain_table(row, [], n)[n]


def hull(values: list[int]) -> list[tuple[Fraction, Fraction]]:
    """The segments (slope, intercept) of the least concave majorant of ``values`` on 0..n."""
    pts: list[tuple[int, int]] = []
    for x, y in enumerate(values):
        while len(pts) >= 2 and (pts[-1][1] - pts[-2][1]) * (x - pts[-1][0]) <= \
                (y - pts[-1][1]) * (pts[-1][0] - pts[-2][0]):
            pts.pop()
        pts.append((x, y))
    if len(pts) == 1:
        return [(Fraction(0), Fraction(pts[0][1]))]
    out = []
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        slope = Fraction(y1 - y0, x1 - x0)
        out.append((slope, y0 - slope * x0))
    return out
