"""The trade figures (studies/trade_figures.py): the data each figure draws, worked by hand on tiny
deal lists and trade networks; the figures written (PNG at 300 dpi, the width asked), their text
not overlapping; the drawing functions on a caller's Axes; and scripts/trade_graph.py --png."""

from __future__ import annotations

import struct
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from model import Accept, Propose
from model.cards import Bean
from solvers.positions import LIBRARY
from solvers.trade_graph import Deal, TradeMap, to_trading, trade_map
from studies import trade_figures as tf
from studies.trade_network import DealRecord, collapse, network, summary

ROOT = Path(__file__).resolve().parent.parent
PNG = b"\x89PNG\r\n\x1a\n"


def deal(i: int, partner: int, gains: tuple[int | Fraction, int | Fraction], give_hand: tuple[int, ...] = (),
         give_up: tuple[int, ...] = (), take: tuple[int, ...] = (), beans: tuple[int, ...] = (),
         got: tuple[int, ...] = ()) -> Deal:
    """A deal from p0 to ``partner``; ``beans``: what p0 gives (hand then face up), ``got``: what it gets."""
    return Deal(i, Propose(0, partner, give_hand, give_up), Accept(partner, take), beans, got, *gains)


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk comes first
    return width, height


# ------------------------------------------------------------------ the data, by hand


def test_pareto_frontier_keeps_the_undominated_points_once() -> None:
    """(0,1) is matched on y and beaten on x by (1,1); (1,0) and (0,0) are beaten; (2,0) has the
    largest x. A repeated point counts once."""
    assert tf.pareto_frontier([(0, 0), (2, 0), (0, 1), (1, 0), (1, 1), (1, 1)]) == [(1, 1), (2, 0)]
    assert tf.pareto_frontier([(0, 2), (1, 1), (3, 0), (-1, 2), (1, -1)]) == [(0, 2), (1, 1), (3, 0)]
    half = Fraction(1, 2)
    assert tf.pareto_frontier([(half, half), (0, half), (half, 0)]) == [(half, half)]
    assert tf.pareto_frontier([]) == []


def test_frontier_steps_bound_what_the_frontier_dominates() -> None:
    """Down from each point to the next one's height, then across to it."""
    assert tf.frontier_steps([(0, 2), (1, 1), (3, 0)]) == [(0, 2), (0, 1), (1, 1), (1, 0), (3, 0)]
    assert tf.frontier_steps([(2, 1)]) == [(2, 1)]
    assert tf.frontier_steps([]) == []


def test_scatter_points_count_deals_per_partner_and_gains() -> None:
    """Five deals: three with p1 (two at +1/0, one at 0/+1), two with p2 at +1/0; deals 0 and 3 chosen."""
    deals = [deal(0, 1, (1, 0)), deal(1, 1, (1, 0)), deal(2, 1, (0, 1)), deal(3, 2, (1, 0)),
             deal(4, 2, (1, 0))]
    points = tf.scatter_points(deals, [deals[0], deals[3]])
    assert points == [tf.ScatterPoint(1, 0, 1, 1, 0), tf.ScatterPoint(1, 1, 0, 2, 1),
                      tf.ScatterPoint(2, 1, 0, 2, 1)]
    assert sum(p.count for p in points) == len(deals)


def test_chosen_deals_read_by_bean_and_group_when_they_read_the_same() -> None:
    """Two gifts of a chili from different hand positions read the same: one group of 2; a face-up
    card is said so."""
    chili, stink, garden = Bean.CHILI, Bean.STINK, Bean.GARDEN
    gifts = [deal(0, 1, (0, 1), give_hand=(1,), beans=(chili,)),
             deal(1, 1, (0, 1), give_hand=(3,), beans=(chili,))]
    swap = deal(2, 2, (2, 1), give_hand=(0,), give_up=(1,), take=(2,), beans=(chili, stink), got=(garden,))
    assert tf.deal_words(gifts[0]) == "p0 gives chili; p1 gives nothing"
    assert tf.deal_words(swap) == "p0 gives chili, stink (face up); p2 gives garden"
    assert tf.chosen_groups([swap, *gifts]) == [
        tf.ChosenGroup("a", 1, 0, 1, "p0 gives chili; p1 gives nothing", 2),
        tf.ChosenGroup("b", 2, 2, 1, "p0 gives chili, stink (face up); p2 gives garden", 1)]


def hand_network() -> tuple[object, dict[str, object]]:
    """Three seats, two games: p0 gives p1 a wax for a red (swap), p2 gives p0 two chili (gift),
    p1 gives p0 a blue (gift). Cards: p0->p1 1, p1->p0 2, p2->p0 2."""
    deals = [DealRecord("g1", 1, 0, 1, (Bean.WAX,), (Bean.RED,)),
             DealRecord("g1", 2, 2, 0, (Bean.CHILI, Bean.CHILI), ()),
             DealRecord("g2", 1, 1, 0, (Bean.BLUE,), ())]
    G = network(deals, 3)
    return G, {"ruleset": "rio-grande", **summary(G, deals, 3, ["g1", "g2"])}


def test_trade_matrix_counts_cards_by_giver_and_receiver() -> None:
    G, _ = hand_network()
    expected = [[0, 1, 0], [2, 0, 0], [2, 0, 0]]
    assert tf.trade_matrix(collapse(G), 3) == expected
    assert tf.trade_matrix(G, 3) == expected  # the multigraph: one edge per card


