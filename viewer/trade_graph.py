"""A position's trade graph drawn for the viewer (solvers/trade_graph.py's map): seats as nodes, one
edge per partner with its deals, the best deal for the active player and the best compatible set, as
inline SVG with a list beside it."""

from __future__ import annotations

import math
from html import escape
from typing import Any

from model.errors import InputError
from model.state import GameState, Phase
from solvers.contract import SolveError
from solvers.trade_graph import number, to_trading, trade_map


def trade_graph_html(s: GameState, where: str) -> str:
    """The trade graph of a position (solvers/trade_graph.py): seats as nodes, one edge per partner
    with its deals, the best deal for the active player and the best compatible set, as inline SVG."""
    # late: the map loads networkx, which only a page that draws a trade graph should pay for

    if s.setup.duel:
        return "<p>The bean duel has no trading (D1): no trade graph.</p>"
    t, moved = to_trading(s)
    if t.phase != Phase.TRADE:
        return "<p>No trading phase follows for the active player (T3): no trade graph.</p>"
    try:
        tm = trade_map(t, t.setup.rules.max_deal_cards)
    except SolveError as e:
        raise InputError(f"{where}: trade graph: {e}") from None
    return graph_svg(tm, [str(a) for a in moved], number)


def graph_svg(tm: Any, moved: list[str], number: Any) -> str:
    """The active seat in the middle, its partners around it: one edge per partner (its width by
    the partner's Pareto deals, dashed with none, heavier when the best compatible set uses it), each
    partner labelled with its deals and its best Pareto deal's total gain."""
    s = tm.state
    a, n = s.active, len(s.players)
    partners = [q for q in range(n) if q != a]
    w, h, r = 760, 470, 165
    cx, cy = w / 2, h / 2
    pos = {a: (cx, cy)}
    for k, q in enumerate(partners):
        angle = 2 * math.pi * k / len(partners) - math.pi / 2
        pos[q] = (cx + r * math.cos(angle), cy + r * math.sin(angle))
    chosen = {d.partner for d in tm.matching.deals}
    out = [f'<h2>Trade graph</h2><p>{len(tm.deals):,} legal deals; {len(tm.pareto):,} Pareto (no side worse, '
           f'one better); values ({escape(tm.value.name)}) now: '
           + escape(", ".join(f"p{q} {number(v)}" for q, v in enumerate(tm.values))) + "."
           + (f" Advanced to trading by: {escape('; '.join(moved))}." if moved else "") + "</p>",
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           'class="tradegraph">']
    lines, labels = [], []
    for q in partners:
        mine = [d for d in tm.deals if d.partner == q]
        par = [d for d in mine if d.pareto]
        top = max(par, key=lambda d: (d.total, -len(d.cards)), default=None)
        (x0, y0), (x1, y1) = pos[a], pos[q]
        width = 1 + min(8, len(par) / 4) + (3 if q in chosen else 0)
        dash = "" if par else ' stroke-dasharray="4 3"'
        out.append(f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="#555" '
                   f'stroke-width="{width:.1f}"{dash}/>')
        lines.append(f"p{q}: {len(mine)} deals, {len(par)} Pareto"
                     + (f"; best total {number(top.total):+}: {top.text()}" if top else ""))
        below = 1 if y1 >= cy else -1  # the label beyond the node, away from the middle
        for m, text in enumerate((f"{len(mine)} deals, {len(par)} Pareto",
                                  f"best total {number(top.total):+}" if top else "no Pareto deal")):
            y = y1 + below * (40 + 14 * (m if below > 0 else 1 - m))
            labels.append(f'<text x="{x1:.1f}" y="{y:.1f}" font-size="11" text-anchor="middle">'
                          f'{escape(text)}</text>')
    for q, (x, y) in pos.items():
        fill = "#fff8dc" if q == a else "#eef3ee"
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="26" fill="{fill}" stroke="#333"/>'
                   f'<text x="{x:.1f}" y="{y + 5:.1f}" font-size="14" text-anchor="middle" '
                   f'font-weight="bold">p{q}</text>')
    out += labels
    out.append("</svg><ul>")
    out += [f"<li>{escape(x)}</li>" for x in lines]
    b = tm.best_for_active
    if b is not None:
        out.append(f"<li>best deal for p{a} that its partner accepts: {escape(b.text())}: p{a} "
                   f"{number(b.gain_active):+}, p{b.partner} {number(b.gain_partner):+}</li>")
    m = tm.matching
    chosen_text = escape("; ".join(d.text() for d in m.deals) or "none")
    out.append(f"<li>best set of compatible deals (bold edges): {len(m.deals)} deals, predicted total "
               f"{number(m.predicted):+}: {chosen_text}</li>")
    out.append("</ul>")
    return "".join(out)
