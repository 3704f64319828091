"""Show a game record, a solved endgame line or a position as one self-contained HTML page.

INPUT is
- a game record (*.jsonl, docs/records.md): every line with the state after it (and, with B or the
  checkbox, the state before it); the verdicts of `check_record.py --all` at their lines (rule ID,
  reason) and a list of the deviations to jump to;
- the JSON of `solve_endgame.py --json` (or use `solve_endgame.py --html PAGE`): the line step by
  step, the coins each step earns, the objective's running value, each deal drawn as who gives what
  to whom;
- a position (state JSON, a perft or endgame fixture, or a built-in name): its picture, and with
  --trade-graph the deals the rules allow now (scripts/trade_graph.py's map), drawn on the page
  (for a solved line: those of its starting position).

The page needs no network: the pictures (model/svg.py) are computed once here, each distinct piece
of a picture stored once, gzip-packed and base64-embedded; a small script unpacks them and steps
with the arrow keys, Home/End, N/P (next/previous deviation), the buttons or the slider. --seat P
draws only what seat P may see (H7): other hands as card backs, their coins hidden, and verdict
reasons (which can name hidden cards) replaced by their rule ID. Bad input: one line, exit 2, no
page. The page is written atomically; its size is printed.

Examples:
  python scripts/show.py tests/conformance/records/referee/three-deviations.jsonl --out dev.html
  python scripts/solve_endgame.py --json > line.json && python scripts/show.py line.json --out line.html
  python scripts/solve_endgame.py --html line.html
  python scripts/show.py rio4-last-turn --seat 1 --out seat1.html
  python scripts/show.py trade-map --trade-graph --out deals.html
  python scripts/show.py rio4-last-turn --svg position.svg
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from console import cli
from model.errors import InputError, UsageError

if TYPE_CHECKING:
    from model.actions import Action
    from model.state import GameState

TEMPLATE = Path(__file__).resolve().parent / "viewer.html"


@dataclass
class Page:
    """What the viewer shows: one entry per step (``t`` its title, ``l`` its line, ``p`` the indices
    of its picture's pieces, ``h`` the picture's height, ``c`` the coins, ``g`` what the step earned,
    ``v`` the objective so far, ``d`` a deal, ``x`` its deviations, ``s`` why the replay stopped)."""

    title: str
    seat: int | None
    summary: list[str] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    devs: list[dict[str, Any]] = field(default_factory=list)
    parts: dict[str, int] = field(default_factory=dict)
    extra: str = ""
    start: int = 0
    states: list[GameState] = field(default_factory=list)  # each step's state (not in the page)

    def add(self, s: GameState, title: str, line: int, **more: Any) -> dict[str, Any]:
        from model.svg import height, parts

        ids = [self.parts.setdefault(x, len(self.parts)) for x in parts(s, self.seat)]
        coins = [len(p.coins) if self.sees_coins(s, q) else None for q, p in enumerate(s.players)]
        step = {"t": title, "l": line, "p": ids, "h": height(s), "c": coins, **more}
        self.steps.append(step)
        self.states.append(s)
        return step

    def sees_coins(self, s: GameState, q: int) -> bool:
        """H7: coins are hidden from the other seats until the game is over (E4)."""
        from model.state import Phase

        return self.seat is None or q == self.seat or s.phase == Phase.OVER

    def html(self) -> str:
        from model.svg import STYLE, WIDTH

        data = {"steps": self.steps, "devs": self.devs, "parts": list(self.parts), "summary": self.summary,
                "width": WIDTH, "start": self.start}
        packed = base64.b64encode(gzip.compress(json.dumps(data, separators=(",", ":")).encode(), 9, mtime=0))
        out = TEMPLATE.read_text(encoding="utf-8")
        for key, value in (("__STYLE__", STYLE), ("__WIDTH__", str(WIDTH)), ("__EXTRA__", self.extra),
                           ("__TITLE__", escape(self.title)), ("__DATA__", packed.decode())):
            out = out.replace(key, value)
        return out


# ------------------------------------------------------------------ a record


def record_page(path: str, seat: int | None) -> Page:
    """Every line of the record, replayed as ``check_record.py --all`` does (model.referee.follow):
    its deviations at their lines, and where the replay stopped."""
    from model import jsonio
    from model.records import RecordFormatError, parse_record
    from model.referee import action_name, follow

    try:
        rec = parse_record(jsonio.read_text(path))
    except RecordFormatError as e:
        raise InputError(f"{path}:{e.line}: malformed record: {e.reason}") from None
    if rec.unknown:
        raise InputError(f"{path}: {rec.unknown} unknown cards (null): show.py draws records whose every "
                         "card is known (check_record.py judges the others)")
    _check_seat(seat, rec.players, path)
    page = Page(f"{Path(path).name}: {rec.rules.name}, {rec.players} players", seat)
    s0 = rec.initial_state()
    states: list[GameState] = [s0]
    run = follow(rec, every=True, on_step=lambda k, s: states.append(s))
    first = rec.lines[0] - 1 if rec.lines else 1
    start = " (the header's state)" if rec.start is not None else ""
    page.add(s0, f"line {first}: the start{start}", first)
    for k, s in enumerate(states[1:]):
        action = rec.actions[k]
        deal = _deal(states[k], action)
        page.add(s, f"line {rec.lines[k]}: {action_name(action)}", rec.lines[k],
                 **({"d": deal_svg(*deal)} if deal else {}))
    if run.stopped:
        page.steps[-1]["s"] = (f"the replay stops at line {run.stopped}: the record cannot be followed: "
                               f"{run.why}")
    by_line = {st["l"]: i for i, st in enumerate(page.steps)}
    last = len(page.steps) - 1
    for k, d in enumerate(run.deviations):
        step = by_line.get(d.line, last)  # a line not replayed (the stop, the end line): the last state
        reason = d.reason if seat is None else f"(the reason is hidden in p{seat}'s view: it may name cards)"
        page.devs.append({"line": d.line, "step": step, "kind": d.kind, "rule": d.rule, "action": d.action,
                          "reason": reason})
        page.steps[step].setdefault("x", []).append(k)
    tally = ", ".join(f"{r} {n}" for r, n in _by_rule(run.deviations).items())
    n = len(run.deviations)
    verdict = f"{n} deviation{'s' * (n != 1)} ({tally})" if n else "legal"
    page.summary.append(f"{path}: {len(rec.actions)} lines after the header, {len(states) - 1} replayed; "
                        f"{verdict} (check_record.py --all)")
    if run.stopped:
        page.summary.append(f"stopped at line {run.stopped}: {run.why}")
    page.start = page.devs[0]["step"] if page.devs else 0
    return page


def _by_rule(devs: list[Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in devs:
        key = d.rule if d.kind != "desync" else "desync"
        out[key] = out.get(key, 0) + 1
    return out


def _deal(s: GameState, a: Action) -> tuple[int, list[int], int, list[int]] | None:
    """T3: (the active player, the cards it gives, the partner, the cards the partner gives) of the
    offer the accept ``a`` takes in ``s``; None for any other action, or nothing pending (illegal)."""
    from model.actions import Accept

    offer = s.pending
    if not isinstance(a, Accept) or offer is None:
        return None
    act, q = offer.player, offer.partner
    try:
        to_q = ([s.players[act].hand[h] for h in sorted(offer.give_hand)]
                + [s.face_up[u] for u in sorted(offer.give_up)]
                + [s.players[act].aside[i] for i in sorted(offer.give_aside)])
        to_a = [s.players[q].hand[h] for h in sorted(a.hand)]
    except IndexError:
        return None
    return act, to_q, q, to_a


def deal_svg(giver: int, gives: list[int], partner: int, back: list[int]) -> str:
    """A deal drawn as who gives what to whom: two seats, an arrow each way with the cards on it."""
    from model.cards import BEAN_NAMES
    from model.svg import bean_colour

    w, h = 460, 96
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" class="dealsvg">',
           '<defs><marker id="ah" markerWidth="8" markerHeight="8" refX="6" refY="3" orient="auto">'
           '<path d="M0,0 L6,3 L0,6 z" fill="#333"/></marker></defs>']
    for x, who in ((4, giver), (w - 54, partner)):
        out.append(f'<rect x="{x}" y="30" width="50" height="36" rx="6" fill="#fff8dc" stroke="#c90"/>'
                   f'<text x="{x + 25}" y="53" font-size="13" text-anchor="middle" font-weight="bold">'
                   f'p{who}</text>')
    for y, cards, right in ((22, gives, True), (86, back, False)):
        x0, x1 = (60, w - 60) if right else (w - 60, 60)
        out.append(f'<line x1="{x0}" y1="{y}" x2="{x1}" y2="{y}" stroke="#333" marker-end="url(#ah)"/>')
        label = ", ".join(BEAN_NAMES[b] for b in cards) or "nothing"
        out.append(f'<text x="{w / 2:g}" y="{y - 6 if right else y - 6}" font-size="11" text-anchor="middle">'
                   f'{escape(label)}</text>')
        for k, b in enumerate(cards):
            out.append(f'<rect x="{70 + 14 * k}" y="{y - 4}" width="10" height="8" fill="{bean_colour(b)}"/>')
    out.append("</svg>")
    return "".join(out)


# ------------------------------------------------------------------ a solved line


def line_page(sol: dict[str, Any], s0: GameState, where: str, seat: int | None) -> Page:
    """The solver's line step by step: coins each step earns, the objective's running value."""
    from model import apply, format_action, parse_action
    from model.engine import IllegalAction

    _check_seat(seat, len(s0.players), where)
    objective, player = sol.get("objective"), sol.get("player")
    if objective not in ("solo", "coop", "best", "duel") or not isinstance(player, int) \
            or not 0 <= player < len(s0.players):
        raise InputError(f"{where}: objective/player: a line of solo, coop, best or duel for a seat of the "
                         f"position, got {objective!r} p{player!r}")
    line = sol.get("line")
    if not isinstance(line, list) or not all(isinstance(x, str) for x in line):
        raise InputError(f"{where}: line: a list of actions in notation")
    page = Page(f"{where}: {objective} p{player}, value {sol.get('value')} ({sol.get('status')})", seat)

    def value(s: GameState) -> int | None:
        c = [len(p.coins) for p in s.players]
        if seat is not None and not all(page.sees_coins(s, q) for q in range(len(c))) \
                and objective in ("coop", "duel"):
            return None  # H7: the others' coins are hidden
        return {"solo": c[player], "best": c[player], "coop": sum(c),
                "duel": c[player] - c[1 - player] if len(c) == 2 else c[player]}[str(objective)]

    s = s0
    page.add(s, "the position", 0, v=value(s))
    for k, text in enumerate(line):
        try:
            a = parse_action(text)
            nxt = apply(s, a)
        except IllegalAction as e:
            raise InputError(f"{where}: line[{k}]: illegal {text}: {e.reason} [{e.rule}]") from None
        except ValueError as e:
            raise InputError(f"{where}: line[{k}]: {e}") from None
        gains = [(q, len(p.coins) - len(s.players[q].coins)) for q, p in enumerate(nxt.players)]
        shown = [f"p{q} +{g}" for q, g in gains if g and page.sees_coins(nxt, q)]
        deal = _deal(s, a)
        page.add(nxt, f"{k + 1}. turn {s.turn}, p{s.active} active: {format_action(a)}", k + 1,
                 g="earns " + (", ".join(shown) if shown else "nothing"), v=value(nxt),
                 **({"d": deal_svg(*deal)} if deal else {}))
        s = nxt
    final = value(s)
    page.summary.append(f"{len(line)} steps; objective {objective} p{player}: the line reaches {final}, the "
                        f"solver says {sol.get('value')} ({sol.get('status')}, bound {sol.get('bound')})")
    return page


def _line_state(sol: dict[str, Any], where: str) -> tuple[GameState, str]:
    """The position a solved line starts from: its ``state`` (solve_endgame.py --json writes it), else
    the built-in position or file its ``position`` names."""
    from model.position_io import state_of

    if "state" in sol:
        return state_of(sol["state"], f"{where}: state"), str(sol.get("position", where))
    from solvers.positions import LIBRARY, read_position

    name = str(sol.get("position", "")).split(":", 1)[0]
    if name in LIBRARY:
        return LIBRARY[name].position(), name
    if name and Path(name).is_file():
        return read_position(name), name
    raise InputError(f"{where}: state: missing, and position {sol.get('position')!r} is neither a built-in "
                     "position nor a file (solve_endgame.py --json writes the state)")


# ------------------------------------------------------------------ a position


def position_page(s: GameState, where: str, seat: int | None, graph: bool) -> Page:
    _check_seat(seat, len(s.players), where)
    page = Page(f"{where}", seat)
    page.add(s, "the position", 0)
    page.summary.append(f"{where}: {s.setup.rules.name}, {len(s.players)} players")
    if graph:
        page.extra = trade_graph_html(s, where)
    return page


def trade_graph_html(s: GameState, where: str) -> str:
    """The trade graph of a position (solvers/trade_graph.py): seats as nodes, one edge per partner
    with its deals, the best deal for the active player and the best compatible set, as inline SVG."""
    from solvers.exact import SolveError
    from solvers.trade_graph import number, to_trading, trade_map

    if s.setup.duel:
        return "<p>The bean duel has no trading (D1): no trade graph.</p>"
    t, moved = to_trading(s)
    from model.state import Phase

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
    import math

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
           f'one better); values ({escape(tm.value_kind)}) now: '
           + escape(", ".join(f"p{q} {number(v)}" for q, v in enumerate(tm.values))) + "."
           + (f" Advanced to trading by: {escape('; '.join(moved))}." if moved else "") + "</p>",
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" class="tradegraph">']
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


# ------------------------------------------------------------------ the command


def _check_seat(seat: int | None, players: int, where: str) -> None:
    if seat is not None and not 0 <= seat < players:
        raise UsageError(f"--seat {seat}: {where} has seats p0-p{players - 1}")


def build(source: str, seat: int | None = None, graph: bool = False) -> Page:
    """The page for ``source``: a record (*.jsonl), a solved line's JSON, a position or a built-in name."""
    from model.position_io import PositionInputError, read_json, state_of
    from solvers.positions import LIBRARY, unknown_position

    if source.endswith(".jsonl"):
        if graph:
            raise UsageError("--trade-graph maps a position, not a record")
        return record_page(source, seat)
    if source in LIBRARY and not Path(source).exists():
        return position_page(LIBRARY[source].position(), source, seat, graph)
    if source != "-" and not Path(source).is_file():
        raise UsageError(unknown_position(source))
    obj = read_json(source)
    if isinstance(obj, dict) and "line" in obj and "objective" in obj:
        s, where = _line_state(obj, source)
        page = line_page(obj, s, where, seat)
        if graph:  # the deals of the line's starting position
            page.extra = trade_graph_html(s, where)
        return page
    try:
        s = state_of(obj, source)
    except PositionInputError:
        raise
    return position_page(s, source, seat, graph)


