"""Paper figures of trades: a position's deals as a gain-vs-gain scatter, and the trade network of
many games as a graph beside a giver x receiver matrix (PNG, 300 dpi, sized for a journal column
of 3.4 in or a page of 7 in).

The data a figure draws comes from plain functions that need no matplotlib and are tested on their
own: ``scatter_points`` (deals counted per partner and pair of gains), ``pareto_frontier`` and
``frontier_steps``, ``chosen_groups`` (the best compatible set, labelled), ``trade_matrix`` and
``reference_values`` (the values a size or width legend shows). The drawing functions import
matplotlib when called (``pip install '.[plots]'``), draw on a ``matplotlib.figure.Figure`` (no
pyplot state) and write through ``records.game.atomic_write``. ``draw_network`` and ``draw_matrix``
draw on given Axes, for other reports' figures. Imports model/ and solvers/, never scripts/.
"""

from __future__ import annotations

import dataclasses
import math
import os
import textwrap
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from model.cards import BEAN_NAMES
from records.game import atomic_write
from solvers.contract import EXPECTED, SOLO
from solvers.trade_graph import Deal, TradeMap, Value, number

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.image import AxesImage

__all__ = [
    "COLUMN", "PAGE", "ChosenGroup", "ScatterPoint", "chosen_groups", "deal_scatter", "deal_scatter_figure",
    "deal_words", "draw_matrix", "draw_network", "frontier_steps", "network_figure", "network_panels",
    "pareto_frontier", "reference_values", "save_png", "scatter_points", "seat_colour", "seat_marker",
    "trade_matrix",
]

COLUMN = 3.4  # inches: one journal column
PAGE = 7.0  # inches: two columns
DPI = 300
FONT = 7.0  # points: the body text of a figure at its printed size
COUNT_FONT = FONT - 1.5  # the deal counts beside the scatter's markers
MIN_AREA = 9.0  # points squared: the smallest marker of the deal scatter, 3 pt across
# Okabe-Ito: told apart with the common colour-vision deficiencies; seat q is colour q everywhere
SEAT_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#999933", "#000000")
FRONTIER = "#a50f15"  # dark red: no seat's colour
ACCEPTED = "#2a9d8f"  # the shade of the half-plane where the partner loses nothing
SEAT_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "h")
RC = {"font.size": FONT, "axes.titlesize": FONT, "axes.labelsize": FONT, "xtick.labelsize": FONT - 0.5,
      "ytick.labelsize": FONT - 0.5, "legend.fontsize": FONT - 0.5, "legend.title_fontsize": FONT - 0.5,
      "axes.linewidth": 0.6, "xtick.major.width": 0.6, "ytick.major.width": 0.6,
      "xtick.major.size": 2.5, "ytick.major.size": 2.5, "lines.linewidth": 1.0,
      "savefig.facecolor": "white", "figure.facecolor": "white"}


_HALO = {"boxstyle": "square,pad=0.05", "facecolor": "white", "edgecolor": "none", "alpha": 0.8}


def seat_colour(q: int) -> str:
    """The colour of seat q in every figure of this module."""
    return SEAT_COLOURS[q % len(SEAT_COLOURS)]


def seat_marker(q: int) -> str:
    """The marker of seat q in every figure of this module."""
    return SEAT_MARKERS[q % len(SEAT_MARKERS)]


# ------------------------------------------------------------------ the data a figure draws


@dataclass(frozen=True, slots=True)
class ScatterPoint:
    """Deals with one partner that have the same gains: ``count`` of them, ``chosen`` of which are
    in the best compatible set."""

    partner: int
    gain_active: Value
    gain_partner: Value
    count: int
    chosen: int = 0


def scatter_points(deals: Iterable[Deal], chosen: Iterable[Deal] = ()) -> list[ScatterPoint]:
    """The deals counted per (partner, active player's gain, partner's gain), sorted by that key."""
    ids = {d.id for d in chosen}
    count: Counter[tuple[int, Value, Value]] = Counter()
    picked: Counter[tuple[int, Value, Value]] = Counter()
    for d in deals:
        key = (d.partner, d.gain_active, d.gain_partner)
        count[key] += 1
        picked[key] += d.id in ids
    return [ScatterPoint(*key, count[key], picked[key]) for key in sorted(count)]


def pareto_frontier(points: Iterable[tuple[Value, Value]]) -> list[tuple[Value, Value]]:
    """The points that no other point matches on both coordinates and beats on one (both maximised),
    each once, by the first coordinate ascending (so the second descends)."""
    frontier: list[tuple[Value, Value]] = []
    best: Value | None = None
    last_x: Value | None = None
    for x, y in sorted(set(points), key=lambda p: (-p[0], -p[1])):
        if x == last_x:
            continue  # a point with this x and a larger y came first
        last_x = x
        if best is None or y > best:
            frontier.append((x, y))
            best = y
    return frontier[::-1]


