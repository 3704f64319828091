"""The ``duel`` objective: exact minimax on the coin margin in the open bean duel (D1-D2, E2).

value(P) = P's final coins minus the opponent's; P maximises, the opponent minimises, and each
chooses every move of its own turns (what is left on offer matters, D2). Open: the draw pile's
order is known and no reshuffle lies ahead (E2), so the moves alone decide the rest of the game.

Search: negamax with alpha-beta over the engine's own actions (``apply(.., check=False)``) and a
transposition table of (value, bound flag, best move). A stored value is the *future* margin gain
for the seat to move, so coins already won stay out of the key: the future never depends on them
except through F1's purchase, hence ``min(coins, cost)`` in the key. Every turn turns up and draws
a fixed number of cards whatever is played (D2), so the pile's length alone says how many turns
each seat has left (``Outlook``); that bounds which hand cards and discards can still matter
(``DuelSearch.key``) and gives cut-offs in each seat's last turn (``potential``, ``floor``).
This module never changes a rule: the line is replayed through ``model.apply`` with checking on.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

from console.progress import ProgressFn
from model import (
    Action,
    BuyField,
    Discard,
    DiscardUp,
    EndPhase,
    GameState,
    Harvest,
    Phase,
    Plant,
    PlantUp,
    apply,
    legal_actions,
)
from model.errors import ArgumentError
from solvers.bounds import best_split
from solvers.contract import (
    DEFAULT_LIMITS,
    DUEL,
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
from solvers.exact import default_policy, policy_line
from solvers.positions import in_final_pass

INF = 10**6
EXACT, LOWER, UPPER = 0, 1, 2
OVER, OFFER, PLANT, DISCARD, TURNED = Phase.OVER, Phase.OFFER, Phase.PLANT, Phase.DISCARD, Phase.TURNED

Key = tuple[object, ...]


class Plan(NamedTuple):
    """What one seat can still do with its hand (D2 step 2: plant at most 2 front cards, then
    may discard any one card, H1)."""

    reach: int  # hand positions below this may still be planted; the others only discarded
    discards: int  # step-2 discards left
    turns: int  # step 2s left, this turn's included


class Outlook(NamedTuple):
    """The rest of the game as far as the pile's length and the phase tell (D2, E2)."""

    live: frozenset[int]  # bean types that a turn-up still to come can show (D2 step 3)
    turn_ups: int  # turn-ups still to come
    mover: Plan
    other: Plan


def _plan(steps: list[tuple[int, int]]) -> Plan:
    if not steps:
        return Plan(0, 0, 0)
    reach = sum(p + d for p, d in steps[:-1]) + steps[-1][0]
    return Plan(reach, sum(d for _, d in steps), len(steps))


@cache
def _best_split(row: tuple[int, ...], size: int) -> list[int]:
    """best[n]: the most coins n cards of one type can pay over every way to harvest them in groups
    (C1), an upper bound however they are planted."""
    top = len(row) - 1
    best = [0] * size
    for m in range(1, size):
        best[m] = max(row[min(g, top)] + best[m - g] for g in range(1, m + 1))
    return best


def duel_player(s: GameState, player: int | None) -> int:
    """Check that ``s`` is an open duel position (D1, E2); P (default: the seat to move)."""
    base_game_only(s, "the duel search")
    if not s.setup.duel:
        raise SolveError("duel applies only to the bean duel (D1): use solo, coop or best")
    if s.setup.on_demand:  # ``outlook`` counts the turns left from the pile, ending at the last card
        raise SolveError("duel covers E1's at-exhaustion reading only, not reshuffle=on-demand")
    if not in_final_pass(s):
        raise SolveError(f"a reshuffle lies ahead (exhaustion {s.exhaustions} of "
                         f"{s.setup.final_exhaustion}): open endgames need the final pass (E2)")
    if s.phase == OVER or s.to_move < 0:
        raise SolveError("the position must be a decision point, not a finished game or a reshuffle")
    p = s.to_move if player is None else player
    if p not in (0, 1):
        raise ArgumentError("player", p, "the bean duel has seats 0 and 1")
    return p


def margin(s: GameState, p: int) -> int:
    """P's coins minus the opponent's (E4 counts coins; coins paid for a field left the game, F1)."""
    return len(s.players[p].coins) - len(s.players[1 - p].coins)


