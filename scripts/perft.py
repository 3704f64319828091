"""Perft: count the distinct legal action sequences of length DEPTH from a position.

POSITION is a state JSON file (as ``model.state_to_json`` writes it), a perft or endgame fixture file
(its ``state``), or the name of a fixture in tests/conformance/perft/ (``rio-grande-4p-start``).

Granularity (docs/conformance.md): one step is one engine action exactly as ``legal_actions`` lists
it: proposals of up to the ruleset's ``max_deal_cards`` cards a side and at most ``max_offers`` a
turn, every answer, identical face-up cards once (the lowest index). A chance node (phase ``chance``:
a reshuffle is due) and the end of the game are leaves: they count 1 and the sequence stops there.
Depth 0 counts 1.

Exit 0 with the count, 2 for a bad position, an unknown fixture or a bad depth (one line on stderr).

Examples:
  python scripts/perft.py rio-grande-4p-start 3
  python scripts/perft.py isla-4p-attack 3 --divide
  python scripts/perft.py position.json 2 --json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from console import cli
from model.perft import divide, perft
from model.state import GameState
from schemas.position_io import PositionInputError, read_json, state_of

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "conformance" / "perft"


def load_position(source: str) -> GameState:
    """A position from a file, or from the fixture of that name in tests/conformance/perft/."""
    path = Path(source)
    if not path.exists():
        fixture = FIXTURES / (source if source.endswith(".json") else f"{source}.json")
        if "/" in source or not fixture.exists():
            raise PositionInputError(f"{source}: no such file or perft fixture (fixtures are in {FIXTURES})")
        path = fixture
    return state_of(read_json(str(path)), source)


def _depth(text: str) -> int:
    try:
        depth = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth must be a whole number >= 0, got {text!r}") from None
    if depth < 0:
        raise argparse.ArgumentTypeError(f"depth must be a whole number >= 0, got {depth}")
    return depth


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__)
    parser.add_argument("position", metavar="POSITION", help="a state JSON file or a perft fixture's name")
    parser.add_argument("depth", metavar="DEPTH", type=_depth, help="sequence length, >= 0")
    parser.add_argument("--divide", action="store_true", help="the count per first action")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    return cli.run("perft.py", args, lambda frame: _perft(args))


def _perft(args: argparse.Namespace) -> int:
    depth = args.depth
    s = load_position(args.position)
    start = time.perf_counter()
    parts = divide(s, depth) if args.divide else None
    count = sum(n for _, n in parts) if parts else perft(s, depth)
    seconds = time.perf_counter() - start
    phase = s.phase.name.lower()
    if args.json:
        print(json.dumps({"position": args.position, "depth": depth, "count": count,
                          "seconds": round(seconds, 3), "phase": phase, "to_move": s.to_move,
                          "divide": dict(parts) if parts is not None else None}))
        return 0
    print(f"position: {args.position} ({s.setup.rules.name}, {len(s.players)} players, phase {phase}, "
          + (f"p{s.to_move} to move)" if s.to_move >= 0 else "a leaf)"))
    if parts is not None:
        for text, n in parts:
            print(f"{text}: {n}")
        if not parts:
            print("(no first action: a leaf or depth 0)")
    rate = f", {count / seconds:,.0f} sequences/s" if seconds > 0 else ""
    print(f"perft depth {depth}: {count} sequences in {seconds:.3f} s{rate}")
    return 0


if __name__ == "__main__":
    cli.exit(main())
