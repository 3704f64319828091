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


def check(path: str, z3: bool = False) -> tuple[int, str, dict[str, object]]:
    """(exit code, one line of text, JSON summary) for one record file."""
    code, line, info, rec = _engine_check(path)
    if not z3 or rec is None:
        return code, line, info
    from proofs.referee import spec_replay

    if rec.rules.isla:  # type: ignore[attr-defined]
        info["z3"] = {"status": "not covered"}
        return 2, (f"{path}: --z3: the independent spec covers the base game, not La Isla Bohnita "
                   "(I1-I9); check this record without --z3"), info

    verdict = spec_replay(rec)
    info["z3"] = {"status": "legal" if verdict.legal else "illegal", "line": verdict.line,
                  "reason": verdict.reason}
    engine_line = info.get("line")
    if verdict.line == engine_line:
        info["agree"] = True
        return code, line + " (the spec agrees)", info
    info["agree"] = False
    said = f"line {engine_line}" if engine_line else "legal"
    spec = f"line {verdict.line}: {verdict.action}: {verdict.reason}" if verdict.line else "legal"
    return 3, f"{path}: the referees disagree: engine {said}, spec {spec}", info


def _engine_check(path: str) -> tuple[int, str, dict[str, object], object]:
    from model.engine import scores, winners
    from model.records import IllegalStep, RecordFormatError, parse_record, replay_steps
    from model.state import Phase

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        return 2, f"{path}: cannot read: {e.strerror}", {"record": path, "status": "malformed"}, None
    except UnicodeDecodeError:
        return 2, f"{path}: not UTF-8 text", {"record": path, "status": "malformed"}, None
    try:
        rec = parse_record(text)
    except RecordFormatError as e:
        return 2, f"{path}:{e.line}: malformed record: {e.reason}", {
            "record": path, "status": "malformed", "line": e.line, "reason": e.reason}, None
    state = rec.initial_state()
    count = 0
    try:
        for step in replay_steps(rec):
            state = step[2]
            count += 1
    except IllegalStep as e:
        return 1, f"{path}:{e.line}: illegal {e.action}: {e.reason} [{e.rule}]", {
            "record": path, "status": "illegal", "line": e.line, "action": e.action,
            "reason": e.reason, "rule": e.rule}, rec
    coins = list(scores(state))
    over = state.phase == Phase.OVER
    info: dict[str, object] = {"record": path, "status": "legal", "actions": count, "coins": coins,
                               "over": over}
    line = f"{path}: legal, {count} actions, final coins {coins}"
    if over:
        info["winners"] = list(winners(state))
        line += f", winners {['p' + str(w) for w in winners(state)]}"
    else:
        line += " (game in progress)"
    return 0, line, info, rec


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