class DuelSearch:
    """Alpha-beta over one open duel. ``gain(s)`` is the future margin gain for ``s.to_move``.

    The caches assume every state searched descends from ``root`` (its draw pile is a suffix of
    the root's, so its length names it)."""

    def __init__(self, root: GameState, budget: Budget | None = None) -> None:
        su = root.setup
        self.root = root
        self.budget = budget or Budget("duel search")
        self.table: dict[Key, tuple[int, int, Action | None]] = {}
        self.nodes = 0
        self.cost = su.third_cost
        self.up, self.draw = su.face_up, su.draw
        monotone = all(a <= b for row in su.payout for a, b in zip(row, row[1:], strict=False))
        # Cut-offs and solo mode assume coins only grow with a field (C1) and no field beans (V5).
        self.bounds = monotone and not su.rules.field_beans
        size = 4 * max(su.deck.count(b) for b in su.beans) + 16
        self.best_split = [_best_split(row, size) for row in su.payout]
        self._outlook: dict[tuple[int, int, int, bool], Outlook] = {}
        self._floors: dict[Key, int] = {}

    # ------------------------------------------------------------ what the future depends on

    def outlook(self, s: GameState) -> Outlook:
        """Turns left, from the pile's length: a turn turns up ``face_up`` cards (the game ends
        after it if that empties the pile, E2) and draws ``draw`` (the game ends at once if that
        empties it); the next seat plays the next turn. The turned-up cards sit at fixed places
        of the pile, so their types are known."""
        k = (len(s.draw), s.phase, s.planted if s.phase == PLANT else 0, s.final)
        hit = self._outlook.get(k)
        if hit is not None:
            return hit
        n, up, dr = len(s.draw), self.up, self.draw
        steps: list[list[tuple[int, int]]] = [[], []]
        ups: list[int] = []
        pos = -1  # where the next turn starts in the pile, -1: no next turn
        if s.phase == TURNED:
            if not s.final and not (dr and n <= dr):
                pos = dr
        else:
            steps[0].append((0 if s.phase == DISCARD else 2 - s.planted, 1))
            ups.extend(range(min(up, n)))
            if not (up and n <= up) and not (dr and n - up <= dr):
                pos = up + dr
        seat = 1
        while 0 <= pos < n:
            steps[seat].append((2, 1))
            ups.extend(range(pos, min(pos + up, n)))
            left = n - pos
            pos = -1 if (up and left <= up) or (dr and left - up <= dr) else pos + up + dr
            seat = 1 - seat
        live = frozenset(s.draw[i] for i in ups)
        turn_ups = len(steps[0]) + len(steps[1]) if up else 0
        hit = Outlook(live, turn_ups, _plan(steps[0]), _plan(steps[1]))
        self._outlook[k] = hit
        return hit

    def hand_key(self, hand: tuple[int, ...], plan: Plan, live: frozenset[int]) -> Key:
        """A hand as far as the future can tell (H1): cards from ``plan.reach`` on are never planted,
        only discarded (D2 step 2), so they count as a multiset (at most ``discards`` of a type),
        and a type no turn-up can show again acts like any other such type: a floor on the discard
        pile (see ``key``)."""
        if len(hand) <= plan.reach:
            return hand
        if not plan.discards:
            return hand[:plan.reach]
        deep: dict[int, int] = {}
        for b in hand[plan.reach:]:
            b = b if b in live else -1
            deep[b] = min(deep.get(b, 0) + 1, plan.discards)
        return (hand[:plan.reach], tuple(sorted(deep.items())))

    def key(self, s: GameState, solo: bool) -> Key:
        """Everything the future gain depends on:

        - the discard pile above its top card of a type no turn-up to come can show: D2 step 3 only
          takes matching cards from the top, so such a card is a floor no pull ever passes; with one
          turn-up left, the cards above it all go or all stay, so their order does not matter;
        - the draw pile by its length (its order is fixed from the start position);
        - each seat's hand as far as it can still matter (``hand_key``), its fields sorted (H2),
          and ``min(coins, cost)`` while it may still buy a third field (F1); in ``solo`` mode
          (the opponent never moves again) the mover's seat only;
        - the face-up cards, phase, active seat, plantings so far in phase 1 (T1; the first field's
          content under V2), and whether the pile ran out while turning up (E2).
        """
        ol = self.outlook(s)
        live = ol.live
        d = s.discard
        i = len(d)
        while i and d[i - 1] in live:
            i -= 1
        top = d[i:]
        if len(top) > 1 and ol.turn_ups <= 1:
            top = tuple(sorted(top))
        a = s.active
        seats = []
        for q, plan in ((a, ol.mover),) if solo else ((a, ol.mover), (1 - a, ol.other)):
            pl = s.players[q]
            buy = min(len(pl.coins), self.cost) if self.cost is not None and len(pl.fields) == 2 else -1
            seats.append((self.hand_key(pl.hand, plan, live), tuple(sorted(pl.fields)), buy))
        planted = s.planted if s.phase == PLANT else 0
        first = None
        if planted == 1 and s.setup.rules.distinct_fields and s.first_field >= 0:
            first = s.players[a].fields[s.first_field]
        return (len(s.draw), a, s.phase, planted, first, s.final, s.face_up, top, tuple(seats))

    def solo(self, s: GameState) -> bool:
        """Does the opponent never move again? Then its fields only wait for the final harvest
        (E3; D1: nobody touches another's fields), and the search keys on the mover alone."""
        return self.bounds and self.outlook(s).other.turns == 0

    def harvest_value(self, s: GameState, p: int) -> int:
        """P's fields' coins if harvested now (C1): the least they will pay, unless P buys (F1)."""
        payout = s.setup.payout
        return sum(payout[f.bean][f.count] for f in s.players[p].fields if f.count)

    # ------------------------------------------------------------ bounds for a seat's last turn

    def potential(self, s: GameState) -> int | None:
        """An upper bound on the mover's future coins in its last turn (None before then).

        Only its fields, the face-up cards and, before its step 3, its plantable hand cards, the
        cards it turns up, the matching run on top of the discard pile and its own matching
        discards can still reach its fields (D2); a card on a field before the turn-up may be
        harvested and pulled back once, so those of the turned-up types count twice. Each type's
        cards are harvested in their best grouping (C1); buying (F1) only costs coins."""
        if not self.bounds:
            return None
        pl = s.players[s.to_move]
        mine = self.outlook(s).mover
        if mine.turns > (0 if s.phase == TURNED else 1):
            return None
        count: dict[int, int] = {}
        for f in pl.fields:
            if f.count:
                count[f.bean] = count.get(f.bean, 0) + f.count
        for b in s.face_up:
            count[b] = count.get(b, 0) + 1
        if s.phase != TURNED:
            for b in pl.hand[:mine.reach]:
                count[b] = count.get(b, 0) + 1
            up = s.draw[:self.up]
            shown = set(up)
            for b in shown:
                count[b] = 2 * count.get(b, 0)
            for b in up:
                count[b] += 1
            for b in pl.hand[mine.reach:]:
                if b in shown:
                    count[b] += 1
            d = s.discard
            i = len(d)
            while i and d[i - 1] in shown:
                i -= 1
                count[d[i]] += 1
        best = self.best_split
        return sum(best[b][n] if n < len(best[b]) else n for b, n in count.items())  # n: a coin a card

    def floor(self, s: GameState) -> int:
        """A lower bound on the opponent's future coins during the mover's last turn.

        Never buying, the opponent keeps at least its fields' harvest value (coins only grow, C1).
        With one turn left it does at least as well as in that turn with nothing on offer and
        nothing to pull from the discard pile: it can discard every offered card, and pulled cards
        join the face-up cards without having to be planted (D2). The mover cannot touch the
        opponent's hand or fields (D1), so this is one solo search per turn."""
        o = 1 - s.active
        opp = s.players[o]
        h = self.harvest_value(s, o)
        if self.outlook(s).other.turns != 1 or not opp.hand:
            return h
        left = len(s.draw) - (self.draw if s.phase == TURNED else self.up + self.draw)
        k = (left, opp.hand, opp.fields, len(opp.coins))
        v = self._floors.get(k)
        if v is None:
            c = s
            while c.to_move == s.active:  # any legal way to finish the mover's turn
                acts = legal_actions(c)
                a = next((x for x in acts if isinstance(x, EndPhase)), None) \
                    or next((x for x in acts if isinstance(x, (DiscardUp, Plant))), acts[0])
                c = apply(c, a, check=False)
            while c.phase == OFFER:
                c = apply(c, DiscardUp(o, 0), check=False)
            v = h
            if c.phase == PLANT and c.to_move == o:
                v = max(h, self.search(c._replace(discard=()), -INF, INF, True))
            self._floors[k] = v
        return v

    # ------------------------------------------------------------ moves and search

    def moves(self, s: GameState, hint: Action | None) -> list[Action]:
        """Legal actions without plantings onto a twin field (H2), best first by a cheap guess:
        the table's best move, growing a field, planting on an empty one, harvesting, ending."""
        fields = s.players[s.to_move].fields
        scored: list[tuple[int, int, Action]] = []
        twins: set[tuple[int, object]] = set()
        for n, a in enumerate(legal_actions(s)):
            if isinstance(a, (Plant, PlantUp)):
                f = fields[a.field]
                twin = (a.index if isinstance(a, PlantUp) else -1, f)
                if twin in twins:
                    continue
                twins.add(twin)
                score = 100 + f.count if f.count else 50
            elif isinstance(a, Harvest):
                score = 40 + fields[a.field].count
            elif isinstance(a, EndPhase):
                score = 45
            elif isinstance(a, DiscardUp):
                score = 30
            elif isinstance(a, Discard):
                score = 20
            elif isinstance(a, BuyField):
                score = 10
            else:
                score = 0
            if a == hint:
                score = 1000
            scored.append((-score, n, a))
        scored.sort()
        return [a for _, _, a in scored]

    def gain(self, s: GameState, alpha: int, beta: int) -> int:
        """G(s), the future margin gain for ``s.to_move``: exact if inside (alpha, beta), else a
        bound on the same side (fail-soft). In solo mode G = S - h, with S the mover's own future
        coins and h the opponent's fields' final harvest (E3)."""
        if self.solo(s):
            h = self.harvest_value(s, 1 - s.active)
            return self.search(s, alpha + h, beta + h, True) - h
        return self.search(s, alpha, beta, False)

    def search(self, s: GameState, alpha: int, beta: int, solo: bool) -> int:
        """Negamax over G (or S in solo mode) with the table and the last-turn cut-off."""
        key = self.key(s, solo)
        hit = self.table.get(key)
        hint = None
        if hit is not None:
            v, flag, hint = hit
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
        pot = self.potential(s)
        if pot is not None:
            ub = pot if solo else pot - self.floor(s)
            if ub <= alpha:
                self.table[key] = (ub, UPPER, hint)
                return ub
        self.nodes += 1
        self.budget.node()
        me = s.to_move
        m0 = len(s.players[me].coins) if solo else margin(s, me)
        a0 = alpha
        best = -INF
        best_move: Action | None = None
        for a in self.moves(s, hint):
            c = apply(s, a, check=False)
            if solo:
                d = len(c.players[me].coins) - m0
                v = d if c.phase == OVER else d + self.search(c, alpha - d, beta - d, True)
            else:
                d = margin(c, me) - m0
                if c.phase == OVER:
                    v = d
                elif c.to_move == me:
                    v = d + self.gain(c, alpha - d, beta - d)
                else:
                    v = d - self.gain(c, d - beta, d - alpha)
            if v > best:
                best, best_move = v, a
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = UPPER if best <= a0 else LOWER if best >= beta else EXACT
        self.table[key] = (best, flag, best_move)
        return best

    def line(self, s: GameState, g: int) -> list[Action]:
        """The principal variation from ``s``, whose exact gain is ``g``: at each step the first
        move (the table's best move first) whose child provably keeps the value."""
        out: list[Action] = []
        while s.phase != OVER:
            me = s.to_move
            hit = self.table.get(self.key(s, self.solo(s)))
            for a in self.moves(s, hit[2] if hit is not None else None):
                c = apply(s, a, check=False)
                d = margin(c, me) - margin(s, me)
                if c.phase == OVER:
                    ok, g2 = d >= g, 0
                elif c.to_move == me:
                    ok, g2 = self.gain(c, g - d - 1, g - d) >= g - d, g - d
                else:
                    ok, g2 = self.gain(c, d - g, d - g + 1) <= d - g, d - g
                if ok:
                    out.append(a)
                    s, g = c, g2
                    break
            else:
                raise SolveError("internal error: no move keeps the principal value")
        return out


