"""The ``duel`` objective on the Isla duel (I9; issue 41 item 2): exact minimax on the coin margin.

value(P) = P's final coins minus the opponent's; P maximises, the opponent minimises, and each
chooses every move of its own (I9: plantings, the once-a-turn hand discard, ship moves and loads,
sales, purchases, attacks; the attacked seat's answer, sell or yield, I7). Open: every card's
place is known and no reshuffle lies ahead (E2, I8), so the moves alone decide the rest.

Search: alpha-beta over the engine's own actions (``apply(.., check=False)``) with a table of
(value, bound flag, best move) keyed by the whole state but which cards the coins are, the fields
in canonical order (H2) and the discard pile only while a turn-up is ahead (I9's turn-up adds
matching discards): ``duel_key``. Values are seat 0's margin, the bound flags in those terms;
cut-offs by ``margin_range`` (each seat's turns left, ``turns_ahead``), which bounds the minimax
value, so a cut keeps every optimum: a seat with no turn ahead buys nothing and, selling every
attacked cargo that pays, adds exactly its fields and ships as they are (I7, I9, E3); in a seat's
last turn it adds at most what the cards it can still reach pay split into groups, counting only
the turned-up cards and the discards they can add (I9), the row cards the sails left can load
(I4; only their own beans for ships jammed with cargo that cannot pay, ``ship_beans``) and one
card per attack (I7). One reduction, the Isla searches' (``renames``): a whole cargo
is never moved onto an empty merchant ship in the same port, which only swaps the names of its
owner's two merchant ships (I1, I6); without it such moves form cycles. ``reference_duel``
(minimax over the whole state, no pruning, no bound; with or without the reduction) is what the
search, its key and its bound are tested against. The line is replayed through ``model.apply``
with checking on before it is returned.

Tried and dropped: runs of cash actions in a normal form (a harvest, sale, cargo move or purchase
searched only where the next move does not commute with it, I5, I6, H5: tested equal to the
reference, but the states it keys by the run's last action outnumbered those it saved, 2,432 to
4,361 nodes on ``isla-duel-2cards``, and it gained nothing in phase 1 alone); children ordered by
their bound (about as many nodes, twice the time).
"""

from __future__ import annotations

import time

from console.progress import ProgressFn
from model import Action, GameState, Phase, apply, legal_actions
from model.errors import ArgumentError
from model.isla import isla_of
from model.isla.actions import PIRATE
from model.isla.setup import isla_setup
from solvers.bounds import best_split
from solvers.contract import (
    DEFAULT_LIMITS,
    DUEL,
    RESHUFFLE_AHEAD,
    Budget,
    Limits,
    Objective,
    SearchLimitExceeded,
    Solution,
    SolveError,
    SolveStats,
    calls,
)
from solvers.duel import EXACT, INF, LOWER, UPPER, Key, policy_duel, replayed_duel
from solvers.isla.exact import isla_policy, renames
from solvers.isla.reach import ship_beans
from solvers.positions import in_final_pass


def check_isla_duel(s: GameState, player: int | None) -> int:
    """P (default: the seat to move) if ``s`` is an open Isla duel position (I9, E2, I8); a
    SolveError in one line otherwise."""
    if s.setup.expansion != "isla" or not s.setup.duel:
        raise SolveError("the Isla duel search covers the Isla duel only (isla=true with 2 players, I9)")
    if not in_final_pass(s):
        raise SolveError(f"a reshuffle lies ahead (exhaustion {s.exhaustions} of "
                         f"{s.setup.final_exhaustion}): open endgames need the final pass (E2, I8)")
    if s.phase == Phase.OVER or s.to_move < 0:
        raise SolveError("the position must be a decision point, not a finished game or a reshuffle")
    p = s.to_move if player is None else player
    if p not in (0, 1):
        raise ArgumentError("player", p, "the Isla duel has seats 0 and 1")
    return p


def margin0(s: GameState) -> int:
    """Seat 0's coins minus seat 1's (E4 counts coins; I9's paid coins are set aside)."""
    return len(s.players[0].coins) - len(s.players[1].coins)


def duel_key(s: GameState) -> Key:
    """The whole state but which cards the coins are (no future reads them: the final pass, E2),
    with no turn-up ahead the discard pile (only I9's turn-up reads it), and the fields in canonical
    order (H2: alike; the phase-1 planting's field by its content, V2)."""
    seats = tuple((pl.hand, tuple(sorted(pl.fields)), len(pl.coins), pl.aside) for pl in s.players)
    turn_up = s.phase in (Phase.PLANT, Phase.DISCARD) or len(turns_ahead(s)) > 1
    first = s.players[s.active].fields[s.first_field] if s.first_field >= 0 else None
    return s._replace(players=(), discard=s.discard if turn_up else (), first_field=-1), first, seats