@pytest.mark.parametrize(("top", "values"), [(71, [20, 40, 60]), (300, [100, 200, 300]), (4, [1, 2, 3]),
                                             (2, [1, 2]), (1, [1]), (0, []), (Fraction(1, 2), [])])
def test_reference_values_are_even_steps_up_to_the_largest(top: int | Fraction, values: list[int]) -> None:
    assert tf.reference_values(top) == values


def test_importing_the_module_needs_no_matplotlib() -> None:
    code = "import sys, studies.trade_figures; print('matplotlib' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


# ------------------------------------------------------------------ the figures


def texts_overlapping(fig: Figure) -> list[tuple[str, str]]:
    """Pairs of visible, non-empty texts of ``fig`` whose drawn boxes overlap (by more than a pixel)."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    hidden = set()  # the labels of ticks outside the view, which are not drawn
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            hidden |= {id(t.label1) for t in axis.get_major_ticks()
                       if not lo - 1e-9 <= t.get_loc() <= hi + 1e-9}
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and id(t) not in hidden]
    return [(a, b) for (a, p), (b, q) in combinations(boxes, 2)
            if min(p.x1, q.x1) - max(p.x0, q.x0) > 1 and min(p.y1, q.y1) - max(p.y0, q.y0) > 1]


@pytest.fixture(scope="module")
def trade_map_position() -> TradeMap:
    s, _ = to_trading(LIBRARY["trade-map"].position())
    return trade_map(s)


def test_deal_scatter_draws_every_deal_and_no_text_overlaps(trade_map_position: TradeMap,
                                                            tmp_path: Path) -> None:
    tm = trade_map_position
    fig = tf.deal_scatter_figure(tm, "deals of trade-map")
    assert texts_overlapping(fig) == []
    ax = fig.axes[0]
    drawn = [c for c in ax.collections if c.get_facecolors().size and c.get_facecolors()[0][3] > 0]
    assert len(drawn) == len(tf.scatter_points(tm.deals))  # one filled marker per point
    labels = {t.get_text() for t in ax.texts}
    assert {"a", "b", "c"} <= labels  # the three chosen deals, lettered
    assert {"43", "33", "4"} <= labels  # deals at p1 0/0, p1 +2/0, p2 +1/+1
    path = tmp_path / "deals.png"
    tf.deal_scatter(tm, path, "deals of trade-map")
    width, _ = png_size(path)
    assert width == round(tf.COLUMN * 300) and path.stat().st_size > 20_000


def test_network_figure_is_written_at_page_width(tmp_path: Path) -> None:
    G, sm = hand_network()
    fig = tf.network_panels(collapse(G), sm, "hand-made")
    assert texts_overlapping(fig) == []
    path = tmp_path / "network.png"
    tf.network_figure(collapse(G), sm, path, "hand-made")
    width, height = png_size(path)
    assert width == round(tf.PAGE * 300) and height > 600 and path.stat().st_size > 20_000


def test_draw_network_and_matrix_on_a_callers_axes() -> None:
    """Another report's figure: one arrow per ordered pair that moved cards, its number drawn; the
    matrix's cells carry ``trade_matrix``."""
    G, sm = hand_network()
    D = collapse(G)
    fig = Figure(figsize=(6, 3))
    left, right = fig.add_axes((0, 0, 0.5, 1)), fig.add_axes((0.6, 0.1, 0.35, 0.8))
    tf.draw_network(left, D, sm)
    image = tf.draw_matrix(right, D, 3)
    assert len(left.patches) == D.number_of_edges() == 3
    assert sorted(t.get_text() for t in left.texts if t.get_text().isdigit()) == ["1", "2", "2"]
    cells = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in right.texts}
    assert cells == {(u, v): ("–" if u == v else str(n)) for u, row in enumerate(tf.trade_matrix(D, 3))
                     for v, n in enumerate(row)}
    assert image.get_array().shape == (3, 3)
    assert texts_overlapping(fig) == []


def test_a_six_seat_network_has_no_overlapping_labels() -> None:
    """Every ordered pair of six seats traded (30 arrows): the labels still find room."""
    deals = [DealRecord("g", t, u, v, (Bean.WAX,) * (1 + (u * 7 + v * 3) % 9), ())
             for t, (u, v) in enumerate((u, v) for u in range(6) for v in range(6) if u != v)]
    G = network(deals, 6)
    fig = tf.network_panels(collapse(G), summary(G, deals, 6, ["g"]), "six seats")
    assert texts_overlapping(fig) == []


def test_an_empty_network_and_an_empty_deal_list_still_draw(tmp_path: Path) -> None:
    G = network([], 4)
    tf.network_figure(collapse(G), summary(G, [], 4, ["g"]), tmp_path / "n.png", "no trades")
    s, _ = to_trading(LIBRARY["trade-ask"].position())
    tf.deal_scatter(trade_map(s, 0), tmp_path / "d.png", "no deals")
    assert png_size(tmp_path / "n.png")[0] == 2100 and png_size(tmp_path / "d.png")[0] == 1020


# ------------------------------------------------------------------ the script


def test_script_png_for_a_position(tmp_path: Path) -> None:
    png = tmp_path / "d.png"
    script = ROOT / "scripts" / "trade_graph.py"
    proc = subprocess.run([sys.executable, str(script), "trade-ask", "--png", str(png)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert f"drawing written to {png}" in proc.stdout
    assert png_size(png)[0] == 1020
