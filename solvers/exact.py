"""Exact search for open endgames, driven by the engine (every move is an engine action).

``solo P`` (docs/endgames.md, "Objectives"): no trades for anyone; maximise P's final coins.
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
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from itertools import chain, combinations

from console.progress import ProgressFn
from model import Action, EndPhase, GameState, Phase, apply, legal_actions
from model.actions import Accept, Decline, Harvest, Plant, PlantAside, Propose
from model.engine import give_options
from model.errors import ArgumentError
from solvers.bounds import gain_table
from solvers.contract import (
    DEFAULT_LIMITS,
    RESHUFFLE_AHEAD,
    SOLO,
    Budget,
    Limits,
    NodeLimitExceeded,
    Objective,
    SearchLimitExceeded,
    Solution,
    SolveError,
    SolveStats,
    Status,
    base_game_only,
    calls,
)
from solvers.positions import in_final_pass


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


def hand_reach(s: GameState, p: int) -> int:
    """At least as many as P's hand cards that can still be planted, in the final pass without trades.

    Only phase 1 takes hand cards, at most two a turn from the front (T1), and no turn starts after
    the final exhaustion (E2). Each turn takes ``face_up`` cards and draws (T2, T7): at most
    ``ceil(len(draw) / per_turn) + 1`` more turns start, every n-th of them P's (also with E1
    on-demand, whose one extra turn, when the pile runs out at the end of a draw, is in the + 1).
    The cards behind this prefix never leave the hand and score nothing (E3), so the future does
    not depend on them.
    """
    su = s.setup
    n = len(s.players)
    per_turn = su.face_up + (n if su.rules.draw_each and not su.duel else su.draw)
    if per_turn <= 0 or su.duel:
        return len(s.players[p].hand)
    now = 2 - s.planted if s.active == p and s.phase == Phase.PLANT else 0
    return now + _future_plantings(len(s.draw), per_turn, n, (p - s.active) % n)


@lru_cache(maxsize=4096)
def _future_plantings(draw: int, per_turn: int, n: int, offset: int) -> int:
    """Two for each later turn of the seat ``offset`` seats after the active one, among the at most
    ``ceil(draw / per_turn) + 1`` turns that can still start."""
    turns = -(-draw // per_turn) + 1
    return 2 * sum(1 for t in range(1, turns + 1) if t % n == offset)


def _key(s: GameState, p: int) -> tuple[object, ...]:
    pl = s.players[p]
    first = pl.fields[s.first_field] if s.planted == 1 and s.active == p and s.first_field >= 0 else None
    return (len(s.draw), s.active, s.phase, s.to_move, s.planted, first,  # V2: the field, not its index
            s.face_up if s.active == p else (), pl.hand[:hand_reach(s, p)], tuple(sorted(pl.fields)),
            len(pl.coins), pl.aside, len(pl.fields))


class SoloSearch:
    """Maximise seat ``player``'s final coins without trades."""

    def __init__(self, player: int, policy: Callable[[GameState], Action] = default_policy,
                 node_limit: int | None = None, budget: Budget | None = None) -> None:
        self.player = player
        self.policy = policy
        self.table: dict[tuple[object, ...], int] = {}
        self.nodes = 0
        # NodeLimitExceeded past ``node_limit`` nodes (None: no limit), or the shared ``budget``'s limits
        self.budget = budget if budget is not None else Budget("solo search", node_limit)

    def root_bound(self, s: GameState) -> int | None:
        """A proved upper bound on P's coins from ``s`` for a search stopped by a limit (None: the
        base search keeps none)."""
        return None

    def choices(self, s: GameState) -> list[Action]:
        """P's moves: every legal action but deals; in trading, only ending it (T5)."""
        if s.phase == Phase.TRADE:
            return [Decline(s.to_move)] if s.pending is not None else [EndPhase(s.to_move)]
        return [a for a in legal_actions(s) if not isinstance(a, Propose)]

    def value(self, s: GameState) -> int:
        p = self.player
        while s.phase != Phase.OVER and s.to_move != p:  # the others' forced moves
            if s.phase == Phase.CHANCE:
                raise SolveError(RESHUFFLE_AHEAD)
            s = apply(s, self.policy(s), check=False)
        if s.phase == Phase.OVER:
            return len(s.players[p].coins)
        key = _key(s, p)
        hit = self.table.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        self.budget.node()
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


def open_player(s: GameState, objective: Objective, player: int | None) -> int:
    """Check that ``s`` suits an open objective outside the duel; P (default: the seat to move)."""
    return open_seat(s, objective.name, player)