def turns_ahead(s: GameState) -> tuple[int, ...]:
    """The seats of the turns still to come, the current one first: at most these (I9: a turn turns
    up 3 cards, then draws 2; E2: the pile's last card taken ends the game, after the turn's
    planting if it is turned up; an Isla port refill, I2, only takes more and ends it sooner)."""
    if s.phase == Phase.OVER:
        return ()
    left = len(s.draw) - (3 if s.phase in (Phase.PLANT, Phase.DISCARD) else 0) - 2
    later = (left + 4) // 5 if left > 0 else 0
    return (s.active, *((s.active + 1 + j) % 2 for j in range(later)))


def gain_cap(s: GameState, q: int, turns: tuple[int, ...]) -> int:
    """At most what seat ``q`` can still add to its coins (its sales and the end's harvest, E3, I6,
    I8). With no turn of its own ahead: its fields and ships as they are (nothing reaches them off
    turn: no trading, I9; a pirate only takes, I7). In its last turn (what the other does after
    it only takes from q, I7, or refills the rows, I2): every card it can still get (its fields,
    ships, set-aside cards, the hand's plantable front (T1; a card deeper while I9's discard is
    unused), the face-up cards, the row cards the sails left can load (``_loadable``: one load a
    sail, in phase 2, I3, I4; of jammed ships' own beans only, ``ship_beans``), one card of each of
    the other's merchant ships it may still attack
    (I7: once a turn, one card, in phase 2) and, with the turn-up to come, the turned-up cards and
    the discards they may add (``_returns``, I9)) split into groups each sold once (C1; the rest of
    the pile is drawn into the hand and never planted, E2). Otherwise
    every card but the coins and the other's pirate cargo, so split."""
    pay = s.setup.payout
    pl = s.players[q]
    isla = isla_of(s)
    if q not in turns:
        return (sum(pay[f.bean][f.count] for f in pl.fields if f.count)
                + sum(pay[sh.bean][sh.count] for _, sh in isla.fleets[q].ships() if sh.count))
    cards: dict[int, int] = {}

    def add(b: int, n: int = 1) -> None:
        cards[b] = cards.get(b, 0) + n

    o = 1 - q
    last = s.active == q and q not in turns[1:]  # later turns of the other's only take from q (I7)
    for f in pl.fields:
        if f.count:
            add(f.bean, f.count)
    # sails and attacks come in phase 2 only (I3, I4, I7): still ahead before it
    at_sea = s.phase in (Phase.PLANT, Phase.DISCARD, Phase.TRADE)
    for seat, fleet in enumerate(isla.fleets):
        for i, sh in fleet.ships():
            if not sh.count:
                continue
            if seat == q:
                add(sh.bean, sh.count)
            elif i != PIRATE and not last:
                add(sh.bean, sh.count)
            elif i != PIRATE and at_sea and ((seat, i) not in isla.attacked or isla.attack == (seat, i)):
                add(sh.bean)  # in q's last turn: one card per attack, one attack per ship (I7)
    turn_up = s.phase in (Phase.PLANT, Phase.DISCARD)
    if last:
        reach = 2 - s.planted + (0 if isla.discarded else 1)  # a discard first lets a deeper card up (I9)
        front = pl.hand[:max(0, reach)] if s.phase == Phase.PLANT else ()
        zones = [front, pl.aside, s.face_up]
        if turn_up:
            zones += [s.draw[:s.setup.face_up], *_returns(s, q)]
        if at_sea:  # a row is loaded only by a sail (I4), in phase 2, one load a sail
            for zone in zones:
                for b in zone:
                    add(b)
            loads = isla_setup(s.setup).max_sails - isla.sails
            beans = ship_beans(s, q, cards)
            return max(_groups(pay, cards, tuple(b for b in _loadable(isla.rows[0], k)
                                                 + _loadable(isla.rows[1], loads - k)
                                                 if beans is None or b in beans))
                       for k in range(loads + 1))
    else:
        other = s.players[o]
        zones = [pl.hand, pl.aside, other.hand, other.aside, s.face_up, s.draw, s.discard, *isla.rows,
                 tuple(b for f in other.fields for b in (f.bean,) * f.count)]
    for zone in zones:
        for b in zone:
            add(b)
    return _groups(pay, cards, ())


