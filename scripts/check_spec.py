"""Engine vs the independent Z3 spec (proofs/spec.py) on states sampled from seeded games.

The sampled games cover both E1 readings (reshuffle at-exhaustion and on-demand). For each state:
the engine's legal actions must be exactly the spec's satisfying actions
(enumerated by Z3 with blocking clauses, deals up to the ruleset's max_deal_cards), and the
engine's successor must equal the spec's for every non-proposal action and a sample of proposals.
Any disagreement is printed with the state and the action; exit 1 if there is one. Ctrl-C or
SIGTERM: the summary of the states checked so far, marked partial (--json: "partial": true and
"states_asked"), then exit 130.

Example:
  python scripts/check_spec.py --states 1000 --seed 1
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from console import cli

if TYPE_CHECKING:
    from proofs.differential import SpecCheck


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True)
    parser.add_argument("--states", type=cli.at_least(1, "--states"), default=1000,
                        help="states to sample from seeded games (every ruleset, 2-7 players)")
    parser.add_argument("--seed", type=int, default=1, help="the sampling seed")
    parser.add_argument("--json", action="store_true", help="print one JSON object (the summary)")
    args = parser.parse_args(argv)
    return cli.run("check_spec.py", args, lambda frame: _check(frame, args))


def _check(frame: cli.Frame, args: argparse.Namespace) -> int:
    from proofs.differential import SpecCheck, check_states

    bar = frame.progress("states", total=args.states, unit="states")
    run = SpecCheck()  # kept up to date state by state: an interrupt reports the states checked
    frame.kept = "no state checked yet"

    def report(done: int, total: int | None, note: str) -> None:
        frame.kept = f"the {run.states} states checked so far are summarised on stdout, marked partial"
        bar(done, total, note)  # after: an interrupt seen after the bar reports what it showed

    try:
        check_states(args.states, args.seed, progress=report, into=run)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (cli.run): the states checked, marked partial
        frame.close()
        _summarise(args, run, partial=True)
        raise
    bar.close()
    return _summarise(args, run)


def _summarise(args: argparse.Namespace, run: SpecCheck, partial: bool = False) -> int:
    """The summary on stdout (one JSON object with --json, in one write); ``partial``: the run was
    interrupted after ``run.states`` states."""
    from proofs.differential import minimize

    by_phase, by_players, by_rules, bad = run.by_phase, run.by_players, run.by_rules, run.bad
    checked, actions, seconds = run.states, run.actions, run.seconds
    summary = {
        "states": checked, "disagreements": len(bad), "legal_actions_compared": actions,
        "seconds": round(seconds, 1), "by_phase": dict(by_phase),
        "by_players": {str(k): v for k, v in sorted(by_players.items())}, "by_ruleset": dict(by_rules),
        "on_demand": {"states": run.on_demand, "waiting_for_need": run.waiting,
                      "reshuffle_at_need": run.need_chance},
        "skipped": 0,
        **({"partial": True, "states_asked": args.states} if partial else {}),
    }
    if args.json:
        print(json.dumps(summary), flush=True)
        return 1 if bad else 0
    if partial:
        print(f"partial (interrupted): the {checked} of {args.states} states checked")
    for problems in bad[:5]:
        print(minimize(problems[0]))  # the first problem of a state, on as few cards as still show it
        for p in problems[1:3]:
            print(p.what)
    print(f"{checked} states, {actions} legal actions compared, {len(bad)} disagreements, "
          f"{seconds:.1f} s; none skipped (the spec's bounds are sized to each state)")
    print("by phase: " + ", ".join(f"{k} {v}" for k, v in sorted(by_phase.items())))
    print("by players: " + ", ".join(f"{k}p {v}" for k, v in sorted(by_players.items())))
    print("by ruleset: " + ", ".join(f"{k} {v}" for k, v in sorted(by_rules.items())))
    print(f"reshuffle=on-demand (E1): {run.on_demand} states, {run.waiting} with an empty draw pile "
          f"before the need, {run.need_chance} with a reshuffle due at a need", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    cli.exit(main())