def open_seat(s: GameState, what: str, player: int | None) -> int:
    """``open_player`` for an open search named ``what`` (an objective, or e.g. "the trade graph")."""
    base_game_only(s, f"the {what} search")
    if s.setup.duel:
        raise SolveError(f"{what} does not apply to the bean duel (D1): use duel")
    return final_pass_player(s, player)


def final_pass_player(s: GameState, player: int | None) -> int:
    """P (default: the seat to move) if ``s`` is in the final pass (E2) and P is a seat; a
    SolveError in one line otherwise."""
    if not in_final_pass(s):
        raise SolveError(f"a reshuffle lies ahead (exhaustion {s.exhaustions} of "
                         f"{s.setup.final_exhaustion}): open endgames need the final pass (E2)")
    p = s.to_move if player is None else player
    if not 0 <= p < len(s.players):
        raise ArgumentError("player", p, f"there are {len(s.players)} seats")
    return p


def solve_solo(s: GameState, player: int | None = None, limits: Limits = DEFAULT_LIMITS,
               progress: ProgressFn | None = None, budget: Budget | None = None) -> Solution:
    """The optimal ``solo`` value and line for ``player`` (default: the seat to move), within
    ``limits`` (nodes and seconds), or on a shared ``budget`` instead."""
    p = open_player(s, SOLO, player)
    t0 = time.perf_counter()
    search = SoloSearch(p, budget=budget or limits.clock("solo search", progress))
    return solo_solution(search, s, t0)


def solo_solution(search: SoloSearch, s: GameState, t0: float) -> Solution:
    """``search``'s value and principal line from ``s`` (replayed with checks) as a ``Solution``;
    its seconds counted from ``t0`` (``time.perf_counter``)."""
    p = search.player
    try:
        value = search.value(s)
    except SearchLimitExceeded as e:
        e.best = _default_line(search, s, t0, "nodes" if isinstance(e, NodeLimitExceeded) else "time")
        raise
    line, end = search.line(s)
    coins = [len(pl.coins) for pl in end.players]
    if coins[p] != value:
        raise SolveError(f"internal error: the replayed line gives {coins[p]} coins, the search {value}")
    seconds = time.perf_counter() - t0
    return Solution(SOLO, p, value, line, coins,
                    stats=SolveStats("exact", seconds, nodes=search.nodes, table=len(search.table)))


def policy_line(s: GameState, policy: Callable[[GameState], Action]) -> tuple[list[Action], list[int]]:
    """Every seat playing ``policy`` from ``s`` to the end of the game, replayed with checks: the
    line and every seat's final coins (a searcher's feasible answer past its limit)."""
    line: list[Action] = []
    while s.phase != Phase.OVER:
        if s.phase == Phase.CHANCE:
            raise SolveError(RESHUFFLE_AHEAD)
        a = policy(s)
        line.append(a)
        s = apply(s, a)  # checked: the line must be legal
    return line, [len(pl.coins) for pl in s.players]


def _default_line(search: SoloSearch, s: GameState, t0: float, stopped_by: str) -> Solution:
    """A solo search stopped by a limit: P playing the others' default policy too, as a feasible
    Solution with the search's proved bound at the root where it has one (``root_bound``)."""
    p = search.player
    line, coins = policy_line(s, search.policy)
    bound = search.root_bound(s)
    stats = SolveStats("exact", time.perf_counter() - t0, nodes=search.nodes, table=len(search.table),
                       stopped_by=stopped_by, bound=None if bound is None else float(bound))
    return Solution(SOLO, p, coins[p], line, coins, status=Status.FEASIBLE, stats=stats)


# ------------------------------------------------------------------ coop and best: every seat chooses


Move = tuple[Action, ...]  # one decision, or a whole deal (the proposal and its acceptance)


def deals(s: GameState, check: Callable[[], None] | None = None) -> list[tuple[Propose, Accept]]:
    """Every deal the active player can make now (T3), each as one move: what the active player
    gives (hand positions and face-up cards, at most ``max_deal_cards``), to whom, and which of
    the partner's hand cards come back (at most ``max_deal_cards``). Declined offers change
    nothing, so the search never makes one. ``check`` is called every so often (a budget)."""
    return list(iter_deals(s, check))