def _groups(pay: tuple[tuple[int, ...], ...], cards: dict[int, int], more: tuple[int, ...]) -> int:
    """The most ``cards`` (by bean) and ``more`` pay split into groups each sold once (C1, I6)."""
    total = dict(cards)
    for b in more:
        total[b] = total.get(b, 0) + 1
    return sum(best_split(pay[b], n) for b, n in total.items())


def _loadable(row: tuple[int, ...], loads: int) -> tuple[int, ...]:
    """The cards of an island row that ``loads`` loads can take (I4: each the front card and any
    cards of its type): at most those that taking every card of the front type each time takes."""
    out: list[int] = []
    for _ in range(loads):
        if not row:
            break
        b = row[0]
        out.extend(c for c in row if c == b)
        row = tuple(c for c in row if c != b)
    return tuple(out)


def _returns(s: GameState, q: int) -> list[tuple[int, ...]]:
    """The discards the turn-up to come may add in seat ``q``'s last turn (I9: the top discard
    while it matches a turned-up type, D2 step 3; the turned-up cards are the pile's top): the
    pile's matching top run, and every card of those types ``q`` could put on it before (its
    hand by the discard, I9; its fields by a harvest, H5; its cargo by a sale, I6)."""
    types = set(s.draw[:s.setup.face_up]) | set(s.face_up)
    run: list[int] = []
    for b in reversed(s.discard):
        if b not in types:
            break
        run.append(b)
    pl = s.players[q]
    mine = [*pl.hand, *(b for f in pl.fields for b in (f.bean,) * f.count),
            *(sh.bean for _, sh in isla_of(s).fleets[q].ships() for _ in range(sh.count))]
    return [tuple(run), tuple(b for b in mine if b in types)]


def spend_cap(s: GameState, q: int) -> int:
    """At most what seat ``q`` can still pay for what it lacks (the third field, the second merchant
    ship, the pirate: each once, I1, I9's prices)."""
    costs = isla_setup(s.setup)
    fleet = isla_of(s).fleets[q]
    return (((s.setup.third_cost or 0) if len(s.players[q].fields) < 3 else 0)
            + (costs.ship_cost if len(fleet.merchants) < 2 else 0)
            + (costs.pirate_cost if fleet.pirate is None else 0))


def margin_range(s: GameState) -> tuple[int, int]:
    """Seat 0's minimax margin from ``s`` lies in [low, high] (``gain_cap``, ``spend_cap``). A seat
    with no turn ahead buys nothing (I9: only the answer to an attack is made off turn, I7), and
    answering every attack by selling the cargo if it pays (else yielding a card of a cargo that
    pays nothing, which then pays nothing either: C1's thresholds only rise) it adds exactly its
    fields and ships as they are (E3, I8): the other seat can do no better against that."""
    turns = turns_ahead(s)
    m = margin0(s)
    low = m - gain_cap(s, 1, turns) + (-spend_cap(s, 0) if 0 in turns else gain_cap(s, 0, turns))
    high = m + gain_cap(s, 0, turns) + (spend_cap(s, 1) if 1 in turns else -gain_cap(s, 1, turns))
    return low, high


def _moves(s: GameState) -> list[Action]:
    if s.phase == Phase.CHANCE:
        raise SolveError(RESHUFFLE_AHEAD)
    return [a for a in legal_actions(s) if not renames(s, a)]


