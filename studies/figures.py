"""The figures of a study report (studies/report.py), as 300 dpi PNGs sized for a journal
column (3.4 in) or page (7 in): ``seat_advantage`` and ``seat_coins`` (win rate and mean coins by
seat, 95 % intervals), ``value_of_trading`` and ``value_of_information`` (against the cards left),
``trade_network`` and ``trade_matrix`` (each simulation group's network and giver x receiver
matrix, drawn by studies/trade_figures.py; one group: both in ``trade_network``).

Each figure draws what a Report holds and nothing else: proved answers only, every interval and
count as the tables have them. matplotlib is imported when a figure is drawn, never at import;
figures are drawn on ``matplotlib.figure.Figure`` (no pyplot state) and written through
``trade_figures.save_png`` (atomic). A figure whose data is empty is not written: ``write_figures``
says why.
"""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from studies import trade_figures as tf
from studies.analyses import InformationGroup, NetworkGroup, SeatStats, TradingGroup
from studies.stats import mean_ci

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

class Drawn(Protocol):
    """What the figures read of a report (studies/report.py ``Report`` has it)."""

    seats: list[SeatStats]
    trading: list[TradingGroup]
    information: list[InformationGroup]
    networks: list[NetworkGroup]


__all__ = ["FIGURES", "information_figure", "seat_figure", "trade_matrix_figure", "trade_network_figure",
           "trading_figure", "write_figures"]

FIGURES = ("seat_advantage", "seat_coins", "value_of_trading", "value_of_information", "trade_network",
           "trade_matrix")
FONT = tf.FONT
# the series (ruleset, players) of a figure: colour by order of appearance, marker by ruleset
COLOURS = tf.SEAT_COLOURS
MARKERS = ("o", "s", "^", "D", "v", "P")
GRID = "#e6e6e6"
MIN_CI = 3  # the fewest values whose mean gets an interval in a strip panel
MEAN_KEY = f"mean, 95 % interval if n ≥ {MIN_CI} (n above: positions)"
Fill = Literal["full", "left", "right", "bottom", "top", "none"]


@contextmanager
def _style() -> Iterator[None]:
    import matplotlib

    mpl: Any = matplotlib  # the rc keys of tf.RC are checked by matplotlib, not by its stubs
    with mpl.rc_context(tf.RC):
        yield


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    return Figure(figsize=(width, height),
                  layout=ConstrainedLayoutEngine(w_pad=0.03, h_pad=0.03, wspace=0.04, hspace=0.04))


def _grid(ax: Axes) -> None:
    ax.grid(True, axis="y", color=GRID, linewidth=0.5, zorder=0)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _offsets(k: int, width: float = 0.7) -> list[float]:
    """The centres of ``k`` series dodged side by side within ``width`` of a category."""
    step = width / k
    return [(i - (k - 1) / 2) * step for i in range(k)]


def _spread(values: Sequence[float], width: float) -> list[float]:
    """Horizontal offsets that set equal values side by side (a strip plot without random jitter):
    the i-th of m equal values sits at (i − (m−1)/2)·min(width/m, width/4)."""
    seen: dict[float, list[int]] = {}
    for i, v in enumerate(values):
        seen.setdefault(v, []).append(i)
    out = [0.0] * len(values)
    for same in seen.values():
        m = len(same)
        step = min(width / m, width / 4)
        for j, i in enumerate(same):
            out[i] = (j - (m - 1) / 2) * step
    return out


# ------------------------------------------------------------------ the seat advantage


