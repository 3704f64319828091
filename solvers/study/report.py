"""The tables of a study's results (``results.jsonl``, solvers/study/store.py): the seat advantage
and the trade network of the simulations, the value of trading and of information of the endgames,
and the failed tasks; written as ``report.md`` and one CSV per table (``seat_advantage``,
``value_of_trading``, ``value_of_information``, ``trade_network``, ``trade_matrix``: the matrix in
long form, ``failures``), with the figures of solvers/study/figures.py.

Statistics (every interval is 95 %):

- win rate: a game won by k seats (a tie, E4) gives each 1/k, so a seat's win count ``w`` may be
  fractional; the Wilson score interval is used with that fractional count, p = w / n:
  ``(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)``, z = 1.96;
- mean coins: ``mean ± q·s/√n`` with the sample standard deviation s (n − 1); q = 1.96 for n ≥ 30,
  else the Student t quantile t(0.975, n − 1) from a table (``T975``); no interval for n = 1;
- endgame values count proved answers only (status ``optimal``); ``feasible``, ``too-large`` and
  ``timeout`` answers are counted and shown, never averaged in. Differences of values are exact
  fractions, printed to 3 decimals like every non-integer number of the report.

Reading the results checks every key a table needs: a row without one is a StudyError naming the
file, the line and the key (``results.jsonl:7: result.games[2].coins: missing``). This module
imports no matplotlib (figures.py does, when it draws) and writes nothing but into ``out_dir``.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from model.cards import BEAN_INDEX
from model.records import atomic_write_text
from solvers.study.spec import StudyError
from solvers.study.store import RESULTS, read_results
from solvers.trade_network import DealRecord, collapse, network, summary

__all__ = [
    "T975", "Z", "Answer", "Expected", "Failure", "InformationGroup", "NetworkGroup", "Position", "Report",
    "SeatStats", "Table", "TradingGroup", "analyse", "bots_label", "cell_text", "mean_ci", "report", "t975",
    "wilson",
]

Z = 1.96  # the normal quantile of a two-sided 95 % interval
# t(0.975, df) for df = 1..28 (samples of 2..29); n >= 30 uses Z
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048)
PROVED = "optimal"
UNPROVED = ("feasible", "too-large", "timeout")
STATUSES = (PROVED, *UNPROVED, "not-applicable")

Cell = int | float | str | None
_NUMERIC = re.compile(r"^[-–+0-9.,\[\] ]*$")  # a number, an interval or "–": right-aligned


# ------------------------------------------------------------------ statistics


def wilson(wins: float, n: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` successes (possibly fractional: shared ties) in ``n``
    trials: ``(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)`` with p = wins / n."""
    if n <= 0:
        raise ValueError("wilson: no trials")
    p = wins / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return max(0.0, (centre - half) / denominator), min(1.0, (centre + half) / denominator)


def t975(n: int) -> float:
    """The quantile q of ``mean ± q·s/√n`` for a sample of n ≥ 2: t(0.975, n − 1), or 1.96 for n ≥ 30."""
    if n < 2:
        raise ValueError("t975: a sample of at least 2")
    return Z if n >= 30 else T975[n - 2]


def mean_ci(values: Sequence[float | Fraction]) -> tuple[float, float | None, float | None]:
    """The mean of ``values`` and its 95 % interval ``mean ± t975(n)·s/√n`` (None, None for n = 1)."""
    n = len(values)
    if n == 0:
        raise ValueError("mean_ci: no values")
    mean = sum(Fraction(v) for v in values) / n
    if n == 1:
        return float(mean), None, None
    var = sum((Fraction(v) - mean) ** 2 for v in values) / (n - 1)
    half = t975(n) * math.sqrt(var) / math.sqrt(n)
    return float(mean), float(mean) - half, float(mean) + half


def _share_positive(values: Sequence[Fraction]) -> float | None:
    return sum(1 for v in values if v > 0) / len(values) if values else None


def _mean(values: Sequence[Fraction]) -> Fraction | None:
    return sum(values, Fraction(0)) / len(values) if values else None


# ------------------------------------------------------------------ the rows, checked


