"""Map trades with networkx: the deal graph of a trading position, or the trade network of games.

A POSITION (state JSON file) or NAME (built-in, see solve_endgame.py --list): every deal the rules
allow now (T3-T5: the active player with each other seat, its hand and face-up cards against the
partner's hand cards, gifts included, up to --max-cards a side), each valued for both sides by a
solver (`solo` optimum, or --value expected), the Pareto deals, the best deal for the active
player that its partner accepts, and the best set of compatible deals (re-solved after applying
it). A position that is not yet trading is first advanced to its trading phase by the active
player's default planting (said in the output). With no argument: the built-in `trade-map`.

RECORDS (game records, *.jsonl): the directed network of who gave which beans to whom, with volume
per pair and bean, gifts and swaps, reciprocity, centrality and the hub of each game, grouped by
ruleset and player count.

Writes --png (a 300 dpi figure, studies/trade_figures.py: for a position, every deal at its two
gains with the Pareto frontier and the best compatible set; for records, the network beside a
giver x receiver matrix) and --graphml (seats as nodes, deals or given cards as edges) atomically;
--json prints one object. Exit 0 on success, 2 for bad input.

Examples:
  python scripts/trade_graph.py
  python scripts/trade_graph.py rio4-8cards --max-cards 1 --json
  python scripts/trade_graph.py trade-map --png deals.png --graphml deals.graphml
  python scripts/simulate.py --players 4 --games 20 --seed 1 --bots random-trader --record out/g
  python scripts/trade_graph.py out/g/*.jsonl --png network.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from console import cli
from model.errors import InputError, UsageError

DEFAULT = "trade-map"


def _atomic(path: str, write: Any) -> None:
    from records.game import atomic_write

    atomic_write(path, write)


# ------------------------------------------------------------------ a position


def _position(name: str | None) -> tuple[Any, str, list[str]]:
    from model import Phase
    from solvers.positions import BUILTINS, read_position, unknown_position
    from solvers.trade_graph import to_trading

    name = name or DEFAULT
    try:
        if name in BUILTINS:
            s, where = BUILTINS[name].position(), f"{name}: {BUILTINS[name].about}"
        elif name == "-" or Path(name).exists():
            s, where = read_position(name), name
        else:
            raise UsageError(unknown_position(name))
    except InputError as e:
        raise UsageError(str(e)) from None
    if s.setup.duel:
        raise UsageError(f"{name}: the bean duel has no trading (D1)")
    s, steps = to_trading(s)
    moved = [str(a) for a in steps]
    if s.phase != Phase.TRADE:
        raise UsageError(f"{name}: phase: no trading phase follows for the active player (T3); the "
                         f"position reached phase {s.phase.name.lower()}")
    return s, where, moved


def _position_text(tm: Any, where: str, moved: list[str], k: int) -> str:
    from solvers.trade_graph import number

    s = tm.state
    a = s.active
    lines = [f"{where}"]
    if moved:
        lines.append(f"advanced to the trading phase by p{a}'s default planting: {'; '.join(moved)}")
    from model.cards import BEAN_NAMES

    lines.append(f"{s.setup.rules.name}, {len(s.players)} players, p{a} trading; face up: "
                 + (" ".join(BEAN_NAMES[b] for b in s.face_up) or "-"))
    lines.append(f"values now ({tm.value.name}): "
                 + ", ".join(f"p{q} {number(v)}" for q, v in enumerate(tm.values)))
    partners = sorted({d.partner for d in tm.deals})
    lines.append(f"{len(tm.deals):,} legal deals (up to {k} cards a side) with "
                 + (", ".join(f"p{q}" for q in partners) or "nobody")
                 + f"; {len(tm.pareto):,} Pareto (no side worse, one better)")
    for q in partners:
        mine = [d for d in tm.deals if d.partner == q]
        par = [d for d in mine if d.pareto]
        top = max(par, key=lambda d: (d.total, -len(d.cards)), default=None)
        best = f"; best total {_signed(top.total)}: {top.text()}" if top is not None else ""
        lines.append(f"  with p{q}: {len(mine):,} deals, {len(par):,} Pareto{best}")
    b = tm.best_for_active
    if b is None:
        lines.append(f"best deal for p{a} that its partner accepts: none gains p{a} anything")
    else:
        lines.append(f"best deal for p{a} that its partner accepts: {b.text()}: "
                     f"p{a} {_signed(b.gain_active)}, p{b.partner} {_signed(b.gain_partner)}")
    m = tm.matching
    lines.append(f"best set of compatible deals ({m.method} over {m.candidates} candidates, "
                 f"{tm.conflicts.number_of_edges()} conflicts): {len(m.deals)} deals, predicted total "
                 f"{_signed(m.predicted)}")
    for d in m.deals:
        lines.append(f"  - {d.text()}: p{d.active} {_signed(d.gain_active)}, "
                     f"p{d.partner} {_signed(d.gain_partner)}")
    if m.realised is not None and m.deals:
        lines.append("  re-solved after applying them: "
                     + ", ".join(f"p{q} {_signed(v)}" for q, v in m.realised.items())
                     + f" = {_signed(m.realised_total)}"
                     + (" (as predicted)" if m.realised_total == m.predicted else
                        " (the gains do not add up: the deals interact)"))
    elif m.note:
        lines.append(f"  {m.note}")
    st = tm.stats
    lines.append(f"mapped in {st['seconds']:.2f} s (deals {st['deal_seconds']:.2f} s, matching "
                 f"{st['matching_seconds']:.2f} s, re-solve {st['realise_seconds']:.2f} s): "
                 f"{st['solves']:,} solves, {st['cache_hits']:,} cache hits, {st['nodes']:,} search nodes")
    return "\n".join(lines)


def _signed(v: Any) -> str:
    from solvers.trade_graph import number

    x = number(v)
    return f"+{x}" if x > 0 else str(x)


def _position_title(name: str | None) -> str:
    if name is None or name == "-":
        return DEFAULT if name is None else "the position on stdin"
    return Path(name).name


BIG_JSON = 1_000_000  # characters: --json past this says its size on stderr


def _graphml(g: Any, path: str) -> None:
    import networkx as nx

    _atomic(path, lambda tmp: nx.write_graphml(g, tmp))


def _run_position(frame: cli.Frame, args: argparse.Namespace, name: str | None) -> int:
    from solvers.contract import OBJECTIVES, SolveError
    from solvers.trade_graph import deal_graph, to_json, trade_map

    s, where, moved = _position(name)
    k = s.setup.rules.max_deal_cards if args.max_cards is None else args.max_cards
    try:
        tm = trade_map(s, k, OBJECTIVES[args.value], args.node_limit, args.realise_nodes,
                       time_limit=args.time_limit, progress=frame.progress("deals valued", unit="deals"))
    except SolveError as e:
        raise UsageError(f"{name or DEFAULT}: {e}") from None
    if args.png:
        from studies.trade_figures import deal_scatter

        deal_scatter(tm, args.png, f"deals of {_position_title(name)}")
    if args.graphml:
        _graphml(deal_graph(tm), args.graphml)
    if args.json:
        out = {"position": where, "advanced_by": moved, "max_cards": k, **to_json(tm)}
        text = json.dumps(out, separators=(",", ":"))
        print(text)
        if len(text) >= BIG_JSON:  # one line on stderr: stdout stays the JSON
            frame.say(f"--json: {len(text) / 1e6:.0f} MB on stdout, {len(tm.deals):,} deals"
                      + (f" (--max-cards {k - 1} lists fewer)" if k > 1 else ""))
    else:
        print(_position_text(tm, where, moved, k))
        for what, path in (("drawing", args.png), ("GraphML", args.graphml)):
            if path:
                print(f"{what} written to {path}")
    return 0


# ------------------------------------------------------------------ records


def _run_records(frame: cli.Frame, args: argparse.Namespace, paths: list[str]) -> int:
    from studies.trade_network import collapse, network_from_records

    try:
        graphs, summaries = network_from_records(paths, progress=frame.progress("records", unit="records"))
    except InputError as e:
        raise UsageError(str(e)) from None
    groups = graphs if isinstance(graphs, dict) else {None: graphs}
    sums = summaries if isinstance(graphs, dict) else {None: summaries}
    if args.graphml:
        if len(groups) > 1:
            raise UsageError("--graphml: the records mix rulesets or player counts; give one group")
        _graphml(next(iter(groups.values())), args.graphml)
    if args.png:
        if len(groups) > 1:
            raise UsageError("--png: the records mix rulesets or player counts; give one group")
        from studies.trade_figures import network_figure

        network_figure(collapse(next(iter(groups.values()))), next(iter(sums.values())), args.png,
                       f"trade network of {_records_title(paths)}")
    if args.json:
        print(json.dumps({"records": len(paths), "groups": {str(k): v for k, v in sums.items()}}
                         if len(sums) > 1 else {"records": len(paths), **next(iter(sums.values()))},
                         separators=(",", ":")))
        return 0
    for label, sm in sums.items():
        print(_network_text(label, sm))
    for what, path in (("drawing", args.png), ("GraphML", args.graphml)):
        if path:
            print(f"{what} written to {path}")
    return 0


def _records_title(paths: list[str]) -> str:
    folders = sorted({str(Path(p).parent) for p in paths})
    where = folders[0] if len(folders) == 1 else f"{len(folders)} folders"
    return f"{len(paths):,} game record{'s' * (len(paths) != 1)} ({where})"


def _network_text(label: str | None, sm: dict[str, Any]) -> str:
    head = f"{label}: " if label else ""
    lines = [f"{head}{sm['games']} games, {sm['players']} players: {sm['deals']} deals "
             f"({sm['swaps']} swaps, {sm['gifts']} gifts), {sm['cards']} cards changed hands"]
    pairs = sorted(((k, v) for k, v in sm["pairs"].items() if v), key=lambda kv: -kv[1])
    lines.append("busiest pairs: " + (", ".join(f"{k} {v}" for k, v in pairs[:6]) or "-"))
    lines.append("by bean: " + (", ".join(f"{k} {v}" for k, v in sm["beans"].items()) or "-"))
    rec = sm["reciprocity"]
    if rec.get("weighted") is not None:
        lines.append(f"reciprocity: weighted {rec['weighted']:.3f}, networkx overall {rec['overall']:.3f}")
    share = sm["centrality"]["degree_share"]
    lines.append("degree share (cards given + received): "
                 + ", ".join(f"{k} {v:.3f}" if v is not None else f"{k} -" for k, v in share.items()))
    lines.append("hub of a game (most cards given + received): "
                 + ", ".join(f"{k} {v}" for k, v in sm["hub_counts"].items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True, force=True)
    parser.add_argument("inputs", nargs="*", metavar="POSITION|NAME|RECORDS",
                        help="a state JSON file, a built-in name, or game records (*.jsonl)")
    parser.add_argument("--max-cards", type=cli.at_least(0, "--max-cards"), default=None,
                        help="cards a side in a deal (default: the ruleset's max_deal_cards)")
    parser.add_argument("--value", choices=("solo", "expected"), default="solo",
                        help="how a seat's position is valued (expected: over the cards it cannot see)")
    parser.add_argument("--node-limit", type=cli.at_least(1, "--node-limit"), default=2_000_000,
                        help="expected: search nodes per solve")
    parser.add_argument("--realise-nodes", type=cli.at_least(1, "--realise-nodes"), default=100_000,
                        help="search nodes for re-solving after the best set of deals")
    parser.add_argument("--time-limit", type=cli.positive(float, "--time-limit"), default=300.0,
                        help="seconds a search for one value may take (past it the position is too large)")
    parser.add_argument("--png", metavar="FILE", help="write a drawing")
    parser.add_argument("--graphml", metavar="FILE", help="write the graph as GraphML")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    return cli.run("trade_graph.py", args, lambda frame: _trade_graph(frame, args))


def _trade_graph(frame: cli.Frame, args: argparse.Namespace) -> int:
    for path in (args.png, args.graphml):  # refused before the work, not after it
        cli.output_file(path, args.force)
    if args.png:
        cli.need_extra("matplotlib", "--png")
    records = [x for x in args.inputs if x.endswith(".jsonl")]
    if records:
        if len(records) != len(args.inputs):
            raise UsageError("give either game records (*.jsonl) or one position, not both")
        return _run_records(frame, args, records)
    if len(args.inputs) > 1:
        raise UsageError(f"give one position, not {len(args.inputs)}")
    return _run_position(frame, args, args.inputs[0] if args.inputs else None)


if __name__ == "__main__":
    cli.exit(main())