def frontier_steps(frontier: Sequence[tuple[Value, Value]]) -> list[tuple[Value, Value]]:
    """The staircase through ``frontier`` (``pareto_frontier``'s order) that bounds what it dominates:
    from each point straight down to the next point's height, then across to it."""
    steps = list(frontier[:1])
    for (x0, _), (x1, y1) in zip(frontier, frontier[1:], strict=False):
        steps += [(x0, y1), (x1, y1)]
    return steps


def deal_words(d: Deal) -> str:
    """A deal in words, by bean: ``p0 gives chili, stink (face up); p2 gives nothing``."""
    hand = [BEAN_NAMES[b] for b in d.give[:len(d.propose.give_hand)]]
    up = [f"{BEAN_NAMES[b]} (face up)" for b in d.give[len(d.propose.give_hand):]]
    take = [BEAN_NAMES[b] for b in d.take]
    return (f"p{d.active} gives {', '.join(hand + up) or 'nothing'}; "
            f"p{d.partner} gives {', '.join(take) or 'nothing'}")


@dataclass(frozen=True, slots=True)
class ChosenGroup:
    """Deals of the best compatible set that read the same (``deal_words``) and gain the same:
    ``count`` of them, drawn with ``letter``."""

    letter: str
    partner: int
    gain_active: Value
    gain_partner: Value
    words: str
    count: int


def chosen_groups(chosen: Iterable[Deal]) -> list[ChosenGroup]:
    """The chosen deals grouped (deals that differ only in which hand card of a bean they use read
    the same), ordered by partner and gains, lettered a, b, c, ..."""
    count = Counter((d.partner, d.gain_active, d.gain_partner, deal_words(d)) for d in chosen)
    return [ChosenGroup(_letter(i), *key, n) for i, (key, n) in enumerate(sorted(count.items()))]