def seat_figure(seats: Sequence[SeatStats], metric: str = "win", width: float | None = None) -> Figure:
    """Per ruleset one panel: by seat, the win rate (``metric="win"``, ties shared, with the fair
    share 1/players dashed) or the mean coins (``"coins"``), with 95 % intervals as error bars; one
    series per (players, bots) group, dodged."""
    from matplotlib.lines import Line2D

    if metric not in ("win", "coins"):
        raise ValueError(f"metric: 'win' or 'coins', not {metric!r}")
    rulesets = list(dict.fromkeys(s.ruleset for s in seats))
    groups = list(dict.fromkeys(s.group for s in seats))
    by_group = {g: [s for s in seats if s.group == g] for g in groups}
    uniform = len({s.bots for s in seats}) == 1
    series = list(dict.fromkeys((s.players, s.bots) for s in seats))  # colours shared by the panels
    width = width or (tf.COLUMN if len(rulesets) == 1 else tf.PAGE)
    top_seats = max(s.players for s in seats)
    with _style():
        fig = _figure(width, 2.5 if len(rulesets) > 1 else 2.6)
        axes = fig.subplots(1, len(rulesets), sharey=True, squeeze=False)[0]
        handles: dict[str, Any] = {}
        for ax, ruleset in zip(axes, rulesets, strict=True):
            mine = [g for g in groups if by_group[g][0].ruleset == ruleset]
            offs = _offsets(len(series))  # a series sits at the same place in every panel
            for g in mine:
                rows = by_group[g]
                n, bots = rows[0].players, rows[0].bots
                k = series.index((n, bots))
                off, colour = offs[k], COLOURS[k % len(COLOURS)]
                xs = [s.seat + off for s in rows]
                if metric == "win":
                    ys = [s.win_rate for s in rows]
                    err = [[s.win_rate - s.win_low for s in rows], [s.win_high - s.win_rate for s in rows]]
                    ax.hlines(1 / n, -0.5, n - 0.5, colors=colour, linestyles=(0, (4, 2)), linewidth=0.8,
                              zorder=1)
                else:
                    ys = [s.coins_mean for s in rows]
                    err = [[s.coins_mean - (s.coins_low if s.coins_low is not None else s.coins_mean)
                            for s in rows],
                           [(s.coins_high if s.coins_high is not None else s.coins_mean) - s.coins_mean
                            for s in rows]]
                ax.errorbar(xs, ys, yerr=err, fmt="o", color=colour, markersize=3.5, markeredgecolor="black",
                            markeredgewidth=0.3, elinewidth=0.9, capsize=2, capthick=0.8, zorder=3)
                label = f"{n} players" + ("" if uniform else f", {bots}")
                handles.setdefault(label, Line2D([], [], color=colour, marker="o", markersize=3.5,
                                                 markeredgecolor="black", markeredgewidth=0.3, linewidth=0.9))
            games = sorted({by_group[g][0].games for g in mine})
            count = f"{games[0]:,}" if len(games) == 1 else f"{games[0]:,}–{games[-1]:,}"
            ax.set_title(f"{ruleset} ({count} games per player count)" if len(series) > 1
                         else f"{ruleset} ({count} games)")
            ax.set_xticks(range(top_seats), [f"p{q}" for q in range(top_seats)])
            ax.set_xlim(-0.6, top_seats - 0.4)
            ax.set_xlabel("seat (order of play)")
            _grid(ax)
        if metric == "win":
            axes[0].set_ylabel("win rate (share of games, ties shared)")
            axes[0].set_ylim(bottom=-0.02)  # a seat that never won: its marker whole
            handles["fair share 1/players"] = Line2D([], [], color="#555555", linestyle=(0, (4, 2)),
                                                     linewidth=0.8)
        else:
            axes[0].set_ylabel("mean coins at the end of the game")
        note = "error bars: 95 % intervals (" + ("Wilson score" if metric == "win"
                                                 else "mean ± 1.96·s/√n, t for n < 30") + ")"
        fig.legend(list(handles.values()), list(handles), loc="outside lower center",
                   ncol=min(len(handles), 4 if width > 5 else 2), frameon=False, handlelength=1.8,
                   columnspacing=1.2, title=note)
    return fig


# ------------------------------------------------------------------ values against cards left


