"""Referee: replay game records and name the first illegal step.

Exit 0 when every record is legal, 1 at an illegal step
(RECORD:LINE: illegal <action>: <reason> [rule ID]), 2 for malformed input
(bad JSON, unknown ruleset or bean, wrong format version), 3 when --z3 is given and the two
referees disagree on the first illegal line. See docs/records.md.

--z3 replays each record a second time with the independent spec (proofs/spec.py, the transition
relation the Z3 proofs are about) and requires both referees to name the same first illegal line.

Example:
  python scripts/simulate.py --players 4 --games 3 --seed 1 --record out/games
  python scripts/check_record.py --z3 out/games/*.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def check(path: str, z3: bool = False) -> tuple[int, str, dict[str, object]]:
    """(exit code, one line of text, JSON summary) for one record file."""
    from model.records import check_record

    verdict = check_record(path)
    code, line, info = verdict.code, verdict.text(), verdict.summary()
    rec = verdict.record
    if not z3 or rec is None:
        return code, line, info
    from proofs.referee import spec_replay

    if rec.rules.isla:
        info["z3"] = {"status": "not covered"}
        return 2, (f"{path}: --z3: the independent spec covers the base game, not La Isla Bohnita "
                   "(I1-I9); check this record without --z3"), info

    spec = spec_replay(rec)
    info["z3"] = {"status": "legal" if spec.legal else "illegal", "line": spec.line, "reason": spec.reason}
    engine_line = info.get("line")
    if spec.line == engine_line:
        info["agree"] = True
        return code, line + " (the spec agrees)", info
    info["agree"] = False
    said = f"line {engine_line}" if engine_line else "legal"
    theirs = f"line {spec.line}: {spec.action}: {spec.reason}" if spec.line else "legal"
    return 3, f"{path}: the referees disagree: engine {said}, spec {theirs}", info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+", metavar="RECORD.jsonl")
    parser.add_argument("--json", action="store_true", help="one JSON object per record on stdout")
    parser.add_argument("--z3", action="store_true",
                        help="also replay with the independent spec; both must agree")
    args = parser.parse_args(argv)
    worst = 0
    for path in args.records:
        code, line, info = check(path, args.z3)
        if args.json:
            print(json.dumps(info))
        else:
            print(line, file=sys.stdout if code == 0 else sys.stderr)
        worst = max(worst, code)
    return worst


if __name__ == "__main__":
    sys.exit(main())
