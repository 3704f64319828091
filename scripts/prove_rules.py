"""Prove the rule invariants with Z3 on the independent spec, and (--mutants) check that every
deliberate rule breakage is caught by a proof, the engine-vs-spec check or the test suite.

Prints a table: property or mutant, method, PROVED / REFUTED / CAUGHT / SURVIVED, seconds; a
refutation comes with a counterexample (state, action, next state). Exit 0 only if every property
is proved (and every mutant caught); 1 otherwise; 2 for bad arguments.

Examples:
  python scripts/prove_rules.py
  python scripts/prove_rules.py --ruleset amigo --json
  python scripts/prove_rules.py --mutants
  python scripts/prove_rules.py --isla --mutants     # La Isla Bohnita (I1-I9): proofs/isla_proofs.py
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _configs(name: str | None) -> list[tuple[str, int, dict[str, Any]]] | None:
    """The proof configurations: the built-in set, or one ruleset at its smallest player count
    and at four players (clipped to its range)."""
    if name is None:
        return None
    from model.rules import ruleset

    r = ruleset(name)
    counts = sorted({r.min_players, max(r.min_players, min(4, r.max_players))})
    return [(name, n, {}) for n in counts]


def _bar(total: int, quiet: bool, desc: str) -> Any:
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, file=sys.stderr, leave=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", metavar="NAME", help="prove for this preset only")
    parser.add_argument("--mutants", action="store_true", help="also run the mutant catalog")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--isla", action="store_true",
                        help="the La Isla Bohnita proofs (ships, rows, attacks; I1-I9) instead")
    args = parser.parse_args(argv)
    if args.isla:
        if args.ruleset is not None:
            print("prove_rules.py: --isla proves its own configurations; drop --ruleset", file=sys.stderr)
            return 2
        return _isla(args.mutants, args.json)

    from model.rules import PRESETS, RulesetError

    if args.ruleset is not None and args.ruleset not in PRESETS:
        print(f"prove_rules.py: --ruleset: unknown preset {args.ruleset!r} "
              f"(known: {', '.join(sorted(PRESETS))})", file=sys.stderr)
        return 2
    try:
        configs = _configs(args.ruleset)
    except RulesetError as exc:
        print(f"prove_rules.py: --ruleset: {exc}", file=sys.stderr)
        return 2

    from proofs.invariants import proof_instances, prove

    t0 = time.perf_counter()
    bar = _bar(len(proof_instances(configs)), args.json, "proofs")
    results = prove(configs, tick=bar.update if bar is not None else None)
    if bar is not None:
        bar.close()
    proof_seconds = time.perf_counter() - t0
    ok = all(r.status == "proved" for r in results)

    verdicts = []
    if args.mutants:
        from proofs.mutants import MUTANTS, judge, sample

        states = sample()
        bar = _bar(len(MUTANTS), args.json, "mutants")
        try:
            for m in MUTANTS.values():
                verdicts.append(judge(m, states))
                if bar is not None:
                    bar.update()
        except RuntimeError as exc:  # the test suite could not run: no verdict is possible
            print(f"prove_rules.py: --mutants: {exc} (install the test extra: "
                  "pip install -e '.[test]')", file=sys.stderr)
            return 2
        finally:
            if bar is not None:
                bar.close()
        ok = ok and all(v.status == "caught" for v in verdicts)

    if args.json:
        out: dict[str, Any] = {
            "invariants": [{"id": r.id, "method": r.method, "status": r.status,
                            "seconds": round(r.seconds, 3),
                            **({"counterexample": r.counterexample} if r.counterexample else {})}
                           for r in results],
            "proof_seconds": round(proof_seconds, 1),
        }
        if args.mutants:
            out["mutants"] = [{"id": v.id, "rule": v.rule, "status": v.status, "caught_by": v.caught_by,
                               "detail": v.detail, "seconds": round(v.seconds, 1)} for v in verdicts]
        print(json.dumps(out))
        return 0 if ok else 1

    width = max(len(r.id) for r in results)
    if verdicts:
        width = max(width, *(len(v.id) for v in verdicts))
    print(f"{'property':<{width}}  {'method':<16} {'result':<8} {'seconds':>7}")
    for r in results:
        print(f"{r.id:<{width}}  {r.method:<16} {r.status.upper():<8} {r.seconds:7.2f}")
    print(f"all proofs: {proof_seconds:.1f} s")
    for r in results:
        if r.status != "proved":
            print(f"\n{r.id} refuted:\n  " + r.counterexample.replace("\n", "\n  "))
    if verdicts:
        print(f"\n{'mutant':<{width}}  {'rule':<5} {'result':<8} {'seconds':>7}  caught by")
        for v in verdicts:
            print(f"{v.id:<{width}}  {v.rule:<5} {v.status.upper():<8} {v.seconds:7.1f}  "
                  f"{'; '.join(v.caught_by) or '-'}")
        caught = sum(v.status == "caught" for v in verdicts)
        print(f"{caught} of {len(verdicts)} mutants caught")
    return 0 if ok else 1


def _isla(mutants: bool, as_json: bool) -> int:
    """The expansion's proofs on its five configurations, and (``mutants``) its spec mutants."""
    from proofs.isla_proofs import EXTRA_CONFIGS, MUTANTS, PROOF_CONFIGS, format_results, judge_mutant, prove

    t0 = time.perf_counter()
    configs = PROOF_CONFIGS + EXTRA_CONFIGS
    results = prove(configs)
    seconds = time.perf_counter() - t0
    verdicts = [judge_mutant(m) for m in MUTANTS] if mutants else []
    ok = all(r.status == "proved" for r in results) and all(v.status == "refuted" for v in verdicts)
    if as_json:
        print(json.dumps({
            "configurations": [[n, p, o] for n, p, o in configs],
            "invariants": [{"id": r.id, "rule": r.rule, "method": r.method, "status": r.status,
                            "seconds": round(r.seconds, 3),
                            **({"counterexample": r.counterexample} if r.counterexample else {})}
                           for r in results],
            "proof_seconds": round(seconds, 1),
            **({"mutants": [{"id": v.id, "rule": v.rule, "must_fail": v.expected, "status": v.status,
                             "seconds": round(v.seconds, 2)} for v in verdicts]} if mutants else {}),
        }))
        return 0 if ok else 1
    names = [f"{n} {p}p" + "".join(f" {k}={v}" for k, v in o.items() if k != "isla") for n, p, o in configs]
    print("La Isla Bohnita: " + "; ".join(names))
    print("\n".join(format_results(results)))
    print(f"all proofs: {seconds:.1f} s")
    if verdicts:
        print(f"\n{'mutant':<22} {'rule':<5} {'must fail':<30} {'result':<8} {'seconds':>7}")
        for v in verdicts:
            print(f"{v.id:<22} {v.rule:<5} {v.expected:<30} {v.status.upper():<8} {v.seconds:7.2f}")
        print(f"{sum(v.status == 'refuted' for v in verdicts)} of {len(verdicts)} mutants refuted")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