def _strip_panel(ax: Axes, cells: Sequence[tuple[str, int, Sequence[Fraction]]], series: Sequence[str],
                 ylabel: str, open_cells: Sequence[Sequence[tuple[Fraction, Fraction]]] = ()) -> None:
    """Per (series label, cards left) the values as a strip (equal values side by side), beside it
    their mean with a 95 % interval (mean ± t·s/√n, drawn for n ≥ ``MIN_CI``: t(0.975, 1) = 12.7
    would dwarf the data), and their number n above the panel's data: once per column where every
    series has the same n, else per series, upright. ``open_cells`` (per cell, the same order):
    the unproved positions' intervals, each a thin bar in the strip."""
    lefts = sorted({k for _, k, _ in cells})
    offs = _offsets(len(series), 0.76)
    step = 0.76 / len(series)
    tops = []
    for c, (label, k, values) in enumerate(cells):
        i = series.index(label)
        x = lefts.index(k) + offs[i]
        colour = COLOURS[i % len(COLOURS)]
        dots, at = x - 0.2 * step, x + 0.18 * step  # the strip left, the mean right: neither hides the other
        ranges = open_cells[c] if c < len(open_cells) else ()
        for j, (lo, hi) in enumerate(ranges):
            px = dots + (j - (len(ranges) - 1) / 2) * min(0.4 * step / max(len(ranges), 1), 0.03)
            ax.plot([px, px], [float(lo), float(hi)], color=colour, alpha=0.5, linewidth=0.7, zorder=2)
        if not values:
            tops.append((lefts.index(k), x, 0))
            continue
        ys = [float(v) for v in values]
        dx = _spread(ys, 0.4 * step)
        ax.scatter([dots + d for d in dx], ys, s=8, color=colour, alpha=0.6, linewidths=0, zorder=2)
        mean, low, high = mean_ci(values)
        if low is not None and high is not None and len(values) >= MIN_CI:
            ax.errorbar([at], [mean], yerr=[[mean - low], [high - mean]], fmt="none", ecolor="black",
                        elinewidth=0.8, capsize=2, capthick=0.7, zorder=3)
        ax.scatter([at], [mean], s=22, marker=MARKERS[i % len(MARKERS)], color=colour, edgecolors="black",
                   linewidths=0.5, zorder=4)
        tops.append((lefts.index(k), x, len(values)))
    from matplotlib.transforms import blended_transform_factory

    trans = blended_transform_factory(ax.transData, ax.transAxes)
    for col in range(len(lefts)):
        here = [(x, n) for c, x, n in tops if c == col]
        if len({n for _, n in here}) == 1:
            ax.text(col, 1.0, f"n={here[0][1]} each" if len(here) > 1 else f"n={here[0][1]}", transform=trans,
                    ha="center", va="bottom", fontsize=FONT - 1.5, color="#444444")
            continue
        for x, n in here:
            ax.text(x, 1.0, str(n), transform=trans, ha="center", va="bottom", fontsize=FONT - 2,
                    color="#444444", rotation=90 if len(here) > 3 else 0)
    ax.axhline(0, color="black", linewidth=0.6, zorder=1)
    ax.set_xticks(range(len(lefts)), [str(k) for k in lefts])
    ax.set_xlim(-0.5, len(lefts) - 0.5)
    ax.set_xlabel("cards left in the draw pile")
    ax.set_ylabel(ylabel)
    _grid(ax)
    if not any(n for _, _, n in tops):
        ax.text(0.5, 0.5, "no proved position", transform=ax.transAxes, ha="center", va="center",
                color="#666666")


def _series_label(ruleset: str, players: int) -> str:
    return f"{ruleset}, {players} players"


def _legend(fig: Figure, series: Sequence[str], extra: Sequence[tuple[Any, str]], width: float) -> None:
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], linestyle="none", marker=MARKERS[i % len(MARKERS)],
                      color=COLOURS[i % len(COLOURS)], markeredgecolor="black", markeredgewidth=0.5,
                      markersize=4.5) for i in range(len(series))]
    labels = list(series)
    for h, text in extra:
        handles.append(h)
        labels.append(text)
    fig.legend(handles, labels, loc="outside lower center", ncol=min(len(labels), 3 if width > 5 else 2),
               frameon=False, handlelength=1.6, columnspacing=1.2)