def iter_deals(s: GameState, check: Callable[[], None] | None = None) -> Iterator[tuple[Propose, Accept]]:
    """``deals`` one at a time, in the same order: a search that stops early (its node limit, or
    a child that reaches the node's bound) never lists the rest, tens of thousands at a
    trading node with real hands."""
    su = s.setup
    if su.duel or s.offers >= su.rules.max_offers:
        return
    k = su.rules.max_deal_cards
    a = s.active
    gives = give_options(s, k)
    for q in range(len(s.players)):
        if q == a:
            continue
        qhand = s.players[q].hand
        backs = [qs for size in range(min(k, len(qhand)) + 1) for qs in combinations(range(len(qhand)), size)]
        for hs, us in gives:
            if check is not None:
                check()
            for qs in backs:
                if hs or us or qs:
                    ask = tuple(sorted(qhand[i] for i in qs))
                    yield Propose(a, q, hs, us, ask), Accept(q, qs)


def _full_key(s: GameState) -> tuple[object, ...]:
    """Everything the future depends on in the final pass (not the discard pile, which is never
    drawn again outside the duel); fields in canonical order."""
    first = s.players[s.active].fields[s.first_field] if s.planted == 1 and s.first_field >= 0 else None
    seats = tuple((p.hand, tuple(sorted(p.fields)), len(p.fields), len(p.coins), p.aside) for p in s.players)
    return (len(s.draw), s.active, s.phase, s.to_move, s.planted, first, s.offers, s.face_up, s.final, seats)


NEG = -(10**9)


def _live_draws(s: GameState) -> int:
    """How many of the top cards of the draw pile can still be planted: in the final pass the
    cards drawn after the last turn-up stay in hand to the end (E2, E3). With E1 on-demand a pile
    that runs out exactly at the end of a draw gives one more turn (phase 1 and trading, nothing
    turned up), in which any hand card may be planted or traded to the active seat (T3): then
    every card is live."""
    su = s.setup
    ups, draws = su.face_up, (len(s.players) if su.rules.draw_each else su.draw)
    taken, live = 0, 0
    turning = s.phase == Phase.PLANT  # the next cards taken are this turn's turn-up
    while taken < len(s.draw):
        if turning:
            taken = min(len(s.draw), taken + ups)
            live = taken
        else:
            taken += draws
            if su.on_demand and taken == len(s.draw):
                return taken
        turning = not turning
    return live


