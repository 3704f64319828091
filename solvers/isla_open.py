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
cycles, I6). A phase-2 node searches its moves but the deals best bound first, then the deals
one at a time, each cut by its own bound (a deal moves cards between seats, so it changes the
bound). The bound (``upper``, ``reach``) goes seat by seat: only a phase 2 moves cards between
seats (I3, I7; ``turns_ahead`` counts the turns that still have one, E2), so most cards can end in
one seat's groups only and count there; the rest (face-up cards, the draw pile, what a raid may
take) are shared out among the seats at best. Per seat and bean, the cards split into groups each
sold once (C1 for a field, I6 for a cargo: both by the beanometer; a harvest can join a field to a
cargo, I5, so fields are not fixed groups). Coins come from nothing else; purchases only spend
them. ``best`` is cut where a seat other than P cannot reach its floor.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from console.progress import ProgressFn
from model import Action, GameState, Phase, apply, legal_actions
from model.actions import Accept, BuyField, Decline, Harvest, Propose
from model.engine import is_listed_proposal
from model.isla import isla_of, isla_setup
from model.isla.actions import PIRATE, BuyShip
from model.isla.state import HOME
from solvers.bounds import gain_table
from solvers.contract import OBJECTIVES, Budget, Limits, Objective, Solution, SolveError
from solvers.exact import NEG, Move, OpenSearch, _full_key, final_pass_player, iter_deals, open_solution
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
            total += _captures(raids, more)
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
        return got + _captures(raids, more)

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
        hit = self._splits.get((b, n))
        if hit is None:
            hit = self._splits[(b, n)] = gain_table(s.setup.payout[b], [], n)[n]
        return hit


def windows(s: GameState) -> list[int]:
    """The seats but the active one whose answer to a proposal is a window that cannot wait: while
    it answers, a seat may harvest (H5), load a harvest onto a merchant ship in its harbour (I5),
    sell or move a cargo (I6) and buy (I1). Only the seat's own coins, fields and ships change, and
    only two things read them before its next decision (its phase 3, T6, or a later turn): a raid
    of the active seat's pirate in this phase 2 (I7), and nothing else; its final groups gain only
    where two of them hold one bean (a field loaded onto a cargo of its bean, two cargos joined).
    So a seat has windows when the active seat may raid it now (a pirate ship, or the coins for
    one; a merchant ship still raidable, ``_targets``, or a second one it may buy; cards of a bean
    the pirate may take) or when two of its groups hold one bean. Otherwise its harvests pay what
    the final harvest (E3) would, a load or a move onto an empty ship only renames a group, a sale
    pays what the end would, and a purchase only spends: each can wait (the base game's argument
    for harvests). Empty once the active seat has made its ``max_offers`` proposals (T3) and in
    the duel (no trading, I9)."""
    return _windows(s, _raid_beans(s))


def _windows(s: GameState, takes: set[int] | None) -> list[int]:
    """``windows``, with the pirate's beans (``_raid_beans``) given."""
    su = s.setup
    if su.duel or s.offers >= su.rules.max_offers:
        return []
    isla = isla_of(s)
    raider = s.phase in (Phase.PLANT, Phase.TRADE) and _may_raid(s, s.active, isla_setup(su).pirate_cost)
    out = []
    for q, pl in enumerate(s.players):
        if q == s.active:
            continue
        fleet = isla.fleets[q]
        groups = [f.bean for f in pl.fields if f.count]
        groups += [ship.bean for _, ship in fleet.ships() if ship.count]
        raided = raider and any(takes is None or b in takes for b in groups) and (
            _targets(s, q) > 0 or (len(fleet.merchants) == 1 and _may_buy(s, q)))
        if raided or len(set(groups)) < len(groups):
            out.append(q)
    return out


