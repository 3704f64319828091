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

``best P``'s floors are each seat's Isla ``solo`` optimum (``solvers.isla.exact``: against the
default policy, docs/endgames.md), as the base game's are its solo optima.

The table is keyed by the whole state but the discard pile and which cards the coins are (no
future depends on them in the final pass, E2), the fields in their own order: no reduction but
the base game's canonical order of deals and the Isla solo search's one (a whole cargo never moves
onto an empty merchant ship in the same port: it only renames the two ships, and such moves form
cycles, I6). A phase-2 node searches its moves but the deals best bound first, then the deals
one at a time, each cut by its own bound (a deal moves cards between seats, so it changes the
bound). The bound (``upper``, on ``solvers.isla.reach.reach``) goes seat by seat: only a phase 2
moves cards between seats (I3, I7; ``turns_ahead`` counts the turns that still have one, E2), so
most cards can end in one seat's groups only and count there; the rest (face-up cards, the draw
pile, what a raid may take) are shared out among the seats at best. Per seat and bean, the cards
split into groups each sold once (C1 for a field, I6 for a cargo: both by the beanometer; a
harvest can join a field to a cargo, I5, so fields are not fixed groups). Coins come from nothing
else; purchases only spend them. ``best`` is cut where a seat other than P cannot reach its floor.

Anytime (issue 64): the search starts from the best quick line that scores (``start_lines``: every
seat on ``isla_policy``; for ``best`` also P's solo line and every seat's solo line played
together, ``joint_line``, where they meet every floor) and searches the root above its value, so a
finished search that finds nothing better proves it optimal; a run stopped by a limit answers
with the best line so far and the root's proved bound. ``best P`` needs the other seats' floors
proved first (``_floor``: exact search on a share of the limits, then the Isla CP-SAT solo model on a
share of the time or work left, then exact search on the rest): a floor that neither proves is still
an error, since no line is known to meet floors not yet known. P's own solo optimum is no floor
(only P's solo line and P's choices in ``joint_line`` seed from it): it is proved on a share of
the limits left (``_own_floor``), so a hard one leaves the open search the rest. A finished search
that finds no line meeting every floor says so in one line (the seats' solo optima need not be
reachable together here: sails share the rows, I4, pirates raid, I7, and a refill changes the
draws, I2)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence

from console.progress import ProgressFn
from model import Action, GameState, Phase, apply, legal_actions
from model.actions import Accept, Decline, Propose
from model.engine import is_listed_proposal
from model.isla import isla_of
from solvers.bounds import best_split
from solvers.contract import (
    BEST,
    DEFAULT_LIMITS,
    RESHUFFLE_AHEAD,
    Budget,
    Limits,
    NodeLimitExceeded,
    Objective,
    SearchLimitExceeded,
    Solution,
    SolveError,
    SolveStats,
    Status,
    calls,
)
from solvers.exact import (
    NEG,
    Move,
    OpenSearch,
    _checked,
    _found,
    _full_key,
    final_pass_player,
    iter_deals,
    policy_line,
)
from solvers.isla.cpsat import check_isla_cpsat, solve_isla_cpsat
from solvers.isla.exact import IslaSoloSearch, isla_policy, renames
from solvers.isla.reach import Raids, captures, reach, waits, windows


