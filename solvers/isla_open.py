"""Exact ``coop`` and ``best`` search on La Isla Bohnita positions (I1-I9; issue 41 item 2), driven by
the engine.

The base game's open search (``solvers.exact.OpenSearch``: every seat's decision is a choice, a
deal is one move, the deals of a run in canonical partner order, branch and bound) with the
expansion's moves. Isla's phase 2 mixes trading with ship moves, loading, sales, purchases,
attacks and planting the turned-up cards (I3-I7), in any order and repeatedly: at a trading node
every legal action but a bare proposal is a move, and so is every deal; after a move that is not
a deal the partner order starts again (deals commute with each other, not with the rest). An
attacked seat answers as it likes (sell or yield, I7): in ``coop`` and ``best`` nobody plays a fixed
policy, so a pirate attacks only where the objective gains by it.

``best P``'s floors are each seat's Isla ``solo`` optimum (``solvers.isla_exact``: against the
default policy, docs/endgames.md), as the base game's are its solo optima.

The table is keyed by the whole state but the discard pile and which cards the coins are (no
future depends on them in the final pass, E2), the fields in their own order: no reduction but
the base game's canonical order of deals and the Isla solo search's one (a whole cargo never moves
onto an empty merchant ship in the same port: it only renames the two ships, and such moves form
cycles, I6). The bound counts every card on the table per bean as
groups each sold once (C1 for a field, I6 for a cargo: both pay by the beanometer), any card able
to reach any group: a harvest can join a field to a cargo (I5), a pirate takes cargo (I7) and a
deal moves hand cards (I3). Coins come from nothing else; purchases only spend them.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

from console.progress import ProgressFn
from model import Action, GameState, Phase, legal_actions
from model.actions import Propose
from model.isla import isla_of
from solvers.bounds import gain_table
from solvers.contract import OBJECTIVES, Budget, Limits, Objective, Solution, SolveError
from solvers.exact import Move, OpenSearch, _full_key, final_pass_player, iter_deals, open_solution
from solvers.isla_exact import renames, solve_isla_solo


def check_isla_open(s: GameState, objective: str, player: int | None) -> int:
    """P (default: the seat to move) if ``s`` suits an Isla ``coop`` or ``best`` search: La Isla
    Bohnita, not its duel (I9), in the final pass (E2, I8); a SolveError in one line otherwise."""
    if s.setup.expansion != "isla":
        raise SolveError(f"the Isla {objective} search covers La Isla Bohnita positions (isla=true, I1-I9) "
                         "only")
    if s.setup.duel:
        raise SolveError(f"{objective} does not apply to the Isla duel (I9)")
    return final_pass_player(s, player)


class IslaOpenSearch(OpenSearch):
    """``coop`` or ``best P`` on an Isla position (module docstring); ``line`` rebuilds the
    principal line, replayed with checks."""

    def __init__(self, objective: str, player: int, floors: list[int] | None, budget: Budget,
                 ordered: bool = True, bound: bool = True) -> None:
        super().__init__(objective, player, floors, budget=budget)
        self.ordered = ordered  # the deals of a run in partner order (off: the reference for tests)
        self.bound = bound  # ``upper`` (off: no cut, no order by it: the reference for tests)
        self._splits: dict[tuple[int, int], int] = {}

    def key(self, s: GameState) -> tuple[object, ...]:
        """The base game's key (fields in canonical order, H2; the draw pile by its size, which
        only shrinks from the top, also into the rows: I2) and the expansion's whole state."""
        return _full_key(s), s.ext

    def trading(self, s: GameState) -> bool:
        """Every phase-2 node searched child by child (``_trading``); a pending offer or attack is
        answered as a placing node is searched, best bound first."""
        return s.phase == Phase.TRADE and s.pending is None and isla_of(s).attack is None

    def moves(self, s: GameState, last: int) -> Iterable[tuple[Move, int]]:
        if not self.trading(s):
            return [((a,), -1) for a in legal_actions(s) if not renames(s, a)]
        return self._phase2(s, last)

    def _phase2(self, s: GameState, last: int) -> Iterator[tuple[Move, int]]:
        """The moves of a phase-2 node: every legal action but a bare proposal (the order starts
        again after it), then the deals with partners from ``last`` on (I3, T3)."""
        acts: list[Action] = [a for a in legal_actions(s, proposals=False)
                              if not isinstance(a, Propose) and not renames(s, a)]
        for a in acts:
            yield (a,), -1
        for m in iter_deals(s, self.budget.check):
            if m[0].partner >= last or not self.ordered:
                yield m, m[0].partner if self.ordered else -1

    def upper(self, s: GameState) -> int:
        """Coins won (every seat's for ``coop``, P's for ``best``) plus, per bean, the most all its
        cards on the table (fields, ships, hands, set aside, face up, the draw pile, the rows) could
        pay as groups each sold once (C1, I6; module docstring)."""
        if not self.bound:
            return 10**9
        cards: dict[int, int] = {}

        def add(b: int, n: int = 1) -> None:
            cards[b] = cards.get(b, 0) + n

        for pl in s.players:
            for f in pl.fields:
                if f.count:
                    add(f.bean, f.count)
            for b in pl.hand + pl.aside:
                add(b)
        isla = isla_of(s)
        for fleet in isla.fleets:
            for _, ship in fleet.ships():
                if ship.count:
                    add(ship.bean, ship.count)
        for zone in (s.face_up, s.draw, *isla.rows):
            for b in zone:
                add(b)
        seats = s.players if not self.goal.needs_player else (s.players[self.player],)
        return sum(len(pl.coins) for pl in seats) + sum(self._split(s, b, n) for b, n in cards.items())

    def _split(self, s: GameState, b: int, n: int) -> int:
        hit = self._splits.get((b, n))
        if hit is None:
            hit = self._splits[(b, n)] = gain_table(s.setup.payout[b], [], n)[n]
        return hit


def solve_isla_open(s: GameState, objective: str, player: int | None = None,
                    budget: Budget | None = None) -> Solution:
    """The optimal Isla ``coop`` or ``best`` value and line; ``best``'s floors (each seat's Isla solo
    optimum) within the same budget."""
    goal = OBJECTIVES.get(objective)
    if goal is None or not goal.trades:
        raise SolveError(f"objective {objective!r}: the Isla open search solves coop and best")
    p = check_isla_open(s, objective, player)
    budget = budget or Budget(f"Isla {objective} search")
    t0 = time.perf_counter()
    floors = None
    if goal.floors:
        floors = [solve_isla_solo(s, q, budget).value for q in range(len(s.players))]
    return open_solution(IslaOpenSearch(objective, p, floors, budget), s, t0)


def reference_open(s: GameState, objective: str, player: int, floors: list[int] | None = None,
                   node_limit: int | None = None) -> int:
    """The value by a reference search for tests: deals in any order, no bound."""
    check_isla_open(s, objective, player)
    search = IslaOpenSearch(objective, player, floors, Budget("reference Isla open search", node_limit),
                            ordered=False, bound=False)
    return search.value(s)


def solve(s: GameState, objective: Objective, player: int | None, limits: Limits,
          progress: ProgressFn | None) -> Solution:
    """Isla exact search behind the one solver signature (``solvers.contract.Solver``): ``coop`` and
    ``best``."""
    budget = Budget(f"Isla {objective.name} search", limits.nodes, limits.time, progress)
    return solve_isla_open(s, objective.name, player, budget)
