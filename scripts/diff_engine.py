"""Test another Bohnanza engine live against ours, step by step (docs/engine-protocol.md).

The engine is a process that speaks the driver protocol (JSON lines on stdin/stdout): a command
line, or a Python entry point module:factory. Seeded games (the bots of play/, every preset and
player count the engine claims, crossed with the documented readings, then the conformance perft
positions) run through both engines at once. At every step the legal action sets are compared
(missing and extra actions, each with its rule ID), the canonical breakages of each rule are
offered (every one the engine accepts is reported), the action played must be accepted, and the
state after it, the game's end and the winners must agree. Divergences are grouped into causes (the
rule, the kind, and the move or state part that differs: "T3 missing offer"), each reported with
the games it touched; the raw counts are in --json. The first divergence of each cause is shrunk
(fewer players, options that end the game sooner, fewer actions) to a record that
scripts/check_record.py flags and a position with its perft divide; --out writes them.

--ignore CAUSE goes past a known cause (a rule ID, or a cause as the report names it): its
divergences are counted as masked, and where it would end a game (a state or a refused action) the
engine is put back at our state and the game goes on, so that one run finds the other bugs.

Past the first bug: at a state divergence or a refused action the engine is started again at our
state (where it can start from a state) and the game goes on, so that later bugs of the same game
are found too (--first-only: the comparison of the game ends there).

--readings judges the documented readings (E1 reshuffle, E4 tie-break, H4, fields, third-field
cost; every value of an option the engine declares) by the engine's own answers: at the states of
the seeded games where the readings' answers differ (legal actions, the next state, the winners),
the engine is started under each reading and compared with ours under it; the reading it agrees
with at the most states comes first, ties shown as ties with what would separate them.

An engine that fails a request (no reply within --timeout, the hello after a start as well, a
crash, a reply that is not the protocol's) gets one line naming the request; the run goes on with
the next game, the engine restarted. Exit 0: no divergence; 1: divergences; 2: bad usage, or an
engine that cannot be run or fails every game; 130: interrupted by Ctrl-C or SIGTERM (what was
found so far is reported, each cause with its reproducer as found, and written to --out).

Examples:
  python scripts/diff_engine.py --engine "python docs/examples/engine_shim.py" --games 50
  python scripts/diff_engine.py --engine "python docs/examples/engine_shim.py --mutant mix-types" --out repro
  python scripts/diff_engine.py --engine docs.examples.engine_shim:factory --games 20 --json
  python scripts/diff_engine.py --engine "./my_shim" --readings --games 30
  python scripts/diff_engine.py --engine "./my_shim" --ignore H5 --ignore "T3 missing offer"
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from conformance.live.readings import STATES, judged_readings
from conformance.live.report import Found, Ranked, cause_name, print_report, summary
from console import cli


def _play(frame: cli.Frame, engine: Any, specs: list[Any], checks: Any, found: Found, desc: str,
          t0: float) -> None:
    from conformance.live.client import EngineFailure
    from conformance.live.diff import run_game

    bar = frame.progress(desc, total=len(specs), unit="games")
    for i, spec in enumerate(specs):
        if engine.proc is None:
            try:
                engine.open()
            except EngineFailure as e:
                found.failures.append(f"{spec.label()}: {e}")
                frame.say(f"{spec.label()}: {e}")
                continue
        run = run_game(engine, spec, checks())
        found.games += run.skipped is None
        found.positions += run.skipped is None and spec.position is not None
        found.steps += run.steps
        for part in run.unchecked:
            found.unchecked[part] += 1
        if run.skipped is not None:
            found.skipped.append(f"{spec.label()}: the engine does not play it: {run.skipped}")
            found.skipped_positions += spec.position is not None
            found.refused.add(spec.options)
        if run.failure is not None:
            found.failures.append(f"{spec.label()}, step {run.steps}: {run.failure}")
            frame.say(f"{spec.label()}, step {run.steps}: {run.failure}")
        for n in run.notes:
            found.notes[n.choice] += n.count
            found.first_note.setdefault(n.choice, n)
        for d in run.divergences:
            found.add(d, time.monotonic() - t0)
        for d in run.masked:
            found.mask(d)
        named = len(found.grouped())  # the causes so far (a later game may split or join them)
        causes = f"{named} cause{'' if named == 1 else 's'}"
        frame.kept = f"{causes} of divergence found in {found.games} of {len(specs)} games (reported above)"
        bar(i + 1, note=causes)


def _top_up(frame: cli.Frame, engine: Any, specs: list[Any], checks: Any, found: Found,
            args: argparse.Namespace, pairs: list[tuple[str, int]], fixed: tuple[tuple[str, Any], ...],
            t0: float) -> None:
    """More seeded games in place of those the engine does not play (a reading it refuses), so that
    ``--games N`` plays N seeded games where the engine plays any: the next games of the plan, less
    those with option values it refused once (E1 reshuffle, H4, E4 readings)."""
    from conformance.live.diff import VARIANTS, plan

    seeded = sum(1 for g in specs if g.position is None)
    played = seeded - (len(found.skipped) - found.skipped_positions)
    start, most = len(specs), 2 * seeded * len(VARIANTS)
    while 0 < played < args.games and start < most + len(specs):
        more = [g for g in plan(pairs, start + seeded, args.seed, positions=False, fixed=fixed)[start:]
                if g.options not in found.refused][:args.games - played]
        start += seeded
        if more:
            before = len(found.skipped)
            _play(frame, engine, more, checks, found, "more games", t0)
            played += len(more) - (len(found.skipped) - before)


def _reproducers(frame: cli.Frame, engine: Any, found: Found, args: argparse.Namespace,
                 checks: Any) -> None:
    from conformance.live.client import EngineFailure
    from conformance.live.shrink import check_reproducer, shrink

    named = found.grouped()  # a reproducer per cause named, none for its consequences
    bar = frame.progress("shrinking", total=len(named), unit="causes")
    for k, (key, d) in enumerate(sorted((c, found.first[c]) for c in named)):
        try:
            if engine.proc is None:
                engine.open()
            rep = shrink(engine, d, checks(), seconds=args.shrink_time)
        except EngineFailure as e:
            frame.say(f"shrinking {cause_name(key)}: {e}")
            rep = None
        if rep is not None:
            found.reproducers[key] = (rep, check_reproducer(rep))
        bar(k + 1)


def _write(found: Found, out: Path) -> None:
    from records.game import atomic_write_text

    for cause, (rep, _) in found.reproducers.items():
        stem = "-".join(x for x in cause if x)
        atomic_write_text(out / f"{stem}.jsonl", "".join(json.dumps(x) + "\n" for x in rep.lines))
        atomic_write_text(out / f"{stem}.position.json", json.dumps(rep.position, indent=1) + "\n")


def _run(frame: cli.Frame, args: argparse.Namespace) -> int:
    from conformance.live.client import Engine, EngineFailure
    from conformance.live.diff import Checks, claimed, plan
    from conformance.live.protocol import from_hello
    from model.errors import InputError

    out = cli.output_dir(args.out, args.force) if args.out else None
    engine = Engine(args.engine, timeout=args.timeout, start_timeout=args.timeout)
    try:
        hello = engine.open()
    except EngineFailure as e:
        frame.say(f"{args.engine}: {e}")
        return cli.BAD_INPUT
    try:
        protocol = from_hello(hello)
    except InputError as e:
        engine.close()
        frame.say(f"{args.engine}: {e}")
        return cli.BAD_INPUT
    pairs = claimed(hello)
    presets = {p for p, _ in pairs}
    specs = plan(pairs, args.games, args.seed, positions=not args.no_positions, claimed_presets=presets,
                 fixed=protocol.options)
    if not specs:
        frame.say(f"{args.engine}: the engine claims no preset and player count we know (hello: "
                  f"{hello.get('presets')})")
        return cli.BAD_INPUT

    def checks() -> Checks:
        return Checks(proposals_every=args.proposals_every, probes=not args.no_probes, protocol=protocol,
                      ignore=tuple(tuple(x.split()) for x in args.ignore), past=not args.first_only)

    found = Found()
    readings: Ranked = {}
    t0 = time.monotonic()
    try:
        _play(frame, engine, specs, checks, found, "games", t0)
        _top_up(frame, engine, specs, checks, found, args, pairs, protocol.options, t0)
        if found.first and not args.no_shrink:
            _reproducers(frame, engine, found, args, checks)
        if args.readings:
            readings = judged_readings(engine, [(f"game {g.index}", g.preset, g.players, g.seed, g.bot)
                                                for g in specs if g.position is None][:args.reading_games],
                                       protocol, args.readings_states,
                                       frame.progress("readings", total=args.readings_states, unit="states"))
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (cli.run): the partial report, a reproducer per cause
        frame.close()
        _keep(found)
        _report(found, hello, readings, args, protocol.summary())
        if out is not None:
            _write(found, out)
        frame.kept += f"; {len(found.reproducers)} reproducers unshrunk" if found.reproducers else ""
        raise
    finally:
        engine.close()
    code = _report(found, hello, readings, args, protocol.summary())
    if out is not None:
        _write(found, out)
    return code


def _keep(found: Found) -> None:
    """A reproducer, as found (not shrunk), for each cause an interrupt left without one."""
    from conformance.live.shrink import check_reproducer, unshrunk

    named = found.grouped()
    for key, d in sorted((c, found.first[c]) for c in named):
        if key not in found.reproducers:
            rep = unshrunk(d)
            found.reproducers[key] = (rep, check_reproducer(rep))


def _report(found: Found, hello: dict[str, Any], readings: Ranked,
            args: argparse.Namespace, declared: dict[str, Any]) -> int:
    info = summary(found, hello, readings, declared, args.ignore)
    if args.json:
        print(json.dumps(info), flush=True)
    else:
        print_report(info)
    if found.failures and len(found.failures) >= found.games:
        return cli.BAD_INPUT  # the engine failed every game it played: a broken engine
    return cli.NO if found.total else cli.OK


def _cause(text: str) -> str:
    """An --ignore value: a rule ID (``H5``, ``T3``), then optionally a kind and a pattern."""
    import re

    from conformance.live.diff import KINDS

    words = text.split()
    if not words or not re.fullmatch(r"[A-Z]\d*", words[0]) or len(words) > 3 or (
            len(words) > 1 and words[1] not in KINDS):
        raise argparse.ArgumentTypeError(f"{text!r} is not a cause: a rule ID (H5), optionally a kind "
                                         f"({', '.join(KINDS)}) and a pattern, as in 'T3 missing offer'")
    return " ".join(words)


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True, force=True)
    parser.add_argument("--engine", required=True, metavar="CMD",
                        help='the engine\'s shim: a command line ("python my_shim.py") or module:factory')
    parser.add_argument("--games", type=cli.at_least(0, "--games"), default=100, help="seeded games")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (decks, bots, reshuffles)")
    parser.add_argument("--timeout", type=cli.positive(float, "--timeout"), default=10.0, metavar="SECONDS",
                        help="the longest wait for one reply, the hello after each start too")
    parser.add_argument("--no-positions", action="store_true", help="leave out the perft positions")
    parser.add_argument("--no-probes", action="store_true", help="offer no illegal actions")
    parser.add_argument("--proposals-every", type=cli.at_least(0, "--proposals-every"), default=1,
                        metavar="TURNS", help="compare the trading proposals at every trading state of every "
                        "so many turns (0: never)")
    parser.add_argument("--no-shrink", action="store_true", help="report divergences unshrunk")
    parser.add_argument("--shrink-time", type=cli.positive(float, "--shrink-time"), default=30.0,
                        metavar="SECONDS", help="the longest shrinking of one cause of divergence")
    parser.add_argument("--readings", action="store_true",
                        help="also rank the documented readings by the states where the engine agrees with "
                        "each (judged at the same states, where the readings differ)")
    parser.add_argument("--reading-games", type=cli.at_least(1, "--reading-games"), default=20,
                        metavar="N", help="seeded games whose states judge the readings (each played by our "
                        "engine under every reading)")
    parser.add_argument("--readings-states", type=cli.at_least(1, "--readings-states"), default=STATES,
                        metavar="N", help="the most states where the readings differ at which the engine is "
                        f"started under each reading (about 4 engine calls a reading a state; "
                        f"default {STATES})")
    parser.add_argument("--ignore", action="append", default=[], type=_cause, metavar="CAUSE",
                        help='a known cause to go past (repeatable): a rule ID ("H5"), or a cause as the '
                        'report names it ("T3 missing offer"); counted as masked, the game goes on from '
                        'our state')
    parser.add_argument("--first-only", action="store_true",
                        help="end each game's comparison at its first state divergence or refused action "
                        "(by default the engine is started again at our state there, where it can be, and "
                        "the game goes on)")
    parser.add_argument("--out", metavar="DIR", help="write each shrunk record and position here")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    args = parser.parse_args(argv)
    return cli.run("diff_engine.py", args, lambda frame: _run(frame, args))


if __name__ == "__main__":
    cli.exit(main())