class _Line:
    """Where a row came from: errors name the file, the line and the key."""

    def __init__(self, path: Path, line: int) -> None:
        self.path, self.line = path, line

    def error(self, at: str, reason: str) -> StudyError:
        return StudyError(f"{self.path}:{self.line}: {at}: {reason}")

    def get(self, obj: Any, key: str | int, at: str) -> Any:
        """``obj[key]``; ``at`` names ``obj`` (``result.games[2]``)."""
        if isinstance(key, int):
            if not isinstance(obj, list):
                raise self.error(at, f"expected a list, got {_short(obj)}")
            if not 0 <= key < len(obj):
                raise self.error(_at(at, key), "missing")
            return obj[key]
        if not isinstance(obj, dict):
            raise self.error(at, f"expected an object, got {_short(obj)}")
        if key not in obj:
            raise self.error(_at(at, key), "missing")
        return obj[key]

    def typed(self, obj: Any, key: str | int, at: str, kind: type | tuple[type, ...], what: str) -> Any:
        """``obj[key]``, an instance of ``kind`` (a bool is no int), described as ``what`` if not."""
        value = self.get(obj, key, at)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            raise self.error(_at(at, key), f"expected {what}, got {_short(value)}")
        return value

    def seat(self, obj: Any, key: str | int, at: str, players: int) -> int:
        q: int = self.typed(obj, key, at, int, "a seat number")
        if not 0 <= q < players:
            raise self.error(_at(at, key), f"seat {q} with {players} players")
        return q


def _at(at: str, key: str | int) -> str:
    """The name of ``at``'s item ``key``: ``result.games[2]``, ``result.coop``."""
    return f"{at}[{key}]" if isinstance(key, int) else f"{at}.{key}" if at else key


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _fraction(line: _Line, value: Any, at: str) -> Fraction:
    """A number of the results as an exact fraction: an int, a float (its decimal repr) or "a/b"."""
    if isinstance(value, bool):
        raise line.error(at, f"expected a number, got {value!r}")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float) and math.isfinite(value):
        return Fraction(repr(value))
    if isinstance(value, str):
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            pass
    raise line.error(at, f"expected a number or a fraction 'a/b', got {_short(value)}")


@dataclass(frozen=True, slots=True)
class Answer:
    """One objective's answer: ``status`` (``STATUSES``), its value and proved bound (None if absent)."""

    status: str
    value: Fraction | None
    bound: Fraction | None = None

    @property
    def proved(self) -> bool:
        return self.status == PROVED and self.value is not None


def _answer(line: _Line, obj: Any, at: str) -> Answer:
    status = line.typed(obj, "status", at, str, "a status")
    if status not in STATUSES:
        raise line.error(f"{at}.status", f"expected one of {', '.join(STATUSES)}, got {status!r}")
    value = bound = None
    if status in (PROVED, "feasible"):
        value = _fraction(line, line.get(obj, "value", at), f"{at}.value")
        raw = obj.get("bound")
        bound = None if raw is None else _fraction(line, raw, f"{at}.bound")
    return Answer(status, value, bound)


@dataclass(frozen=True, slots=True)
class Expected:
    """The ``expected`` answer of the player to move: its expected coins without seeing the unseen
    cards (H7) and the average open optimum over their arrangements (both None unless proved)."""

    status: str
    value: Fraction | None
    open_average: Fraction | None

    @property
    def proved(self) -> bool:
        return self.status == PROVED and self.value is not None and self.open_average is not None


@dataclass(frozen=True, slots=True)
class Position:
    """The answers of one endgame task (``None``: the objective was not asked)."""

    key: str
    group: str
    active: int
    solo: tuple[Answer, ...] | None
    coop: Answer | None
    best: Answer | None
    expected: Expected | None
    line: int = 0


@dataclass(frozen=True, slots=True)
class Failure:
    """A failed task: its key, kind, group, results line and one-line error."""

    key: str
    kind: str
    group: str
    line: int
    error: str


@dataclass
class _Group:
    """A group of tasks (``params.group``): what the tables are computed over."""

    name: str
    kind: str
    study: str
    ruleset: str
    players: int
    bots: tuple[str, ...] = ()
    cards_left: int = 0
    objectives: tuple[str, ...] = ()
    games: list[tuple[str, tuple[Fraction, ...], tuple[int, ...]]] = field(default_factory=list)
    deals: list[DealRecord] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    game_lines: dict[str, int] = field(default_factory=dict)  # game id -> its results line


