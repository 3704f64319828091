"""The tables of a study report as data (``Table``): raw cells for CSV and JSON (floats unrounded)
and shown cells for Markdown and the terminal; a builder per table (``seat_table``,
``trading_table``, ``information_table``, ``network_table``, ``matrix_table``: the trade matrices
in long form, ``failure_table``). ``cell_text`` prints every number: integers whole, the rest to 3
decimals. A shown column whose every cell is a number, an interval or "–" is right-aligned.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from solvers.contract import BEST, COOP, SOLO, Objective
from studies.analyses import InformationGroup, NetworkGroup, SeatStats, TradingGroup
from studies.rows import Failure
from studies.stats import exact_mean, mean_ci, share_positive

__all__ = ["Cell", "Table", "cell_text", "failure_table", "information_table", "matrix_table",
           "network_table", "seat_table", "trading_table"]

Cell = int | float | str | None
_NUMERIC = re.compile(r"^[-–+0-9.,\[\] ]*$")  # a number, an interval or "–": right-aligned


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


def seat_table(seats: Sequence[SeatStats]) -> Table:
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


def _counts(c: dict[str, int]) -> str:
    return ", ".join(f"{n} {status}" for status, n in c.items())


def _unproved_text(t: TradingGroup) -> str:
    parts = [f"{o}: {_counts(c)}" for o, c in t.unproved.items() if c]
    return "; ".join(parts) if parts else "none"


def _range_cells(ranges: Sequence[tuple[Fraction, Fraction]]
                 ) -> tuple[int, float | None, float | None, float | None, float | None]:
    """(n, mean of the low ends, mean of the high ends, and the 95 % interval of the mean gain: the
    low ends' interval's low end, at least 0 (no gain is negative), to the high ends' high end;
    None for n < 2)."""
    lows, highs = [lo for lo, _ in ranges], [hi for _, hi in ranges]
    ci_low = ci_high = None
    if len(ranges) >= 2:
        ci_low, ci_high = max(0.0, mean_ci(lows)[1] or 0.0), mean_ci(highs)[2]
    return len(ranges), _float(exact_mean(lows)), _float(exact_mean(highs)), ci_low, ci_high


def _interval(objective: Objective) -> Callable[[dict[str, Cell]], str]:
    def f(r: dict[str, Cell]) -> str:
        key = objective.name
        n = r[f"{key}_ranged"]
        if not n:
            return "–"
        text = f"[{cell_text(r[f'{key}_gain_low'])}, {cell_text(r[f'{key}_gain_high'])}] ({n})"
        if r[f"{key}_ci_low"] is None:
            return text
        low, high = cell_text(r[f"{key}_ci_low"]), cell_text(r[f"{key}_ci_high"])
        return f"{text}; 95% CI [{low}, {high}]"
    return f


def trading_table(groups: Sequence[TradingGroup]) -> Table:
    columns = ("study", "group", "ruleset", "players", "cards_left", "positions", "proved", "coop_gain_mean",
               "coop_gain_max", "coop_gain_share_positive", "best_proved", "best_gain_mean", "best_gain_max",
               "best_gain_share_positive", "solo_unproved", "coop_unproved", "best_unproved", "coop_feasible",
               "coop_gap_max", "unproved", "coop_ranged", "coop_gain_low", "coop_gain_high",
               "coop_ci_low", "coop_ci_high", "best_ranged", "best_gain_low", "best_gain_high", "best_ci_low",
               "best_ci_high")
    rows = []
    for t in groups:
        def unproved(o: Objective, t: TradingGroup = t) -> int | None:
            return sum(t.unproved[o].values()) if o in t.unproved else None
        rows.append((t.study, t.group, t.ruleset, t.players, t.cards_left, t.positions, t.proved,
                     _float(exact_mean(t.coop_gains)), _float(max(t.coop_gains, default=None)),
                     share_positive(t.coop_gains), t.best_proved, _float(exact_mean(t.best_gains)),
                     _float(max(t.best_gains, default=None)), share_positive(t.best_gains),
                     unproved(SOLO), unproved(COOP), unproved(BEST), len(t.coop_gaps),
                     _float(max(t.coop_gaps, default=None)), _unproved_text(t),
                     *_range_cells(t.coop_ranges), *_range_cells(t.best_ranges)))
    shown = [("ruleset", _col("ruleset")), ("players", _col("players")), ("cards left", _col("cards_left")),
             ("positions", _col("positions")), ("proved", _col("proved")),
             ("coop − Σsolo: mean", _col("coop_gain_mean")), ("max", _col("coop_gain_max")),
             ("> 0", _col("coop_gain_share_positive")), ("best proved", _col("best_proved")),
             ("best − solo: mean", _col("best_gain_mean")), ("max", _col("best_gain_max")),
             ("> 0", _col("best_gain_share_positive")),
             ("coop gap max", _col("coop_gap_max")), ("unproved", _col("unproved")),
             ("coop − Σsolo, all: [mean low, mean high] (n); 95% CI", _interval(COOP)),
             ("best − solo, all: [low, high] (n); 95% CI", _interval(BEST))]
    notes = ("proved: positions with the solo optimum of every seat and coop proved; coop − Σsolo over those "
             "only. best − solo[active] over the positions with best and the active seat's solo proved.",
             "> 0: the share of those positions where the gain is positive. coop gap max: the largest "
             "bound − value of a feasible (unproved) coop answer; an unproved value is never averaged in "
             "as a gain.",
             "unproved: positions by objective and status (a solo position once per status among its seats).",
             "all: every position whose answers carry a value and a proved bound, proved or not: the gain "
             "lies in [max(0, value − Σ solo bounds), bound − Σ solo values] (no gain is negative: the line "
             "without deals is a plan); the means of those ends bracket the mean gain over those n "
             "positions, and a position without a bound (timeout, too-large) is the only one left out. "
             "95% CI: from the low ends' interval's low end (mean − t·s/√n, at least 0) to the high ends' "
             "high end (mean + t·s/√n): the group's mean gain over such positions, unproved ones "
             "counted by their intervals.")
    return _table("value_of_trading", "Value of trading", columns, rows, shown, notes)


def information_table(groups: Sequence[InformationGroup]) -> Table:
    columns = ("study", "group", "ruleset", "players", "cards_left", "positions", "solved", "info_mean",
               "info_max", "info_share_positive", "unsolved")
    rows = [(i.study, i.group, i.ruleset, i.players, i.cards_left, i.positions, len(i.pairs),
             _float(exact_mean(i.gains)), _float(max(i.gains, default=None)), share_positive(i.gains),
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


def network_table(groups: Sequence[NetworkGroup]) -> Table:
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


def matrix_table(groups: Sequence[NetworkGroup]) -> Table:
    columns = ("group", "giver", "receiver", "cards")
    rows = [(n.group, u, v, n.matrix[u][v])
            for n in groups for u in range(n.players) for v in range(n.players) if u != v]
    return _table("trade_matrix", "Trade matrix", columns, rows, [(c, _col(c)) for c in columns])


def failure_table(failures: Sequence[Failure]) -> Table:
    columns = ("key", "kind", "group", "line", "error")
    rows = [(f.key, f.kind, f.group, f.line, f.error) for f in failures]
    return _table("failures", "Failed tasks", columns, rows, [("key", _col("key")), ("error", _col("error"))])