def write(page: Page, out: str) -> int:
    """Write the page atomically; its size in bytes."""
    from model.records import atomic_write_text

    text = page.html()
    atomic_write_text(out, text)
    return len(text.encode())


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, force=True)
    parser.add_argument("input", metavar="INPUT", help="a record (*.jsonl), solve_endgame.py --json output, "
                        "a position file, - (stdin) or a built-in position")
    parser.add_argument("--out", metavar="PAGE.html", help="the page to write")
    parser.add_argument("--svg", metavar="PICTURE.svg",
                        help="write one step's picture (model/svg.py) as an SVG file instead of a page")
    parser.add_argument("--step", type=cli.at_least(0, "--step"), default=None, metavar="K",
                        help="--svg: the step to draw (default: the one the page opens at: the position, "
                             "a record's start or its first deviation)")
    parser.add_argument("--seat", type=cli.at_least(0, "--seat"), default=None, metavar="P",
                        help="show only what seat P may see (H7)")
    parser.add_argument("--trade-graph", action="store_true",
                        help="a position or a solved line: add the (starting) position's trade graph "
                             "(solvers/trade_graph.py: every deal the rules allow, T3-T5)")
    args = parser.parse_args(argv)
    return cli.run("show.py", args, lambda frame: _show(args))


def _show(args: argparse.Namespace) -> int:
    if (args.out is None) == (args.svg is None):
        raise UsageError("give --out PAGE.html or --svg PICTURE.svg")
    if args.step is not None and args.svg is None:
        raise UsageError("--step chooses the step --svg draws (the page holds every step)")
    if args.seat is not None and args.trade_graph:
        raise UsageError("--trade-graph values deals of every seat's hand cards; not with --seat (H7)")
    cli.output_file(args.out or args.svg, args.force)
    page = build(args.input, args.seat, args.trade_graph)
    if args.svg:
        from model.records import atomic_write_text
        from model.svg import svg

        k = page.start if args.step is None else args.step
        if k >= len(page.states):
            raise UsageError(f"--step {k}: {args.input} has steps 0-{len(page.states) - 1}")
        atomic_write_text(args.svg, svg(page.states[k], args.seat))
        print(f"{args.svg}: step {k} ({page.steps[k]['t']})")
        return 0
    size = write(page, args.out)
    print(f"{args.out}: {len(page.steps)} steps, {len(page.devs)} deviations, {size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    cli.exit(main())