def _params_group(line: _Line, row: dict[str, Any], groups: dict[str, _Group]) -> _Group:
    p = line.typed(row, "params", "", dict, "an object")
    name = line.typed(p, "group", "params", str, "a group name")
    kind = row["kind"]
    g = groups.get(name)
    players = line.typed(p, "players", "params", int, "a player count")
    if players < 1:
        raise line.error("params.players", f"expected a player count, got {players}")
    if g is None:
        g = _Group(name, kind, str(p.get("study", "")), line.typed(p, "ruleset", "params", str, "a ruleset"),
                   players)
        if kind == "simulation":
            bots = line.typed(p, "bots", "params", list, "a list of bots, one per seat")
            if len(bots) != players or not all(isinstance(b, str) for b in bots):
                raise line.error("params.bots", f"expected {players} bot names, got {_short(bots)}")
            g.bots = tuple(bots)
        else:
            g.cards_left = line.typed(p, "cards_left", "params", int, "a number of cards")
            objectives = line.typed(p, "objectives", "params", list, "a list of objectives")
            g.objectives = tuple(str(o) for o in objectives)
        groups[name] = g
    elif g.kind != kind or g.players != players:
        raise line.error("params.group", f"{name!r} is a {g.players}-player {g.kind} group above, "
                                         f"this row a {players}-player {kind}")
    return g


def _simulation(line: _Line, g: _Group, result: Any) -> None:
    n = g.players
    games = line.typed(result, "games", "result", list, "a list of games")
    for i, game in enumerate(games):
        at = f"result.games[{i}]"
        number = line.typed(game, "game", at, int, "a game number")
        gid = f"{g.name}/game{number}"
        coins = line.typed(game, "coins", at, list, "a list of coins per seat")
        if len(coins) != n:
            raise line.error(f"{at}.coins", f"{len(coins)} seats with {n} players")
        values = tuple(_fraction(line, c, f"{at}.coins[{q}]") for q, c in enumerate(coins))
        winners = line.typed(game, "winners", at, list, "a list of seats")
        seats = tuple(line.seat(winners, k, f"{at}.winners", n) for k in range(len(winners)))
        if not seats or len(set(seats)) != len(seats):
            raise line.error(f"{at}.winners", f"expected distinct seats, at least one, got {_short(winners)}")
        if gid in g.game_lines:
            raise line.error(f"{at}.game", f"game {number} of {g.name} is also on line {g.game_lines[gid]}")
        g.game_lines[gid] = line.line
        g.games.append((gid, values, seats))
        deals = line.typed(game, "deals", at, list, "a list of deals")
        for j, d in enumerate(deals):
            dat = f"{at}.deals[{j}]"
            if not isinstance(d, list) or len(d) != 4:
                raise line.error(dat, "expected [active, partner, beans given, beans taken], "
                                      f"got {_short(d)}")
            active, partner = line.seat(d, 0, dat, n), line.seat(d, 1, dat, n)
            if active == partner:
                raise line.error(dat, f"p{active} trades with itself")
            sides = []
            for k in (2, 3):
                names = line.typed(d, k, dat, list, "a list of bean names")
                for m, b in enumerate(names):
                    if not isinstance(b, str) or b not in BEAN_INDEX:
                        raise line.error(f"{dat}[{k}][{m}]", f"unknown bean {_short(b)}")
                sides.append(tuple(BEAN_INDEX[b] for b in names))
            g.deals.append(DealRecord(gid, 0, active, partner, sides[0], sides[1], line.line))


def _endgame(line: _Line, g: _Group, key: str, result: Any) -> None:
    active = line.seat(result, "active", "result", g.players)
    solo: tuple[Answer, ...] | None = None
    if "solo" in g.objectives:
        seats = line.typed(result, "solo", "result", list, "a list of answers per seat")
        if len(seats) != g.players:
            raise line.error("result.solo", f"{len(seats)} seats with {g.players} players")
        solo = tuple(_answer(line, a, f"result.solo[{q}]") for q, a in enumerate(seats))
    coop, best = (_answer(line, line.get(result, o, "result"), f"result.{o}") if o in g.objectives else None
                  for o in ("coop", "best"))
    expected = None
    if "expected" in g.objectives:
        e = line.get(result, "expected", "result")
        status = line.typed(e, "status", "result.expected", str, "a status")
        if status not in STATUSES:
            raise line.error("result.expected.status",
                             f"expected one of {', '.join(STATUSES)}, got {status!r}")
        expected = Expected(status, None, None)
        if status == PROVED:
            value, average = (_fraction(line, line.get(e, k, "result.expected"), f"result.expected.{k}")
                              for k in ("value", "open_average"))
            expected = Expected(status, value, average)
    g.positions.append(Position(key, g.name, active, solo, coop, best, expected, line.line))


