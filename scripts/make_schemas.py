"""Write the published JSON Schemas (draft 2020-12) of the files the tools read: states, game record
lines, ruleset options and the conformance fixtures. They are generated from the pydantic models
of model/schemas.py, which the loaders use; docs/schemas/README.md says what each is for.

Each file is written atomically; running this twice gives byte-identical files, and
tests/test_schemas.py checks that the committed ones are what this writes. Exit 0, or 2 when the
output path is not a directory.

Examples:
  python scripts/make_schemas.py                      # rewrite docs/schemas/
  python scripts/make_schemas.py --out /tmp/schemas   # write elsewhere
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_OUT = ROOT / "docs" / "schemas"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", metavar="DIR", default=str(DEFAULT_OUT),
                        help="where to write (default: docs/schemas/)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"make_schemas.py: {out}: not a directory", file=sys.stderr)
        return 2
    from model.records import atomic_write_text
    from model.schemas import json_schemas

    files = json_schemas()
    for name, text in files.items():
        atomic_write_text(out / name, text)
    print(f"wrote {len(files)} schemas to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