def check_isla_open(s: GameState, objective: Objective, player: int | None) -> int:
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

    def __init__(self, objective: Objective, player: int, floors: list[int] | None, budget: Budget,
                 ordered: bool = True, bound: bool = True) -> None:
        super().__init__(objective, player, floors, budget=budget)
        self.ordered = ordered  # the deals of a run in partner order (off: the reference for tests)
        self.bound = bound  # ``upper`` (off: no cut, no order by it: the reference for tests)
        self._spreads: dict[tuple[int, tuple[int, ...], int], int] = {}
        self._ups: dict[tuple[object, ...], int] = {}  # ``upper`` by ``key``

    def key(self, s: GameState) -> tuple[object, ...]:
        """The base game's key (fields in canonical order, H2; the draw pile by its size, which
        only shrinks from the top, also into the rows: I2), the offer being answered (T3) and the
        expansion's whole state."""
        return _full_key(s), s.pending, s.ext

    def trading(self, s: GameState) -> bool:
        """Every phase-2 node searched child by child (``_trading``); a pending offer or attack is
        answered as a placing node is searched, best bound first."""
        return s.phase == Phase.TRADE and s.pending is None and isla_of(s).attack is None

    def moves(self, s: GameState, last: int) -> Iterable[tuple[Move, int]]:
        if not self.trading(s):
            return [((a,), -1) for a in legal_actions(s) if not renames(s, a) and not waits(s, a)]
        return self._phase2(s, last)

    def _phase2(self, s: GameState, last: int) -> Iterator[tuple[Move, int]]:
        """The moves of a phase-2 node: every legal action but a proposal (the order starts again
        after it); the deals with partners from ``last`` on (I3, T3); and to each seat in
        ``windows``, every deal in any order and each proposal with its first window action (a
        proposal it may decline, asking for the first bean, and every one it may accept): it
        answers at its own node, after more of them or none (declining at once only spends an
        offer, T3)."""
        acts: list[Action] = [a for a in legal_actions(s, proposals=False)
                              if not isinstance(a, Propose) and not renames(s, a)]
        for a in acts:
            yield (a,), -1
        open_to = windows(s)
        for q in open_to:
            w = Propose(s.active, q, (), (), (s.setup.beans[0],))
            if is_listed_proposal(s, w):
                yield from self._window(s, w)
        asked: set[Propose] = set()
        for m in iter_deals(s, self.budget.check):
            offer = m[0]
            if offer.partner in open_to:
                yield m, -1
                if offer not in asked:
                    asked.add(offer)
                    yield from self._window(s, offer)
            elif offer.partner >= last or not self.ordered:
                yield m, offer.partner if self.ordered else -1

    def _window(self, s: GameState, offer: Propose) -> Iterator[tuple[Move, int]]:
        """``offer`` and each action its partner may take before it answers (``windows``)."""
        t = apply(s, offer, check=False)
        for x in legal_actions(t):
            if not isinstance(x, (Accept, Decline)) and not renames(t, x) and not waits(t, x):
                yield (offer, x), -1

    def _trading(self, s: GameState, last: int, alpha: int) -> int:
        """A phase-2 node: the moves but the deals made, bounded and searched best bound first (as
        ``_placing``), then the deals one at a time (tens of thousands with real hands), each cut
        by its own bound: here a deal changes the bound, since it moves cards between seats."""
        top = self.upper(s)
        best = NEG
        if top <= alpha:
            return best
        kids = []
        seen: set[tuple[object, ...]] = set()
        deals: list[tuple[Move, int]] = []
        for m, nxt in self.moves(s, last):
            if isinstance(m[0], Propose) and len(m) == 2:
                deals.append((m, nxt))
                continue
            t = self.child(s, m)
            k = (self.key(t), nxt)
            if k not in seen:
                seen.add(k)
                kids.append((self.upper(t), t, nxt, m))
        kids.sort(key=lambda kid: -kid[0])
        for ub, t, nxt, m in kids:
            floor = max(alpha, best)
            if ub <= floor:
                break
            best = max(best, self.search(t, nxt, floor, m))
            if best >= top:
                return best
        for i, (m, nxt) in enumerate(deals):
            if i % 256 == 255:
                self.budget.check()
            t = self.child(s, m)
            k = (self.key(t), nxt)
            if k in seen:
                continue
            seen.add(k)
            floor = max(alpha, best)
            if self.upper(t) <= floor:
                continue
            best = max(best, self.search(t, nxt, floor, m))
            if best >= top:
                break
        return best

    def upper(self, s: GameState) -> int:
        """Coins won (every seat's for ``coop``, P's for ``best``) plus, per bean, the most the
        cards that can still be a seat's could pay it as groups each sold once (C1, I6), seat by
        seat (``reach``); ``best`` below NEG when a seat other than P cannot reach its floor."""
        if not self.bound:
            return 10**9
        key = self.key(s)
        hit = self._ups.get(key)
        if hit is None:
            hit = self._ups[key] = self._upper(s)
        return hit

    def _upper(self, s: GameState) -> int:
        """The smaller of two bounds on this turn's raids: the cards they may take counted for their
        holders and the raider's gain from as many captures added (``_counted``), or shared among
        every seat (``_counted`` with no raids)."""
        own, shared, raids = reach(s)
        if not raids.left:
            return self._counted(s, own, shared, raids)
        own2, shared2 = raids.shared(own, shared)
        return min(self._counted(s, own, shared, raids),
                   self._counted(s, own2, shared2, raids._replace(left=0, taken=())))

    def _counted(self, s: GameState, own: list[dict[int, int]], shared: dict[int, int], raids: Raids) -> int:
        n = len(s.players)
        if self.goal.needs_player:
            p = self.player
            if self.floors is not None:
                for q in range(n):
                    if q != p and self._seat(s, own[q], shared, q, raids) < self.floors[q]:
                        return NEG
            return self._seat(s, own[p], shared, p, raids)
        total = sum(len(pl.coins) for pl in s.players)
        tops = {b: tuple(own[q].get(b, 0) for q in range(n)) for b in set(shared).union(*own, raids.cards)}
        for b, top in tops.items():
            total += self._spread(s, b, top, shared.get(b, 0))
        if raids.left:  # what the captures add: the raider's cards of their beans grow (a knapsack)
            a = raids.seat

            def more(b: int, k: int) -> int:
                top = tops[b]
                return (self._spread(s, b, top[:a] + (top[a] + k,) + top[a + 1:], shared.get(b, 0))
                        - self._spread(s, b, top, shared.get(b, 0)))
            total += captures(raids, more)
        return total

    def _seat(self, s: GameState, own: dict[int, int], shared: dict[int, int], q: int, raids: Raids) -> int:
        """Seat ``q``'s coins plus its own cards and every shared one, per bean split at best (C1),
        and, for the raider, what this turn's captures may add."""
        got = len(s.players[q].coins) + sum(self._split(s, b, own.get(b, 0) + shared.get(b, 0))
                                            for b in own.keys() | shared.keys())
        if q != raids.seat or not raids.left:
            return got

        def more(b: int, k: int) -> int:
            n = own.get(b, 0) + shared.get(b, 0)
            return self._split(s, b, n + k) - self._split(s, b, n)
        return got + captures(raids, more)

    def _spread(self, s: GameState, b: int, own: tuple[int, ...], m: int) -> int:
        """The most bean ``b`` pays all seats together: each seat's own cards and a share of the
        ``m`` shared ones, split at best (a small knapsack over the seats, cached)."""
        key = (b, own, m)
        hit = self._spreads.get(key)
        if hit is None:
            best = [0] * (m + 1)  # best[j]: the seats so far with j shared cards
            for c in own:
                best = [max(best[j - k] + self._split(s, b, c + k) for k in range(j + 1))
                        for j in range(m + 1)]
            hit = self._spreads[key] = best[m]
        return hit

    def _split(self, s: GameState, b: int, n: int) -> int:
        return best_split(s.setup.payout[b], n)


