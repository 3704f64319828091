"""Exact search for open endgames, driven by the engine (every move is an engine action).

``solo P`` (DESIGN.md, "The endgame problems"): no trades for anyone; maximise P's final coins.
Outside the duel the others' choices cannot change P's cards: every turn turns up and draws a fixed
number of cards from a known pile, and without trades nothing passes between players. So the other
seats follow a fixed default policy, and P's future depends only on P's own zones and the time.

Search: depth-first over P's legal actions (no proposals), with a transposition table keyed by
the time (cards left, seat and phase) and P's zones, fields in canonical order (field order does
not matter, H2). The table stores values only; the principal line is rebuilt by following the
children whose value equals the parent's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from model import Action, EndPhase, GameState, Phase, apply, legal_actions
from model.actions import Decline, Harvest, Plant, PlantAside, Propose
from solvers.positions import in_final_pass


class SolveError(ValueError):
    """The position does not fit the objective (one line, the rule or reason)."""


@dataclass
class Solution:
    objective: str
    player: int
    value: int  # the objective's value: P's final coins for solo
    line: list[Action]
    per_player: list[int]  # every seat's final coins after the line
    status: str = "optimal"
    stats: dict[str, float] = field(default_factory=dict)


def default_policy(s: GameState) -> Action:
    """What a seat other than P does in ``solo``: never trades; plants where its front card fits
    (onto its own type first); harvests only when nothing fits, the fullest field first."""
    p = s.to_move
    if s.phase == Phase.TRADE:  # before listing moves: a trading phase lists every proposal
        return Decline(p) if s.pending is not None else EndPhase(p)
    acts = legal_actions(s)
    fields = s.players[p].fields
    plants = [a for a in acts if isinstance(a, (Plant, PlantAside))]
    if plants:
        return max(plants, key=lambda a: (fields[a.field].count, -a.field))
    if any(isinstance(a, EndPhase) for a in acts):
        return EndPhase(p)
    harvests = [a for a in acts if isinstance(a, Harvest)]
    if harvests:
        return max(harvests, key=lambda a: (fields[a.field].count, -a.field))
    return acts[0]


def _key(s: GameState, p: int) -> tuple[object, ...]:
    pl = s.players[p]
    first = pl.fields[s.first_field] if s.planted == 1 and s.active == p and s.first_field >= 0 else None
    return (len(s.draw), s.active, s.phase, s.to_move, s.planted, first,  # V2: the field, not its index
            s.face_up if s.active == p else (), pl.hand, tuple(sorted(pl.fields)), len(pl.coins), pl.aside,
            len(pl.fields))


class SoloSearch:
    """Maximise seat ``player``'s final coins without trades."""

    def __init__(self, player: int, policy: Callable[[GameState], Action] = default_policy) -> None:
        self.player = player
        self.policy = policy
        self.table: dict[tuple[object, ...], int] = {}
        self.nodes = 0

    def choices(self, s: GameState) -> list[Action]:
        """P's moves: every legal action but deals; in trading, only ending it (T5)."""
        if s.phase == Phase.TRADE:
            return [Decline(s.to_move)] if s.pending is not None else [EndPhase(s.to_move)]
        return [a for a in legal_actions(s) if not isinstance(a, Propose)]

    def value(self, s: GameState) -> int:
        p = self.player
        while s.phase != Phase.OVER and s.to_move != p:  # the others' forced moves
            if s.phase == Phase.CHANCE:
                raise SolveError("a reshuffle lies ahead: open endgames need the final pass (E2)")
            s = apply(s, self.policy(s), check=False)
        if s.phase == Phase.OVER:
            return len(s.players[p].coins)
        key = _key(s, p)
        hit = self.table.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        best = max(self.value(apply(s, a, check=False)) for a in self.choices(s))
        self.table[key] = best
        return best

    def line(self, s: GameState) -> tuple[list[Action], GameState]:
        """The principal line from ``s`` (every seat's moves) and the final state."""
        target = self.value(s)
        out: list[Action] = []
        while s.phase != Phase.OVER:
            if s.to_move != self.player:
                a = self.policy(s)
            else:
                a = next(a for a in self.choices(s) if self.value(apply(s, a, check=False)) == target)
            out.append(a)
            s = apply(s, a)  # checked: the line must be legal
        return out, s


def solve_solo(s: GameState, player: int | None = None) -> Solution:
    """The optimal ``solo`` value and line for ``player`` (default: the seat to move)."""
    if s.setup.duel:
        raise SolveError("solo does not apply to the bean duel (D1): use duel")
    if not in_final_pass(s):
        raise SolveError(f"a reshuffle lies ahead (exhaustion {s.exhaustions} of "
                         f"{s.setup.final_exhaustion}): open endgames need the final pass (E2)")
    p = s.to_move if player is None else player
    if not 0 <= p < len(s.players):
        raise SolveError(f"--player {p}: there are {len(s.players)} seats")
    t0 = time.perf_counter()
    search = SoloSearch(p)
    value = search.value(s)
    line, end = search.line(s)
    coins = [len(pl.coins) for pl in end.players]
    if coins[p] != value:
        raise SolveError(f"internal error: the replayed line gives {coins[p]} coins, the search {value}")
    seconds = time.perf_counter() - t0
    return Solution("solo", p, value, line, coins,
                    stats={"nodes": search.nodes, "seconds": seconds, "table": len(search.table)})