def _read(source: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, _Group], list[Failure]]:
    head, rows = read_results(source)
    path = Path(source)
    if path.is_dir():
        path = path / RESULTS
    groups: dict[str, _Group] = {}
    failures: list[Failure] = []
    for row in rows:
        line = _Line(path, int(row.get("line", 0)))
        kind, key, status = row["kind"], row["key"], row["status"]
        if kind not in ("simulation", "endgame"):
            raise line.error("kind", f"expected 'simulation' or 'endgame', got {_short(kind)}")
        if status not in ("ok", "failed"):
            raise line.error("status", f"expected 'ok' or 'failed', got {_short(status)}")
        if status == "failed":
            p = row["params"] if isinstance(row["params"], dict) else {}
            error = " ".join(str(row.get("error") or "(no message)").split())
            failures.append(Failure(str(key), kind, str(p.get("group", "")), line.line, error))
            continue
        g = _params_group(line, row, groups)
        if kind == "simulation":
            _simulation(line, g, row["result"])
        else:
            _endgame(line, g, str(key), row["result"])
    return head, groups, failures


# ------------------------------------------------------------------ what the tables hold


def bots_label(bots: Sequence[str]) -> str:
    """``greedy`` when every seat plays the same bot, else the bots by seat, comma-separated."""
    return bots[0] if bots and len(set(bots)) == 1 else ",".join(bots)


@dataclass(frozen=True, slots=True)
class SeatStats:
    """One seat of a simulation group: its share of the wins (ties shared) and its coins, with
    95 % intervals (module docstring)."""

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


def _seat_stats(g: _Group) -> list[SeatStats]:
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
    seats); the bound − value gaps of feasible coop answers."""

    group: str
    study: str
    ruleset: str
    players: int
    cards_left: int
    objectives: tuple[str, ...]
    positions: int
    proved: int  # solo for every seat and coop optimal
    coop_gains: tuple[Fraction, ...]
    best_proved: int  # best and the active seat's solo optimal
    best_gains: tuple[Fraction, ...]
    unproved: dict[str, dict[str, int]]  # objective -> status -> positions
    coop_gaps: tuple[Fraction, ...]


def _by_status(c: Counter[str]) -> dict[str, int]:
    return {s: c[s] for s in STATUSES if c[s]}


def _trading(g: _Group) -> TradingGroup:
    coop_gains, best_gains, gaps = [], [], []
    unproved: dict[str, Counter[str]] = {o: Counter() for o in ("solo", "coop", "best") if o in g.objectives}
    proved = best_proved = 0
    for p in g.positions:
        solo_ok = p.solo is not None and all(a.proved for a in p.solo)
        if p.solo is not None:
            unproved["solo"].update({a.status for a in p.solo if a.status != PROVED})
        for name, a in (("coop", p.coop), ("best", p.best)):
            if a is not None and a.status != PROVED:
                unproved[name][a.status] += 1
        if p.coop is not None and p.coop.status == "feasible" and p.coop.bound is not None \
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
                        {o: _by_status(c) for o, c in unproved.items()}, tuple(gaps))


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


def _information(g: _Group) -> InformationGroup:
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
    """The trade network of one simulation group (solvers/trade_network.py): ``graph`` =
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


def _network(g: _Group) -> NetworkGroup:
    games = tuple(gid for gid, _, _ in g.games)
    G = network(g.deals, g.players)
    info = {"ruleset": g.ruleset, **summary(G, g.deals, g.players, games)}
    D = collapse(G)
    matrix = tuple(tuple(int(D[u][v]["weight"]) if D.has_edge(u, v) else 0 for v in range(g.players))
                   for u in range(g.players))
    return NetworkGroup(g.name, g.study, g.ruleset, g.players, bots_label(g.bots), games, tuple(g.deals), G,
                        info, matrix)


# ------------------------------------------------------------------ tables


def cell_text(x: Cell | Fraction | bool, empty: str = "") -> str:
    """A number as every table prints it: integers whole, the rest to 3 decimals; yes/no; ``empty``."""
    if x is None:
        return empty
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, Fraction | float):
        return f"{float(x):.3f}"
    return x


