"""Perft: the number of distinct legal action sequences of a given length from a position.

Granularity (docs/conformance.md): one step is one engine action exactly as ``legal_actions`` lists
it. A chance node (a reshuffle is due, E1) and the end of the game are leaves: they count 1 and the
sequence stops there. Depth 0 counts 1.
"""

from __future__ import annotations

from model.actions import format_action
from model.engine import apply, legal_actions
from model.state import GameState, Phase

LEAF_PHASES = (Phase.CHANCE, Phase.OVER)


def perft(s: GameState, depth: int) -> int:
    """Sequences of ``depth`` actions from ``s``; chance nodes and the game's end are leaves (count 1)."""
    if depth == 0 or s.phase in LEAF_PHASES:
        return 1
    acts = legal_actions(s)
    if depth == 1:
        return len(acts)  # every action ends a sequence of length 1, whatever it leads to
    return sum(perft(apply(s, a, False), depth - 1) for a in acts)


def divide(s: GameState, depth: int) -> list[tuple[str, int]]:
    """(first action in notation, sequences starting with it), in ``legal_actions`` order; they sum
    to ``perft(s, depth)``. Empty at a leaf or at depth 0."""
    if depth == 0 or s.phase in LEAF_PHASES:
        return []
    return [(format_action(a), perft(apply(s, a, False), depth - 1)) for a in legal_actions(s)]
