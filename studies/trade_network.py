"""The trade network of many games: who gave which beans to whom (T3-T5).

Every executed deal has the active player on one side (T3): the active player gives hand and/or
face-up cards, the partner gives hand cards, and either side may give nothing (a gift). A deal is a
``Propose`` followed by the partner's ``Accept``; the cards that move are read from the state just
before the Accept, replayed with the engine (``apply``), so an illegal game cannot produce a deal.

API (seats are ``0..players-1``, labelled ``"p0"``...; beans are ``model.cards.BEAN_NAMES``):

    DealRecord(game, turn, active, partner, active_gave, partner_gave, line=0)
        one executed deal; ``.kind`` is "gift" (one side gives nothing) or "swap"; ``.cards``
    GameDeals(game, ruleset, players, deals)
        the deals of one game with its group (ruleset label, player count)
    deals_in_game(s0, actions, game="game", check=True) -> list[DealRecord]
    deals_in_record(path) -> list[DealRecord]
    read_game(path) -> GameDeals                       (game id: the path as given)
    simulated_game(output, game=None) -> GameDeals     (output: what ``simulate.play_game`` returns)
    network(deals, players) -> nx.MultiDiGraph         one edge per card, giver -> receiver
    collapse(G) -> nx.DiGraph                          one edge per ordered pair, ``weight`` = cards
    summary(G, deals, players, games=()) -> dict       JSON-able statistics, see ``summary``
    by_group(games) -> dict[str, dict]                 summaries by "RULESET/Np" (games or record paths)
    network_from_records(paths) -> (graph, summary)    one group: (MultiDiGraph, summary);
                                                       several: ({group: MultiDiGraph}, {group: summary})
    TradeRecordError(ValueError)                       "PATH:LINE: reason [rule]", one line

The ruleset label of a group is the ruleset's name, with ``+isla`` appended when La Isla Bohnita
is played (its trading differs, I3). Edge attributes: ``bean`` (name), ``game``, ``turn``, ``kind``
and ``deal`` (the deal's index in the ``deals`` sequence given to ``network``).
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass
from typing import Any

import networkx as nx

from console.progress import ProgressFn
from model import Accept, Action, GameState, apply, jsonio
from model.cards import BEAN_NAMES
from model.errors import InputError
from model.rules import Ruleset
from records.game import IllegalStep, RecordFormatError, parse_record, replay_steps

__all__ = [
    "DealRecord", "GameDeals", "TradeRecordError", "by_group", "collapse", "deals_in_game",
    "deals_in_record", "group_label", "network", "network_from_records", "read_game", "simulated_game",
    "summary",
]


class TradeRecordError(InputError):
    """A record that cannot be read, is malformed, or breaks a rule: ``PATH:LINE: reason [rule]``."""

    def __init__(self, path: str, line: int, reason: str, rule: str = "") -> None:
        self.path, self.line, self.reason, self.rule = path, line, reason, rule
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {reason}" + (f" [{rule}]" if rule else ""))


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One executed deal (T3): the beans each side gave; ``line`` is the Accept's record line (or 0)."""

    game: str
    turn: int
    active: int
    partner: int
    active_gave: tuple[int, ...]  # hand cards (by position), then face-up cards (by index)
    partner_gave: tuple[int, ...]
    line: int = 0

    @property
    def kind(self) -> str:
        """"gift" when one side gives nothing (T3 allows it), else "swap"."""
        return "gift" if not self.active_gave or not self.partner_gave else "swap"

    @property
    def cards(self) -> int:
        """The number of cards that changed hands."""
        return len(self.active_gave) + len(self.partner_gave)


@dataclass(frozen=True, slots=True)
class GameDeals:
    """The deals of one game and its group: ruleset label (``group_label``) and player count."""

    game: str
    ruleset: str
    players: int
    deals: tuple[DealRecord, ...]


def group_label(rules: Ruleset) -> str:
    """The ruleset part of a group: the preset name, ``+isla`` with La Isla Bohnita (I3 trading)."""
    return rules.name + (f"+{rules.expansion}" if rules.expansion else "")


