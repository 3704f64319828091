"""Fuzz the readers and the rules: corrupted records, positions, states and options (conformance/fuzz.py).

Prints the cases per outcome (verdict, crash, hang, wrong) and, for each kind of crash, hang and
wrong verdict, one line with an example case to rerun with --case. Exit 0 when there is no crash,
hang or wrong verdict, 1 otherwise, 2 on bad arguments, 130 on Ctrl-C or SIGTERM (the summary of the
cases finished so far, marked partial: --json's "partial": true, "cases" and "cases_asked").

Example:
  python scripts/fuzz.py --records 10000 --positions 2000 --states 1000 --seed 0
  python scripts/fuzz.py --case 0-records-17
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from console import cli
from model.errors import UsageError


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True)
    for kind, default in (("records", 200), ("positions", 50), ("states", 50), ("options", 50)):
        parser.add_argument(f"--{kind}", type=cli.at_least(0, f"--{kind}"), default=default, metavar="N",
                            help=f"{kind} cases")
    parser.add_argument("--seed", type=int, default=0, help="the base inputs and every case come from it")
    parser.add_argument("--workers", type=cli.at_least(1, "--workers"), default=2, help="worker processes")
    parser.add_argument("--timeout", type=cli.positive(float, "--timeout"), default=5.0,
                        help="seconds a case may take before it counts as a hang")
    parser.add_argument("--case", metavar="SEED-KIND-N", help="run one case here and show its traceback")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    args = parser.parse_args(argv)
    return cli.run("fuzz.py", args, lambda frame: _fuzz(frame, args))


def _fuzz(frame: cli.Frame, args: argparse.Namespace) -> int:
    counts = {k: getattr(args, k) for k in ("records", "positions", "states", "options")}
    from conformance import fuzz

    if args.case:
        return _one(args.case, args.json)

    todo = fuzz.cases(args.seed, counts)
    t0 = time.monotonic()
    bad = {"crash": 0, "hang": 0, "wrong": 0}
    bar = frame.progress("fuzz", total=len(todo), unit="cases")

    finished: list[fuzz.Outcome] = []  # as the cases end: an interrupt reports these
    frame.kept = "no case run yet"

    def report(out: fuzz.Outcome) -> None:
        finished.append(out)
        if out.status in bad:
            bad[out.status] += 1
        frame.kept = (f"the {len(finished)} of {len(todo)} cases run so far (" + ", ".join(f"{v} {k}" for k, v
                      in bad.items()) + ") are summarised on stdout, marked partial")
        bar.advance(note=", ".join(f"{v} {k}" for k, v in bad.items() if v))  # after: see check_spec.py

    try:
        fuzz.run_cases(todo, args.workers, args.timeout, report=report)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (cli.run): the cases finished, marked partial
        frame.close()
        _summarise(args, counts, finished, time.monotonic() - t0, partial=True)
        raise
    bar.close()
    _summarise(args, counts, finished, time.monotonic() - t0)
    return 1 if any(bad.values()) else 0


def _summarise(args: argparse.Namespace, counts: dict[str, int], results: list[Any], seconds: float,
               partial: bool = False) -> None:
    """The summary on stdout (one JSON object with --json, in one write); ``partial``: interrupted,
    ``results`` the cases finished before it (each kind's ``cases`` then counts those)."""
    from conformance import fuzz

    info = fuzz.summary(results, counts)
    info.update(seed=args.seed, workers=args.workers, timeout=args.timeout, seconds=round(seconds, 1))
    if partial:
        for kind in info["kinds"].values():
            kind["cases"] = sum(kind[k] for k in ("verdict", "crash", "hang", "wrong"))
        info.update(partial=True, cases=len(results), cases_asked=sum(counts.values()))
    if args.json:
        print(json.dumps(info), flush=True)
        return
    if partial:
        print(f"partial (interrupted): the {len(results)} of {sum(counts.values())} cases finished")
    _print(info, counts)
    sys.stdout.flush()


def _one(text: str, as_json: bool) -> int:
    import tempfile
    import traceback

    from conformance import fuzz

    try:
        case = fuzz.parse_case(text)
    except ValueError as e:
        raise UsageError(f"--case: {e}") from None
    print(f"{case.id}: {fuzz.describe(case)}", file=sys.stderr)
    workdir = tempfile.mkdtemp(prefix="fuzz-case-")
    runner = fuzz.RUNNERS[case.kind]
    try:
        out = runner(case, workdir)
    except fuzz.Wrong as w:
        out = fuzz.Outcome(case.id, case.kind, "wrong", str(w), where=w.oracle)
    except Exception as e:  # noqa: BLE001 (the case's crash, shown whole)
        traceback.print_exc()
        out = fuzz.Outcome(case.id, case.kind, "crash", f"{type(e).__name__}: {e}", where=fuzz.crash_where(e))
    where = f"{out.where}: " if out.where else ""
    print(json.dumps(out.__dict__) if as_json else f"{out.status}: {where}{out.text}")
    return 0 if out.status == "verdict" else 1


def _print(info: dict[str, Any], counts: dict[str, int]) -> None:
    kinds = info["kinds"]
    total = {k: sum(v[k] for v in kinds.values()) for k in ("cases", "verdict", "crash", "hang", "wrong")}
    print(f"fuzz: seed {info['seed']}, " + ", ".join(f"{n} {k}" for k, n in counts.items() if n)
          + f"; {info['workers']} workers, timeout {info['timeout']:g} s, {info['seconds']} s")
    for kind, v in [*kinds.items(), ("total", total)]:
        print(f"{kind:<10}{v['cases']:>7} cases: {v['verdict']} verdicts, {v['crash']} crashes, "
              f"{v['hang']} hangs, {v['wrong']} wrong")
    for g in info["groups"]:
        more = f" (also {', '.join(g['cases'][1:3])})" if len(g["cases"]) > 1 else ""
        print(f"{g['count']:>5} x {g['example']}{more}")


if __name__ == "__main__":
    cli.exit(main())
