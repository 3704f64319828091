"""Referee: replay game records and name the first illegal step, or (--all) every deviation.

Every file given is checked, whatever the verdicts before it; with more than one, a count per
verdict ends the output. The exit code is the worst verdict: 0 every record is legal, 1 an illegal
step (RECORD:LINE: illegal <action>: <reason> [rule ID]) or a desynchronised line (RECORD:LINE:
desync: <what the record says and what the replay has>), 2 malformed input (bad JSON, unknown
ruleset or bean, wrong format version), 3 when --z3 is given and the two referees disagree on the
first illegal line, 4 unknown cards left undecided by --time-limit, 70 an internal error on some
file (a bug; please report it), 130 interrupted (the verdicts printed so far stand). See
docs/records.md and docs/verify-your-engine.md.

--all goes on after a deviation wherever the record can still be followed (the recorded action is
applied without the rule checks; a reshuffle order that is not the discard pile is adopted) and
prints every deviation, then a count per rule ID and where the replay stopped, if it did.

--z3 replays each record a second time with the independent spec (proofs/spec.py, the transition
relation the Z3 proofs are about; a La Isla Bohnita record with proofs/isla/spec.py, through
proofs/isla/referee.py) and requires both referees to name the same first illegal line.

Example:
  python scripts/simulate.py --players 4 --games 3 --seed 1 --record out/games
  python scripts/check_record.py --z3 out/games/*.jsonl
  python scripts/check_record.py --all tests/conformance/records/referee/three-deviations.jsonl
"""

from __future__ import annotations

import json
import sys
import traceback
from collections import Counter

from console import cli
from model.errors import BohnanzaError


def check(path: str, z3: bool = False, every: bool = False,
          time_limit: float = 60.0) -> tuple[int, str, dict[str, object]]:
    """(exit code, the verdict's text (one line, or with ``every`` one per deviation and a
    summary), JSON summary) for one record file."""
    from records.referee import check_record

    verdict = check_record(path, every=every, time_limit=time_limit)
    code, line, info = verdict.code, "\n".join(verdict.lines()), verdict.summary()
    rec = verdict.record
    if not z3 or rec is None:
        return code, line, info
    if rec.unknown:
        info["z3"] = {"status": "not covered"}
        return 2, f"{path}: --z3: the independent spec replays records without unknown cards", info
    from proofs.isla.referee import isla_replay
    from proofs.isla.spec import Unsupported
    from proofs.referee import spec_replay
    from records.referee import first_illegal

    try:
        spec = isla_replay(rec) if rec.rules.option("isla") else spec_replay(rec)
    except Unsupported as exc:
        info["z3"] = {"status": "not covered"}
        return 2, f"{path}: --z3: the La Isla Bohnita spec does not cover this record: {exc}", info
    info["z3"] = {"status": "legal" if spec.legal else "illegal", "line": spec.line, "reason": spec.reason}
    engine_line = first_illegal(rec)  # the rules only: the spec knows no bean annotations
    if spec.line == engine_line:
        info["agree"] = True
        return code, line + " (the spec agrees)", info
    info["agree"] = False
    said = f"line {engine_line}" if engine_line else "legal"
    theirs = (f"line {spec.line}: {spec.action}: {spec.reason}" if spec.line
              else f"legal ({spec.reason})" if spec.reason else "legal")  # (the Isla spec stopped early)
    return 3, f"{path}: the referees disagree: engine {said}, spec {theirs}", info


ORDER = ("legal", "illegal", "desync", "undecided", "malformed", "not covered by --z3", "referees disagree",
         "internal error")


def check_all(frame: cli.Frame, paths: list[str], z3: bool, json_out: bool, every: bool = False,
              time_limit: float = 60.0) -> int:
    """Check every file (one bad file never stops the batch); the worst verdict is the exit code."""
    counts: Counter[str] = Counter()
    worst = 0
    bar = frame.progress("records", total=len(paths), unit="records")
    for i, path in enumerate(paths):
        try:
            code, line, info = check(path, z3, every, time_limit)
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
        worst = max(worst, code)
        second = info.get("z3")
        uncovered = isinstance(second, dict) and second.get("status") == "not covered"  # exit 2
        counts["referees disagree" if code == cli.DISAGREE else "not covered by --z3" if uncovered
               else str(info["status"])] += 1
        if json_out:
            print(json.dumps(info), flush=True)
        else:
            print(line, file=sys.stdout if code == 0 else sys.stderr, flush=True)
        frame.kept = f"the verdicts of the first {i + 1} of {len(paths)} records stand"
        bar(i + 1)
    if len(paths) > 1 and not json_out:
        tally = ", ".join(f"{counts[c]} {c}" for c in ORDER if counts[c])
        print(f"{len(paths)} records: {tally}", file=sys.stderr)
    return worst


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True)
    parser.add_argument("records", nargs="+", metavar="RECORD.jsonl")
    parser.add_argument("--json", action="store_true", help="one JSON object per record on stdout")
    parser.add_argument("--z3", action="store_true",
                        help="also replay with the independent spec; both must agree")
    parser.add_argument("--all", action="store_true", dest="every",
                        help="go on after a deviation and list every one, then a count per rule ID")
    parser.add_argument("--time-limit", type=cli.positive(float, "--time-limit"), default=60.0,
                        metavar="SECONDS",
                        help="for records with unknown cards: give up the search for an assignment "
                             "after this long (verdict undecided, exit 4)")
    args = parser.parse_args(argv)
    return cli.run("check_record.py", args, lambda frame: check_all(
        frame, args.records, args.z3, args.json, args.every, args.time_limit))


if __name__ == "__main__":
    cli.exit(main())