def trading_figure(groups: Sequence[TradingGroup], width: float = tf.PAGE) -> Figure:
    """Two panels against the cards left: ``coop − Σ solo`` and ``best − solo[active]`` over the
    proved positions of each (ruleset, players) series; per position a dot, the mean with its 95 %
    interval in front, the number of proved positions above; each unproved position with a proved
    bound a thin bar over the interval its gain lies in."""
    from matplotlib.lines import Line2D

    series = list(dict.fromkeys(_series_label(t.ruleset, t.players) for t in groups))
    with _style():
        fig = _figure(width, 2.7 if width > 5 else 4.6)
        axes = fig.subplots(1, 2, squeeze=False)[0] if width > 5 else fig.subplots(2, 1, squeeze=False)[:, 0]
        _strip_panel(axes[0], [(_series_label(t.ruleset, t.players), t.cards_left, t.coop_gains)
                               for t in groups], series, "coop − Σ solo (coins, whole table)",
                     [[r for r in t.coop_ranges if r[0] != r[1]] for t in groups])
        axes[0].set_title("value of trading to the table", pad=9)
        _strip_panel(axes[1], [(_series_label(t.ruleset, t.players), t.cards_left, t.best_gains)
                               for t in groups], series, "best − solo (coins, active player)",
                     [[r for r in t.best_ranges if r[0] != r[1]] for t in groups])
        axes[1].set_title("value of trading to the active player", pad=9)
        extra = [(Line2D([], [], linestyle="none", marker="o", markersize=2.5, color="#888888", alpha=0.6),
                  "one proved position"),
                 (Line2D([], [], color="#888888", alpha=0.6, linewidth=0.7),
                  "one unproved position: its interval"),
                 (Line2D([], [], color="black", linewidth=0.8), MEAN_KEY)]
        _legend(fig, series, extra, width)
    return fig


def information_figure(groups: Sequence[InformationGroup], width: float = tf.PAGE) -> Figure:
    """Left: per solved position, the expected coins without seeing the unseen cards (H7) against
    the average open optimum over their arrangements, with y = x (information worth nothing);
    right: ``open average − expected`` against the cards left, as in ``trading_figure``."""
    from matplotlib.lines import Line2D

    series = list(dict.fromkeys(_series_label(i.ruleset, i.players) for i in groups))
    lefts = sorted({i.cards_left for i in groups})
    with _style():
        fig = _figure(width, 2.9 if width > 5 else 5.0)
        axes = fig.subplots(1, 2, squeeze=False)[0] if width > 5 else fig.subplots(2, 1, squeeze=False)[:, 0]
        ax = axes[0]
        xs = [float(v) for i in groups for v, _ in i.pairs]
        ys = [float(o) for i in groups for _, o in i.pairs]
        low, high = min(xs + ys, default=0.0), max(xs + ys, default=1.0)
        pad = max(0.5, 0.06 * (high - low))
        ax.plot([low - pad, high + pad], [low - pad, high + pad], color="#777777", linestyle=(0, (4, 2)),
                linewidth=0.8, zorder=1)
        fills: tuple[Fill, ...] = ("full", "none", "left", "bottom")
        for i in groups:
            s = series.index(_series_label(i.ruleset, i.players))
            fill = fills[lefts.index(i.cards_left) % len(fills)]
            for v, o in i.pairs:
                ax.plot([float(v)], [float(o)], linestyle="none", marker=MARKERS[s % len(MARKERS)],
                        color=COLOURS[s % len(COLOURS)], markersize=4, fillstyle=fill, markeredgewidth=0.7,
                        alpha=0.85, zorder=3)
        ax.set_xlim(low - pad, high + pad)
        ax.set_ylim(low - pad, high + pad)
        ax.set_aspect("equal", adjustable="box")
        ax.set_xlabel("expected coins, unseen cards hidden (H7)")
        ax.set_ylabel("average open optimum (coins)")
        ax.set_title("per position", pad=9)
        ax.grid(True, color=GRID, linewidth=0.5, zorder=0)
        ax.set_axisbelow(True)
        _strip_panel(axes[1], [(_series_label(i.ruleset, i.players), i.cards_left, i.gains) for i in groups],
                     series, "open average − expected (coins)")
        axes[1].set_title("value of information", pad=9)
        extra: list[tuple[Any, str]] = [
            (Line2D([], [], color="#777777", linestyle=(0, (4, 2)), linewidth=0.8),
             "y = x: seeing the cards is worth nothing")]
        if len(lefts) > 1:
            extra += [(Line2D([], [], linestyle="none", marker="o", color="#555555", markersize=4,
                              fillstyle=fills[j % len(fills)], markeredgewidth=0.7),
                       f"{k} cards left (left panel)") for j, k in enumerate(lefts)]
        extra.append((Line2D([], [], color="black", linewidth=0.8), MEAN_KEY))
        _legend(fig, series, extra, width)
    return fig