def _letter(i: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[i] if i < len(letters) else letters[i // len(letters) - 1] + letters[i % len(letters)]


def trade_matrix(G: Any, players: int) -> list[list[int]]:
    """Cards given, ``[giver][receiver]``, from a collapsed trade network (edge ``weight``) or the
    multigraph of ``trade_network.network`` (one edge per card); the diagonal is 0."""
    m = [[0] * players for _ in range(players)]
    for u, v, w in G.edges(data="weight", default=1):
        m[u][v] += int(w)
    return m


def reference_values(top: Value, k: int = 3) -> list[int]:
    """Up to ``k`` evenly spaced values for a legend of sizes or widths, none above ``top``: multiples
    of the largest step in 1, 2, 5, 10, 20, 50, ... for which ``k`` steps fit; [] when top < 1."""
    if top < 1:
        return []
    step = 1
    for e in range(int(math.log10(max(1, top))) + 1):
        for m in (1, 2, 5):
            if m * 10**e * k <= top:
                step = m * 10**e
    return [step * i for i in range(1, k + 1) if step * i <= top]


# ------------------------------------------------------------------ matplotlib


def _matplotlib() -> Any:
    import matplotlib

    return matplotlib


@contextmanager
def _style() -> Iterator[None]:
    with _matplotlib().rc_context(RC):
        yield


def save_png(fig: Figure, path: str | os.PathLike[str]) -> None:
    """Write ``fig`` as a 300 dpi PNG, atomically (``records.game.atomic_write``)."""
    atomic_write(path, lambda tmp: fig.savefig(tmp, format="png", dpi=DPI))


def _signed(v: Value) -> str:
    """``v`` with its sign, to two decimals unless whole."""
    x = number(v)
    text = f"{x:.2f}" if isinstance(x, float) else str(x)
    return f"+{text}" if x > 0 else text


def _is_whole(values: Iterable[Value]) -> bool:
    return all(Fraction(v).denominator == 1 for v in values)


# ------------------------------------------------------------------ the deal scatter


def deal_scatter(tm: TradeMap, path: str | os.PathLike[str], title: str, width: float = COLUMN) -> None:
    """Write ``deal_scatter_figure(tm, title, width)`` to ``path`` as a 300 dpi PNG."""
    with _style():
        save_png(deal_scatter_figure(tm, title, width), path)


def deal_scatter_figure(tm: TradeMap, title: str, width: float = COLUMN) -> Figure:
    """Every deal of ``tm`` at (active player's gain, partner's gain) in coins: one marker per partner
    and pair of gains (area proportional to the deals there, at least 3 pt across, their number
    beside it; partners side by side around the exact point), the Pareto frontier as a staircase, the
    best compatible set ringed and lettered with a key beneath, the half-plane where the partner
    loses nothing shaded. ``title`` (e.g. the position's name) heads the caption; ``width`` in
    inches, the height follows."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    s = tm.state
    a = s.active
    points = scatter_points(tm.deals, tm.matching.deals)
    groups = chosen_groups(tm.matching.deals)
    partners = sorted({p.partner for p in points}) or [q for q in range(len(s.players)) if q != a]
    xs = [float(p.gain_active) for p in points] + [0.0]
    ys = [float(p.gain_partner) for p in points] + [0.0]
    whole = _is_whole([p.gain_active for p in points] + [p.gain_partner for p in points])
    value = "solo optimum (no more trades)" if tm.value is SOLO else "expected solo value"
    caption = [title, *_wrap(f"{s.setup.rules.name}, {len(s.players)} players, p{a} trading, "
                             f"{len(tm.deals):,} legal deals", _chars(width)), f"value: {value}"]
    left, right, top_m, below = 0.5, 0.12, 0.1 + 0.14 * len(caption), 0.34
    ax_w = width - left - right
    ax_h = min(0.85 * ax_w, 3.2)
    if whole:  # half a coin and a little around the integer grid
        pad_x = pad_y = 0.6 if points else 1.0
    else:  # the dodged markers, their rings and labels (about 7 * partners + 20 pt) inside the frame
        pad_x = _pad(max(xs) - min(xs), (7 * len(partners) + 20) / (ax_w * 72))
        pad_y = _pad(max(ys) - min(ys), 24 / (ax_h * 72))
    x0, x1 = min(xs) - pad_x, max(xs) + pad_x
    y0, y1 = min(ys) - pad_y, max(ys) + pad_y * 7 / 6  # room above for the letters
    marks, per_deal = _scatter_marks(points, groups, partners, (x0, x1, y0, y1), (ax_w * 72, ax_h * 72),
                                     whole)
    omitted = sum(m.count_at is None for m in marks)
    key = _key_lines(tm, groups, width, omitted)
    legend_h = 0.14 * (max(len(partners), 3) + 1) + 0.08
    key_h = 0.125 * len(key) + 0.06
    height = top_m + ax_h + below + legend_h + key_h
    with _style():
        fig = Figure(figsize=(width, height))
        ax = fig.add_axes((left / width, (legend_h + key_h + below) / height, ax_w / width, ax_h / height))
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        if whole:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(True, color="#e6e6e6", linewidth=0.5, zorder=0)
        ax.set_axisbelow(True)
        ax.axhspan(0, y1, color=ACCEPTED, alpha=0.08, linewidth=0, zorder=0.5)
        ax.axhline(0, color="black", linewidth=0.7, zorder=1)
        ax.axvline(0, color="black", linewidth=0.7, zorder=1)
        unit = "expected coins" if tm.value is EXPECTED else "coins"
        ax.set_xlabel(f"gain of p{a}, the active player ({unit})")
        ax.set_ylabel(f"gain of the partner ({unit})")

        steps = frontier_steps(pareto_frontier((p.gain_active, p.gain_partner) for p in points))
        if steps:  # from the left edge at the first point's height, down to the bottom after the last
            line = [(x0, float(steps[0][1])), *((float(x), float(y)) for x, y in steps),
                    (float(steps[-1][0]), y0)]
            ax.plot([x for x, _ in line], [y for _, y in line], color=FRONTIER, linewidth=1.1, zorder=2,
                    solid_joinstyle="miter", solid_capstyle="butt")
        _draw_marks(ax, marks)

        _caption(fig, caption, height)
        legend_top = (legend_h + key_h) / height
        _scatter_legends(fig, partners, points, per_deal, legend_top, height)
        fig.text(0.04, key_h / height, "\n".join(key), ha="left", va="top", fontsize=FONT - 0.5,
                 linespacing=1.35)
        if not points:
            ax.text(0.5, 0.75, "no legal deal", transform=ax.transAxes, ha="center", va="center")
    return fig


def _draw_marks(ax: Any, marks: Sequence[_Mark]) -> None:
    """Each mark: its marker (shape and colour by partner, area by deals), its count beside it, and,
    for a deal of the best compatible set, a ring and its letters (with a leader line when far)."""
    for m in marks:
        p = m.point
        ax.scatter([m.x], [m.y], s=m.area, marker=seat_marker(p.partner), color=seat_colour(p.partner),
                   edgecolors="black", linewidths=0.3, alpha=0.9, zorder=3)
        if m.count_at is not None:
            ax.annotate(f"{p.count:,}", (m.x, m.y), xytext=m.count_at, textcoords="offset points",
                        ha="center", va="center", fontsize=COUNT_FONT, color="#444444", zorder=4,
                        bbox=_HALO)
        if m.letters:
            ax.scatter([m.x], [m.y], s=m.ring ** 2, marker="o", facecolors="none", edgecolors="black",
                       linewidths=0.9, zorder=4)
            assert m.letters_at is not None
            far = math.hypot(*m.letters_at) > m.ring / 2 + 9
            ax.annotate(m.letters, (m.x, m.y), xytext=m.letters_at, textcoords="offset points",
                        ha="center", va="center", fontsize=FONT - 0.5, fontweight="bold", zorder=5,
                        bbox=_HALO, arrowprops={"arrowstyle": "-", "linewidth": 0.5, "color": "#333333",
                                                "shrinkA": 0, "shrinkB": m.ring / 2} if far else None)


def _scatter_legends(fig: Any, partners: Sequence[int], points: Sequence[ScatterPoint], per_deal: float,
                     legend_top: float, height: float) -> None:
    """The three legends beneath the axes: the partners' markers, the marker areas for reference
    counts of deals, and the frontier, the ring and the shaded half-plane."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    seat = [Line2D([], [], linestyle="none", marker=seat_marker(q), color=seat_colour(q),
                   markeredgecolor="black", markeredgewidth=0.3, markersize=5, label=f"p{q}")
            for q in partners]
    sizes = [Line2D([], [], linestyle="none", marker="o", color="#bbbbbb", markeredgecolor="black",
                    markeredgewidth=0.3, markersize=math.sqrt(max(MIN_AREA, per_deal * n)),
                    label=f"{n:,}")
             for n in reference_values(max((p.count for p in points), default=0))]
    lines = [Line2D([], [], color=FRONTIER, linewidth=1.1, label="Pareto frontier"),
             Line2D([], [], linestyle="none", marker="o", markersize=7, markerfacecolor="none",
                    markeredgecolor="black", markeredgewidth=0.9, label="best compatible set"),
             Patch(facecolor=ACCEPTED, alpha=0.15, linewidth=0, label="partner accepts (gain ≥ 0)")]
    common: dict[str, Any] = {"frameon": False, "borderaxespad": 0, "handletextpad": 0.4,
                              "labelspacing": 0.45, "alignment": "left"}
    fig.legend(handles=seat, title="partner", loc="upper left", bbox_to_anchor=(0.04, legend_top),
               **common)
    if sizes:
        fig.legend(handles=sizes, title="deals (marker area)", loc="upper left",
                   bbox_to_anchor=(0.2, legend_top), borderpad=0.2, **common)
    fig.legend(handles=lines, loc="upper left", bbox_to_anchor=(0.5, legend_top - 0.12 / height),
               **common)


