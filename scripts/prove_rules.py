"""Prove the rule invariants with Z3 on the independent spec, and (--mutants) check that every
deliberate rule breakage is caught by a proof, the engine-vs-spec check or the test suite. The
built-in configurations cover both E1 readings (reshuffle=at-exhaustion and reshuffle=on-demand).

Prints a table: property or mutant, method, PROVED / REFUTED / VACUOUS / CAUGHT / SURVIVED,
seconds; a refutation comes with a counterexample (state, action, next state). With --isla, La Isla
Bohnita's proofs (I1-I9), its spec mutants (each refuted by the property it breaks) and, with
--differential, the engine compared with its spec on simulated Isla games. Exit 0 only if every
property is proved (every mutant caught, no disagreement); 1 otherwise; 2 for bad arguments.

Examples:
  python scripts/prove_rules.py
  python scripts/prove_rules.py --ruleset amigo --json
  python scripts/prove_rules.py --mutants
  python scripts/prove_rules.py --profile          # where the Z3 time goes
  python scripts/prove_rules.py --isla --mutants --differential   # proofs/isla/invariants.py ...
  python scripts/prove_rules.py --isla --no-proofs --differential --games 4 --max-states 50
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from console import cli
from model.errors import UsageError


def _configs(name: str | None) -> list[tuple[str, int, dict[str, Any]]] | None:
    """The proof configurations: the built-in set, or one ruleset at its smallest player count
    and at four players (clipped to its range)."""
    if name is None:
        return None
    from model.rules import ruleset

    r = ruleset(name)
    counts = sorted({r.min_players, max(r.min_players, min(4, r.max_players))})
    return [(name, n, {}) for n in counts]


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True)
    parser.add_argument("--ruleset", metavar="NAME", help="prove for this preset only (default: the built-in "
                                                          "set of configurations)")
    parser.add_argument("--mutants", action="store_true", help="also run the mutant catalog")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--jobs", type=cli.at_least(1, "--jobs"), default=os.cpu_count() or 1,
                        help="worker processes: configurations (and mutants) proved side by side "
                             "(default: the number of processors); the verdicts do not depend on it")
    parser.add_argument("--profile", action="store_true",
                        help="after the verdicts, the Z3 time by configuration, by transition kind, by "
                             "property and the slowest queries (runs in one process)")
    parser.add_argument("--isla", action="store_true",
                        help="the La Isla Bohnita proofs (ships, rows, attacks; I1-I9) instead")
    isla = parser.add_argument_group("La Isla Bohnita (with --isla)")
    isla.add_argument("--quick", action="store_true", help="prove on the three test configurations only")
    isla.add_argument("--no-proofs", action="store_true",
                      help="skip the proofs (mutants or differential only)")
    isla.add_argument("--differential", action="store_true",
                      help="also compare the engine with the spec on simulated Isla games")
    isla.add_argument("--games", type=cli.at_least(0, "--games"), default=None, metavar="N",
                      help="games for --differential (default: 22)")
    isla.add_argument("--seed", type=int, default=None, help="seed of the simulated games (default: 0)")
    isla.add_argument("--max-states", type=cli.at_least(1, "--max-states"), default=None, metavar="N",
                      help="states checked per game, a seeded sample (default: all)")
    args = parser.parse_args(argv)
    return cli.run("prove_rules.py", args, lambda frame: _prove(frame, args))


def _prove(frame: cli.Frame, args: argparse.Namespace) -> int:
    isla_only = [name for name, on in (("--quick", args.quick), ("--no-proofs", args.no_proofs),
                                       ("--differential", args.differential), ("--games", args.games),
                                       ("--seed", args.seed), ("--max-states", args.max_states))
                 if on is not None and on is not False]
    if args.profile and args.json:
        raise UsageError("--profile prints tables; drop --json")
    if args.isla:
        if args.profile:
            raise UsageError("--profile profiles the base game's proofs; drop --isla")
        if args.ruleset is not None:
            raise UsageError("--isla proves its own configurations; drop --ruleset")
        return _isla(frame, args)
    if isla_only:
        raise UsageError(f"{', '.join(isla_only)} only with --isla")

    from model.rules import PRESETS, RulesetError

    if args.ruleset is not None and args.ruleset not in PRESETS:
        raise UsageError(f"--ruleset: unknown preset {args.ruleset!r} (known: {', '.join(sorted(PRESETS))})")
    try:
        configs = _configs(args.ruleset)
    except RulesetError as exc:
        raise UsageError(f"--ruleset: {exc}") from None

    from proofs.invariants import prove
    from proofs.runner import ProofsInterrupted

    t0 = time.perf_counter()
    bar = frame.progress("proofs", unit="instances" if args.jobs == 1 else "tasks")
    profile: list[Any] | None = [] if args.profile else None
    try:
        results = prove(configs, progress=bar, jobs=1 if args.profile else args.jobs, profile=profile)
    except ProofsInterrupted as stop:  # the verdicts so far are printed, then exit 130
        bar.close()
        _table(stop.results, [], time.perf_counter() - t0)
        unit = "instances" if args.jobs == 1 or args.profile else "tasks"  # a task: a configuration
        frame.kept = (f"the verdicts so far ({_count(len(stop.results), 'property', 'properties')}, "
                      f"after {stop.done} of {stop.total if stop.total is not None else '?'} {unit}) are "
                      "printed above (unfinished ones: INTERRUPTED)")
        raise
    bar.close()
    proof_seconds = time.perf_counter() - t0
    ok = all(r.status == "proved" for r in results)

    verdicts = _judge_mutants(frame, args.jobs) if args.mutants else []
    ok = ok and all(v.status == "caught" for v in verdicts)
    if args.json:
        print(json.dumps(_as_json(results, verdicts if args.mutants else None, proof_seconds)))
        return 0 if ok else 1

    width = _table(results, verdicts, proof_seconds)
    if verdicts:
        print(f"\n{'mutant':<{width}}  {'rule':<5} {'result':<8} {'seconds':>7}  caught by")
        for v in verdicts:
            print(f"{v.id:<{width}}  {v.rule:<5} {v.status.upper():<8} {v.seconds:7.1f}  "
                  f"{'; '.join(v.caught_by) or '-'}")
        caught = sum(v.status == "caught" for v in verdicts)
        print(f"{caught} of {len(verdicts)} mutants caught")
    if profile is not None:
        _profile(profile)
    return 0 if ok else 1


def _judge_mutants(frame: cli.Frame, jobs: int) -> list[Any]:
    """--mutants: each mutant's verdict from the test suite; Ctrl-C keeps the count caught so far."""
    from proofs.mutants import MUTANTS, judge_all

    verdicts: list[Any] = []
    bar = frame.progress("mutants", total=len(MUTANTS), unit="mutants")

    def judged(i: int, v: Any) -> None:
        verdicts.append(v)
        bar(i + 1, None, v.id)
        caught = sum(x.status == "caught" for x in verdicts)
        frame.kept = f"{caught} of the {i + 1} mutants judged so far caught"

    try:
        judge_all(list(MUTANTS), jobs, judged)
    except RuntimeError as exc:  # the test suite could not run: no verdict is possible
        raise UsageError(f"--mutants: {exc} (install the test extra: pip install -e '.[test]')") from None
    bar.close()
    return verdicts


