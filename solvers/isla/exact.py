"""Exact ``solo`` search on La Isla Bohnita positions (I1-I9; issue 41 item 2), driven by the engine.

``solo P`` (docs/endgames.md, "La Isla Bohnita"): no trades; P's final coins, cargo sold at the end
(E3, I8); every other seat follows ``isla_policy``, a fixed default policy. Unlike the base game the
others can reach P: their pirates attack P's merchant ships (I7). ``solo`` reads the default
policy's choice, not the worst case: a seat with a pirate ship attacks in its phase 2 while it can,
the fullest cargo first; P answers an attack as it likes (sell or yield, a choice of the search).
The rows (I2) change only by P's sails and the refills from the fixed draw pile, since the policy
never sails.

Search: depth-first over P's legal actions but proposals (ships, sales, purchases, harvests onto
ships, plantings in any order in phase 2: I3-I7), with a table keyed by the time, P's zones (fields
in canonical order, H2), every fleet, the rows and the turn's Isla counters. The key and one
reduction are each tested against ``reference_solo`` (the whole state as the key; no reduction):
a whole cargo is never moved onto an empty merchant ship in the same port, which only renames P's
two merchant ships (I1, I6: they are alike, and the policy picks its target by cargo, not by ship
number); without it those moves form cycles. Branch and bound with ``upper`` (every card that can
still be P's, split into groups at the beanometer's best: at least the optimum, tested with
hypothesis against the search without it); the table keeps exact values and bounds apart. This
module imports ``model`` and the bottom of ``solvers`` only (``contract``, ``bounds``, ``exact``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from console.progress import ProgressFn
from model import Action, EndPhase, GameState, Phase, apply, legal_actions
from model.actions import Decline, Propose
from model.isla import isla_of
from model.isla.actions import PIRATE, Attack, MoveCargo
from model.isla.moves import defence, sea_actions
from solvers.bounds import best_split
from solvers.contract import (
    DEFAULT_LIMITS,
    RESHUFFLE_AHEAD,
    SOLO,
    Budget,
    Limits,
    Objective,
    Solution,
    SolveError,
    calls,
)
from solvers.exact import SoloSearch, default_policy, final_pass_player, hand_reach, solo_solution

NEG = -(10**9)


def isla_policy(s: GameState) -> Action:
    """What a seat other than P does in Isla ``solo``: answers an attack on its ship by selling the
    cargo when it pays, else yields a card (I7); in its own phase 2 its pirate attacks while it can,
    the fullest cargo first (ties: the lower seat, then the lower bean: never the ship's number);
    otherwise the base default policy (never trades, never sails, buys or loads a ship)."""
    isla = isla_of(s)
    if isla.attack is not None:
        return defence(s)[0]  # the sale first when it pays
    p = s.to_move
    if s.phase == Phase.TRADE and s.pending is None and p == s.active and isla.fleets[p].pirate is not None:
        targets = [a for a in sea_actions(s, p) if isinstance(a, Attack)]
        if targets:
            return max(targets, key=lambda a: _target_rank(s, a))
        return EndPhase(p)
    return default_policy(s)


def _target_rank(s: GameState, a: Attack) -> tuple[int, int, int]:
    ship = isla_of(s).fleets[a.target].merchants[a.ship]
    return ship.count, -a.target, -ship.bean


def check_isla_solo(s: GameState, player: int | None) -> int:
    """P (default: the seat to move) if ``s`` suits Isla ``solo``: La Isla Bohnita, not its duel
    (I9), in the final pass (E2, I8); a SolveError in one line otherwise."""
    if s.setup.expansion != "isla":
        raise SolveError("the Isla solo search covers La Isla Bohnita positions (isla=true, I1-I9) only")
    if s.setup.duel:
        raise SolveError("solo does not apply to the Isla duel (I9)")
    return final_pass_player(s, player)


def renames(s: GameState, a: Action) -> bool:
    """A whole cargo moved onto an empty merchant ship in the same port (I6): the two merchant
    ships swap names, nothing else changes."""
    if not isinstance(a, MoveCargo) or a.source == PIRATE:
        return False
    target = isla_of(s).fleets[a.player].merchants[a.target]
    return target.count == 0


def isla_key(s: GameState, p: int) -> tuple[object, ...]:
    """What P's future depends on: the time, P's zones (fields in canonical order, H2; V2's first
    field as a field), the face-up cards in P's turns, every fleet (the policy's attacks read them,
    I7), the rows and the turn's counters. Not the others' hands, fields and coins: the policy
    plays them without touching P, a ship or a row."""
    pl = s.players[p]
    first = pl.fields[s.first_field] if s.planted == 1 and s.active == p and s.first_field >= 0 else None
    isla = isla_of(s)
    return (len(s.draw), s.active, s.phase, s.to_move, s.planted, first, s.final, s.todo,
            s.face_up if s.active == p else (), pl.hand, tuple(sorted(pl.fields)), len(pl.fields),
            len(pl.coins), pl.aside, isla.fleets, isla.rows, isla.attacked, isla.attack, isla.captured,
            isla.sails)


def whole_key(s: GameState) -> tuple[object, ...]:
    """The whole state but the discard pile and which cards the coins are: in the final pass neither
    is drawn again (E2), so no future depends on them (the references' key)."""
    seats = tuple((pl.hand, pl.fields, len(pl.coins), pl.aside) for pl in s.players)
    return s._replace(discard=(), players=()), seats


class IslaSoloSearch(SoloSearch):
    """Maximise seat ``player``'s final coins without trades, the others playing ``policy``
    (``SoloSearch.line`` rebuilds the principal line, replayed with checks).

    The references to test the fast search against (``reference_solo``): ``full_key``, the table
    keyed by the whole state (``whole_key``) instead of ``isla_key``; ``reduce`` off, every cargo
    move made, so moving cargo back and forth makes cycles: a state met again on the path is a
    dead end (a best line never repeats a state), and a value is stored only if no cut below it
    reached a state above it on the path."""

    def __init__(self, player: int, budget: Budget, policy: Callable[[GameState], Action] = isla_policy,
                 full_key: bool = False, reduce: bool = True, bound: bool = True) -> None:
        super().__init__(player, policy, budget=budget)
        self.full_key = full_key
        self.reduce = reduce
        self.bound = bound
        self.caps: dict[tuple[object, ...], int] = {}  # upper bounds of values not found exactly
        self.path: dict[tuple[object, ...], int] = {}  # the states on the path, by depth
        self.low = 1 << 30  # ``reduce`` off: the shallowest path state a cycle cut reached

    def choices(self, s: GameState) -> list[Action]:
        """P's moves: every legal action but proposals (no trades); an offer is declined."""
        if s.phase == Phase.TRADE and s.pending is not None:
            return [Decline(s.to_move)]
        acts: list[Action] = [a for a in legal_actions(s, proposals=False) if not isinstance(a, Propose)]
        if self.reduce:
            acts = [a for a in acts if not renames(s, a)]
        return acts

    def settle(self, s: GameState) -> GameState:
        """The others' moves up to P's next decision or the end."""
        p = self.player
        while s.phase != Phase.OVER and s.to_move != p:
            if s.phase == Phase.CHANCE:
                raise SolveError(RESHUFFLE_AHEAD)
            s = apply(s, self.policy(s), check=False)
        return s

    def upper(self, s: GameState) -> int:
        """P's coins plus, per bean, the most coins every card of it that can still be P's could pay
        split into groups, each sold once (C1, I6): P's fields, ships, the hand cards phase 1 can
        still plant (``hand_reach``: refills only shorten the game, I2) and set-aside cards, the
        face-up cards, the draw pile, the rows (I4) and the others' merchant cargo (a pirate may take
        it, I7). Purchases only spend coins and a yield only loses a card, so it is an upper bound."""
        p = self.player
        pl = s.players[p]
        isla = isla_of(s)
        cards: dict[int, int] = {}
        for f in pl.fields:
            if f.count:
                cards[f.bean] = cards.get(f.bean, 0) + f.count
        for q, fleet in enumerate(isla.fleets):
            for i, ship in fleet.ships():
                if ship.count and (q == p or i != PIRATE):
                    cards[ship.bean] = cards.get(ship.bean, 0) + ship.count
        for zone in (pl.hand[:hand_reach(s, p)], pl.aside, s.face_up, s.draw, *isla.rows):
            for b in zone:
                cards[b] = cards.get(b, 0) + 1
        return len(pl.coins) + sum(self._split(s, b, n) for b, n in cards.items())

    def root_bound(self, s: GameState) -> int | None:
        """``upper``: every card that can still be P's, at the beanometer's best."""
        return self.upper(s)

    def _split(self, s: GameState, b: int, n: int) -> int:
        return best_split(s.setup.payout[b], n)

    def value(self, s: GameState, alpha: int = NEG) -> int:
        """P's best final coins from ``s`` if above ``alpha``; otherwise a number <= ``alpha`` that
        bounds them from above (branch and bound with ``upper``, when ``bound`` is on)."""
        p = self.player
        s = self.settle(s)
        if s.phase == Phase.OVER:
            return len(s.players[p].coins)
        key = whole_key(s) if self.full_key else isla_key(s, p)
        hit = self.table.get(key)
        if hit is not None:
            return hit
        cap = self.caps.get(key)
        if cap is not None and cap <= alpha:
            return cap
        if key in self.path:
            if self.reduce:  # the reduction leaves no cycle
                raise SolveError("internal error: the Isla solo search met a cycle of states")
            self.low = min(self.low, self.path[key])
            return NEG  # a best line never repeats a state
        top = self.upper(s) if self.bound else -NEG
        if top <= alpha:
            return top
        self.nodes += 1
        self.budget.node()
        depth = self.path[key] = len(self.path)
        outer, self.low = self.low, depth
        best = NEG
        try:
            for a in self.choices(s):
                best = max(best, self.value(apply(s, a, check=False), max(alpha, best)))
                if best >= top:
                    break  # no other move can beat it
        finally:
            del self.path[key]
        inner, self.low = self.low, min(outer, self.low)
        if inner >= depth:  # no cycle cut below reached above this node
            if best > alpha:
                self.table[key] = best  # exact
            else:
                self.caps[key] = best  # every child bounded at most alpha: an upper bound
        return best


def solve_isla_solo(s: GameState, player: int | None = None, limits: Limits = DEFAULT_LIMITS,
                    progress: ProgressFn | None = None, budget: Budget | None = None) -> Solution:
    """The optimal Isla ``solo`` value and line for ``player`` (default: the seat to move), within
    ``limits`` (nodes and seconds), or on a shared ``budget`` instead."""
    p = check_isla_solo(s, player)
    t0 = time.perf_counter()
    return solo_solution(IslaSoloSearch(p, budget or limits.clock("Isla solo search", progress)), s, t0)


def reference_solo(s: GameState, player: int | None = None, full_key: bool = True, reduce: bool = True,
                   bound: bool = False, node_limit: int | None = None) -> int:
    """The value by a reference search for tests: the table keyed by the whole state (``full_key``),
    without the reduction (``reduce`` off), without the bound (``bound`` off)."""
    p = check_isla_solo(s, player)
    budget = Budget("reference Isla solo search", node_limit)
    return IslaSoloSearch(p, budget, full_key=full_key, reduce=reduce, bound=bound).value(s)


@calls(solve_isla_solo)
def solve(s: GameState, objective: Objective, player: int | None, limits: Limits,
          progress: ProgressFn | None) -> Solution:
    """Isla exact search behind the one solver signature (``solvers.contract.Solver``): ``solo``."""
    if objective is not SOLO:
        raise SolveError(f"{objective.name}: exact search on La Isla Bohnita positions solves solo only")
    return solve_isla_solo(s, player, limits, progress)