@dataclass(frozen=True)
class Table:
    """A table as data: ``columns`` and ``rows`` of raw cells (CSV and JSON; floats unrounded), and
    ``shown``: the same rows as the report prints them (intervals in one cell, 3 decimals)."""

    name: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    shown_columns: tuple[str, ...]
    shown: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()

    def records(self) -> list[dict[str, Cell]]:
        """The rows as dicts, column -> raw cell."""
        return [dict(zip(self.columns, r, strict=True)) for r in self.rows]

    def csv(self) -> str:
        """The CSV text: a header line, then the rows (numbers as ``cell_text`` prints them)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(self.columns)
        for r in self.rows:
            w.writerow([cell_text(x) for x in r])
        return buf.getvalue()

    def _numeric(self) -> list[bool]:
        """Per shown column: every cell a number, an interval or "–" (right-aligned)."""
        return [all(_NUMERIC.match(r[i]) for r in self.shown) for i in range(len(self.shown_columns))]

    def markdown(self) -> str:
        """The shown rows as a Markdown table (``|`` escaped; numbers right-aligned)."""
        def esc(s: str) -> str:
            return s.replace("|", "\\|")
        lines = ["| " + " | ".join(esc(c) for c in self.shown_columns) + " |",
                 "|" + "|".join("---:" if right else "---" for right in self._numeric()) + "|"]
        lines += ["| " + " | ".join(esc(c) for c in r) + " |" for r in self.shown]
        return "\n".join(lines)

    def plain(self) -> str:
        """The shown rows aligned in columns, for a terminal."""
        widths = [max(len(c), *(len(r[i]) for r in self.shown)) for i, c in enumerate(self.shown_columns)]
        numeric = self._numeric()

        def line(cells: Sequence[str]) -> str:
            return "  ".join(c.rjust(w) if right else c.ljust(w)
                             for c, w, right in zip(cells, widths, numeric, strict=True)).rstrip()

        return "\n".join([line(self.shown_columns), *(line(r) for r in self.shown)])


def _table(name: str, title: str, columns: Sequence[str], rows: Iterable[Sequence[Cell]],
           shown: Sequence[tuple[str, Callable[[dict[str, Cell]], str]]], notes: Sequence[str] = ()) -> Table:
    raw = tuple(tuple(r) for r in rows)
    for r in raw:
        assert len(r) == len(columns), (name, r)
    recs = [dict(zip(columns, r, strict=True)) for r in raw]
    return Table(name, title, tuple(columns), raw, tuple(h for h, _ in shown),
                 tuple(tuple(f(rec) for _, f in shown) for rec in recs), tuple(notes))


def _col(key: str) -> Callable[[dict[str, Cell]], str]:
    return lambda r: cell_text(r[key], "–")


def _ci(mid: str, low: str, high: str) -> Callable[[dict[str, Cell]], str]:
    def f(r: dict[str, Cell]) -> str:
        text = cell_text(r[mid], "–")
        if r[low] is None or r[high] is None:
            return text
        return f"{text} [{cell_text(r[low])}, {cell_text(r[high])}]"
    return f


def _float(x: Fraction | None) -> float | None:
    return None if x is None else float(x)


def _seat_table(seats: Sequence[SeatStats]) -> Table:
    columns = ("study", "group", "ruleset", "players", "bots", "seat", "games", "wins", "win_rate",
               "win_low", "win_high", "fair_share", "advantage", "ci_excludes_fair", "coins_mean",
               "coins_low", "coins_high")
    rows = [(s.study, s.group, s.ruleset, s.players, s.bots, s.seat, s.games, s.wins, s.win_rate, s.win_low,
             s.win_high, s.fair, s.advantage, "yes" if s.excludes_fair else "no", s.coins_mean, s.coins_low,
             s.coins_high) for s in seats]
    shown = [("ruleset", _col("ruleset")), ("players", _col("players")), ("bots", _col("bots")),
             ("seat", lambda r: f"p{r['seat']}"), ("games", _col("games")),
             ("wins", lambda r: cell_text(r["wins"]).rstrip("0").rstrip(".")),
             ("win rate [95% CI]", _ci("win_rate", "win_low", "win_high")),
             ("− 1/players", _col("advantage")),
             ("CI excludes 1/players", _col("ci_excludes_fair")),
             ("mean coins [95% CI]", _ci("coins_mean", "coins_low", "coins_high"))]
    notes = ("Wins: a game won by k tied seats gives each 1/k, so a count may be fractional; the Wilson "
             "score interval (z = 1.96) uses that fractional count.",
             "Mean coins: mean ± q·s/√n, q = 1.96 for n ≥ 30, else Student t(0.975, n − 1) from a table.")
    return _table("seat_advantage", "Seat advantage", columns, rows, shown, notes)


def _seat_statements(seats: Sequence[SeatStats]) -> list[str]:
    """Per group, whether seat 0's interval excludes the fair share."""
    out = []
    for s in seats:
        if s.seat != 0:
            continue
        verdict = "excludes" if s.excludes_fair else "does not exclude"
        out.append(f"{s.ruleset}, {s.players} players, {s.bots}: p0 wins {s.win_rate:.3f} "
                   f"[{s.win_low:.3f}, {s.win_high:.3f}] of {s.games} games; the interval {verdict} the fair "
                   f"share 1/{s.players} = {s.fair:.3f}.")
    return out