def solve_duel(s: GameState, player: int | None = None, limits: Limits = DEFAULT_LIMITS,
               progress: ProgressFn | None = None) -> Solution:
    """The minimax ``duel`` value for P (default: the seat to move): P's final coins minus the
    opponent's, and the principal line of both seats' moves to the end of the game; within
    ``limits`` (nodes and seconds)."""
    p = duel_player(s, player)
    t0 = time.perf_counter()
    search = DuelSearch(s, limits.clock("duel search", progress))
    try:
        g = search.gain(s, -INF, INF)
    except SearchLimitExceeded as e:
        e.best = policy_duel(s, p, default_policy, margin_cap(s, p), search.nodes, len(search.table), t0, e)
        raise
    line = search.line(s, g)
    value = margin(s, s.to_move) + g
    if p != s.to_move:
        value = -value
    stats = SolveStats("exact", time.perf_counter() - t0, nodes=search.nodes, table=len(search.table))
    return replayed_duel(s, p, value, line, stats)


def margin_cap(s: GameState, p: int) -> int:
    """A proved upper bound on P's minimax margin: P's coins plus every card not yet a coin (hands,
    fields, set-aside, face-up, draw and discard piles: C1's best grouping of each bean), less the
    opponent's coins (an opponent that buys nothing keeps them; F1 only spends)."""
    cards: dict[int, int] = {}
    zones = [s.draw, s.face_up, s.discard]
    for pl in s.players:
        zones += [pl.hand, pl.aside, tuple(f.bean for f in pl.fields for _ in range(f.count))]
    for zone in zones:
        for b in zone:
            cards[b] = cards.get(b, 0) + 1
    gain = sum(best_split(s.setup.payout[b], n) for b, n in cards.items())
    return margin(s, p) + gain


