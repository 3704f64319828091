"""``expected solo P``: P's best expected final coins when the unseen cards lie in random order.

docs/endgames.md, "Objectives": no trades for anyone; the cards P cannot see (the draw pile
and the other players' hands, H7) are in uniformly random order; P maximises the expectation of
P's final coins with the information P has (a policy, not a line). The other seats follow
``solvers.exact.default_policy`` as in open ``solo``. Outside the duel (D1) and in the final
pass (E2): no reshuffle lies ahead, so the game's length and whose turn takes which pile position
are fixed by the pile size (``timeline``).

The search drives the engine on states whose unseen cards are *hidden codes* (negative ints):
the draw pile and the other hands hold them, and ``pool`` counts the true cards behind them.
By exchangeability, a hidden card that becomes visible is a uniform draw, without replacement,
from the pool, conditioned on what P has seen. Cards become visible when P draws them (T7, V4),
when anyone turns them up (T2; cards turned up in other players' turns are public: P may use them,
they change P's odds for the cards still to come), and when another seat plants from its hand
(T1; its fields are public, H7). One observation is not a whole card: under the default policy a
seat plants its second card exactly when it fits one of its fields, so "p1 kept its second card"
tells P that card is none of the fitting types. That card stays hidden with the excluded types
as a bit mask in its code; revealing a card uses the exact posterior of the pool given all such
constraints (``_feasible``). Hidden cards the others draw stay in their hands, unconstrained.
What P sees in the others' turns cannot be left out: it changes P's odds before P's next choice
(tests/test_expected.py, OTHERS_TURN_UP: 45/14 with it, 22/7 for a P who ignores it). Once P has
no turn start ahead, nothing revealed can inform a choice of P's: the table then keys on P's
zones and the time only, and once P will never move again, the value is P's coins after E3.

``brute_force_expected`` is the independent reference for tests: it keeps every arrangement of
the unseen cards as a concrete engine state and splits them by P's view after every step.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial, prod

from console.progress import ProgressFn
from model import Action, EndPhase, GameState, Phase, Plant, apply
from model.errors import ArgumentError
from solvers.contract import DEFAULT_LIMITS, Budget, Limits, Objective, SolveError, base_game_only, calls
from solvers.exact import SoloSearch, default_policy, solve_solo
from solvers.positions import in_final_pass

HIDDEN = -2  # an unseen card with no constraint; -2 - mask: an unseen card of none of mask's types

Pool = tuple[int, ...]  # pool[b]: how many unseen cards are of bean type b


@dataclass
class ExpectedSolution:
    """The answer to ``expected solo P``.

    ``best`` and ``actions`` belong to P's first decision. When the others move first (P is not
    to move), that decision is the one reached by their default-policy moves; if a card P has
    not seen is revealed on the way (a turn-up, another seat's planting), P's first decision
    depends on it, and ``best`` is None and ``actions`` empty: solve again at P's decision.
    ``best`` is also None when P has no decision left before the end.
    """

    player: int
    value: Fraction  # P's expected final coins, optimal play with P's information
    best: Action | None
    actions: list[tuple[Action, Fraction]]  # each of P's choices at that decision, its value
    open_average: Fraction  # the average over the arrangements of the open solo optimum
    arrangements: int  # distinct arrangements of the unseen cards the average is over
    stats: dict[str, float] = field(default_factory=dict)

    @property
    def information_value(self) -> Fraction:
        """What seeing the order of the unseen cards would be worth to P (>= 0)."""
        return self.open_average - self.value


def check_expected(s: GameState, player: int | None) -> int:
    """P (default: the seat to move), after checking that ``s`` suits ``expected solo``."""
    base_game_only(s, "the expected solo search")
    if s.setup.duel:
        raise SolveError("expected solo does not apply to the bean duel (D1)")
    if s.setup.on_demand:  # ``timeline`` ends the game at the last card
        raise SolveError("expected solo covers E1's at-exhaustion reading only, not reshuffle=on-demand")
    if not in_final_pass(s):
        raise SolveError(f"a reshuffle lies ahead (exhaustion {s.exhaustions} of "
                         f"{s.setup.final_exhaustion}): expected solo needs the final pass (E2)")
    if s.phase == Phase.CHANCE:
        raise SolveError("the position is a reshuffle, not a decision point (E1)")
    p = s.to_move if player is None else player
    if not 0 <= p < len(s.players):
        raise ArgumentError("player", p, f"there are {len(s.players)} seats")
    return p


# ------------------------------------------------------------------ hidden cards and their odds


def _mask(code: int) -> int:
    return -2 - code


def _take(pool: Pool, b: int) -> Pool:
    return pool[:b] + (pool[b] - 1,) + pool[b + 1:]


@lru_cache(maxsize=1 << 16)
def _feasible(pool: Pool, masks: tuple[int, ...]) -> Fraction:
    """The probability that, in a uniformly random arrangement of ``pool`` over the hidden cards,
    every constrained card avoids its excluded types (masks: one per constrained card)."""
    if not masks:
        return Fraction(1)
    n = sum(pool)
    mu, rest = masks[0], masks[1:]
    return sum((Fraction(m, n) * _feasible(_take(pool, b), rest)
                for b, m in enumerate(pool) if m and not mu >> b & 1), Fraction(0))


def _masks(s: GameState) -> tuple[int, ...]:
    return tuple(sorted(_mask(c) for pl in s.players for c in pl.hand if c < HIDDEN))


def reveal_odds(s: GameState, pool: Pool, code: int) -> tuple[tuple[int, Fraction], ...]:
    """(bean, probability) for the true type of a hidden card of ``code`` in ``s``, given
    everything P has seen: uniform over the pool, conditioned on every constraint."""
    return _odds(pool, _masks(s), _mask(code))


@lru_cache(maxsize=1 << 16)
def _odds(pool: Pool, masks: tuple[int, ...], mu: int) -> tuple[tuple[int, Fraction], ...]:
    n = sum(pool)
    rest = masks
    if mu:
        k = masks.index(mu)
        rest = masks[:k] + masks[k + 1:]
    whole = _feasible(pool, masks)
    out = []
    for b, m in enumerate(pool):
        if m and not mu >> b & 1:
            q = Fraction(m, n) * _feasible(_take(pool, b), rest) / whole
            if q:
                out.append((b, q))
    return tuple(out)


def _with_hand(s: GameState, q: int, hand: tuple[int, ...]) -> GameState:
    pl = s.players[q]
    return s._replace(players=s.players[:q] + (pl._replace(hand=hand),) + s.players[q + 1:])


def _visible_hidden(s: GameState, p: int) -> tuple[str, int] | None:
    """A hidden card P can now see: face up (T2) or in P's hand (drawn, T7)."""
    for i, c in enumerate(s.face_up):
        if c < 0:
            return ("up", i)
    for i, c in enumerate(s.players[p].hand):
        if c < 0:
            return ("hand", i)
    if any(c < 0 for pl in s.players for c in pl.aside):
        raise SolveError("internal error: a hidden card was set aside")
    return None


def _reveal(s: GameState, where: tuple[str, int], seat: int, b: int) -> GameState:
    kind, i = where
    if kind == "up":
        return s._replace(face_up=tuple(sorted(s.face_up[:i] + (b,) + s.face_up[i + 1:])))
    hand = s.players[seat].hand
    return _with_hand(s, seat, hand[:i] + (b,) + hand[i + 1:])


def timeline(s: GameState) -> list[tuple[str, int]]:
    """Where each draw-pile card goes, top first: ("up", seat) turned up in that seat's turn
    (T2), ("hand", seat) drawn (T7; V4: every seat draws 1, the active seat first). In the final
    pass nothing changes this: the pile ends the game when it runs out (E2), during a turn-up
    after that turn, during drawing at once."""
    su = s.setup
    n = len(s.players)
    left = 0 if s.final or s.phase == Phase.OVER else len(s.draw)
    a = s.active
    turn_up = s.phase == Phase.PLANT
    out: list[tuple[str, int]] = []
    while left:
        if turn_up:
            k = min(su.face_up, left)
            out += [("up", a)] * k
            left -= k
            if not left:
                break
        seats = [(a + i) % n for i in range(n)] if su.rules.draw_each else [a] * su.draw
        for q in seats[:left]:
            out.append(("hand", q))
        left -= min(len(seats), left)
        a = (a + 1) % n
        turn_up = True
    return out


def hide(s: GameState, p: int) -> tuple[GameState, Pool]:
    """``s`` as P sees it: the draw pile and the other hands become hidden cards; their true
    types are counted in the pool."""
    counts = [0] * (max(s.setup.beans) + 1)
    for b in s.draw:
        counts[b] += 1
    players = []
    for q, pl in enumerate(s.players):
        if q != p:
            for b in pl.hand:
                counts[b] += 1
            pl = pl._replace(hand=(HIDDEN,) * len(pl.hand))
        players.append(pl)
    return s._replace(players=tuple(players), draw=(HIDDEN,) * len(s.draw)), tuple(counts)


def final_coins(s: GameState, p: int) -> int:
    """P's coins once every field is harvested at the end (E3: C1 applies, H4 does not; V5: two
    field beans pay nothing, their payout entry is 0)."""
    pl = s.players[p]
    return len(pl.coins) + sum(s.setup.payout[f.bean][f.count] for f in pl.fields if f.count)


# ------------------------------------------------------------------ the expectimax


class ExpectedSearch:
    """Expectimax over P's information states: max at P's decisions, the exact posterior at
    every card P sees, the default policy elsewhere; a table keyed by the hidden state and pool."""

    def __init__(self, player: int, node_limit: int | None = None, budget: Budget | None = None) -> None:
        self.player = player
        self.solo = SoloSearch(player)  # its moves only (``choices``): it never searches
        self.table: dict[tuple[object, ...], Fraction] = {}
        self.nodes = 0
        self.budget = budget if budget is not None else Budget("expected search", node_limit)
        self._turns: dict[tuple[int, int, int, bool], tuple[frozenset[int], bool]] = {}

    def _future(self, s: GameState) -> tuple[frozenset[int], bool]:
        """The seats other than P that will still plant from the hand (T1; only their zones can
        shape what P learns later, by the second-card constraint), and whether P has a turn ahead."""
        k = (len(s.draw), s.active, s.phase, s.final)
        hit = self._turns.get(k)
        if hit is None:
            starts = {q for (kind, q) in timeline(s) if kind == "up"}
            if s.phase == Phase.PLANT and not s.final:
                starts.add(s.active)
            hit = self._turns[k] = (frozenset(starts - {self.player}), self.player in starts)
        return hit

    def done(self, s: GameState) -> bool:
        """P will never move again: no turn of P's ahead, nothing set aside (T6), and P's own turn,
        if it is this one, past trading. P's fields then stay as they are until E3."""
        p = self.player
        return (s.to_move != p and not s.players[p].aside and not self._future(s)[1]
                and not (s.active == p and s.phase in (Phase.PLANT, Phase.TRADE)))

    def key(self, s: GameState, pool: Pool) -> tuple[object, ...]:
        """What P's future depends on: the time, P's zones (fields in canonical order, H2), and,
        while a card may still be revealed before a decision of P's (P has a turn start ahead,
        T1-T2), the pool, the constrained hidden cards and the zones of the seats that still plant.
        Without such a card, the rest of P's game is open: the others and the pool do not matter."""
        p = self.player
        pl = s.players[p]
        first: object = s.first_field
        if s.active == p and s.first_field >= 0:
            first = pl.fields[s.first_field]  # V2: the field, not its index
        mine = (len(s.draw), s.active, s.phase, s.to_move, s.planted, first, s.final, s.face_up,
                s.pending, pl.hand, tuple(sorted(pl.fields)), len(pl.coins), pl.aside)
        planters, ahead = self._future(s)
        if not ahead and _visible_hidden(s, p) is None:
            return mine
        others = tuple((pl_q.hand, pl_q.fields, pl_q.aside) if q in planters
                       else tuple(c for c in pl_q.hand if c < HIDDEN)
                       for q, pl_q in enumerate(s.players) if q != p)
        return mine + (others, pool)

    def value(self, s: GameState, pool: Pool) -> Fraction:
        key = self.key(s, pool)
        hit = self.table.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        self.budget.node()
        v = self._value(s, pool)
        self.table[key] = v
        return v

    def _value(self, s: GameState, pool: Pool) -> Fraction:
        p = self.player
        while True:  # the others' moves that reveal nothing, without a table entry each
            if s.phase == Phase.OVER or self.done(s):
                return Fraction(final_coins(s, p))
            where = _visible_hidden(s, p)
            if where is not None:
                code = s.face_up[where[1]] if where[0] == "up" else s.players[p].hand[where[1]]
                return sum((q * self.value(_reveal(s, where, p, b), _take(pool, b))
                            for b, q in reveal_odds(s, pool, code)), Fraction(0))
            if s.phase == Phase.CHANCE:
                raise SolveError("a reshuffle lies ahead: expected solo needs the final pass (E2)")
            q = s.to_move
            if q == p:
                return max(self.value(apply(s, a, check=False), pool) for a in self.solo.choices(s))
            hand = s.players[q].hand
            if s.phase == Phase.PLANT and hand and hand[0] < 0:
                return self._front(s, pool, q)
            s = apply(s, default_policy(s), check=False)

    def first_decision(self, s: GameState) -> GameState | None:
        """P's first decision from ``s`` if the others reach it by moves that reveal nothing to P;
        else None (it depends on a card not yet seen, or P has no decision left)."""
        p = self.player
        while s.phase != Phase.OVER and not self.done(s) and _visible_hidden(s, p) is None:
            q = s.to_move
            if q == p:
                return s
            if s.phase == Phase.PLANT and s.players[q].hand and s.players[q].hand[0] < 0:
                return None  # q plants a card P has not seen (T1)
            s = apply(s, default_policy(s), check=False)
        return None

    def _front(self, s: GameState, pool: Pool, q: int) -> Fraction:
        """Seat q (not P) plants its hidden front card (T1). The first planting shows the card
        (any harvest it forces comes first, with no decision of P's between). The second is
        planted only if it fits (default policy): each fitting type is seen, the others are
        one outcome, the card kept with the fitting types excluded."""
        hand = s.players[q].hand
        code = hand[0]
        odds = reveal_odds(s, pool, code)
        if s.planted == 0:
            return sum((w * self.value(_with_hand(s, q, (b,) + hand[1:]), _take(pool, b))
                        for b, w in odds), Fraction(0))
        fits = 0
        for b in s.setup.beans:
            if isinstance(default_policy(_with_hand(s, q, (b,) + hand[1:])), Plant):
                fits |= 1 << b
        total = Fraction(0)
        kept = Fraction(0)
        other = -1
        for b, w in odds:
            if fits >> b & 1:
                total += w * self.value(_with_hand(s, q, (b,) + hand[1:]), _take(pool, b))
            else:
                kept += w
                other = b
        if kept:
            probe = default_policy(_with_hand(s, q, (other,) + hand[1:]))
            if not isinstance(probe, EndPhase):
                raise SolveError(f"internal error: the default policy answers {probe} to a card that fits "
                                 "no field")
            t = _with_hand(s, q, (-2 - (_mask(code) | fits),) + hand[1:])
            total += kept * self.value(apply(t, probe, check=False), pool)
        return total


# ------------------------------------------------------------------ the open average


def _multiset_arrangements(pool: Pool) -> int:
    n = sum(pool)
    out = factorial(n)
    for m in pool:
        out //= factorial(m)
    return out


def _relevant_slots(s: GameState, p: int) -> list[list[int]]:
    """The pile positions whose cards can matter to P's open solo value, in groups: each turn-up
    of P's (T2: a multiset, planted in phase 3 in any order) and each card P draws before a
    later turn of P's (drawn later, it stays in hand and scores nothing, E3)."""
    line = timeline(s)
    last_up = max((i for i, (kind, q) in enumerate(line) if kind == "up" and q == p), default=-1)
    groups: list[list[int]] = []
    prev = ("", -1)
    for i, (kind, q) in enumerate(line):
        if q != p:
            prev = ("", -1)
            continue
        if kind == "up":
            if prev == ("up", p):
                groups[-1].append(i)
            else:
                groups.append([i])
        elif i < last_up:
            groups.append([i])
        prev = (kind, q)
    return groups


def _sequences(pool: Pool, sizes: list[int]) -> Iterator[tuple[tuple[tuple[int, ...], ...], Fraction]]:
    """Every distinct filling of groups of the given sizes by draws without replacement from the
    pool (a group is a multiset), with its probability."""
    if not sizes:
        yield (), Fraction(1)
        return
    for group, q, rest in _group(pool, sizes[0]):
        for tail, r in _sequences(rest, sizes[1:]):
            yield (group,) + tail, q * r


def _group(pool: Pool, k: int, low: int = 0) -> Iterator[tuple[tuple[int, ...], Fraction, Pool]]:
    """Multisets of k cards (sorted) drawn without replacement from the pool, with their
    probability (multivariate hypergeometric) and the pool left."""
    for cards in _multisets(pool, k, low):
        got = Counter(cards)
        q = Fraction(prod(comb(pool[b], c) for b, c in got.items()), comb(sum(pool), k))
        yield cards, q, tuple(m - got[b] for b, m in enumerate(pool))


def _multisets(pool: Pool, k: int, low: int) -> Iterator[tuple[int, ...]]:
    if k == 0:
        yield ()
        return
    for b in range(low, len(pool)):
        for c in range(1, min(pool[b], k) + 1):
            for tail in _multisets(pool, k - c, b + 1):
                yield (b,) * c + tail


def open_average(s: GameState, p: int, budget: Budget | None = None) -> tuple[Fraction, int]:
    """The exact average of the open ``solo`` optimum over the arrangements of the unseen cards,
    and how many open searches it took. The open value depends only on the cards in P's relevant
    pile positions (other seats cannot touch P's cards without trades), whose joint law is drawing
    without replacement from the pool; the rest of the pool fills the other places in any order.
    Every open search counts against ``budget`` (None: no limit)."""
    _, pool = hide(s, p)
    groups = _relevant_slots(s, p)
    total = Fraction(0)
    runs = 0
    for filling, q in _sequences(pool, [len(g) for g in groups]):
        rest = list(pool)
        draw = [-1] * len(s.draw)
        for g, cards in zip(groups, filling, strict=True):
            for i, b in zip(g, cards, strict=True):
                draw[i] = b
                rest[b] -= 1
        left = [b for b, m in enumerate(rest) for _ in range(m)]
        draw = [b if b >= 0 else left.pop() for b in draw]
        players = []
        for qs, pl in enumerate(s.players):
            if qs != p:
                pl = pl._replace(hand=tuple(left.pop() for _ in pl.hand))
            players.append(pl)
        t = s._replace(draw=tuple(draw), players=tuple(players))
        total += q * solve_solo(t, p, budget=budget).value
        runs += 1
    return total, runs


# ------------------------------------------------------------------ the answer


def solve_expected(s: GameState, player: int | None = None, limits: Limits = DEFAULT_LIMITS,
                   progress: ProgressFn | None = None) -> ExpectedSolution:
    """``expected solo P``: the value, P's best next action, and the open average (see module).
    The expectimax stays within ``limits.nodes`` nodes, and with the open searches within
    ``limits.time`` seconds."""
    p = check_expected(s, player)
    t0 = time.perf_counter()
    budget = limits.clock("expected search", progress)
    search = ExpectedSearch(p, budget=budget)
    h, pool = hide(s, p)
    value = search.value(h, pool)
    t = search.first_decision(h)
    actions: list[tuple[Action, Fraction]] = []
    if t is not None:
        actions = [(a, search.value(apply(t, a, check=False), pool)) for a in search.solo.choices(t)]
    best = max(actions, key=lambda av: av[1])[0] if actions else None
    seconds = time.perf_counter() - t0
    avg, runs = open_average(s, p, budget.same_clock("open average"))
    stats = {"nodes": search.nodes, "seconds": seconds, "table": len(search.table),
             "open_runs": runs, "open_seconds": time.perf_counter() - t0 - seconds}
    return ExpectedSolution(p, value, best, actions, avg, _multiset_arrangements(pool), stats)


# ------------------------------------------------------------------ the reference: every world


def _distinct_orders(pool: Pool) -> Iterator[tuple[int, ...]]:
    n = sum(pool)
    if n == 0:
        yield ()
        return
    for b, m in enumerate(pool):
        if m:
            for rest in _distinct_orders(_take(pool, b)):
                yield (b,) + rest


def worlds(s: GameState, p: int) -> list[GameState]:
    """Every distinct arrangement of the unseen cards over the draw pile and the other hands,
    as a full engine state (equally likely: each is the same number of permutations)."""
    _, pool = hide(s, p)
    out = []
    for order in _distinct_orders(pool):
        cards = list(order)
        players = []
        for q, pl in enumerate(s.players):
            if q != p:
                pl = pl._replace(hand=tuple(cards.pop() for _ in pl.hand))
            players.append(pl)
        out.append(s._replace(players=tuple(players), draw=tuple(cards[:len(s.draw)])))
    return out


def view(s: GameState, p: int) -> tuple[object, ...]:
    """What P sees (H7): P's zones, every field and set-aside area, the face-up cards, the hand
    and pile sizes, and whose move it is; not the others' hands or coins, nor the pile's order."""
    pl = s.players[p]
    return (pl.hand, pl.fields, len(pl.coins), pl.aside, s.face_up, len(s.draw), s.active, s.phase,
            s.to_move, s.planted, s.first_field, s.final, s.pending,
            tuple((q.fields, q.aside, len(q.hand)) for q in s.players))


def brute_force_expected(s: GameState, player: int | None = None,
                         sees: Callable[[GameState, int], Hashable] = view) -> Fraction:
    """``expected solo`` by brute force over every world (tiny positions, <= 7 unseen cards):
    at P's decision, the max over P's choices of the value of the worlds after it; after every
    step, the worlds split by what P sees (``sees``: P's view, H7; a coarser one models a P who
    ignores some of it), weighted by how many there are."""
    p = check_expected(s, player)
    solo = SoloSearch(p)
    memo: dict[tuple[Hashable, frozenset[tuple[tuple[object, ...], int]]], Fraction] = {}

    # A world is keyed by what can differ between worlds of one view history: the pile and the
    # other hands (the discard pile and the others' coins follow from public harvests).
    def hidden(w: GameState) -> tuple[object, ...]:
        return (w.draw,) + tuple(pl.hand for q, pl in enumerate(w.players) if q != p)

    def split(ws: list[tuple[GameState, int]]) -> Fraction:
        parts: dict[Hashable, list[tuple[GameState, int]]] = {}
        for w, k in ws:
            parts.setdefault(sees(w, p), []).append((w, k))
        total = sum(k for _, k in ws)
        return sum((Fraction(sum(k for _, k in part), total) * decide(v, part)
                    for v, part in parts.items()), Fraction(0))

    def decide(v: Hashable, ws: list[tuple[GameState, int]]) -> Fraction:
        weights: Counter[tuple[object, ...]] = Counter()
        for w, k in ws:
            weights[hidden(w)] += k
        key = (v, frozenset(weights.items()))
        hit = memo.get(key)
        if hit is not None:
            return hit
        w0 = ws[0][0]
        if w0.phase == Phase.OVER:
            out = Fraction(len(w0.players[p].coins))
        elif w0.to_move != p:
            out = split([(apply(w, default_policy(w), check=False), k) for w, k in ws])
        else:
            out = max(split([(apply(w, a, check=False), k) for w, k in ws]) for a in solo.choices(w0))
        memo[key] = out
        return out

    return split([(w, 1) for w in worlds(s, p)])


@calls(solve_expected)
def solve(s: GameState, objective: Objective, player: int | None, limits: Limits,
          progress: ProgressFn | None) -> ExpectedSolution:
    """``solve_expected`` behind the solvers' one signature (``expected``, a policy, not a line)."""
    return solve_expected(s, player, limits, progress)