class OpenSearch:
    """``coop``: maximise the sum of final coins; ``best P``: maximise P's final coins with every
    other seat Q ending with at least ``floors[Q]`` (its own solo optimum). Every seat's decisions
    are choices; a deal is one move, and the deals of one trading phase are made in canonical
    order (partners in increasing seat order), which removes reorderings of the same deals.
    Branch and bound: a node is searched against the value its caller already holds, children
    best bound first (``upper``); the table keeps exact values and upper bounds apart.

    Anytime: the best finished line met so far is kept (``found``, its moves from the root); a
    search stopped by a limit hands it out as a feasible answer (``open_solution``). Every exact
    value in the table is some finished line's, met on the way there, so nothing is missed."""

    def __init__(self, objective: Objective, player: int, floors: list[int] | None = None,
                 node_limit: int | None = None, budget: Budget | None = None) -> None:
        self.objective = objective
        self.goal = objective
        self.player = player
        self.floors = floors
        self.table: dict[tuple[object, ...], tuple[int, bool]] = {}  # value, exact (else a bound)
        self.nodes = 0
        self.budget = budget if budget is not None else Budget(f"{objective} search", node_limit)
        self._ub: dict[tuple[int, tuple[int, ...], int], int] = {}
        self.path: list[Move] = []  # the moves from the root to the node being searched
        self.found = NEG  # the best finished line's value so far, and its moves (``path`` then)
        self.found_line: list[Move] = []

    def score(self, s: GameState) -> int:
        coins = [len(p.coins) for p in s.players]
        if self.goal.floors:
            assert self.floors is not None
            if not all(c >= f for q, (c, f) in enumerate(zip(coins, self.floors, strict=True))
                       if q != self.player):
                return NEG
        return self.goal.value(coins, self.player)

    def key(self, s: GameState) -> tuple[object, ...]:
        """What the value of ``s`` depends on (the table's key, with the last partner dealt with)."""
        return _full_key(s)

    def trading(self, s: GameState) -> bool:
        """A node whose moves are the deals and the end of trading (``_trading``)."""
        return s.phase == Phase.TRADE and s.pending is None

    def upper(self, s: GameState) -> int:
        """Coins already won plus, per bean, the most its cards could still pay: the cards on
        fields stay where they are, the free ones (draw pile, face-up, hands, set aside) top
        them up or form new groups (``solvers.bounds.gain_table``). For ``best`` only P's
        fields count, and every free card is assumed to reach P."""
        free: dict[int, int] = {}
        for cards in (s.draw[:_live_draws(s)], s.face_up):
            for b in cards:
                free[b] = free.get(b, 0) + 1
        for p in s.players:
            for b in p.hand + p.aside:
                free[b] = free.get(b, 0) + 1
        seats = s.players if not self.goal.needs_player else (s.players[self.player],)
        fields: dict[int, list[int]] = {}
        for p in seats:
            for f in p.fields:
                if f.count:
                    fields.setdefault(f.bean, []).append(f.count)
        more = 0
        for b in free.keys() | fields.keys():
            key = (b, tuple(sorted(fields.get(b, ()))), free.get(b, 0))
            hit = self._ub.get(key)
            if hit is None:
                hit = self._ub[key] = gain_table(s.setup.payout[b], list(key[1]), key[2])[key[2]]
            more += hit
        won = sum(len(p.coins) for p in seats)
        return won + more

    def moves(self, s: GameState, last: int) -> Iterable[tuple[Move, int]]:
        """(move, the last partner dealt with in this trading phase after it); the deals of a
        trading node one at a time (``iter_deals``)."""
        if s.phase == Phase.TRADE:
            p = s.to_move
            if s.pending is not None:  # only in a given position: answering is part of the game
                return [((a,), last) for a in legal_actions(s)]
            # Harvests and purchases wait for the player's next placing decision: until then
            # nothing changes on the player's fields, so H4 allows the same harvests there (or
            # the final harvest comes, without H4), and coins only grow until spent (F1).
            dealt = iter_deals(s, self.budget.check)
            return chain([((EndPhase(p),), -1)], ((m, m[0].partner) for m in dealt if m[0].partner >= last))
        return [((a,), -1) for a in legal_actions(s)]

    def child(self, s: GameState, m: Move) -> GameState:
        for a in m:
            s = apply(s, a, check=False)
        return s

    def value(self, s: GameState, last: int = -1, alpha: int = NEG) -> int:
        """The value of ``s`` if it exceeds ``alpha``; otherwise some number <= ``alpha`` that
        bounds it from above (branch and bound: the caller has ``alpha`` already)."""
        if s.phase == Phase.OVER:
            v = self.score(s)
            if v > self.found:
                self.found, self.found_line = v, list(self.path)
            return v
        if s.phase == Phase.CHANCE:
            raise SolveError(RESHUFFLE_AHEAD)
        key = (self.key(s), last)
        hit = self.table.get(key)
        if hit is not None and (hit[1] or hit[0] <= alpha):
            return hit[0]
        self.nodes += 1
        self.budget.node()
        if self.trading(s):
            best = self._trading(s, last, alpha)
        else:
            best = self._placing(s, last, alpha)
        if best > alpha:
            self.table[key] = (best, True)
            return best
        self.table[key] = (alpha, False)
        return alpha

    def _placing(self, s: GameState, last: int, alpha: int) -> int:
        """The best child's value if above ``alpha``, else at most ``alpha``: every child made
        and bounded, then searched best bound first."""
        kids = []
        seen: set[tuple[object, ...]] = set()
        for m, nxt in self.moves(s, last):
            t = self.child(s, m)
            k = (self.key(t), nxt)
            if k not in seen:  # another move may reach the very same state
                seen.add(k)
                kids.append((self.upper(t), t, nxt, m))
        kids.sort(key=lambda kid: -kid[0])  # the most promising first
        best = NEG
        for ub, t, nxt, m in kids:
            floor = max(alpha, best)
            if ub <= floor:
                break  # sorted: no later child can beat ``floor`` either
            best = max(best, self.search(t, nxt, floor, m))
        return best

    def search(self, t: GameState, nxt: int, alpha: int, m: Move) -> int:
        """``value`` of the child ``t`` made by ``m``, with ``m`` on ``path`` meanwhile."""
        self.path.append(m)
        v = self.value(t, nxt, alpha)
        self.path.pop()
        return v

    def _trading(self, s: GameState, last: int, alpha: int) -> int:
        """``_placing`` at a trading node, its children made one at a time, in move order. A deal
        moves cards between hands and set-aside piles (T3-T5): no field, coin or free card
        changes, so every child has the node's own bound (``upper``; tests/test_open_exact.py
        checks it), ordering by it gains nothing, and the search stops once a child reaches it.
        The work at a trading node is then the children searched, not the tens of thousands of
        deals it could list, and the node limit bounds the time."""
        top = self.upper(s)
        best = NEG
        if top <= alpha:
            return best
        seen: set[tuple[object, ...]] = set()
        for i, (m, nxt) in enumerate(self.moves(s, last)):
            if i % 256 == 255:
                self.budget.check()
            t = self.child(s, m)
            k = (self.key(t), nxt)
            if k in seen:  # another move reaches the very same state
                continue
            seen.add(k)
            best = max(best, self.search(t, nxt, max(alpha, best), m))  # its bound is ``top``, above both
            if best >= top:
                break  # no later child can beat it
        return best

    def line(self, s: GameState) -> tuple[list[Action], GameState]:
        target = self.value(s)
        out: list[Action] = []
        last = -1
        while s.phase != Phase.OVER:
            m, last = next((m, nxt) for m, nxt in self.moves(s, last)
                           if self.value(self.child(s, m), nxt, target - 1) == target)
            for a in m:
                s = apply(s, a)  # checked: the line must be legal
                out.append(a)
        return out, s