def deal_at(before: GameState, accept: Accept, game: str = "game", line: int = 0) -> DealRecord:
    """The deal that ``accept`` executes in ``before`` (T3): the pending offer's cards and the partner's."""
    offer = before.pending
    if offer is None:  # only reachable with check=False on an illegal sequence
        raise TradeRecordError(game, line, f"p{accept.player} accepts, but no offer is pending", "T3")
    act, part = before.players[offer.player], before.players[accept.player]
    gave = tuple(act.hand[h] for h in sorted(offer.give_hand)) + tuple(
        before.face_up[u] for u in sorted(offer.give_up))
    got = tuple(part.hand[h] for h in sorted(accept.hand))
    return DealRecord(game, before.turn, offer.player, accept.player, gave, got, line)


def deals_in_game(s0: GameState, actions: Iterable[Action], game: str = "game",
                  check: bool = True) -> list[DealRecord]:
    """Every accepted deal of the game that ``actions`` play from ``s0``, replayed with ``apply``.

    With ``check`` every action is checked (IllegalAction names the rule); declined offers move nothing.
    """
    s, out = s0, []
    for a in actions:
        if type(a) is Accept:
            out.append(deal_at(s, a, game, 0))
        s = apply(s, a, check)
    return out


def read_game(path: str | os.PathLike[str]) -> GameDeals:
    """The deals of one game record (docs/records.md), game id ``str(path)``; TradeRecordError if
    the file is unreadable, malformed (RecordFormatError) or breaks a rule (IllegalStep)."""
    name = str(path)
    try:
        text = jsonio.read_text(path)
    except jsonio.JSONInputError as e:
        raise TradeRecordError(name, 0, e.reason) from None
    try:
        rec = parse_record(text)
    except RecordFormatError as e:
        raise TradeRecordError(name, e.line, f"malformed record: {e.reason}") from None
    s, deals = rec.initial_state(), []
    try:
        for line, action, after in replay_steps(rec):
            if type(action) is Accept:
                deals.append(deal_at(s, action, name, line))
            s = after
    except IllegalStep as e:
        raise TradeRecordError(name, e.line, f"illegal {e.action}: {e.reason}", e.rule) from None
    return GameDeals(name, group_label(rec.rules), rec.players, tuple(deals))


def deals_in_record(path: str | os.PathLike[str]) -> list[DealRecord]:
    """The accepted deals of a game record, in play order (see ``read_game`` for errors)."""
    return list(read_game(path).deals)


def simulated_game(output: tuple[Any, GameState, GameState, Sequence[Action]],
                   game: str | None = None) -> GameDeals:
    """The deals of a game from ``play.playout.play_game`` (result, first, last state, actions);
    the game id defaults to ``"seed N"``."""
    result, s0, _, actions = output
    name = game if game is not None else f"seed {result.seed}"
    return GameDeals(name, group_label(s0.setup.rules), len(s0.players),
                     tuple(deals_in_game(s0, actions, name)))


def network(deals: Sequence[DealRecord], players: int) -> nx.MultiDiGraph:
    """The trade network: nodes are seats ``0..players-1`` (``label`` "p0"...), one edge per card
    given, giver -> receiver, with ``bean``, ``game``, ``turn``, ``kind`` and ``deal`` (its index)."""
    G = nx.MultiDiGraph()
    for p in range(players):
        G.add_node(p, label=f"p{p}")
    for i, d in enumerate(deals):
        if not (0 <= d.active < players and 0 <= d.partner < players) or d.active == d.partner:
            raise TradeRecordError(d.game, 0, f"deal {i}: seats p{d.active}, p{d.partner} with {players} "
                                   "players", "S")
        for giver, receiver, cards in ((d.active, d.partner, d.active_gave),
                                       (d.partner, d.active, d.partner_gave)):
            for c in cards:
                G.add_edge(giver, receiver, bean=BEAN_NAMES[c], game=d.game, turn=d.turn, kind=d.kind,
                           deal=i)
    return G


def collapse(G: nx.MultiDiGraph) -> nx.DiGraph:
    """The simple directed graph of ``G``: one edge per ordered pair that moved cards, ``weight`` = cards."""
    D = nx.DiGraph()
    D.add_nodes_from(G.nodes(data=True))
    for u, v in G.edges():
        if D.has_edge(u, v):
            D[u][v]["weight"] += 1
        else:
            D.add_edge(u, v, weight=1)
    return D