def _as_json(results: list[Any], verdicts: list[Any] | None, proof_seconds: float) -> dict[str, Any]:
    """--json: the invariants' verdicts and, with --mutants (``verdicts`` not None), the mutants'."""
    out: dict[str, Any] = {
        "invariants": [{"id": r.id, "method": r.method, "status": r.status, "seconds": round(r.seconds, 3),
                        **({"counterexample": r.counterexample} if r.counterexample else {})}
                       for r in results],
        "proof_seconds": round(proof_seconds, 1),
    }
    if verdicts is not None:
        out["mutants"] = [{"id": v.id, "rule": v.rule, "status": v.status, "caught_by": v.caught_by,
                           "detail": v.detail, "seconds": round(v.seconds, 1)} for v in verdicts]
    return out


def _profile(queries: list[Any], top: int = 12) -> None:
    """Where the Z3 time went (``runner.Query`` records): totals by configuration, by transition
    kind, by property (its goal and trigger queries) and by query kind, then the slowest queries."""
    def table(title: str, key: Any) -> None:
        sums: dict[str, list[float]] = {}
        for q in queries:
            row = sums.setdefault(key(q), [0.0, 0, 0])
            row[0] += q.seconds
            row[1] += 1
            row[2] = max(row[2], q.rlimit)
        width = max(len(k) for k in sums)
        print(f"\n{title:<{width}}  {'seconds':>8} {'queries':>7} {'max rlimit':>11}")
        for k, (sec, n, rl) in sorted(sums.items(), key=lambda kv: -kv[1][0]):
            print(f"{k:<{width}}  {sec:8.2f} {int(n):7d} {int(rl):11d}")

    if not queries:
        return
    print(f"\nZ3 queries: {len(queries)}, {sum(q.seconds for q in queries):.1f} s")
    table("configuration", lambda q: q.case)
    table("transition kind", lambda q: q.kind)
    table("property", lambda q: q.what.split(" ", 1)[1] if " " in q.what else "(premise)")
    table("query", lambda q: q.what.split(" ", 1)[0])
    print(f"\n{'slowest queries':<60}  {'seconds':>8} {'rlimit':>11}")
    for q in sorted(queries, key=lambda q: -q.seconds)[:top]:
        print(f"{(q.case + ', ' + q.kind + ': ' + q.what)[:60]:<60}  {q.seconds:8.2f} {q.rlimit:11d}")


