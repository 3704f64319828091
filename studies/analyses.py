"""What the tables of a study report hold, per group of studies/rows.py: ``SeatStats`` (a
simulation group's seats: win share, ties shared, and coins, with the 95 % intervals of
studies/stats.py), ``TradingGroup`` (coop − Σ solo and best − solo[active]),
``InformationGroup`` (open average − expected value for the player to move) and ``NetworkGroup``
(the trade network, studies/trade_network.py).

Endgame values count proved answers only (status ``optimal``); ``feasible``, ``too-large`` and
``timeout`` answers are counted by status, never averaged in. Differences of values are exact
fractions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solvers.contract import BEST, COOP, SOLO, Objective, Status
from studies.rows import PROVED, STATUSES, Answer, Group
from studies.stats import mean_ci, wilson
from studies.trade_network import DealRecord, collapse, network, summary

__all__ = ["InformationGroup", "NetworkGroup", "SeatStats", "TradingGroup", "bots_label", "information_group",
           "network_group", "seat_stats", "trading_group"]


def bots_label(bots: Sequence[str]) -> str:
    """``greedy`` when every seat plays the same bot, else the bots by seat, comma-separated."""
    return bots[0] if bots and len(set(bots)) == 1 else ",".join(bots)


@dataclass(frozen=True, slots=True)
class SeatStats:
    """One seat of a simulation group: its share of the wins (ties shared) and its coins, with
    95 % intervals (studies/stats.py)."""

    group: str
    study: str
    ruleset: str
    players: int
    bots: str
    seat: int
    games: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    coins_mean: float
    coins_low: float | None
    coins_high: float | None

    @property
    def fair(self) -> float:
        """The fair share of the wins, 1 / players."""
        return 1 / self.players

    @property
    def advantage(self) -> float:
        """The win rate minus the fair share."""
        return self.win_rate - self.fair

    @property
    def excludes_fair(self) -> bool:
        """The win rate's interval lies wholly above or below the fair share."""
        return not self.win_low <= self.fair <= self.win_high


def seat_stats(g: Group) -> list[SeatStats]:
    out = []
    n = len(g.games)
    for q in range(g.players):
        wins = sum((Fraction(1, len(w)) for _, _, w in g.games if q in w), Fraction(0))
        low, high = wilson(float(wins), n)
        mean, c_low, c_high = mean_ci([c[q] for _, c, _ in g.games])
        out.append(SeatStats(g.name, g.study, g.ruleset, g.players, bots_label(g.bots), q, n, float(wins),
                             float(wins) / n, low, high, mean, c_low, c_high))
    return out


@dataclass(frozen=True, slots=True)
class TradingGroup:
    """The value of trading in one endgame group: over the positions with every answer proved,
    ``coop − Σ solo`` (the table's gain from trading) and ``best − solo[active]`` (the active
    player's gain while every other seat keeps its solo optimum), in task order; the unproved
    answers counted by objective and status (a solo position counts once per status among its
    seats); the bound − value gaps of feasible coop answers.

    ``coop_ranges`` and ``best_ranges`` keep the unproved positions too: per position with every
    answer it needs holding a value and a proved bound, the interval the gain lies in,
    [max(0, value − Σ solo bounds), bound − Σ solo values] (0: the line without deals is a plan
    for both objectives, so neither gain is negative); a proved position's interval is its gain."""

    group: str
    study: str
    ruleset: str
    players: int
    cards_left: int
    objectives: tuple[Objective, ...]
    positions: int
    proved: int  # solo for every seat and coop optimal
    coop_gains: tuple[Fraction, ...]
    best_proved: int  # best and the active seat's solo optimal
    best_gains: tuple[Fraction, ...]
    unproved: dict[Objective, dict[str, int]]  # objective -> status -> positions
    coop_gaps: tuple[Fraction, ...]
    coop_ranges: tuple[tuple[Fraction, Fraction], ...] = ()
    best_ranges: tuple[tuple[Fraction, Fraction], ...] = ()


def _range(a: Answer | None, solos: Sequence[Answer]) -> tuple[Fraction, Fraction] | None:
    """The interval of ``a − Σ solos`` from their values and proved bounds (None if one lacks either)."""
    if a is None or any(x.value is None or x.bound is None for x in (a, *solos)):
        return None
    assert a.value is not None and a.bound is not None
    low = a.value - sum((x.bound for x in solos if x.bound is not None), Fraction(0))
    high = a.bound - sum((x.value for x in solos if x.value is not None), Fraction(0))
    return max(Fraction(0), low), high


