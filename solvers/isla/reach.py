"""Who may still act and which cards may still reach whom in an Isla final pass (I1-I9): the
windows of the Isla open search (``solvers.isla.open_search``: which partners may act while they answer
a proposal, T3) and the raw material of its bound (``reach``: per seat and bean the cards that
can end in that seat's groups only, the ones several seats may get, and this turn's raids).
Each function states the rules that make it an over-estimate: a bound built on them stays
above every line's value (tests/test_isla_open.py checks them against a search without them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from model import Action, GameState, Phase
from model.actions import BuyField, Harvest
from model.isla import isla_of, isla_setup
from model.isla.actions import PIRATE, BuyShip
from model.isla.state import HOME
from solvers.bounds import best_split


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
    return _windows(s, raid_beans(s))


def _windows(s: GameState, takes: set[int] | None) -> list[int]:
    """``windows``, with the pirate's beans (``raid_beans``) given."""
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


def captures(raids: Raids, more: Callable[[int, int], int]) -> int:
    """The most ``raids.left`` captures add, ``more(b, k)`` for ``k`` cards of bean ``b`` (at most
    ``raids.cards[b]``): a knapsack over the beans (a captured card is its holder's in the bound
    too, so the raider's gain is all that is added)."""
    best = [0] * (raids.left + 1)
    for b, most in raids.cards.items():
        gains = [more(b, k) for k in range(min(most, raids.left) + 1)]
        best = [max(best[j - k] + gains[k] for k in range(min(j, len(gains) - 1) + 1))
                for j in range(raids.left + 1)]
    return best[raids.left]


def raid_beans(s: GameState) -> set[int] | None:
    """The beans whose capture this turn may pay the active seat's pirate more (None: any).
    The captures left are at most one a merchant ship still raidable (``_targets``, a second one
    bought included), and of a bean at most as many as its holders have cards of it (``_holdings``).
    A pirate holding cargo it captured this turn keeps it aboard (I6 reading) and takes only that
    bean until a sale empties it, which needs the cargo to pay (I6). In the last turn its cargo is
    sold alone at the end or before (E3, I8): a bean is worth taking only if the captures of it
    left raise the cargo's price (C1); a capture that does not leaves the victim no richer and
    the pirate no richer, so a line without it does as well."""
    isla = isla_of(s)
    pirate = isla.fleets[s.active].pirate
    targets = {q: _targets(s, q) + (len(isla.fleets[q].merchants) == 1 and _may_buy(s, q))
               for q in range(len(s.players)) if q != s.active}
    pay = s.setup.payout
    held = pirate.count if pirate is not None and pirate.count else 0
    holds = {q: _holdings(s, q) for q, n in targets.items() if n}
    most: dict[int, int] = {}  # per bean: the captures of it left, one card a ship (I7)

    def raises(b: int, c: int) -> bool:
        k = most.get(b)
        if k is None:
            k = most[b] = sum(min(targets[q], got.get(b, 0)) for q, got in holds.items())
        return pay[b][min(c + k, len(pay[b]) - 1)] > pay[b][min(c, len(pay[b]) - 1)]

    if held and isla.captured and pirate is not None and not raises(pirate.bean, held) \
            and pay[pirate.bean][min(held, len(pay[pirate.bean]) - 1)] == 0:
        beans = {pirate.bean}  # never sold this turn: it stays the only bean
    else:
        beans = set(s.setup.beans)
    if len(turns_ahead(s)) > 1:
        return None if len(beans) > 1 else beans
    return {b for b in beans if raises(b, 0) or (held and pirate is not None and b == pirate.bean
                                                  and raises(b, held))}


