"""The report of a study's results (``results.jsonl``, studies/store.py): the seat advantage
and the trade network of the simulations, the value of trading and of information of the endgames,
and the failed tasks; written as ``report.md`` and one CSV per table (``seat_advantage``,
``value_of_trading``, ``value_of_information``, ``trade_network``, ``trade_matrix``: the matrix in
long form, ``failures``), with the figures of studies/figures.py.

The rows are read and checked by rows.py, analysed by analyses.py with the statistics of stats.py,
and laid out by tables.py. This module imports no matplotlib (figures.py does, when it draws) and
writes nothing but into ``out_dir``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from records.game import atomic_write_text
from solvers.contract import BEST, COOP, EXPECTED, SOLO
from studies.analyses import (
    InformationGroup,
    NetworkGroup,
    SeatStats,
    TradingGroup,
    information_group,
    network_group,
    seat_stats,
    trading_group,
)
from studies.figures import write_figures
from studies.rows import Failure, read_groups
from studies.spec import StudyError
from studies.stats import mean_ci, t975, wilson
from studies.tables import (
    Table,
    failure_table,
    information_table,
    matrix_table,
    network_table,
    seat_table,
    trading_table,
)

# Report's own names, the classes of its fields and, re-exported, the statistics of stats.py
__all__ = ["Failure", "InformationGroup", "NetworkGroup", "Report", "SeatStats", "Table", "TradingGroup",
           "analyse", "mean_ci", "report", "t975", "wilson"]

SECTIONS = ("seat_advantage", "value_of_trading", "value_of_information", "trade_network", "failures")
CSV_TABLES = ("seat_advantage", "value_of_trading", "value_of_information", "trade_network", "trade_matrix",
              "failures")
EMPTY = {"seat_advantage": "no simulation task finished", "value_of_trading": "no endgame task finished",
         "value_of_information": "no endgame task asked for the expected objective",
         "trade_network": "no simulation task finished", "failures": "no task failed"}


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


def _group_matrix(n: NetworkGroup) -> str:
    head = "| giver \\ receiver | " + " | ".join(f"p{q}" for q in range(n.players)) + " |"
    rule = "|---|" + "---:|" * n.players
    body = [f"| p{u} | " + " | ".join("–" if u == v else str(n.matrix[u][v]) for v in range(n.players)) + " |"
            for u in range(n.players)]
    return "\n".join([head, rule, *body])


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
    head, groups, failures = read_groups(source)
    sims = [g for g in groups.values() if g.kind == "simulation"]
    ends = [g for g in groups.values() if g.kind == "endgame"]
    seats = [s for g in sims for s in seat_stats(g)]
    trading = [trading_group(g) for g in ends if {SOLO, COOP, BEST} & set(g.objectives)]
    information = [information_group(g) for g in ends if EXPECTED in g.objectives]
    networks = [network_group(g) for g in sims]
    tables = {t.name: t for t in (seat_table(seats), trading_table(trading),
                                  information_table(information), network_table(networks),
                                  matrix_table(networks), failure_table(failures))}
    return Report(str(source), head, tables, seats, trading, information, networks, failures)


def report(source: str | os.PathLike[str], out_dir: str | os.PathLike[str], figures: bool = True) -> Report:
    """Read the results in ``source``, write into ``out_dir`` (each file atomically) one CSV per table,
    the figures (``figures``: studies/figures.py; one whose data is empty is not written, and
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
        written, skipped = write_figures(rep, out)
        rep.figures = {k: str(p) for k, p in written.items()}
        rep.skipped = skipped
        rep.paths += rep.figures.values()
    path = out / "report.md"
    rep.paths.append(str(path))
    atomic_write_text(path, rep.markdown())
    return rep
