"""Write the conformance suite (tests/conformance/, described in docs/conformance.md): perft positions,
game records (legal and illegal, with what a referee must say) and endgame values, from seeded games.

Every file is made from fixed seeds and written atomically (a temporary file and a rename), so
running this twice gives byte-identical files. Each illegal record is checked, as it is made,
against the rule its mutation breaks; each endgame value is proved by the repo's solvers.

Examples:
  python scripts/make_conformance.py                  # rewrite tests/conformance/
  python scripts/make_conformance.py --out /tmp/conf  # write elsewhere (the test compares the two)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.build import build, write  # noqa: E402
from conformance.common import GenerationError  # noqa: E402

DEFAULT_OUT = ROOT / "tests" / "conformance"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", metavar="DIR", default=str(DEFAULT_OUT),
                        help="where to write (default: tests/conformance/)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"make_conformance.py: {out}: not a directory", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        files = build(log=print)
    except GenerationError as e:
        print(f"make_conformance.py: {e}", file=sys.stderr)
        return 1
    removed = write(out, files)
    for path in removed:
        print(f"removed {path}")
    print(f"wrote {len(files)} files to {out} in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