def _pad(span: float, share: float) -> float:
    """The margin on each side, in data units, that is ``share`` of the whole axis (span + margins)."""
    return max(span, 0.5) * share / (1 - 2 * share)


@dataclass(frozen=True, slots=True)
class _Mark:
    """Where the deal scatter draws a point: data position (dodged), area (pt^2), ring diameter (pt),
    and the offsets (pt, from the marker) of its letters and count (None: no room for the count)."""

    point: ScatterPoint
    x: float
    y: float
    area: float
    ring: float
    letters: str = ""
    letters_at: tuple[float, float] | None = None
    count_at: tuple[float, float] | None = None


def _scatter_marks(points: Sequence[ScatterPoint], groups: Sequence[ChosenGroup], partners: Sequence[int],
                   limits: tuple[float, float, float, float], size: tuple[float, float],
                   whole: bool) -> tuple[list[_Mark], float]:
    """Markers dodged by partner and sized by count (and the area per deal, pt^2), then their letters
    (the largest markers first) and counts put where they meet no marker and no text placed before
    them, inside the axes (``size``, pt)."""
    x0, x1, y0, y1 = limits
    per_x, per_y = size[0] / (x1 - x0), size[1] / (y1 - y0)  # points per coin
    spacing = min(13.0, 0.85 * per_x / max(1, len(partners)))
    big = max(math.sqrt(MIN_AREA), min(spacing * 0.95, 15.0, per_y - 22 if whole else 15.0))
    per_deal = big * big / max((p.count for p in points), default=1)
    slot = {q: i for i, q in enumerate(partners)}
    letters: dict[tuple[int, Value, Value], list[str]] = {}
    for g in groups:
        letters.setdefault((g.partner, g.gain_active, g.gain_partner), []).append(g.letter)
    marks = []
    for p in points:
        dx = (slot[p.partner] - (len(partners) - 1) / 2) * spacing
        area = max(MIN_AREA, per_deal * p.count)
        text = ",".join(letters.get((p.partner, p.gain_active, p.gain_partner), []))
        marks.append(_Mark(p, float(p.gain_active) + dx / per_x, float(p.gain_partner), area,
                           math.sqrt(area) + (4.5 if text else 0.0), text))
    circles = [((m.x - x0) * per_x, (m.y - y0) * per_y, m.ring / 2 + 0.5) for m in marks]
    taken: list[Box] = []
    bounds = (0.0, 0.0, size[0], size[1])
    for i in sorted((i for i, m in enumerate(marks) if m.letters), key=lambda i: -marks[i].area):
        at = _free_spot(marks[i].letters, FONT - 0.5, circles, i, taken, bounds, LETTER_SPOTS, (0, 6, 12, 20),
                        must=True)
        marks[i] = dataclasses.replace(marks[i], letters_at=at)
    for i, m in enumerate(marks):
        at = _free_spot(f"{m.point.count:,}", COUNT_FONT, circles, i, taken, bounds, COUNT_SPOTS, (0,))
        marks[i] = dataclasses.replace(m, count_at=at)
    return marks, per_deal