def _seat_map(values: dict[int, float] | None, players: int) -> dict[str, float | None]:
    return {f"p{p}": (None if values is None else float(values[p])) for p in range(players)}


def _undirected(w: dict[tuple[int, int], int], players: int) -> nx.Graph:
    """The seats, each pair joined once, weighted by the cards it moved both ways."""
    U = nx.Graph()
    U.add_nodes_from(range(players))
    for (u, v), x in w.items():
        U.add_edge(u, v, weight=U[u][v]["weight"] + x if U.has_edge(u, v) else x)
    return U


def _eigenvector(U: nx.Graph) -> dict[int, float] | None:
    """networkx ``eigenvector_centrality`` of ``U`` by weight; None if the power iteration fails."""
    try:
        return dict(nx.eigenvector_centrality(U, max_iter=10_000, weight="weight"))
    except nx.PowerIterationFailedConvergence:  # not seen on small graphs; reported as None
        return None


def _hubs(G: nx.MultiDiGraph, deals: Sequence[DealRecord], games: Iterable[str], seats: list[str]
          ) -> tuple[dict[str, list[str]], Counter[str]]:
    """Per game (every one named, with or without deals) the seats of the largest weighted degree,
    ties listed ([] without deals), and in how many games each seat was such a hub."""
    per_game: dict[str, Counter[int]] = {}
    for g in [*games, *(d.game for d in deals)]:
        per_game.setdefault(g, Counter())
    for u, v, g in G.edges(data="game"):
        degree = per_game.setdefault(g, Counter())
        degree[u] += 1
        degree[v] += 1
    hubs: dict[str, list[str]] = {}
    hub_counts = Counter[str]()
    for g, degree in per_game.items():
        top = max(degree.values(), default=0)
        hubs[g] = [seats[p] for p in range(len(seats)) if top and degree[p] == top]
        hub_counts.update(hubs[g])
    return hubs, hub_counts


def summary(G: nx.MultiDiGraph, deals: Sequence[DealRecord], players: int,
            games: Iterable[str] = ()) -> dict[str, Any]:
    """JSON-able statistics of a trade network ``G = network(deals, players)``.

    Keys: ``players``; ``games`` (ids in ``deals`` and ``games``: pass every game, also those without
    deals); ``deals``, ``gifts``, ``swaps``, ``gifts_from_active`` / ``gifts_to_active`` (T3);
    ``cards`` (edges of G); ``pairs`` ("p0->p1": cards, every ordered pair); ``beans`` (name: cards);
    ``seats`` (per seat ``given``, ``received``); ``reciprocity``: ``weighted`` =
    sum over ordered pairs of min(w_ij, w_ji) / cards (each unordered pair counts 2 min(w_ij, w_ji): the
    share of cards matched by a flow back; 1 when every pair's flows balance), ``reciprocated_cards``
    (that numerator) and ``overall`` (networkx ``overall_reciprocity`` of the collapsed DiGraph: the
    share of its directed edges whose reverse exists); ``centrality``: ``degree_share`` (cards given
    + received over 2 * cards; sums to 1), ``partners`` (networkx ``degree_centrality`` of the
    undirected collapse: share of the other seats traded with) and ``eigenvector`` (networkx
    ``eigenvector_centrality`` of the undirected collapse weighted by cards both ways: high for seats
    that trade much with seats that trade much); ``hubs`` (per game the seats with the largest weighted
    degree, ties listed; [] for a game without deals) and ``hub_counts`` (games in which each seat was
    a hub, tied hubs each counted). Ratios are None when no card moved.
    """
    seats = [f"p{p}" for p in range(players)]
    cards = G.number_of_edges()
    D = collapse(G)
    w: dict[tuple[int, int], int] = {(u, v): int(x) for u, v, x in D.edges(data="weight")}
    given, received = Counter[int](), Counter[int]()
    for (u, v), x in w.items():
        given[u] += x
        received[v] += x
    beans = Counter(b for _, _, b in G.edges(data="bean"))
    recip = sum(min(x, w.get((v, u), 0)) for (u, v), x in w.items())
    U = _undirected(w, players)
    eigen = _eigenvector(U) if cards else None
    hubs, hub_counts = _hubs(G, deals, games, seats)
    gifts = [d for d in deals if d.kind == "gift"]
    return {
        "players": players,
        "games": len(hubs),
        "deals": len(deals),
        "gifts": len(gifts),
        "swaps": len(deals) - len(gifts),
        "gifts_from_active": sum(1 for d in gifts if d.active_gave),
        "gifts_to_active": sum(1 for d in gifts if d.partner_gave),
        "cards": cards,
        "pairs": {f"p{u}->p{v}": w.get((u, v), 0) for u in range(players) for v in range(players) if u != v},
        "beans": {name: beans[name] for name in BEAN_NAMES if beans[name]},
        "seats": {seats[p]: {"given": given[p], "received": received[p]} for p in range(players)},
        "reciprocity": {
            "weighted": recip / cards if cards else None,
            "reciprocated_cards": recip,
            "overall": float(nx.overall_reciprocity(D)) if cards else None,
        },
        "centrality": {
            "degree_share": _seat_map({p: (given[p] + received[p]) / (2 * cards) for p in range(players)}
                                      if cards else None, players),
            "partners": _seat_map(nx.degree_centrality(U) if cards and players > 1 else None, players),
            "eigenvector": _seat_map(eigen, players),
        },
        "hubs": hubs,
        "hub_counts": {s: hub_counts[s] for s in seats},
    }