def solve_open(s: GameState, objective: Objective, player: int | None = None,
               limits: Limits = DEFAULT_LIMITS, progress: ProgressFn | None = None) -> Solution:
    """The optimal ``coop`` or ``best`` value and line by exact search (small positions), within
    ``limits`` (nodes and seconds) for everything, ``best``'s floors included: past either,
    NodeLimitExceeded or TimeLimitExceeded (``Budget``)."""
    goal = objective
    if not goal.trades:
        raise SolveError(f"objective {objective.name!r}: exact search here solves coop and best")
    p = open_player(s, objective, player)
    budget = limits.clock(f"{objective} search", progress)
    t0 = time.perf_counter()
    floors = None
    if goal.floors:
        try:
            floors = [solve_solo(s, q, budget=budget).value for q in range(len(s.players))]
        except SearchLimitExceeded as e:
            e.best = None  # a floor's default line is no line of this objective
            raise
    return open_solution(OpenSearch(objective, p, floors, budget=budget), s, t0)


def open_solution(search: OpenSearch, s: GameState, t0: float) -> Solution:
    """Run ``search`` from ``s``: its value, and the line rebuilt and replayed (checked) to the same
    value, or an internal error. Past a limit the SearchLimitExceeded, and on Ctrl-C the
    KeyboardInterrupt, carries the best line found (``best``: status "feasible", the root's bound,
    what stopped it) when there is one."""
    try:
        value = search.value(s)
    except SearchLimitExceeded as e:
        e.best = _found(search, s, t0, "nodes" if isinstance(e, NodeLimitExceeded) else "time")
        raise
    except KeyboardInterrupt as e:
        e.best = _found(search, s, t0, None)  # type: ignore[attr-defined]
        raise
    line, end = search.line(s)  # replayed with checks
    stats = SolveStats("exact", time.perf_counter() - t0, nodes=search.nodes, table=len(search.table),
                       floors=search.floors)
    return _checked(search, line, end, value, Status.OPTIMAL, stats)


def _found(search: OpenSearch, s: GameState, t0: float, stopped_by: str | None) -> Solution | None:
    """The best line ``search`` finished from ``s`` (replayed with checks) as a feasible Solution
    with the root's bound; None before the first. ``stopped_by`` None: Ctrl-C."""
    if search.found == NEG:
        return None
    line = [a for m in search.found_line for a in m]
    stats = SolveStats("exact", time.perf_counter() - t0, nodes=search.nodes, table=len(search.table),
                       floors=search.floors, bound=max(search.upper(s), search.found), stopped_by=stopped_by,
                       interrupted=stopped_by is None)
    end = s
    for a in line:
        end = apply(end, a)  # checked: the line must be legal
    return _checked(search, line, end, search.found, Status.FEASIBLE, stats)


def _checked(search: OpenSearch, line: list[Action], end: GameState, value: int, status: Status,
             stats: SolveStats) -> Solution:
    """``line``, which ends in ``end``, as a Solution worth ``value``, or an internal error."""
    coins = [len(pl.coins) for pl in end.players]
    got = search.goal.value(coins, search.player)
    if end.phase != Phase.OVER or got != value:
        raise SolveError(f"internal error: the replayed line gives {got}, the search {value}")
    return Solution(search.goal, search.player, value, line, coins, status=status, stats=stats)


@calls(solve_solo, trades=solve_open)
def solve(s: GameState, objective: Objective, player: int | None, limits: Limits,
          progress: ProgressFn | None) -> Solution:
    """Exact search behind the one solver signature (``solvers.contract.Solver``): ``solo`` by
    ``solve_solo``, ``coop`` and ``best`` (the objectives with deals) by ``solve_open``."""
    if objective.trades:
        return solve_open(s, objective, player, limits, progress)
    return solve_solo(s, player, limits, progress)