LETTER_SPOTS = (90, 60, 120, 30, 150, 0, 180, 300, 240, 270)  # degrees, in order of preference
COUNT_SPOTS = (270, 0, 180, 315, 225, 90, 45, 135)


def _free_spot(text: str, size: float, circles: Sequence[tuple[float, float, float]], own: int,
               taken: list[Box], bounds: Box, angles: Sequence[int], gaps: Sequence[float],
               must: bool = False) -> tuple[float, float] | None:
    """The offset (pt) from circle ``own``'s centre of a label that meets no circle, no ``taken`` box
    and stays in ``bounds``: the first free one by gap, then angle; appended to ``taken``. None if all
    are blocked, unless ``must`` (then the least blocked one)."""
    w, h = _text_size(text, size)
    cx, cy, r = circles[own]
    best: tuple[int, float, float] | None = None
    for gap in gaps:
        for angle in angles:
            ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            reach = min(w / 2 / abs(ux) if abs(ux) > 1e-9 else math.inf,  # centre to the box's edge
                        h / 2 / abs(uy) if abs(uy) > 1e-9 else math.inf)
            ox, oy = ux * (r + 0.5 + gap + reach), uy * (r + 0.5 + gap + reach)
            box = (cx + ox - w / 2, cy + oy - h / 2, cx + ox + w / 2, cy + oy + h / 2)
            blocked = (sum(_overlap(box, t) for t in taken) + sum(_meets_circle(box, c) for c in circles)
                       + (not (bounds[0] <= box[0] and box[2] <= bounds[2] and bounds[1] <= box[1]
                               and box[3] <= bounds[3])))
            if best is None or blocked < best[0]:
                best = (blocked, ox, oy)
            if not blocked:
                taken.append(box)
                return ox, oy
    if must and best is not None:
        w2, h2 = w / 2, h / 2
        taken.append((cx + best[1] - w2, cy + best[2] - h2, cx + best[1] + w2, cy + best[2] + h2))
        return best[1], best[2]
    return None


def _chars(width: float, size: float = FONT - 0.5) -> int:
    """About the characters a line of text at ``size`` points holds across ``width`` inches, margins
    left."""
    return int(width * 72 / (0.5 * size)) - 8


def _wrap(text: str, chars: int, indent: str = "") -> list[str]:
    return textwrap.wrap(text, chars, subsequent_indent=indent, break_on_hyphens=False)


def _caption(fig: Figure, lines: Sequence[str], height: float) -> None:
    """The first line bold, the rest beneath it, centred at the top of ``fig`` (``height`` inches)."""
    for i, line in enumerate(lines):
        fig.text(0.5, 1 - (0.06 + 0.14 * i + 0.02 * (i > 0)) / height, line, ha="center", va="top",
                 fontsize=FONT + 0.5 if i == 0 else FONT - 0.5, fontweight="bold" if i == 0 else "normal")


def _key_lines(tm: TradeMap, groups: Sequence[ChosenGroup], width: float, omitted: int) -> list[str]:
    m = tm.matching
    head = f"best compatible set: {len(m.deals)} deal{'s' * (len(m.deals) != 1)}"
    if m.deals:
        head += f", total gain {_signed(m.predicted)}"
        if m.realised_total is not None:
            head += f" (re-solved: {_signed(m.realised_total)})"
    chars = _chars(width)
    lines = []
    if omitted:
        lines += _wrap(f"numbers by the markers: deals there ({omitted} left out where crowded)", chars)
    lines += _wrap(head + ("" if m.deals else " (no deal gains both sides anything)"), chars)
    for g in groups:
        text = f"{g.letter}  {g.words}" + (f" (×{g.count})" if g.count > 1 else "")
        lines += _wrap(text, chars, "    ")
    return lines