def solve_isla_open(s: GameState, objective: Objective, player: int | None = None,
                    limits: Limits = DEFAULT_LIMITS, progress: ProgressFn | None = None,
                    budget: Budget | None = None) -> Solution:
    """The optimal Isla ``coop`` or ``best`` value and line within ``limits`` (or on a shared
    ``budget``); ``best``'s floors (each other seat's Isla solo optimum) within the same limits, by
    exact search or the Isla CP-SAT solo model (``_floor``).
    Anytime (``start_lines``): the search starts from the best quick line that scores (every seat
    on ``isla_policy``; for ``best`` also P's solo line and the seats' solo lines played together,
    where they meet every floor), and past a limit the SearchLimitExceeded carries the best line so
    far with the root's proved bound (``best``)."""
    goal = objective
    if not goal.trades:
        raise SolveError(f"objective {objective.name!r}: the Isla open search solves coop and best")
    p = check_isla_open(s, objective, player)
    budget = budget or limits.clock(f"Isla {objective} search", progress)
    t0 = time.perf_counter()
    solos: list[IslaSoloSearch | None] = []
    floors = None
    if goal.floors:
        solos, floors = _floors(s, p, budget)
    search = IslaOpenSearch(objective, p, floors, budget)
    start_lines(s, search, solos)
    if goal.floors and _own_floor(s, search, solos, budget):
        start_lines(s, search, solos)  # now with P's solo line, and P's solo choices in the joint line
    return anytime_solution(search, s, t0)