def waits(s: GameState, a: Action) -> bool:
    """A partner's move while it answers a proposal (``windows``) that can wait for its next
    decision or the end, for the same coins or more: a field or a pirate ship bought (F1, I1; only
    a planting uses a field, and its pirate attacks only in its own turns, I7), or a harvest for
    coins (H5: the final harvest pays the same, E3) unless it may open H4 for a one-card field or
    pay towards a second merchant ship (I1)."""
    if s.pending is None or s.to_move == s.active:
        return False
    if isinstance(a, BuyField) or (isinstance(a, BuyShip) and a.pirate):
        return True
    if isinstance(a, Harvest):
        pl = s.players[a.player]
        one_ship = len(isla_of(s).fleets[a.player].merchants) == 1
        short = one_ship and len(pl.coins) < isla_setup(s.setup).ship_cost
        return not short and all(f.count != 1 for f in pl.fields)
    return False


def _captures(raids: Raids, more: Callable[[int, int], int]) -> int:
    """The most ``raids.left`` captures add, ``more(b, k)`` for ``k`` cards of bean ``b`` (at most
    ``raids.cards[b]``): a knapsack over the beans (a captured card is its holder's in the bound
    too, so the raider's gain is all that is added)."""
    best = [0] * (raids.left + 1)
    for b, most in raids.cards.items():
        gains = [more(b, k) for k in range(min(most, raids.left) + 1)]
        best = [max(best[j - k] + gains[k] for k in range(min(j, len(gains) - 1) + 1))
                for j in range(raids.left + 1)]
    return best[raids.left]


def _raid_beans(s: GameState) -> set[int] | None:
    """The beans whose capture this turn may pay the active seat's pirate more (None: any).
    The captures left are at most one a merchant ship still raidable (``_targets``, a second one
    bought included). A pirate holding cargo it captured this turn keeps it aboard (I6 reading)
    and takes only that bean until a sale empties it, which needs the cargo to pay (I6). In the
    last turn its cargo is sold alone at the end or before (E3, I8): a bean is worth taking only
    if some number of captures left raises the cargo's price (C1); a capture that does not leaves
    the victim no richer and the pirate no richer, so a line without it does as well."""
    isla = isla_of(s)
    pirate = isla.fleets[s.active].pirate
    left = sum(_targets(s, q) + (len(isla.fleets[q].merchants) == 1 and _may_buy(s, q))
               for q in range(len(s.players)) if q != s.active)
    pay = s.setup.payout
    held = pirate.count if pirate is not None and pirate.count else 0

    def raises(b: int, c: int) -> bool:
        return any(pay[b][min(c + k, len(pay[b]) - 1)] > pay[b][min(c, len(pay[b]) - 1)]
                   for k in range(1, left + 1))

    if held and isla.captured and pirate is not None and not raises(pirate.bean, held) \
            and pay[pirate.bean][min(held, len(pay[pirate.bean]) - 1)] == 0:
        beans = {pirate.bean}  # never sold this turn: it stays the only bean
    else:
        beans = set(s.setup.beans)
    if len(turns_ahead(s)) > 1:
        return None if len(beans) > 1 else beans
    return {b for b in beans if raises(b, 0) or (held and pirate is not None and b == pirate.bean
                                                  and raises(b, held))}


def _raidable(s: GameState, q: int, i: int) -> bool:
    """Seat ``q``'s merchant ship ``i`` may still be raided this turn: under attack now, or in its
    harbour (only the active seat sails, I4) and not attacked yet (once a turn, I7)."""
    isla = isla_of(s)
    return isla.attack == (q, i) or (isla.fleets[q].merchants[i].at == HOME and (q, i) not in isla.attacked)


def _targets(s: GameState, q: int) -> int:
    """How many of seat ``q``'s merchant ships are ``_raidable``."""
    return sum(1 for i in range(len(isla_of(s).fleets[q].merchants)) if _raidable(s, q, i))


def _may_buy(s: GameState, q: int) -> bool:
    """Seat ``q`` could pay for a second merchant ship (I1) with its coins and what its fields and
    cargo can still pay (at most a coin a card, C1)."""
    pl = s.players[q]
    cargo = sum(ship.count for _, ship in isla_of(s).fleets[q].ships())
    return len(pl.coins) + sum(f.count for f in pl.fields) + cargo >= isla_setup(s.setup).ship_cost