# ------------------------------------------------------------------ the trade network


def _seat_angle(q: int, n: int) -> float:
    """Seats clockwise from the top (the order of play, rule S)."""
    return math.pi / 2 - 2 * math.pi * q / n


def draw_network(ax: Axes, G: Any, summary: dict[str, Any], curve: float = 0.2,
                 legend: bool = True) -> None:
    """The collapsed trade network ``G`` (``trade_network.collapse``: edge ``weight`` = cards given)
    on ``ax``: seats clockwise from the top, node area proportional to the seat's share of cards
    given + received (``summary["centrality"]["degree_share"]``, also in its label); one curved arrow
    per giver -> receiver in the giver's colour, its width proportional to the cards, their number
    beside the arrow near the giver (a pair's two arrows bend apart); with ``legend``, reference
    widths and a note beneath the drawing (inside ``ax``)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch

    n = int(summary["players"])
    share = summary["centrality"]["degree_share"]
    weights = {(u, v): int(w) for u, v, w in G.edges(data="weight", default=1) if u != v}
    top = max(weights.values(), default=0)
    half = 1.5  # data units from the centre to the top, left and right edges: the circle and labels
    foot = 0.5 if legend else 0.0  # room below for the legend
    ax.set_xlim(-half, half)
    ax.set_ylim(-half - foot, half)
    ax.set_aspect("equal")
    ax.axis("off")
    box = ax.get_window_extent().transformed(ax.figure.dpi_scale_trans.inverted())
    per_unit = min(box.width / (2 * half), box.height / (2 * half + foot)) * 72  # points per data unit
    chord = per_unit * 2 * math.sin(math.pi / max(n, 2))  # between neighbouring seats, in points
    big = min(24.0, 0.4 * chord)  # the node with the largest share, across
    wide = min(3.5, big / 6)  # the arrow with the most cards
    pos = {q: (math.cos(_seat_angle(q, n)), math.sin(_seat_angle(q, n))) for q in range(n)}
    shares = {q: float(share.get(f"p{q}") or 0.0) for q in range(n)}
    top_share = max(shares.values(), default=0.0) or 1.0
    across = {q: big * math.sqrt(shares[q] / top_share) for q in range(n)}

    def width(w: int) -> float:
        return max(0.2, wide * w / top) if top else 0.0

    label_fs = FONT - 1.5
    node_boxes = []
    for q in range(n):
        x, y = pos[q]
        if across[q] > 0:
            ax.scatter([x], [y], s=across[q] ** 2, color=seat_colour(q), edgecolors="black", linewidths=0.5,
                       zorder=3)
        else:  # gave and received nothing
            ax.scatter([x], [y], s=16, facecolors="white", edgecolors="black", linewidths=0.5, zorder=3)
        angle = _seat_angle(q, n)
        off = max(across[q], 4.0) / 2 + 2.5
        cx, cy = math.cos(angle), math.sin(angle)
        text = f"p{q}" + ("" if share.get(f"p{q}") is None else f" {shares[q]:.0%}")
        ha = "left" if cx > 0.3 else "right" if cx < -0.3 else "center"
        va = "bottom" if cy > 0.3 else "top" if cy < -0.3 else "center"
        ax.annotate(text, (x, y), xytext=(off * cx, off * cy), textcoords="offset points", ha=ha, va=va,
                    fontsize=FONT, zorder=5)
        w_, h_ = _text_size(text, FONT)
        left = x * per_unit + off * cx - {"left": 0, "right": w_, "center": w_ / 2}[ha]
        bottom = y * per_unit + off * cy - {"bottom": 0, "top": h_, "center": h_ / 2}[va]
        node_boxes.append((left, bottom, left + w_, bottom + h_))
    arrows = []
    for (u, v), w in sorted(weights.items()):
        lw = width(w)
        style = f"simple,tail_width={lw:.3f},head_width={lw + 3.2:.3f},head_length={3.5 + 0.6 * lw:.3f}"
        ax.add_patch(FancyArrowPatch(pos[u], pos[v], connectionstyle=f"arc3,rad={curve}", arrowstyle=style,
                                     mutation_scale=1, linewidth=0, color=seat_colour(u), alpha=0.9,
                                     shrinkA=across[u] / 2 + 1.5, shrinkB=across[v] / 2 + 1.5, zorder=2))
        ends = ((pos[u][0] * per_unit, pos[u][1] * per_unit), (pos[v][0] * per_unit, pos[v][1] * per_unit))
        arrows.append((*ends, lw, f"{w:,}"))
    nodes = [(pos[q][0] * per_unit, pos[q][1] * per_unit, max(across[q], 4.0) / 2 + 1.0) for q in range(n)]
    spots = _label_spots(arrows, nodes, node_boxes, curve, label_fs)
    for ((u, _), w), (x, y) in zip(sorted(weights.items()), spots, strict=True):
        ax.text(x / per_unit, y / per_unit, f"{w:,}", ha="center", va="center", fontsize=label_fs,
                color=_dark(seat_colour(u)), zorder=4, bbox=_HALO)
    if legend:
        handles = [Line2D([], [], color="#555555", linewidth=width(w), solid_capstyle="butt",
                          label=f"{w:,}") for w in reference_values(top)]
        note = ("arrows: giver → receiver, number of cards near the giver\n"
                "node area and %: share of all cards given + received")
        if handles:
            ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 0.085), ncol=len(handles),
                      frameon=False, handlelength=2.0, columnspacing=1.0, borderaxespad=0,
                      title="cards given (arrow width)")
        ax.text(0.5, 0.0, note, transform=ax.transAxes, ha="center", va="bottom", fontsize=FONT - 1,
                color="#333333", linespacing=1.3)


def _text_size(text: str, size: float) -> tuple[float, float]:
    """About the width and height in points of one line of ``text`` at ``size`` points."""
    return 0.62 * size * len(text) + 1.0, 1.2 * size


def _bezier(a: tuple[float, float], b: tuple[float, float], curve: float, t: Any) -> tuple[Any, Any]:
    """Points at ``t`` on matplotlib's ``arc3,rad=curve`` from ``a`` to ``b`` (a quadratic Bezier whose
    control point lies ``curve`` chords to the right of the chord's middle)."""
    (xa, ya), (xb, yb) = a, b
    cx, cy = (xa + xb) / 2 + curve * (yb - ya), (ya + yb) / 2 - curve * (xb - xa)
    return ((1 - t) ** 2 * xa + 2 * t * (1 - t) * cx + t * t * xb,
            (1 - t) ** 2 * ya + 2 * t * (1 - t) * cy + t * t * yb)