def _counts(c: dict[str, int]) -> str:
    return ", ".join(f"{n} {status}" for status, n in c.items())


def _unproved_text(t: TradingGroup) -> str:
    parts = [f"{o}: {_counts(c)}" for o, c in t.unproved.items() if c]
    return "; ".join(parts) if parts else "none"


def _trading_table(groups: Sequence[TradingGroup]) -> Table:
    columns = ("study", "group", "ruleset", "players", "cards_left", "positions", "proved", "coop_gain_mean",
               "coop_gain_max", "coop_gain_share_positive", "best_proved", "best_gain_mean", "best_gain_max",
               "best_gain_share_positive", "solo_unproved", "coop_unproved", "best_unproved", "coop_feasible",
               "coop_gap_max", "unproved")
    rows = []
    for t in groups:
        def unproved(o: str, t: TradingGroup = t) -> int | None:
            return sum(t.unproved[o].values()) if o in t.unproved else None
        rows.append((t.study, t.group, t.ruleset, t.players, t.cards_left, t.positions, t.proved,
                     _float(_mean(t.coop_gains)), _float(max(t.coop_gains, default=None)),
                     _share_positive(t.coop_gains), t.best_proved, _float(_mean(t.best_gains)),
                     _float(max(t.best_gains, default=None)), _share_positive(t.best_gains),
                     unproved("solo"), unproved("coop"), unproved("best"), len(t.coop_gaps),
                     _float(max(t.coop_gaps, default=None)), _unproved_text(t)))
    shown = [("ruleset", _col("ruleset")), ("players", _col("players")), ("cards left", _col("cards_left")),
             ("positions", _col("positions")), ("proved", _col("proved")),
             ("coop − Σsolo: mean", _col("coop_gain_mean")), ("max", _col("coop_gain_max")),
             ("> 0", _col("coop_gain_share_positive")), ("best proved", _col("best_proved")),
             ("best − solo: mean", _col("best_gain_mean")), ("max", _col("best_gain_max")),
             ("> 0", _col("best_gain_share_positive")),
             ("coop gap max", _col("coop_gap_max")), ("unproved", _col("unproved"))]
    notes = ("proved: positions with the solo optimum of every seat and coop proved; coop − Σsolo over those "
             "only. best − solo[active] over the positions with best and the active seat's solo proved.",
             "> 0: the share of those positions where the gain is positive. coop gap max: the largest "
             "bound − value of a feasible (unproved) coop answer; unproved answers are never averaged in.",
             "unproved: positions by objective and status (a solo position once per status among its seats).")
    return _table("value_of_trading", "Value of trading", columns, rows, shown, notes)


def _information_table(groups: Sequence[InformationGroup]) -> Table:
    columns = ("study", "group", "ruleset", "players", "cards_left", "positions", "solved", "info_mean",
               "info_max", "info_share_positive", "unsolved")
    rows = [(i.study, i.group, i.ruleset, i.players, i.cards_left, i.positions, len(i.pairs),
             _float(_mean(i.gains)), _float(max(i.gains, default=None)), _share_positive(i.gains),
             _counts(i.unsolved) or "none") for i in groups]
    shown = [("ruleset", _col("ruleset")), ("players", _col("players")), ("cards left", _col("cards_left")),
             ("positions", _col("positions")), ("solved", _col("solved")),
             ("open − expected: mean", _col("info_mean")), ("max", _col("info_max")),
             ("> 0", _col("info_share_positive")), ("unsolved", _col("unsolved"))]
    notes = ("open − expected: the average open optimum over the arrangements of the unseen cards minus the "
             "expected coins without seeing them (H7), for the player to move; exact fractions, over the "
             "positions whose expected answer is proved (solved) only.",)
    return _table("value_of_information", "Value of information", columns, rows, shown, notes)