# ------------------------------------------------------------------ the trade network


def _network_titles(n: NetworkGroup) -> tuple[str, str]:
    s = n.summary
    rec = s["reciprocity"]["weighted"]
    games = len(n.games)
    per = s["deals"] / games if games else 0.0
    head = f"{n.ruleset}, {n.players} players" + ("" if "," not in n.bots else f" ({n.bots})")
    return head, (f"{games:,} games, {per:.2f} deals/game, reciprocity "
                  + ("–" if rec is None else f"{rec:.2f}"))


def _cells(count: int, width: float, least: float) -> tuple[int, int, float]:
    """Columns, rows and the width (in) of each cell of a grid of ``count`` panels at least ``least``
    inches wide across ``width``."""
    cols = max(1, min(count, int(width // least)))
    return cols, math.ceil(count / cols), width / cols


def _small_multiples(networks: Sequence[NetworkGroup], width: float, least: float,
                     pad: tuple[float, float, float, float], draw: Any, key: str) -> Figure:
    """A grid of square panels, one per group, each under its two-line title, ``pad`` inches (left,
    right, top, bottom) left free around the square for labels drawn outside it, ``key`` wrapped
    beneath."""
    from matplotlib.figure import Figure

    cols, rows, cell_w = _cells(len(networks), width, least)
    left, right, above, below = pad
    side = cell_w - left - right
    title_h, cell_h = 0.3, above + side + below
    key_lines = textwrap.wrap(key, int(width * 72 / (0.5 * (FONT - 1))) - 8)  # about a line's characters
    key_h = 0.1 + 0.13 * len(key_lines)
    height = rows * (title_h + cell_h) + key_h
    with _style():
        fig = Figure(figsize=(width, height))
        for k, n in enumerate(networks):
            r, c = divmod(k, cols)
            x0 = c * cell_w
            top = height - r * (title_h + cell_h) - 0.04
            head, stats = _network_titles(n)
            fig.text((x0 + cell_w / 2) / width, top / height, head, ha="center", va="top", fontsize=FONT,
                     fontweight="bold")
            fig.text((x0 + cell_w / 2) / width, (top - 0.14) / height, stats, ha="center", va="top",
                     fontsize=FONT - 1)
            bottom = top - title_h - above - side
            ax = fig.add_axes(((x0 + left) / width, bottom / height, side / width, side / height))
            draw(ax, n)
        fig.text(0.5, 0.05 / height, "\n".join(key_lines), ha="center", va="bottom", fontsize=FONT - 1,
                 color="#333333", linespacing=1.3)
    return fig


def trade_network_figure(networks: Sequence[NetworkGroup], width: float = tf.PAGE) -> Figure:
    """One group: ``trade_figures.network_panels`` (the network beside its giver × receiver matrix).
    Several: small multiples of ``trade_figures.draw_network`` (arrow widths scaled within each
    panel), a key beneath; their matrices are ``trade_matrix_figure``."""
    if len(networks) == 1:
        n = networks[0]
        return tf.network_panels(n.collapsed, n.summary, f"Trade network, {n.bots} bots", width)
    key = ("Arrows: giver → receiver in the giver's colour, width ∝ cards given (scaled within each panel), "
           "the number of cards near the giver. Node area and %: the seat's share of all cards given + "
           "received. Seats clockwise from the top in the order of play.")
    return _small_multiples(networks, width, 2.3, (0.28, 0.28, 0.06, 0.08),
                            lambda ax, n: tf.draw_network(ax, n.collapsed, n.summary, legend=False), key)


def trade_matrix_figure(networks: Sequence[NetworkGroup], width: float = tf.PAGE) -> Figure:
    """Small multiples of ``trade_figures.draw_matrix``: per group the cards each giver (row) gave
    each receiver (column), the shade scaled within each panel."""
    def draw(ax: Axes, n: NetworkGroup) -> None:
        tf.draw_matrix(ax, n.collapsed, n.players)

    key = ("Cards given over all games of the group: giver (row) × receiver (column); the shade scaled "
           "within each panel.")
    return _small_multiples(networks, width, 2.3, (0.42, 0.2, 0.06, 0.4), draw, key)


# ------------------------------------------------------------------ writing them


def _why_empty(rep: Drawn) -> dict[str, str]:
    """Per figure with nothing to draw, why."""
    out: dict[str, str] = {}
    if not rep.seats:
        out["seat_advantage"] = out["seat_coins"] = "no simulation task finished"
    if not rep.trading:
        out["value_of_trading"] = "no finished endgame task asked for solo, coop or best"
    elif not any(t.coop_gains or t.best_gains for t in rep.trading):
        out["value_of_trading"] = ("no position has coop and every solo, or best and the active seat's solo, "
                                   "proved")
    if not rep.information:
        out["value_of_information"] = "no finished endgame task asked for the expected objective"
    elif not any(i.pairs for i in rep.information):
        out["value_of_information"] = "no position's expected objective was solved"
    if not rep.networks:
        out["trade_network"] = "no simulation task finished"
    elif not any(n.summary["cards"] for n in rep.networks):
        out["trade_network"] = "no card changed hands in any game"
    if "trade_network" in out:
        out["trade_matrix"] = out["trade_network"]
    elif len(rep.networks) == 1:
        out["trade_matrix"] = ("one simulation group: its matrix is drawn beside its network in "
                               "trade_network.png")
    return out


def write_figures(rep: Drawn, out_dir: str | os.PathLike[str]) -> tuple[dict[str, Path], dict[str, str]]:
    """Write every figure of ``rep`` that has data into ``out_dir`` as ``NAME.png`` (``FIGURES``);
    returns (name -> path written, name -> why not written); removes ``NAME.png`` of a figure not
    written, left by an earlier report."""
    skipped = _why_empty(rep)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return {}, {name: "matplotlib is not installed (pip install '.[plots]')" for name in FIGURES}
    out = Path(out_dir)
    for name in skipped:  # a figure of an earlier report in out_dir would contradict this one
        (out / f"{name}.png").unlink(missing_ok=True)
    written: dict[str, Path] = {}
    wide = tf.PAGE
    for name in FIGURES:
        if name in skipped:
            continue
        if name == "seat_advantage":
            fig = seat_figure(rep.seats, "win")
        elif name == "seat_coins":
            fig = seat_figure(rep.seats, "coins")
        elif name == "value_of_trading":
            fig = trading_figure(rep.trading, wide)
        elif name == "value_of_information":
            fig = information_figure(rep.information, wide)
        elif name == "trade_network":
            fig = trade_network_figure(rep.networks, wide)
        else:
            fig = trade_matrix_figure(rep.networks, wide)
        path = out / f"{name}.png"
        tf.save_png(fig, path)
        written[name] = path
    return written, {name: why for name, why in skipped.items()}
