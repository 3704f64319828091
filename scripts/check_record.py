"""Referee: replay game records and name the first illegal step.

Every file given is checked, whatever the verdicts before it; with more than one, a count per
verdict ends the output. The exit code is the worst verdict: 0 every record is legal, 1 an illegal
step (RECORD:LINE: illegal <action>: <reason> [rule ID]), 2 malformed input (bad JSON, unknown
ruleset or bean, wrong format version), 3 when --z3 is given and the two referees disagree on the
first illegal line, 70 an internal error on some file (a bug; please report it), 130 interrupted
(the verdicts printed so far stand). See docs/records.md.

--z3 replays each record a second time with the independent spec (proofs/spec.py, the transition
relation the Z3 proofs are about) and requires both referees to name the same first illegal line.

Example:
  python scripts/simulate.py --players 4 --games 3 --seed 1 --record out/games
  python scripts/check_record.py --z3 out/games/*.jsonl
"""

from __future__ import annotations

import json
import sys
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from model import cli  # noqa: E402
from model.errors import BohnanzaError  # noqa: E402


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


VERDICTS = {0: "legal", 1: "illegal", 2: "malformed", 3: "referees disagree", 70: "internal error"}


def check_all(frame: cli.Frame, paths: list[str], z3: bool, json_out: bool) -> int:
    """Check every file (one bad file never stops the batch); the worst verdict is the exit code."""
    counts: Counter[int] = Counter()
    bar = frame.progress("records", total=len(paths), unit="records")
    for i, path in enumerate(paths):
        try:
            code, line, info = check(path, z3)
        except BohnanzaError as e:  # a user error the verdict did not cover: this file only
            code, line, info = 2, f"{path}: {e}", {"record": path, "status": "malformed", "reason": str(e)}
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception as e:  # a bug on this file: say so, and go on with the others
            code = cli.INTERNAL
            line = f"{path}: internal error: {type(e).__name__}: {e}; please report it"
            info = {"record": path, "status": "internal error", "reason": f"{type(e).__name__}: {e}"}
            if frame.debug:
                traceback.print_exc()
        counts[code] += 1
        if json_out:
            print(json.dumps(info), flush=True)
        else:
            print(line, file=sys.stdout if code == 0 else sys.stderr, flush=True)
        frame.kept = f"the verdicts of the first {i + 1} of {len(paths)} records stand"
        bar(i + 1)
    if len(paths) > 1 and not json_out:
        tally = ", ".join(f"{counts[c]} {VERDICTS[c]}" for c in sorted(counts))
        print(f"{len(paths)} records: {tally}", file=sys.stderr)
    return max(counts) if counts else 0


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True)
    parser.add_argument("records", nargs="+", metavar="RECORD.jsonl")
    parser.add_argument("--json", action="store_true", help="one JSON object per record on stdout")
    parser.add_argument("--z3", action="store_true",
                        help="also replay with the independent spec; both must agree")
    args = parser.parse_args(argv)
    return cli.run("check_record.py", args, lambda frame: check_all(frame, args.records, args.z3, args.json))


if __name__ == "__main__":
    sys.exit(main())