Box = tuple[float, float, float, float]  # left, bottom, right, top, in points


def _label_spots(arrows: Sequence[tuple[tuple[float, float], tuple[float, float], float, str]],
                 nodes: Sequence[tuple[float, float, float]], boxes: Sequence[Box], curve: float,
                 size: float) -> list[tuple[float, float]]:
    """The centre (points) of each arrow's label ``(giver, receiver, width, text)``: beside its
    arrow near the giver, on the side away from the centre if it is free, else the candidate (along
    the arrow, either side) that meets the fewest other arrows and no label, node (x, y, radius) or
    box; the widest arrows are labelled first."""
    import numpy as np

    t = np.linspace(0.08, 0.92, 40)
    xs, ys, half = [], [], []
    for a, b, lw, _ in arrows:
        x, y = _bezier(a, b, curve, t)
        xs.append(x)
        ys.append(y)
        half.append(np.full(t.shape, lw / 2 + 0.8))
    sx = np.concatenate(xs) if xs else np.zeros(0)
    sy = np.concatenate(ys) if ys else np.zeros(0)
    sh = np.concatenate(half) if half else np.zeros(0)
    owner = np.repeat(np.arange(len(arrows)), len(t))
    placed: list[Box] = list(boxes)
    spots: list[tuple[float, float]] = [(0.0, 0.0)] * len(arrows)
    for i in sorted(range(len(arrows)), key=lambda i: -arrows[i][2]):
        a, b, lw, text = arrows[i]
        w, h = _text_size(text, size)
        chord = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        nx_, ny_ = (b[1] - a[1]) / chord, -(b[0] - a[0]) / chord  # the right of the chord
        extent = abs(nx_) * w / 2 + abs(ny_) * h / 2
        best: tuple[float, float, float] | None = None
        for along in (0.3, 0.24, 0.36, 0.18, 0.42, 0.5, 0.12, 0.58):
            x, y = _bezier(a, b, curve, along)
            away = 1.0 if math.hypot(x + nx_, y + ny_) >= math.hypot(x - nx_, y - ny_) else -1.0
            for side, gap in ((away, 0.0), (-away, 0.0), (away, 3.0), (-away, 3.0)):
                cx = x + side * nx_ * (lw / 2 + 1.5 + extent + gap)
                cy = y + side * ny_ * (lw / 2 + 1.5 + extent + gap)
                box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
                score = abs(along - 0.3) / 0.03 + (side != away) * 2.0 + gap / 3  # preferences, then clashes
                score += 1000 * sum(_overlap(box, o) for o in placed)
                score += 1000 * sum(_meets_circle(box, c) for c in nodes)
                hit = ((sx > box[0] - sh) & (sx < box[2] + sh) & (sy > box[1] - sh) & (sy < box[3] + sh))
                score += (6 * int(np.count_nonzero(hit & (owner != i)))
                          + 50 * int(np.count_nonzero(hit & (owner == i))))
                if best is None or score < best[0]:
                    best = (score, cx, cy)
        assert best is not None
        spots[i] = (best[1], best[2])
        placed.append((best[1] - w / 2, best[2] - h / 2, best[1] + w / 2, best[2] + h / 2))
    return spots