def _by_status(c: Counter[str]) -> dict[str, int]:
    return {s: c[s] for s in STATUSES if c[s]}


def trading_group(g: Group) -> TradingGroup:
    coop_gains, best_gains, gaps = [], [], []
    unproved: dict[Objective, Counter[str]] = {o: Counter() for o in (SOLO, COOP, BEST) if o in g.objectives}
    proved = best_proved = 0
    coop_ranges: list[tuple[Fraction, Fraction]] = []
    best_ranges: list[tuple[Fraction, Fraction]] = []
    for p in g.positions:
        if p.solo is not None:
            for got, a, solos in ((coop_ranges, p.coop, p.solo), (best_ranges, p.best, [p.solo[p.active]])):
                r = _range(a, solos)
                if r is not None:
                    got.append(r)
        solo_ok = p.solo is not None and all(a.proved for a in p.solo)
        if p.solo is not None:
            unproved[SOLO].update({a.status for a in p.solo if a.status != PROVED})
        for goal, a in ((COOP, p.coop), (BEST, p.best)):
            if a is not None and a.status != PROVED:
                unproved[goal][a.status] += 1
        if p.coop is not None and p.coop.status == Status.FEASIBLE and p.coop.bound is not None \
                and p.coop.value is not None:
            gaps.append(p.coop.bound - p.coop.value)
        if solo_ok and p.coop is not None and p.coop.proved:
            assert p.solo is not None and p.coop.value is not None
            proved += 1
            coop_gains.append(p.coop.value
                              - sum((a.value for a in p.solo if a.value is not None), Fraction(0)))
        mine = None if p.solo is None else p.solo[p.active].value if p.solo[p.active].proved else None
        if mine is not None and p.best is not None and p.best.proved and p.best.value is not None:
            best_proved += 1
            best_gains.append(p.best.value - mine)
    return TradingGroup(g.name, g.study, g.ruleset, g.players, g.cards_left, g.objectives, len(g.positions),
                        proved, tuple(coop_gains), best_proved, tuple(best_gains),
                        {o: _by_status(c) for o, c in unproved.items()}, tuple(gaps), tuple(coop_ranges),
                        tuple(best_ranges))


@dataclass(frozen=True, slots=True)
class InformationGroup:
    """The value of information in one endgame group: per position whose ``expected`` answer is
    proved, (expected value, open average) for the player to move; ``open_average − value`` is what
    seeing the unseen cards (H7) is worth to it. ``unsolved``: the other positions by status."""

    group: str
    study: str
    ruleset: str
    players: int
    cards_left: int
    positions: int
    pairs: tuple[tuple[Fraction, Fraction], ...]
    unsolved: dict[str, int]

    @property
    def gains(self) -> tuple[Fraction, ...]:
        return tuple(o - v for v, o in self.pairs)


def information_group(g: Group) -> InformationGroup:
    pairs = []
    unsolved: Counter[str] = Counter()
    for p in g.positions:
        e = p.expected
        if e is None:
            continue
        if e.proved and e.value is not None and e.open_average is not None:
            pairs.append((e.value, e.open_average))
        else:
            unsolved[e.status] += 1
    return InformationGroup(g.name, g.study, g.ruleset, g.players, g.cards_left, len(g.positions),
                            tuple(pairs), _by_status(unsolved))


@dataclass(frozen=True)
class NetworkGroup:
    """The trade network of one simulation group (studies/trade_network.py): ``graph`` =
    ``network(deals, players)``, ``summary`` of it over every game, ``matrix[giver][receiver]``."""

    group: str
    study: str
    ruleset: str
    players: int
    bots: str
    games: tuple[str, ...]
    deals: tuple[DealRecord, ...]
    graph: Any = field(compare=False, repr=False)  # nx.MultiDiGraph
    summary: dict[str, Any] = field(compare=False, repr=False)
    matrix: tuple[tuple[int, ...], ...] = ()

    @property
    def collapsed(self) -> Any:
        """``collapse(graph)``: one edge per ordered pair, ``weight`` = cards."""
        return collapse(self.graph)


def network_group(g: Group) -> NetworkGroup:
    games = tuple(gid for gid, _, _ in g.games)
    G = network(g.deals, g.players)
    info = {"ruleset": g.ruleset, **summary(G, g.deals, g.players, games)}
    D = collapse(G)
    matrix = tuple(tuple(int(D[u][v]["weight"]) if D.has_edge(u, v) else 0 for v in range(g.players))
                   for u in range(g.players))
    return NetworkGroup(g.name, g.study, g.ruleset, g.players, bots_label(g.bots), games, tuple(g.deals), G,
                        info, matrix)