OWN_SHARE = 0.25  # of the limits left: P's own solo optimum, a seed of ``best P`` and never its floor


def _floors(s: GameState, p: int, budget: Budget) -> tuple[list[IslaSoloSearch | None], list[int]]:
    """``best P``'s floors: every other seat's solo optimum, proved on ``budget`` (``_floor``), and
    for P, whose own floor constrains nothing, its coins on the policy line (a lower end of its
    solo optimum, until ``_own_floor`` proves it); the solo searches, None for P."""
    n = len(s.players)
    solos: list[IslaSoloSearch | None] = [None] * n
    floors = policy_line(s, isla_policy)[1]  # lower ends: the policy line is a solo line of each seat
    others = [q for q in range(n) if q != p]
    for i, q in enumerate(others):
        search = solos[q] = IslaSoloSearch(q, budget)
        floors[q] = _floor(s, search, p, floors, len(others) - i)
    return solos, floors


def _own_floor(s: GameState, search: IslaOpenSearch, solos: list[IslaSoloSearch | None],
               budget: Budget) -> bool:
    """P's solo optimum, a seed only (P's solo line, P's choices in ``joint_line``), proved on
    OWN_SHARE of the limits left, so that a hard one leaves the open search the rest: True and
    set in ``search.floors`` and ``solos`` when proved; past its share False, the policy's lower
    end kept."""
    p = search.player
    try:
        part = budget.part(OWN_SHARE)
    except SearchLimitExceeded:
        return False  # the seeds spent the limits: the open search answers with them at once
    own = IslaSoloSearch(p, part)
    try:
        v = own.value(s)
    except SearchLimitExceeded:
        return False
    finally:
        budget.absorb(part)
    assert search.floors is not None
    own.budget = budget
    search.floors[p], solos[p] = v, own
    return True


EXACT_FLOOR_SHARE = 0.5  # of the limits left, shared by the floors still to prove: exact search first
CPSAT_FLOOR_SHARE = 0.5  # of the time (work) left then, as shared: the Isla CP-SAT solo model


def _floor(s: GameState, search: IslaSoloSearch, p: int, lows: list[int], todo: int = 1) -> int:
    """Seat ``search.player``'s solo optimum (a floor of ``best P``; ``todo`` floors, this one
    included, still to prove): exact search on its share of the limits left, then, if that
    passes it, the Isla CP-SAT solo model (``cpsat_floor``) on its share of the time (work) left,
    then exact search again on the rest, its table kept (where the model does not cover ``s``,
    exact search alone on the whole, ``_exact_floor``). Only a proved optimum is a floor: past
    every limit a SearchLimitExceeded that says so, with no line (until every floor is proved, no
    line is known to meet them) but with ``best P``'s proved bound: ``upper`` on the floors' known
    lower ends ``lows`` (a line meeting the floors meets those, so the bound holds)."""
    budget = search.budget
    try:
        check_isla_cpsat(s, search.player)
    except SolveError:  # not the model's position: exact search alone, on the whole budget
        return _exact_floor(s, search, p, lows)
    try:
        part: Budget | None = budget.part(EXACT_FLOOR_SHARE / todo)
    except SearchLimitExceeded:
        part = None  # no node left for exact search: CP-SAT counts none (its time or work is its own)
    if part is not None:
        search.budget = part
        try:
            return search.value(s)
        except SearchLimitExceeded:
            pass
        finally:
            budget.absorb(part)
            search.budget = budget
    v = cpsat_floor(s, search.player, budget, CPSAT_FLOOR_SHARE / todo)
    return v if v is not None else _exact_floor(s, search, p, lows)