def _may_raid(s: GameState, a: int, cost: int) -> bool:
    """Seat ``a`` has a pirate ship, or might buy one (I1): each coin it can still make needs a
    card of its fields, set-aside cards or ships (C1, I6)."""
    fleet = isla_of(s).fleets[a]
    if fleet.pirate is not None:
        return True
    pl = s.players[a]
    cards = sum(f.count for f in pl.fields) + len(pl.aside) + sum(sh.count for _, sh in fleet.ships())
    return len(pl.coins) + cards + len(s.face_up) + len(s.draw) >= cost


def turns_ahead(s: GameState) -> list[tuple[int, int]]:
    """(active seat, hand cards its phase 1 may still plant) for every turn whose phase 2 is now or
    still ahead, in the final pass: the current one (in phase 1 or 2) and each later one that
    starts (T7: a turn-up that exhausts the pile finishes its turn, a draw that does ends the game,
    E2; with E1 on-demand a pile emptied exactly by a draw gives one more turn, E1). Row refills
    (I2) take cards from the same pile, so they only end the game sooner: never more turns."""
    su = s.setup
    n = len(s.players)
    ups, draws = su.face_up, (n if su.rules.draw_each else su.draw)
    a = s.active
    out: list[tuple[int, int]] = []
    if s.phase == Phase.PLANT:
        out.append((a, 2 - s.planted))
    elif s.phase == Phase.TRADE:
        out.append((a, 0))
    if s.final or s.phase not in (Phase.PLANT, Phase.TRADE, Phase.PLANT_ASIDE):
        return out
    left = len(s.draw)
    if s.phase == Phase.PLANT:
        if left <= ups:
            return out
        left -= ups
    while True:
        left -= draws
        if left < 0 or (left == 0 and not su.on_demand):
            return out
        a = (a + 1) % n
        out.append((a, 2))
        if left <= ups:
            return out
        left -= ups


class Raids(NamedTuple):
    """This turn's raids in the bound: ``left`` captures at most by ``seat``'s pirate, of the cards
    ``taken`` may take, (holder, bean, cards), each still counted for its holder too."""

    seat: int
    left: int
    taken: tuple[tuple[int, int, int], ...]

    @property
    def cards(self) -> dict[int, int]:
        """``taken`` per bean."""
        out: dict[int, int] = {}
        for _, b, k in self.taken:
            out[b] = out.get(b, 0) + k
        return out

    def shared(self, own: list[dict[int, int]],
               shared: dict[int, int]) -> tuple[list[dict[int, int]], dict[int, int]]:
        """The other reading of the same raids: the cards they may take shared among all seats."""
        own = [dict(o) for o in own]
        shared = dict(shared)
        for q, b, k in self.taken:
            own[q][b] -= k
            shared[b] = shared.get(b, 0) + k
        return own, shared