class IslaDuelSearch:
    """Alpha-beta on seat 0's final margin (module docstring); ``line`` rebuilds the principal line."""

    def __init__(self, budget: Budget, bound: bool = True) -> None:
        self.budget = budget
        self.bound = bound  # cut by ``margin_range`` (off: the reference for tests)
        self.table: dict[Key, tuple[int, int, Action | None]] = {}
        self.path: set[Key] = set()
        self.nodes = 0

    def value(self, s: GameState, alpha: int = -INF, beta: int = INF) -> int:
        """Seat 0's minimax margin if inside (alpha, beta); else a bound on the far side (fail-soft)."""
        if s.phase == Phase.OVER:
            return margin0(s)
        key = duel_key(s)
        hit = self.table.get(key)
        if hit is not None:
            v, flag, _ = hit
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
        if key in self.path:  # the reduction leaves no cycle (tested against the reference)
            raise SolveError("internal error: the Isla duel search met a cycle of states")
        if self.bound:
            low, high = margin_range(s)
            if high <= alpha:
                return high
            if low >= beta:
                return low
        self.nodes += 1
        self.budget.node()
        a0, b0 = alpha, beta
        top = s.to_move == 0
        moves = _moves(s)
        if hit is not None and hit[2] is not None and hit[2] in moves:
            moves.remove(hit[2])
            moves.insert(0, hit[2])
        best, best_move = (-INF if top else INF), None
        self.path.add(key)
        try:
            for a in moves:
                v = self.value(apply(s, a, check=False), alpha, beta)
                if (v > best) if top else (v < best):
                    best, best_move = v, a
                if top:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
                if alpha >= beta:
                    break
        finally:
            self.path.discard(key)
        flag = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
        self.table[key] = (best, flag, best_move)
        return best

    def line(self, s: GameState, v: int) -> list[Action]:
        """The principal line from ``s``, whose exact value is ``v``: at each step the first move
        (the table's best first) whose child provably keeps it."""
        out: list[Action] = []
        while s.phase != Phase.OVER:
            hit = self.table.get(duel_key(s))
            moves = _moves(s)
            if hit is not None and hit[2] in moves:
                moves.insert(0, hit[2])
            for a in moves:
                c = apply(s, a, check=False)
                if self.value(c, v - 1, v + 1) == v:
                    out.append(a)
                    s = c
                    break
            else:
                raise SolveError("internal error: no move keeps the principal value")
        return out


def solve_isla_duel(s: GameState, player: int | None = None, limits: Limits = DEFAULT_LIMITS,
                    progress: ProgressFn | None = None, budget: Budget | None = None) -> Solution:
    """The minimax ``duel`` value for P on an Isla duel position: P's final coins minus the
    opponent's, and the principal line of both seats' moves to the end, replayed with checks;
    within ``limits`` (nodes and seconds), or on a shared ``budget``. Past a limit the
    SearchLimitExceeded carries the policy line (``best``, feasible) with P's proved bound, the
    root's ``margin_range``; once the value is proved, its line is rebuilt past the limits."""
    p = check_isla_duel(s, player)
    t0 = time.perf_counter()
    search = IslaDuelSearch(budget or limits.clock("Isla duel search", progress))
    try:
        v = search.value(s)
    except SearchLimitExceeded as e:
        low, high = margin_range(s)
        bound = high if p == 0 else -low
        e.best = policy_duel(s, p, isla_policy, bound, search.nodes, len(search.table), t0, e)
        raise
    try:
        line = search.line(s, v)
    except SearchLimitExceeded:  # the value is proved: its line is owed, rebuilt past the limits
        search.budget = Budget(search.budget.what, progress=search.budget.progress)
        line = search.line(s, v)
    stats = SolveStats("exact", time.perf_counter() - t0, nodes=search.nodes, table=len(search.table))
    return replayed_duel(s, p, v if p == 0 else -v, line, stats)


def reference_duel(s: GameState, player: int | None = None, reduce: bool = True) -> int:
    """The value by a reference search for tests: minimax with a table keyed by the whole state but
    the coins' identities (fields in seat order, the discard pile always), no pruning, no bound;
    ``reduce`` off: every cargo move made, a state met again on the path a dead end (its mover can
    leave the cycle out) and no value stored that such a cut decided."""
    p = check_isla_duel(s, player)
    path: set[Key] = set()
    table: dict[Key, int] = {}

    def value(t: GameState) -> tuple[int | None, bool]:  # (seat 0's value, decided by a cycle cut)
        if t.phase == Phase.OVER:
            return margin0(t), False
        key = (t._replace(players=()), tuple((pl.hand, pl.fields, len(pl.coins), pl.aside)
                                            for pl in t.players))
        if key in table:
            return table[key], False
        if key in path:
            return None, True
        path.add(key)
        acts = _moves(t) if reduce else legal_actions(t)
        vals, cut = [], False
        for a in acts:
            v, c = value(apply(t, a, check=False))
            cut |= c
            if v is not None:
                vals.append(v)
        path.discard(key)
        best = max(vals) if t.to_move == 0 else min(vals)
        if not cut:
            table[key] = best
        return best, cut

    v, _ = value(s)
    assert v is not None
    return v if p == 0 else -v


@calls(solve_isla_duel)
def solve(s: GameState, objective: Objective, player: int | None, limits: Limits,
          progress: ProgressFn | None) -> Solution:
    """``solve_isla_duel`` behind the one solver signature (``solvers.contract.Solver``; ``duel``)."""
    if objective is not DUEL:
        raise SolveError(f"{objective.name}: the Isla duel search solves duel only")
    return solve_isla_duel(s, player, limits, progress)
