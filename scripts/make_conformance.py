"""Write the conformance suite (tests/conformance/, described in docs/conformance.md): perft positions,
game records (legal and illegal, with what a referee must say) and endgame values, from seeded games.

Every file is made from fixed seeds and written atomically (a temporary file and a rename), so
running this twice gives byte-identical files. Each illegal record is checked, as it is made,
against the rule its mutation breaks; each endgame value is proved by the repo's solvers.

The target is checked before the (minute-long) build: a file, a read-only place, or a directory
that already holds files (without --force) is refused. Ctrl-C stops with exit 130 and writes nothing
(the files are written only once every one is made and checked).

Examples:
  python scripts/make_conformance.py --force          # rewrite tests/conformance/
  python scripts/make_conformance.py --out /tmp/conf  # write elsewhere (the test compares the two)
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from conformance.build import build, write
from conformance.common import GenerationError
from console import cli

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "conformance"


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True, force=True)
    parser.add_argument("--out", metavar="DIR", default=str(DEFAULT_OUT.relative_to(ROOT)),
                        help="where to write")
    args = parser.parse_args(argv)
    return cli.run("make_conformance.py", args, lambda frame: _make(frame, args))


def _make(frame: cli.Frame, args: argparse.Namespace) -> int:
    out = cli.output_dir(str(ROOT / args.out) if args.out == str(DEFAULT_OUT.relative_to(ROOT))
                         else args.out, args.force)
    t0 = time.perf_counter()
    try:
        files = build(log=print, progress=frame.progress("fixtures", unit="fixtures"))
    except GenerationError as e:
        frame.say(str(e))
        return 1
    removed = write(out, files)
    for path in removed:
        print(f"removed {path}")
    print(f"wrote {len(files)} files to {out} in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    cli.exit(main())