def _holdings(s: GameState, q: int) -> dict[int, int]:
    """Seat ``q``'s cards per bean that a raid may take this turn: on its fields (loaded onto a
    ship while it answers, I5) and its ships (moved onto a merchant ship, I6). Cards it gets this
    turn are set aside and planted after the phase (T6)."""
    out: dict[int, int] = {}
    for f in s.players[q].fields:
        if f.count:
            out[f.bean] = out.get(f.bean, 0) + f.count
    for _, ship in isla_of(s).fleets[q].ships():
        if ship.count:
            out[ship.bean] = out.get(ship.bean, 0) + ship.count
    return out


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
      that is ``_raidable`` and of a bean the pirate may take (``raid_beans``); from a seat that
      may act while it answers a proposal (``windows``: load a field onto a ship, move a cargo, buy
      a second ship), as many cards of such a bean as it has such ships, from its fields and cargo
      (set-aside cards are planted after this phase 2, T6);
    - from a later turn on (shared): up to two cards a raid (two ships) of any bean the seat
      holds, set aside or on its pirate too (which may move onto a merchant ship, I6).
    Only a seat that has a pirate ship or may buy one raids. The hand cards phase 1 can still plant
    (T1) are the holder's when no other seat trades ahead, else shared; a hand card no phase 1
    reaches can only be given to a seat that trades ahead (one: its own); the rows are those
    seats' (one: its own) while a ship may still sail (I4; in the last turn only the beans its
    ships may still load, ``_loadable``); the face-up cards are shared, and so
    is the draw pile while a later turn lies ahead; otherwise only the cards this turn turns up
    (T2)."""
    turns = turns_ahead(s)
    n = len(s.players)
    plant = [0] * n
    for a, k in turns:
        plant[a] += k
    now = s.phase in (Phase.PLANT, Phase.TRADE)  # the current turn is turns[0]
    cost = isla_setup(s.setup).pirate_cost
    raiders = now and _may_raid(s, turns[0][0], cost)
    takes = raid_beans(s) if raiders else set()
    r = _Reach(turns, {a for a, _ in turns}, plant, now, cost, raiders, takes,
               _windows(s, takes) if raiders else [], [{} for _ in range(n)], {})
    for q in range(n):
        _seat_cards(s, q, r)
    _table_cards(s, r)
    return r.own, r.shared, Raids(turns[0][0] if raiders else -1, r.left, tuple(r.taken))


@dataclass
class _Reach:
    """What ``reach`` reads of the turns ahead, and what it has counted so far."""

    turns: list[tuple[int, int]]  # ``turns_ahead``
    traders: set[int]  # the seats with a phase 2 ahead
    plant: list[int]  # per seat, the hand cards its phase 1s ahead may plant (T1)
    now: bool  # the current turn is turns[0]
    cost: int  # the pirate ship's price (I1)
    raiders: bool  # this turn's active seat may raid (I7)
    takes: set[int] | None  # the beans its pirate may take (``raid_beans``; None: any)
    open_to: list[int]  # the seats that may act while they answer a proposal (``windows``)
    own: list[dict[int, int]]  # per seat, per bean: the cards that can score for it only
    shared: dict[int, int]  # per bean: the cards that can reach more than one seat
    left: int = 0  # the captures this turn's raids may make
    taken: list[tuple[int, int, int]] = field(default_factory=list)  # (holder, bean, cards) they may take


def _add(zone: dict[int, int], b: int, k: int = 1) -> None:
    zone[b] = zone.get(b, 0) + k


def _seat_cards(s: GameState, q: int, r: _Reach) -> None:
    """Seat ``q``'s cards (``reach``): its fields, set-aside cards and cargo its own but for what
    raids may take (this turn: ``Raids``; later: shared), and its hand by who may still plant it."""
    add = _add
    pl = s.players[q]
    turns, now, own, shared = r.turns, r.now, r.own, r.shared
    mine = own[q]
    others = r.traders - {q}
    to_others = own[next(iter(others))] if len(others) == 1 else shared
    held: dict[int, int] = {}  # what a raid may take: fields, set aside, cargo
    for f in pl.fields:
        if f.count:
            add(held, f.bean, f.count)
    raids = sum(1 for a, _ in turns[now:] if a != q and _may_raid(s, a, r.cost))
    if raids:
        for b in pl.aside:
            add(held, b)
    else:
        for b in pl.aside:  # planted after this phase 2 (T6): out of a raid's reach now
            add(mine, b)
    fleet = isla_of(s).fleets[q]
    answers = s.pending is not None or q in r.open_to  # it may load or move cargo now (``windows``)
    targets = _targets(s, q) if r.raiders and q != turns[0][0] else 0
    if answers and targets and len(fleet.merchants) == 1 and _may_buy(s, q):
        targets += 1  # a second merchant ship, bought while it answers (I1)
    takes = r.takes
    for i, ship in fleet.ships():
        if not ship.count:
            continue
        if raids or answers or not now or turns[0][0] == q:
            add(held, ship.bean, ship.count)
        else:
            add(mine, ship.bean, ship.count)
            if targets and i != PIRATE and (takes is None or ship.bean in takes) and _raidable(s, q, i):
                r.taken.append((q, ship.bean, 1))  # raided now only: one card at most (I7)
                r.left += 1
    for b, c in held.items():
        k = min(c, 2 * (raids + now)) if raids else 0
        add(mine, b, c - k)
        add(shared, b, k)
        if answers and not raids and targets and (takes is None or b in takes):
            r.taken.append((q, b, min(c, targets)))  # loaded while it answers, then raided (I5, I7)
    if answers and not raids and targets:
        r.left += targets
    k = min(r.plant[q], len(pl.hand))
    for j, b in enumerate(pl.hand):
        if j < k:
            add(shared if others else mine, b)
        elif others:
            add(to_others, b)


def _table_cards(s: GameState, r: _Reach) -> None:
    """The cards no seat holds (``reach``): the face-up cards, the draw pile while a later turn
    lies ahead (else what this turn turns up, T2), the rows while a ship may still sail (I4)."""
    turns, now, shared = r.turns, r.now, r.shared
    isla = isla_of(s)
    for b in s.face_up:
        _add(shared, b)
    later = s.draw if len(turns) > now else s.draw[:s.setup.face_up] if s.phase == Phase.PLANT else ()
    for b in later:
        _add(shared, b)
    if r.traders and (len(turns) > now or isla.sails < isla_setup(s.setup).max_sails):  # sails left (I4)
        rows = r.own[next(iter(r.traders))] if len(r.traders) == 1 else shared
        beans = _loadable(s, r.own[turns[0][0]], shared, r.taken) if now and len(turns) == 1 else None
        for row in isla.rows:
            for b in row:
                if beans is None or b in beans:
                    _add(rows, b)


def _loadable(s: GameState, mine: dict[int, int], shared: dict[int, int],
              taken: list[tuple[int, int, int]]) -> set[int] | None:
    """The beans the active seat's merchant ships may still load from the rows in this turn, the
    last (``reach``; None: any): ``ship_beans`` of every card it could still get (its own, the
    shared ones, what raids may take)."""
    cards = dict(shared)
    for b, k in mine.items():
        cards[b] = cards.get(b, 0) + k
    for _, b, k in taken:
        cards[b] = cards.get(b, 0) + k
    return ship_beans(s, s.active, cards)


def ship_beans(s: GameState, q: int, cards: dict[int, int]) -> set[int] | None:
    """The beans seat ``q``'s merchant ships may still load from the rows in its last turn (None:
    any), ``cards`` every card it may still get but the rows' (its ships' cargo among them). A ship
    holds one type (I4); its cargo leaves it only by a sale, which must pay (I6), or by a move onto
    an empty merchant ship or one of its bean (I6: two cargos of one bean joined leave a ship
    empty). So when every merchant ship holds cargo, of different beans, none of which ``cards``
    and the rows' cards of that bean make pay (C1), and ``q`` cannot pay for a second ship (I1: its
    coins and what ``cards`` pay split at best; the rows are loaded only onto a ship), the ships
    are jammed: they load only their own beans. (The Isla open search's bound and the Isla duel's
    both read it.)"""
    ships = isla_of(s).fleets[q].merchants
    if any(not sh.count for sh in ships) or len({sh.bean for sh in ships}) < len(ships):
        return None  # an empty ship, or two cargos of one bean that a move joins, emptying a ship
    pay = s.setup.payout
    rows: dict[int, int] = {}
    for row in isla_of(s).rows:
        for b in row:
            rows[b] = rows.get(b, 0) + 1
    for sh in ships:
        most = cards.get(sh.bean, 0) + rows.get(sh.bean, 0)
        if pay[sh.bean][min(most, len(pay[sh.bean]) - 1)]:
            return None  # it may sell and load another bean
    if len(ships) == 1:
        coins = len(s.players[q].coins) + sum(best_split(pay[b], n) for b, n in cards.items())
        if coins >= isla_setup(s.setup).ship_cost:
            return None
    return {sh.bean for sh in ships}
