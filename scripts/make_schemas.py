"""Write the published JSON Schemas (draft 2020-12) of the files the tools read: states, game record
lines, ruleset options and the conformance fixtures. They are generated from the pydantic models
of schemas/shapes.py, which the loaders use; docs/schemas/README.md says what each is for.

Each file is written atomically; running this twice gives byte-identical files, and
tests/test_schemas.py checks that the committed ones are what this writes. Exit 0, or 2 when the
output path is not a directory, cannot be written, or already holds files (without --force).

Examples:
  python scripts/make_schemas.py --force              # rewrite docs/schemas/
  python scripts/make_schemas.py --out /tmp/schemas   # write elsewhere
"""

from __future__ import annotations

import argparse
from pathlib import Path

from console import cli

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, force=True)
    parser.add_argument("--out", metavar="DIR", default="docs/schemas", help="where to write")
    args = parser.parse_args(argv)
    return cli.run("make_schemas.py", args, lambda frame: _make(args))


def _make(args: argparse.Namespace) -> int:
    out = cli.output_dir(str(ROOT / args.out) if args.out == "docs/schemas" else args.out, args.force)
    from records.game import atomic_write_text
    from schemas.shapes import json_schemas

    files = json_schemas()
    for name, text in files.items():
        atomic_write_text(out / name, text)
    print(f"wrote {len(files)} schemas to {out}")
    return 0


if __name__ == "__main__":
    cli.exit(main())