def _exact_floor(s: GameState, search: IslaSoloSearch, p: int, lows: list[int]) -> int:
    """``_floor`` by exact search on the rest of its budget (its table kept); past it the
    SearchLimitExceeded, with no line and ``best P``'s proved bound."""
    budget = search.budget
    try:
        return search.value(s)
    except SearchLimitExceeded as e:
        q = search.player
        top = IslaOpenSearch(BEST, p, lows, budget).upper(s)
        known = f"best p{p} is at most {top}" if top > NEG else "no line meets even the floors' lower ends"
        e.args = (f"{e} (while proving p{q}'s floor, its solo optimum, between {lows[q]} and "
                  f"{search.upper(s)}, by exact search and, where its model covers the position, CP-SAT: no "
                  f"best line is known to meet the floors before they are proved; proved: {known})",)
        e.best = None
        raise


FLOOR_SECONDS = 30.0  # the CP-SAT floor's time when the run has no time limit (a guard)
WORK_PER_NODE = 2.5e-4  # a node-limited run's CP-SAT floor: work units per node of the limit
FLOOR_WORK = 1.0  # ... and at least this much work (one node is enough where the seat has no turn left)


def cpsat_floor(s: GameState, q: int, budget: Budget, fraction: float) -> int | None:
    """Seat ``q``'s Isla ``solo`` optimum by the Isla CP-SAT solo model (the same ``solo``:
    the others on ``isla_policy``, I7) on ``fraction`` of ``budget``'s time left and of its work
    left (charged whole), or with no work limit but a node limit, of ``WORK_PER_NODE`` a node of
    it (at least ``FLOOR_WORK``): one worker, so a run with either limit is deterministic while it
    binds before the clock; None when the model does not cover ``s`` or does not prove its line
    optimal (a feasible line is no floor)."""
    try:
        check_isla_cpsat(s, q)
        secs = budget.seconds_left()
    except (SolveError, SearchLimitExceeded):
        return None
    work = None
    if budget.work_limit is not None:
        work = (budget.work_limit - budget.work) * fraction
        if work <= 0:
            return None
        budget.work += work
    elif budget.node_limit is not None:
        work = max(budget.node_limit * WORK_PER_NODE, FLOOR_WORK) * fraction
    limits = Limits(time=max((FLOOR_SECONDS if secs is None else secs) * fraction, 1e-3), nodes=None,
                    workers=1, work=work)
    try:
        sol = solve_isla_cpsat(s, q, limits)
    except SolveError as e:
        if str(e).startswith("internal error"):
            raise
        return None
    return sol.value if sol.status == Status.OPTIMAL else None


def start_lines(s: GameState, search: IslaOpenSearch, solos: Sequence[IslaSoloSearch | None] = ()) -> None:
    """Seed ``search.found`` with the best quick line that scores (``score``: ``best``'s meets every
    floor): every seat playing ``isla_policy``; with ``solos`` (each seat's finished solo search,
    None for P when its optimum passed its share: ``_floors``), also P's solo line (the others on
    the policy) and ``joint_line``. A limit passed while building those (a solo line's rebuild may
    search further) leaves the seeds found before it."""
    lines = [policy_line(s, isla_policy)[0]]
    if solos:
        own = solos[search.player]
        try:
            if own is not None:
                lines.append(own.line(s)[0])
            lines.append(joint_line(s, solos))
        except SearchLimitExceeded:
            pass
    for line in lines:
        v = search.score(replayed(s, line))
        if v > search.found:
            search.found, search.found_line = v, [(a,) for a in line]


def replayed(s: GameState, line: Sequence[Action]) -> GameState:
    """The state ``line`` leads to from ``s``, every step checked by the engine (an illegal step is
    an IllegalAction naming its rule)."""
    for a in line:
        s = apply(s, a)
    return s