def _table(results: list[Any], verdicts: list[Any], seconds: float) -> int:
    """The proofs' table (and each refutation's counterexample); returns the id column's width."""
    width = max((len(r.id) for r in results), default=8)
    if verdicts:
        width = max(width, *(len(v.id) for v in verdicts))
    print(f"{'property':<{width}}  {'method':<16} {'result':<11} {'seconds':>7}")
    for r in results:
        print(f"{r.id:<{width}}  {r.method:<16} {r.status.upper():<11} {r.seconds:7.2f}")
    print(f"all proofs: {seconds:.1f} s")
    for r in results:
        if r.status not in ("proved", "interrupted"):
            print(f"\n{r.id} {r.status}:\n  " + r.counterexample.replace("\n", "\n  "))
    return width


def _isla(frame: cli.Frame, args: argparse.Namespace) -> int:
    """The expansion's proofs on its five configurations (three with ``--quick``), its spec mutants
    (``--mutants``) and the engine-vs-spec check (``--differential``)."""
    from proofs.isla.differential import differential
    from proofs.isla.invariants import EXTRA_CONFIGS, PROOF_CONFIGS, format_results, prove
    from proofs.isla.mutants import MUTANTS, judge_mutant
    from proofs.runner import ProofsInterrupted

    configs = PROOF_CONFIGS if args.quick else PROOF_CONFIGS + EXTRA_CONFIGS
    t0 = time.perf_counter()
    bar = frame.progress("proofs", unit="instances")
    try:
        results = [] if args.no_proofs else prove(configs, progress=bar)
    except ProofsInterrupted as stop:
        bar.close()
        print("\n".join(format_results(stop.results)))
        frame.kept = (f"the verdicts so far ({_count(len(stop.results), 'property', 'properties')}) are "
                      "printed above")
        raise
    bar.close()
    seconds = time.perf_counter() - t0
    verdicts = []
    if args.mutants:
        bar = frame.progress("mutants", total=len(MUTANTS), unit="mutants")
        for i, m in enumerate(MUTANTS):
            bar(i, None, str(m))
            verdicts.append(judge_mutant(m))
            refuted = sum(v.status == "refuted" for v in verdicts)
            frame.kept = f"{refuted} of the {i + 1} mutants judged so far refuted"
        bar.close()
    t1 = time.perf_counter()
    games, seed = 22 if args.games is None else args.games, args.seed or 0
    report = (differential(games, seed, args.max_states, progress=frame.progress("games", unit="games"))
              if args.differential else None)
    diff_seconds = time.perf_counter() - t1
    ok = (all(r.status == "proved" for r in results) and all(v.status == "refuted" for v in verdicts)
          and (report is None or not report.problems))
    if args.json:
        print(json.dumps({
            **({} if args.no_proofs else {
                "configurations": [[n, p, o] for n, p, o in configs],
                "invariants": [{"id": r.id, "rule": r.rule, "method": r.method, "status": r.status,
                                "seconds": round(r.seconds, 3),
                                **({"counterexample": r.counterexample} if r.counterexample else {})}
                               for r in results],
                "proof_seconds": round(seconds, 1)}),
            **({"mutants": [{"id": v.id, "rule": v.rule, "must_fail": v.expected, "status": v.status,
                             "seconds": round(v.seconds, 2)} for v in verdicts]} if args.mutants else {}),
            **({"differential": {"summary": report.summary(), "problems": report.problems,
                                 "seconds": round(diff_seconds, 1)}} if report is not None else {}),
        }))
        return 0 if ok else 1
    if not args.no_proofs:
        names = [f"{n} {p}p" + "".join(f" {k}={v}" for k, v in o.items() if k != "isla")
                 for n, p, o in configs]
        print("La Isla Bohnita: " + "; ".join(names))
        print("\n".join(format_results(results)))
        print(f"all proofs: {seconds:.1f} s")
    if verdicts:
        print(f"\n{'mutant':<22} {'rule':<5} {'must fail':<30} {'result':<8} {'seconds':>7}")
        for v in verdicts:
            print(f"{v.id:<22} {v.rule:<5} {v.expected:<30} {v.status.upper():<8} {v.seconds:7.2f}")
        print(f"{sum(v.status == 'refuted' for v in verdicts)} of {len(verdicts)} mutants refuted")
    if report is not None:
        print("\n" + report.summary() + f"\n  seconds: {diff_seconds:.1f}")
        for p in report.problems[:20]:
            print("  " + p)
    return 0 if ok else 1


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


if __name__ == "__main__":
    cli.exit(main())