def _matrix_text(m: Sequence[Sequence[int]]) -> str:
    return "; ".join(" ".join(str(x) for x in row) for row in m)


def _network_table(groups: Sequence[NetworkGroup]) -> Table:
    columns = ("study", "group", "ruleset", "players", "bots", "games", "deals", "cards", "deals_per_game",
               "cards_per_game", "gifts", "gifts_share", "swaps", "reciprocity_weighted",
               "reciprocity_overall", "matrix")
    rows = []
    for n in groups:
        s = n.summary
        games = len(n.games)
        rows.append((n.study, n.group, n.ruleset, n.players, n.bots, games, s["deals"], s["cards"],
                     s["deals"] / games if games else None, s["cards"] / games if games else None, s["gifts"],
                     s["gifts"] / s["deals"] if s["deals"] else None, s["swaps"],
                     s["reciprocity"]["weighted"], s["reciprocity"]["overall"], _matrix_text(n.matrix)))
    shown = [("ruleset", _col("ruleset")), ("players", _col("players")), ("bots", _col("bots")),
             ("games", _col("games")), ("deals / game", _col("deals_per_game")),
             ("cards / game", _col("cards_per_game")), ("gifts share", _col("gifts_share")),
             ("weighted reciprocity", _col("reciprocity_weighted"))]
    notes = ("weighted reciprocity: Σ over ordered pairs of min(cards i→j, cards j→i) / all cards (1: every "
             "pair's flows balance). gifts share: deals in which one side gives nothing (T3) / deals.",
             "matrix (CSV): cards given, rows = giver p0, p1, ..., columns = receiver, rows separated by "
             "';'.")
    return _table("trade_network", "Trade network", columns, rows, shown, notes)


def _matrix_table(groups: Sequence[NetworkGroup]) -> Table:
    columns = ("group", "giver", "receiver", "cards")
    rows = [(n.group, u, v, n.matrix[u][v])
            for n in groups for u in range(n.players) for v in range(n.players) if u != v]
    return _table("trade_matrix", "Trade matrix", columns, rows, [(c, _col(c)) for c in columns])


def _failure_table(failures: Sequence[Failure]) -> Table:
    columns = ("key", "kind", "group", "line", "error")
    rows = [(f.key, f.kind, f.group, f.line, f.error) for f in failures]
    return _table("failures", "Failed tasks", columns, rows, [("key", _col("key")), ("error", _col("error"))])


def _group_matrix(n: NetworkGroup) -> str:
    head = "| giver \\ receiver | " + " | ".join(f"p{q}" for q in range(n.players)) + " |"
    rule = "|---|" + "---:|" * n.players
    body = [f"| p{u} | " + " | ".join("–" if u == v else str(n.matrix[u][v]) for v in range(n.players)) + " |"
            for u in range(n.players)]
    return "\n".join([head, rule, *body])


# ------------------------------------------------------------------ the report


SECTIONS = ("seat_advantage", "value_of_trading", "value_of_information", "trade_network", "failures")
CSV_TABLES = ("seat_advantage", "value_of_trading", "value_of_information", "trade_network", "trade_matrix",
              "failures")
EMPTY = {"seat_advantage": "no simulation task finished", "value_of_trading": "no endgame task finished",
         "value_of_information": "no endgame task asked for the expected objective",
         "trade_network": "no simulation task finished", "failures": "no task failed"}