def _games(items: Iterable[GameDeals | str | os.PathLike[str]], progress: ProgressFn | None = None
           ) -> dict[tuple[str, int], list[GameDeals]]:
    """Games (record paths are read) grouped by (ruleset label, players), groups sorted;
    ``progress(games read, games or None, path)`` as each is read."""
    groups: dict[tuple[str, int], list[GameDeals]] = defaultdict(list)
    seen: set[str] = set()
    total = len(items) if isinstance(items, Sized) else None
    for i, item in enumerate(items):
        if progress is not None:
            progress(i, total, item.game if isinstance(item, GameDeals) else str(item))
        gd = item if isinstance(item, GameDeals) else read_game(item)
        if gd.game in seen:
            raise TradeRecordError(gd.game, 0, "this game is given twice")
        seen.add(gd.game)
        groups[(gd.ruleset, gd.players)].append(gd)
    return dict(sorted(groups.items()))


def _group_network(games: Sequence[GameDeals]) -> tuple[nx.MultiDiGraph, dict[str, Any]]:
    players = games[0].players
    deals = [d for gd in games for d in gd.deals]
    G = network(deals, players)
    info = {"ruleset": games[0].ruleset, **summary(G, deals, players, [gd.game for gd in games])}
    return G, info


def by_group(games: Iterable[GameDeals | str | os.PathLike[str]], progress: ProgressFn | None = None
             ) -> dict[str, dict[str, Any]]:
    """Summaries (``summary`` plus ``ruleset``) per group "RULESET/Np", from games or record paths
    (paths are read with ``read_game``: TradeRecordError on a bad record); ``progress``: as
    each game is read."""
    return {f"{r}/{n}p": _group_network(gs)[1] for (r, n), gs in _games(games, progress).items()}


def network_from_records(
    paths: Iterable[str | os.PathLike[str]], progress: ProgressFn | None = None,
) -> tuple[nx.MultiDiGraph | dict[str, nx.MultiDiGraph], dict[str, Any]]:
    """Read records and build their trade network: ``(G, summary)`` when all records share one
    (ruleset, players) group, else ``({group: G}, {group: summary})`` keyed "RULESET/Np".

    TradeRecordError (a ValueError, one line naming the file and line) on the first bad record;
    also when no path is given. ``progress(records read, records or None, path)`` as each is read."""
    groups = _games(paths, progress)
    if not groups:
        raise TradeRecordError("(no path)", 0, "no records given")
    built = {f"{r}/{n}p": _group_network(gs) for (r, n), gs in groups.items()}
    if len(built) == 1:
        return next(iter(built.values()))
    return {k: G for k, (G, _) in built.items()}, {k: s for k, (_, s) in built.items()}