def _overlap(p: Box, q: Box) -> bool:
    return p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]


def _meets_circle(box: Box, circle: tuple[float, float, float]) -> bool:
    x, y, r = circle
    nearest_x, nearest_y = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return math.hypot(x - nearest_x, y - nearest_y) < r


def _dark(colour: str) -> str:
    """``colour`` (#rrggbb) mixed with 40% black: text in a seat's colour that reads on white."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{int(c * 0.6):02x}" for c in rgb)


def draw_matrix(ax: Axes, G: Any, players: int) -> AxesImage:
    """The cards each giver (row) gave each receiver (column), ``trade_matrix``, on ``ax`` as a heat
    map with the number in every cell (the diagonal greyed out); returns the image (for a colorbar)."""
    import numpy as np

    m = trade_matrix(G, players)
    top = max((max(row) for row in m), default=0)
    data = np.array(m, dtype=float)
    for q in range(players):
        data[q, q] = np.nan
    cmap = _matplotlib().colormaps["Blues"].with_extremes(bad="#eeeeee")
    image = ax.imshow(data, cmap=cmap, vmin=0, vmax=max(top, 1), aspect="equal")
    for u in range(players):
        for v in range(players):
            if u == v:
                ax.text(v, u, "–", ha="center", va="center", fontsize=FONT - 1, color="#999999")
            else:
                dark = m[u][v] > 0.6 * top
                ax.text(v, u, f"{m[u][v]:,}", ha="center", va="center", fontsize=FONT - 1,
                        color="white" if dark else "black")
    labels = [f"p{q}" for q in range(players)]
    ax.set_xticks(range(players), labels)
    ax.set_yticks(range(players), labels)
    ax.tick_params(length=0)
    ax.set_xlabel("receiver")
    ax.set_ylabel("giver")
    for spine in ax.spines.values():
        spine.set_visible(False)
    return image


def network_figure(G: Any, summary: dict[str, Any], path: str | os.PathLike[str], title: str,
                   width: float = PAGE) -> None:
    """Write ``network_panels(G, summary, title, width)`` to ``path`` as a 300 dpi PNG."""
    with _style():
        save_png(network_panels(G, summary, title, width), path)


def network_panels(G: Any, summary: dict[str, Any], title: str, width: float = PAGE) -> Figure:
    """The trade network (``draw_network``) beside its giver x receiver matrix (``draw_matrix``),
    under ``title`` and a caption of statistics (games, deals, cards, reciprocity); ``width`` in
    inches, the height follows."""
    from matplotlib.figure import Figure

    n = int(summary["players"])
    rec = summary["reciprocity"].get("weighted")
    ruleset = f"{summary['ruleset']}, " if summary.get("ruleset") else ""
    stats = (f"{ruleset}{n} players: {summary['games']:,} games, {summary['deals']:,} deals "
             f"({summary['swaps']:,} swaps, {summary['gifts']:,} gifts), {summary['cards']:,} cards given; "
             "reciprocity " + ("-" if rec is None else f"{rec:.2f}")
             + " (share of cards matched by cards given back)")
    caption = [title, *_wrap(stats, _chars(width))]
    head = 0.1 + 0.14 * len(caption)
    panel = 0.46 * width  # the network's axes, square but for the legend beneath
    tall = panel * 3.5 / 3.0
    height = head + tall + 0.05
    with _style():
        fig = Figure(figsize=(width, height))
        _caption(fig, caption, height)
        net = fig.add_axes((0.01, 0.05 / height, panel / width, tall / height))
        side = 0.36 * width
        mat = fig.add_axes((0.59, (0.05 + tall - side) / 2 / height + 0.02, side / width, side / height))
        draw_network(net, G, summary)
        draw_matrix(mat, G, n)
        mat.set_title("cards given, giver × receiver", fontsize=FONT, pad=4)
    return fig