def joint_line(s: GameState, solos: Sequence[IslaSoloSearch | None]) -> list[Action]:
    """Every seat at once playing its own solo choice (no trades): at each decision the seat to move
    takes the first action its own solo search values most (the others on ``isla_policy`` in that
    valuation; a seat with no solo search, None, plays ``isla_policy``). In the base game this line
    gives every seat its solo optimum (the seats do not meet); in La Isla Bohnita sails share the
    rows (I4), pirates raid (I7) and refills change the draws (I2), so it is a candidate to check,
    not a proof."""
    line: list[Action] = []
    t = s
    seen: set[GameState] = set()
    while t.phase != Phase.OVER:
        if t.phase == Phase.CHANCE:
            raise SolveError(RESHUFFLE_AHEAD)
        if t in seen:  # the solo searches' choices leave no cycle (``renames``); a guard, not a path
            raise SolveError("internal error: the seats' solo lines played together met a cycle of states")
        seen.add(t)
        mine = solos[t.to_move]
        pick = isla_policy(t) if mine is None else _solo_choice(mine, t)
        line.append(pick)
        t = apply(t, pick)  # checked: the line must be legal
    return line


def _solo_choice(search: IslaSoloSearch, t: GameState) -> Action:
    """The first of the seat's choices at ``t`` that its solo search values most (each searched
    only above the best so far: a value at most it is a bound, and such a choice is not picked)."""
    best, pick = NEG - 1, None
    for a in search.choices(t):
        v = search.value(apply(t, a, check=False), best)
        if v > best:
            best, pick = v, a
    assert pick is not None
    return pick


def anytime_solution(search: OpenSearch, s: GameState, t0: float) -> Solution:
    """``open_solution`` with the root searched above the seed's value (``search.found``): a value
    at most the seed's proves the seed optimal. Past a limit (or on Ctrl-C) the exception carries
    the best line found (``best``, feasible, the root's bound); finished with no line that scores
    (``best``: none meets every floor, a fact of this position, I4, I7) a SolveError in one line."""
    seed = search.found
    try:
        v = seed if search.upper(s) <= seed else search.value(s, -1, seed)  # the root's bound may prove it
    except SearchLimitExceeded as e:
        e.best = _found(search, s, t0, "nodes" if isinstance(e, NodeLimitExceeded) else "time")
        if e.best is None:
            e.args = (f"{e}; no line meeting every floor found yet (proved bound {search.upper(s)})",)
        raise
    except KeyboardInterrupt as e:
        e.best = _found(search, s, t0, None)  # type: ignore[attr-defined]
        raise
    stats = SolveStats("exact", time.perf_counter() - t0, nodes=search.nodes, table=len(search.table),
                       floors=search.floors)
    if v <= seed:  # the search proved no line beats the seed
        if search.found == NEG:
            raise SolveError(f"{search.goal.name} p{search.player}: no line leaves every other seat its "
                             f"floor {search.floors} (sails share the rows, I4; pirates raid, I7)")
        line = [a for m in search.found_line for a in m]
        return _checked(search, line, replayed(s, line), search.found, Status.OPTIMAL, stats)
    if search.found >= v:  # the search met a line worth the optimum: no rebuild (it may pass a limit)
        line = [a for m in search.found_line for a in m]
        return _checked(search, line, replayed(s, line), v, Status.OPTIMAL, stats)
    line, end = search.line(s)  # replayed with checks
    return _checked(search, line, end, v, Status.OPTIMAL, stats)


def reference_open(s: GameState, objective: Objective, player: int, floors: list[int] | None = None,
                   node_limit: int | None = None) -> int:
    """The value by a reference search for tests: deals in any order, no bound."""
    check_isla_open(s, objective, player)
    search = IslaOpenSearch(objective, player, floors, Budget("reference Isla open search", node_limit),
                            ordered=False, bound=False)
    return search.value(s)


@calls(solve_isla_open)
def solve(s: GameState, objective: Objective, player: int | None, limits: Limits,
          progress: ProgressFn | None) -> Solution:
    """Isla exact search behind the one solver signature (``solvers.contract.Solver``): ``coop`` and
    ``best``."""
    return solve_isla_open(s, objective, player, limits, progress)
