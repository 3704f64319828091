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

The page needs no network: the pictures (drawing/svg.py) are computed once here, each distinct piece
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

from console import cli
from drawing.svg import svg
from model.errors import UsageError
from records.game import atomic_write_text
from viewer.build import build
from viewer.page import write


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, force=True)
    parser.add_argument("input", metavar="INPUT", help="a record (*.jsonl), solve_endgame.py --json output, "
                        "a position file, - (stdin) or a built-in position")
    parser.add_argument("--out", metavar="PAGE.html", help="the page to write")
    parser.add_argument("--svg", metavar="PICTURE.svg",
                        help="write one step's picture (drawing/svg.py) as an SVG file instead of a page")
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
        k = page.start if args.step is None else args.step
        if k >= len(page.states):
            raise UsageError(f"--step {k}: {args.input} has steps 0-{len(page.states) - 1}")
        atomic_write_text(args.svg, svg(page.states[k], args.seat))
        print(f"{args.svg}: step {k} ({page.steps[k]['t']})")
        return 0
    size = write(page, args.out)
    print(f"{args.out}: {page.count()}, {page.verdict}, {size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    cli.exit(main())