@dataclass
class Report:
    """A study's tables (``tables``: name -> Table) and the data behind them and the figures, the files
    written (``paths``) and, per figure not written, why (``skipped``)."""

    source: str
    header: dict[str, Any]
    tables: dict[str, Table]
    seats: list[SeatStats]
    trading: list[TradingGroup]
    information: list[InformationGroup]
    networks: list[NetworkGroup]
    failures: list[Failure]
    out_dir: str = ""
    paths: list[str] = field(default_factory=list)
    figures: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)

    def _heading(self) -> str:
        h = self.header
        return (f"study {h.get('study', '?')} (digest {h.get('digest', '?')}, seed {h.get('seed', '?')}): "
                f"{h.get('finished', '?')} of {h.get('tasks', '?')} tasks finished, "
                f"{h.get('failed', 0)} failed")

    def text(self) -> str:
        """A summary for a terminal: each table aligned, the seat-0 statements, the files written."""
        out = [self._heading(), f"results: {self.source}"]
        for name in SECTIONS:
            t = self.tables[name]
            out += ["", t.title]
            out.append(t.plain() if t.rows else f"  none: {EMPTY[name]}")
            if name == "seat_advantage":
                out += [f"  {s}" for s in _seat_statements(self.seats)]
        if self.figures or self.skipped:
            out += ["", "Figures"]
            out += [f"  {p}" for p in self.figures.values()]
            out += [f"  {name}: not written: {why}" for name, why in self.skipped.items()]
        if self.out_dir:
            out += ["", f"written to {self.out_dir}: " + ", ".join(Path(p).name for p in self.paths)]
        return "\n".join(out)

    def markdown(self) -> str:
        """``report.md``: a section per table with its notes, the trade matrices, the figures."""
        out = [f"# Study {self.header.get('study', '?')}", "", self._heading() + ".", "",
               f"Results: `{self.source}`."]
        for name in SECTIONS:
            t = self.tables[name]
            out += ["", f"## {t.title}", ""]
            if not t.rows:
                out.append(f"None: {EMPTY[name]}.")
                continue
            out.append(t.markdown())
            out += ["", *(f"- {s}" for s in t.notes)] if t.notes else []
            if name == "seat_advantage":
                out += ["", *(f"- {s}" for s in _seat_statements(self.seats))]
            if name == "trade_network":
                for n in self.networks:
                    out += ["", f"Cards given, {n.ruleset}, {n.players} players, {n.bots} "
                                f"({len(n.games)} games):", "", _group_matrix(n)]
        if self.figures or self.skipped:
            out += ["", "## Figures", ""]
            out += [f"![{name}]({Path(p).name})\n" for name, p in self.figures.items()]
            out += [f"- `{name}.png` not written: {why}." for name, why in self.skipped.items()]
        return "\n".join(out) + "\n"

    def to_json(self) -> dict[str, Any]:
        """The header, every table (columns and raw rows), the files written and the figures skipped."""
        return {"source": self.source, "header": self.header, "out_dir": self.out_dir,
                "tables": {k: {"title": t.title, "columns": list(t.columns),
                               "rows": [list(r) for r in t.rows]} for k, t in self.tables.items()},
                "paths": self.paths, "figures": self.figures, "skipped": self.skipped}


def analyse(source: str | os.PathLike[str]) -> Report:
    """The tables of the results in ``source`` (a results file or a study directory), writing nothing;
    StudyError (one line, file:line: key: reason) for a file or row the tables cannot read."""
    head, groups, failures = _read(source)
    sims = [g for g in groups.values() if g.kind == "simulation"]
    ends = [g for g in groups.values() if g.kind == "endgame"]
    seats = [s for g in sims for s in _seat_stats(g)]
    trading = [_trading(g) for g in ends if "solo" in g.objectives or "coop" in g.objectives
               or "best" in g.objectives]
    information = [_information(g) for g in ends if "expected" in g.objectives]
    networks = [_network(g) for g in sims]
    tables = {t.name: t for t in (_seat_table(seats), _trading_table(trading),
                                  _information_table(information), _network_table(networks),
                                  _matrix_table(networks), _failure_table(failures))}
    return Report(str(source), head, tables, seats, trading, information, networks, failures)


def report(source: str | os.PathLike[str], out_dir: str | os.PathLike[str], figures: bool = True) -> Report:
    """Read the results in ``source``, write into ``out_dir`` (each file atomically) one CSV per table,
    the figures (``figures``: solvers/study/figures.py; one whose data is empty is not written, and
    ``report.md`` says why) and ``report.md``; return the Report."""
    rep = analyse(source)
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise StudyError(f"{out}: is a file, not a directory")
    rep.out_dir = str(out)
    for name in CSV_TABLES:
        path = out / f"{name}.csv"
        atomic_write_text(path, rep.tables[name].csv())
        rep.paths.append(str(path))
    if figures:
        from solvers.study.figures import write_figures

        written, skipped = write_figures(rep, out)
        rep.figures = {k: str(p) for k, p in written.items()}
        rep.skipped = skipped
        rep.paths += rep.figures.values()
    path = out / "report.md"
    rep.paths.append(str(path))
    atomic_write_text(path, rep.markdown())
    return rep
