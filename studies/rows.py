"""The rows of a study's results (``results.jsonl``, studies/store.py), read and checked into
groups (``params.group``): ``read_groups`` returns the header, the groups by name (a simulation
group's games and deals, an endgame group's positions, in results order) and the failed tasks.

Every key a table needs is checked: a row without one is a StudyError naming the file, the line and
the key (``results.jsonl:7: result.games[2].coins: missing``). Numbers are exact fractions (an int,
a float by its decimal repr, or "a/b"). An answer has a value only if its status is ``optimal``
(``PROVED``) or ``feasible``, an expected answer only if proved. A group's kind and player count
are those of its first row; a game number occurs once per group.

Every endgame row is also checked against what the rules guarantee (``_consistent``), and the first
row that breaks it stops the reading, naming the file, the line and the position: the line without
deals is a ``coop`` plan worth the sum of the solo optima and a ``best`` plan worth the active
seat's, so ``coop`` at least ``Σ solo`` and ``best`` at least the active seat's ``solo`` (for a
proved value, and for a bound always); a line's coins add up to its value; and a ``best`` line
leaves every other seat at least its solo value (its floor, by the ``best`` objective's definition:
docs/endgames.md, "Objectives"; no rule of the game).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from model.cards import BEAN_INDEX
from solvers.contract import BEST, COOP, EXPECTED, OBJECTIVES, SOLO, Objective, Status
from studies.spec import StudyError
from studies.store import RESULTS, read_results
from studies.trade_network import DealRecord

__all__ = ["PROVED", "STATUSES", "UNPROVED", "Answer", "Expected", "Failure", "Group", "Position",
           "read_groups"]

# A solver's statuses (``solvers.contract.Status``) and the study's own: past a node or time limit
# with no line (too-large, timeout), an objective that does not apply to the position.
PROVED = Status.OPTIMAL
UNPROVED = (Status.FEASIBLE, "too-large", "timeout")
STATUSES = (PROVED, *UNPROVED, "not-applicable")


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

    def objective(self, name: Any, at: str) -> Objective:
        """The objective ``name`` names (the row's edge: names become ``Objective`` here, once)."""
        if not isinstance(name, str) or name not in OBJECTIVES:
            raise self.error(at, f"expected one of {', '.join(OBJECTIVES)}, got {_short(name)}")
        return OBJECTIVES[name]

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
    coins: tuple[int, ...] | None = None  # every seat's final coins after the line (coop, best)

    @property
    def proved(self) -> bool:
        return self.status == PROVED and self.value is not None


def _answer(line: _Line, obj: Any, at: str, players: int = 0) -> Answer:
    status = line.typed(obj, "status", at, str, "a status")
    if status not in STATUSES:
        raise line.error(f"{at}.status", f"expected one of {', '.join(STATUSES)}, got {status!r}")
    value = bound = None
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        value = _fraction(line, line.get(obj, "value", at), f"{at}.value")
        raw = obj.get("bound")
        bound = None if raw is None else _fraction(line, raw, f"{at}.bound")
        if players and obj.get("coins") is not None:
            coins = line.typed(obj, "coins", at, list, "a list of coins per seat")
            if len(coins) != players:
                raise line.error(f"{at}.coins", f"{len(coins)} seats with {players} players")
            return Answer(status, value, bound,
                          tuple(line.typed(coins, q, f"{at}.coins", int, "a number of coins")
                                for q in range(players)))
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
class Group:
    """A group of tasks (``params.group``): what the tables are computed over."""

    name: str
    kind: str
    study: str
    ruleset: str
    players: int
    bots: tuple[str, ...] = ()
    cards_left: int = 0
    objectives: tuple[Objective, ...] = ()
    games: list[tuple[str, tuple[Fraction, ...], tuple[int, ...]]] = field(default_factory=list)
    deals: list[DealRecord] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    game_lines: dict[str, int] = field(default_factory=dict)  # game id -> its results line


def _params_group(line: _Line, row: dict[str, Any], groups: dict[str, Group]) -> Group:
    p = line.typed(row, "params", "", dict, "an object")
    name = line.typed(p, "group", "params", str, "a group name")
    kind = row["kind"]
    g = groups.get(name)
    players = line.typed(p, "players", "params", int, "a player count")
    if players < 1:
        raise line.error("params.players", f"expected a player count, got {players}")
    if g is None:
        g = Group(name, kind, str(p.get("study", "")), line.typed(p, "ruleset", "params", str, "a ruleset"),
                   players)
        if kind == "simulation":
            bots = line.typed(p, "bots", "params", list, "a list of bots, one per seat")
            if len(bots) != players or not all(isinstance(b, str) for b in bots):
                raise line.error("params.bots", f"expected {players} bot names, got {_short(bots)}")
            g.bots = tuple(bots)
        else:
            g.cards_left = line.typed(p, "cards_left", "params", int, "a number of cards")
            objectives = line.typed(p, "objectives", "params", list, "a list of objectives")
            g.objectives = tuple(line.objective(o, f"params.objectives[{k}]")
                                 for k, o in enumerate(objectives))
        groups[name] = g
    elif g.kind != kind or g.players != players:
        raise line.error("params.group", f"{name!r} is a {g.players}-player {g.kind} group above, "
                                         f"this row a {players}-player {kind}")
    return g


def _simulation(line: _Line, g: Group, result: Any) -> None:
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


def _endgame(line: _Line, g: Group, key: str, result: Any) -> None:
    active = line.seat(result, "active", "result", g.players)
    solo: tuple[Answer, ...] | None = None
    if SOLO in g.objectives:
        seats = line.typed(result, "solo", "result", list, "a list of answers per seat")
        if len(seats) != g.players:
            raise line.error("result.solo", f"{len(seats)} seats with {g.players} players")
        solo = tuple(_answer(line, a, f"result.solo[{q}]") for q, a in enumerate(seats))
    coop, best = (_answer(line, line.get(result, o.name, "result"), f"result.{o.name}", g.players)
                  if o in g.objectives else None for o in (COOP, BEST))
    _consistent(line, key, active, solo, coop, best)
    expected = None
    if EXPECTED in g.objectives:
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


def _consistent(line: _Line, key: str, active: int, solo: tuple[Answer, ...] | None,
                coop: Answer | None, best: Answer | None) -> None:
    """The rules' guarantees on one position's answers (the module docstring); a StudyError naming
    the row and the position for the first one broken."""
    def broken(at: str, reason: str) -> StudyError:
        return line.error(at, f"position {key}: {reason}")

    if coop is not None and coop.coins is not None and sum(coop.coins) != coop.value:
        raise broken("result.coop.coins", f"the line's coins {list(coop.coins)} add up to "
                                          f"{sum(coop.coins)}, not its value {coop.value}")
    if best is not None and best.coins is not None and best.coins[active] != best.value:
        raise broken("result.best.coins", f"p{active}'s coins {best.coins[active]} are not "
                                          f"the line's value {best.value}")
    if solo is None or any(a.value is None for a in solo):
        return
    values = [a.value for a in solo if a.value is not None]
    for name, answer, least, whose in (("coop", coop, sum(values, Fraction(0)), "the sum of the solo values"),
                                       ("best", best, values[active], f"p{active}'s solo value")):
        if answer is None or answer.value is None:
            continue
        if answer.proved and answer.value < least:
            raise broken(f"result.{name}.value", f"proved {answer.value}, below {whose} {least} "
                                                 "(the line without deals reaches it)")
        if answer.bound is not None and answer.bound < least:
            raise broken(f"result.{name}.bound", f"bound {answer.bound}, below {whose} {least} "
                                                 "(the line without deals reaches it)")
    if best is not None and best.coins is not None:
        for q, (got, floor) in enumerate(zip(best.coins, values, strict=True)):
            if q != active and got < floor:
                raise broken(f"result.best.coins[{q}]", f"the best line leaves p{q} {got} coins, "
                                                        f"below its solo value {floor} (its floor)")


def read_groups(source: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, Group], list[Failure]]:
    head, rows = read_results(source)
    path = Path(source)
    if path.is_dir():
        path = path / RESULTS
    groups: dict[str, Group] = {}
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