def policy_duel(s: GameState, p: int, policy: Callable[[GameState], Action], bound: int, nodes: int,
                table: int, t0: float, stop: SearchLimitExceeded) -> Solution:
    """A duel search stopped by a limit: both seats playing ``policy``, as a feasible Solution with
    the proved ``bound`` on P's margin."""
    line, coins = policy_line(s, policy)
    stats = SolveStats("exact", time.perf_counter() - t0, nodes=nodes, table=table, bound=float(bound),
                       stopped_by="nodes" if isinstance(stop, NodeLimitExceeded) else "time")
    return Solution(DUEL, p, coins[p] - coins[1 - p], line, coins, status=Status.FEASIBLE, stats=stats)


def replayed_duel(s: GameState, p: int, value: int, line: list[Action], stats: SolveStats) -> Solution:
    """The ``duel`` Solution of ``line``, replayed through ``model.apply`` with checks: it must end
    the game with P's margin ``value`` (an internal error otherwise)."""
    end = s
    for a in line:
        end = apply(end, a)  # checked: the line must be legal
    coins = [len(pl.coins) for pl in end.players]
    if not end.is_over or coins[p] - coins[1 - p] != value:
        raise SolveError(f"internal error: the replayed line gives a margin of {coins[p] - coins[1 - p]}, "
                         f"the search {value}")
    return Solution(DUEL, p, value, line, coins, stats=stats)


def minimax_duel(s: GameState, player: int | None = None) -> int:
    """Plain minimax over ``legal_actions`` (no table, no pruning): the reference for tests, on
    tiny positions only (every order of harvests and plantings is a separate path)."""
    p = duel_player(s, player)

    def value(t: GameState) -> int:
        if t.phase == OVER:
            return margin(t, p)
        vals = [value(apply(t, a, check=False)) for a in legal_actions(t)]
        return max(vals) if t.to_move == p else min(vals)

    return value(s)


@calls(solve_duel)
def solve(s: GameState, objective: Objective, player: int | None, limits: Limits,
          progress: ProgressFn | None) -> Solution:
    """``solve_duel`` behind the one solver signature (``solvers.contract.Solver``; ``duel`` only)."""
    return solve_duel(s, player, limits, progress)