def reach(s: GameState) -> tuple[list[dict[int, int]], dict[int, int], Raids]:
    """Per bean, the cards that can still end in a scoring group of one seat only (its own, by
    seat) and those that can reach more than one (shared); cards that can score for nobody are
    left out. Only a phase 2 moves cards between seats (``turns_ahead``): its active seat takes
    partners' hand cards (I3, T4), face-up cards go to it or a partner, its pirate takes merchant
    cargo (I7), its ships load the rows (I4). So fields, set-aside cards and ship cargo are the
    holder's (T6, I7), but what raids may take, counted per bean:
    - this turn (``Raids``: still the holder's, and ``_upper`` adds what the captures may give the
      raider): from a seat that cannot act before it is raided, one card of each merchant ship
      that is ``_raidable`` and of a bean the pirate may take (``_raid_beans``); from a seat that
      may act while it answers a proposal (``windows``: load a field onto a ship, move a cargo, buy
      a second ship), as many cards of such a bean as it has such ships, from its fields and cargo
      (set-aside cards are planted after this phase 2, T6);
    - from a later turn on (shared): up to two cards a raid (two ships) of any bean the seat
      holds, set aside or on its pirate too (which may move onto a merchant ship, I6).
    Only a seat that has a pirate ship or may buy one raids. The hand cards phase 1 can still plant
    (T1) are the holder's when no other seat trades ahead, else shared; a hand card no phase 1
    reaches can only be given to a seat that trades ahead (one: its own); the rows are those
    seats' (one: its own) while a ship may still sail (I4); the face-up cards are shared, and so
    is the draw pile while a later turn lies ahead; otherwise only the cards this turn turns up
    (T2)."""
    turns = turns_ahead(s)
    traders = {a for a, _ in turns}
    n = len(s.players)
    plant = [0] * n
    for a, k in turns:
        plant[a] += k
    own: list[dict[int, int]] = [{} for _ in range(n)]
    shared: dict[int, int] = {}

    def add(zone: dict[int, int], b: int, k: int = 1) -> None:
        zone[b] = zone.get(b, 0) + k

    isla = isla_of(s)
    now = s.phase in (Phase.PLANT, Phase.TRADE)  # the current turn is turns[0]
    cost = isla_setup(s.setup).pirate_cost
    raiders = now and _may_raid(s, turns[0][0], cost)
    takes = _raid_beans(s) if raiders else set()
    open_to = _windows(s, takes) if raiders else []
    left = 0  # the captures this turn's raids may make
    taken: list[tuple[int, int, int]] = []  # (holder, bean, cards) this turn's raids may take
    for q, pl in enumerate(s.players):
        mine = own[q]
        others = traders - {q}
        to_others = own[next(iter(others))] if len(others) == 1 else shared
        held: dict[int, int] = {}  # what a raid may take: fields, set aside, cargo
        for f in pl.fields:
            if f.count:
                add(held, f.bean, f.count)
        raids = sum(1 for a, _ in turns[now:] if a != q and _may_raid(s, a, cost))
        if raids:
            for b in pl.aside:
                add(held, b)
        else:
            for b in pl.aside:  # planted after this phase 2 (T6): out of a raid's reach now
                add(mine, b)
        fleet = isla.fleets[q]
        answers = s.pending is not None or q in open_to  # it may load or move cargo now (``windows``)
        targets = _targets(s, q) if raiders and q != turns[0][0] else 0
        if answers and targets and len(fleet.merchants) == 1 and _may_buy(s, q):
            targets += 1  # a second merchant ship, bought while it answers (I1)
        for i, ship in fleet.ships():
            if not ship.count:
                continue
            if raids or answers or not now or turns[0][0] == q:
                add(held, ship.bean, ship.count)
            else:
                add(mine, ship.bean, ship.count)
                if targets and i != PIRATE and (takes is None or ship.bean in takes) and _raidable(s, q, i):
                    taken.append((q, ship.bean, 1))  # raided now only: one card at most (I7)
                    left += 1
        for b, c in held.items():
            k = min(c, 2 * (raids + now)) if raids else 0
            add(mine, b, c - k)
            add(shared, b, k)
            if answers and not raids and targets and (takes is None or b in takes):
                taken.append((q, b, min(c, targets)))  # loaded while it answers, then raided (I5, I7)
        if answers and not raids and targets:
            left += targets
        k = min(plant[q], len(pl.hand))
        for j, b in enumerate(pl.hand):
            if j < k:
                add(shared if others else mine, b)
            elif others:
                add(to_others, b)
    for b in s.face_up:
        add(shared, b)
    if traders and (len(turns) > now or isla.sails < isla_setup(s.setup).max_sails):  # sails left (I4)
        rows = own[next(iter(traders))] if len(traders) == 1 else shared
        for row in isla.rows:
            for b in row:
                add(rows, b)
    later = s.draw if len(turns) > now else s.draw[:s.setup.face_up] if s.phase == Phase.PLANT else ()
    for b in later:
        add(shared, b)
    return own, shared, Raids(turns[0][0] if raiders else -1, left, tuple(taken))


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
