"""Solve an open Bohnanza endgame: the optimal line and value for an objective.

POSITION is a state JSON file (as the engine writes it), `-` for stdin, or the name of a built-in
position (`--list`); without one, the built-in position `rio4-last-turn` (4 players, real hands, the
last turn: `best p1` by the flow solver, with the deals that pay). --from-game cuts one from a seeded
game, with --ruleset and --option as scripts/simulate.py takes them.

La Isla Bohnita positions (--option isla=true, the `isla-` built-ins; I1-I9) are read, validated and
cut (--position-only prints one, or its state JSON with --json) and solved by what the solver
registry holds for the expansion: `solo` by exact search (the other seats play the default policy,
whose pirates attack) or `--solver cpsat`, its CP-SAT model; `coop` and `best` by exact search (past
a limit the best line found, feasible, with its proved bound); the Isla duel's `duel` by exact
search. Any other solver is refused in one line (exit 2).

Objectives (docs/endgames.md): solo P (no trades; P's coins), coop (all deals; everyone's coins), best P
(all deals; P's coins while every other seat keeps at least its own solo optimum), duel (the bean
duel, minimax on P's coin margin), expected (solo P with the unseen cards in a random order: the
expected value and the best next action, not a line; per_player is null in --json).

Solvers: exact search (all objectives; coop, best, duel and expected only on small positions: past
--node-limit or --time-limit coop and best print the best line found so far (status "feasible",
the position's proved bound and the gap; exit 0, or 1 with --require-proved), and without one, or
with --solver both, it stops with "too large", exit 2; on Ctrl-C they print that line too, exit
130) and CP-SAT (solo, coop, best, from the start of a turn; coop and best by the flow solver: a counts
master that proves the bound, exact seat models, a joint model; docs/endgames.md). CP-SAT stops at
--time-limit with its best replayed line so far (status "feasible", with its proved bound and the
gap; exit 0, or 1 with --require-proved); on Ctrl-C it prints that line too and exits 130.
--solver cpsat-cards is the older card-by-card CP-SAT model of coop and best. --solver both runs
exact search and CP-SAT and exits 1 if they disagree.

Examples:
  python scripts/solve_endgame.py
  python scripts/solve_endgame.py rio4-final-pass --objective solo --solver both
  python scripts/solve_endgame.py --from-game 7 --players 4 --cards-left 20 --objective solo
  python scripts/solve_endgame.py rio3-6cards --objective coop --solver cpsat --time-limit 20 --workers 2
  python scripts/solve_endgame.py duel-9cards --objective duel
  python scripts/solve_endgame.py --html line.html    # the line as a page (scripts/show.py)
  python scripts/solve_endgame.py --from-game 3 --players 4 --cards-left 10 --option isla=true \
      --position-only --json > isla.json               # then: scripts/show.py isla.json --out isla.html
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from console import cli
from model import format_action
from model.display import describe
from model.errors import UsageError
from model.rules import parse_option_args
from solvers.api import METHODS, default_method, methods, served, solve, solve_policy
from solvers.contract import DEFAULT_LIMITS, DEFAULT_NODES, DEFAULT_SECONDS, OBJECTIVES, Limits, Status
from solvers.positions import BUILTINS, DEFAULT, cut, game_label, read_position, unknown_position
from viewer.build import line_page
from viewer.page import write


def _position(args: argparse.Namespace, frame: cli.Frame) -> tuple[Any, str]:
    """The position and its name; a ``--cards-left`` above the deck gets a note on stderr."""
    if args.from_game is not None:
        if args.position is not None:
            raise UsageError("give a POSITION or --from-game, not both")
        if args.players is None or args.cards_left is None:
            raise UsageError("--from-game needs --players and --cards-left")
        options = parse_option_args(args.option)
        game = game_label(args.ruleset, args.players, args.from_game, options)
        s = cut(args.ruleset, args.players, args.from_game, args.cards_left, options)
        if args.cards_left > len(s.setup.deck):
            frame.say(f"--cards-left {args.cards_left} is more than the {len(s.setup.deck)} cards of the "
                      f"deck ({game}): cut at the first turn of the final pass, {len(s.draw)} cards left")
        return s, f"{game}, the first turn of the final pass with at most {args.cards_left} cards left"
    if args.option:
        raise UsageError("--option sets the rules of the --from-game game; a position carries its own")
    name = args.position or DEFAULT
    if name in BUILTINS:
        return BUILTINS[name].position(), f"{name}: {BUILTINS[name].about}"
    if name != "-" and not Path(name).exists():
        raise UsageError(unknown_position(name))
    return read_position(name), name


def _mark(x: str, duel: bool) -> str:
    """--list: what solves an expansion's built-in (``[Isla: ...]``; the duel's own, ``[Isla duel: ...]``)."""
    return f"[{x.capitalize()}{' duel' if duel else ''}: {served(x, duel=duel)} only] " if x else ""


def _list() -> int:
    width = max(map(len, BUILTINS))
    print(f"{'name':<{width}} {'players':>7} {'cards left':>10} {'hand cards':>10}  about")
    for e in BUILTINS.values():
        s = e.position()
        hands = sum(len(p.hand) for p in s.players)
        about = _mark(e.expansion, s.setup.duel) + e.about + (" (default)" if e.name == DEFAULT else "")
        print(f"{e.name:<{width}} {len(s.players):>7} {len(s.draw):>10} {hands:>10}  {about}")
    return 0


def _print_position(args: argparse.Namespace, where: str, s: Any) -> int:
    """--position-only: the position checked and printed, not solved (text, or its state JSON)."""
    if args.json:
        print(json.dumps(s.to_json()))
    else:
        print(f"position: {where}\n{describe(s)}")
    return 0


def _print_expected(args: argparse.Namespace, where: str, s: Any, ans: Any) -> int:
    """``expected``: a policy, not a line: the value, the best next action, every choice's value."""
    stats = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in ans.stats.items()}
    best = format_action(ans.best) if ans.best is not None else None
    if args.json:
        print(json.dumps({
            "position": where, "objective": args.objective, "player": ans.player, "solver": "exact",
            "value": float(ans.value), "value_exact": str(ans.value), "status": Status.OPTIMAL.value,
            "bound": float(ans.value), "line": [best] if best else [], "best": best,
            "actions": {format_action(a): float(v) for a, v in ans.actions},
            "open_average": float(ans.open_average), "information_value": float(ans.information_value),
            "arrangements": ans.arrangements, "per_player": None, "stats": stats,
        }))
        return 0
    print(f"position: {where}\n{describe(s)}")
    p = ans.player
    print(f"\nobjective: expected solo p{p}: p{p}'s expected coins, no trades, the unseen cards "
          "(draw pile and other hands) in a uniformly random order")
    print(f"value: {float(ans.value):.4f} = {ans.value} (proved optimal; exact expectimax, "
          f"{stats.get('nodes')} nodes, {stats.get('seconds')} s)")
    print(f"open optimum averaged over the {ans.arrangements} arrangements: {float(ans.open_average):.4f}; "
          f"value of information {float(ans.information_value):.4f}")
    if best is None:
        print("best next action: none to choose now (see the docstring of solvers/expected.py)")
    else:
        print(f"best next action: {best}")
        for a, v in sorted(ans.actions, key=lambda av: -av[1]):
            print(f"  {format_action(a):<24} {float(v):.4f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True)
    parser.add_argument("position", nargs="?", metavar="POSITION|NAME",
                        help="a state JSON file, - (stdin) or a built-in position (default: the built-in "
                             "default, see --list)")
    parser.add_argument("--objective", default="best",
                        choices=[o.name for o in OBJECTIVES.values() if methods(o)],
                        help="what to optimise")
    parser.add_argument("--player", type=int, help="the seat P (default: the player to move)")
    parser.add_argument("--solver", default=None, choices=(*METHODS, "both"),
                        help="default: cpsat for coop and best, exact search otherwise")
    parser.add_argument("--node-limit", type=cli.at_least(1, "--node-limit"), default=DEFAULT_NODES,
                        help="exact search gives up past this many nodes (coop, best, duel, expected)")
    parser.add_argument("--time-limit", type=cli.positive(float, "--time-limit"), default=DEFAULT_SECONDS,
                        help="seconds: CP-SAT stops with its best line so far; exact search stops with "
                             "\"too large\"")
    parser.add_argument("--work-limit", type=cli.positive(float, "--work-limit"), default=None,
                        help="coop and best (flow solver), Isla solo (CP-SAT): CP-SAT deterministic "
                             "work for the run; "
                             "with --workers 1 the answer is the same on any machine as long as "
                             "--time-limit does not bind first (the output says which limit stopped)")
    parser.add_argument("--workers", type=cli.at_least(1, "--workers"), default=DEFAULT_LIMITS.workers,
                        help="CP-SAT workers (1: deterministic)")
    parser.add_argument("--require-proved", action="store_true",
                        help="exit 1 when a limit stopped the solve before it proved its line optimal")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--list", action="store_true", help="list the built-in positions")
    parser.add_argument("--from-game", type=int, metavar="SEED", help="cut a position from a seeded game")
    parser.add_argument("--players", type=int, help="--from-game: players in the game")
    parser.add_argument("--cards-left", type=cli.at_least(0, "--cards-left"),
                        help="--from-game: cut at the first turn with at most this many cards left")
    parser.add_argument("--ruleset", default="rio-grande", help="--from-game: the ruleset played")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="--from-game: a ruleset option of the game, as scripts/simulate.py takes it, "
                             "e.g. isla=true (La Isla Bohnita), reshuffle=on-demand (repeatable)")
    parser.add_argument("--position-only", action="store_true",
                        help="print the position (with --json its state JSON) and stop: no solve")
    parser.add_argument("--html", metavar="PAGE", help="also write the line as a self-contained page "
                        "(scripts/show.py: step by step, coins per step, deals)")
    parser.add_argument("--force", action="store_true", help="overwrite the --html page if it exists")
    args = parser.parse_args(argv)
    return cli.run("solve_endgame.py", args, lambda frame: _solve(frame, args))


def _solve(frame: cli.Frame, args: argparse.Namespace) -> int:
    if args.list:
        return _list()
    if args.position_only:
        if args.html:
            raise UsageError("--html draws a solved line; --position-only solves nothing: draw the position "
                             "with scripts/show.py")
        s, where = _position(args, frame)
        return _print_position(args, where, s)

    frame.kept = "nothing: no line yet (each solver prints its best line so far once it has one)"
    objective = OBJECTIVES[args.objective]
    have = methods(objective)
    cli.output_file(args.html, args.force)  # refused before the work, not after it
    s, where = _position(args, frame)  # its note (if any) before the progress display
    progress = frame.progress("solving")  # nodes (exact search) or seconds (CP-SAT), with a note
    if args.solver is None:
        args.solver = default_method(objective, s.setup.expansion)
    wanted = ["exact", "cpsat"] if args.solver == "both" else [args.solver]
    for m in wanted:
        if m not in have:
            raise UsageError(f"--objective {objective.name} has no {m} solver (it is solved by "
                             f"{' and '.join(have)} only): use --solver {have[0]}")
    if args.html and objective.policy:
        raise UsageError(f"--html draws a line; --objective {objective.name} gives a policy, not a line")
    limits = Limits(time=args.time_limit, nodes=args.node_limit, workers=args.workers, work=args.work_limit)
    if objective.policy:
        ans = solve_policy(s, objective, args.solver, args.player, limits, progress)
        progress.close()
        return _print_expected(args, where, s, ans)
    alone = len(wanted) == 1  # with one solver, an exact search past a limit prints its best line
    sols = [("exact" if m == "exact" else "cpsat", solve(s, objective, m, args.player, limits, progress,
                                                         anytime=alone)) for m in wanted]
    progress.close()
    agree = sols[0][1].value == sols[1][1].value if len(sols) == 2 else None
    solver_name, sol = sols[-1] if args.solver != "exact" else sols[0]

    bound = sol.bound  # the one proved bound (an optimal run's is its value): the stats say the same
    stats = {k: bound if k == "bound" else round(v, 3) if isinstance(v, float) else v
             for k, v in sol.stats.as_dict().items()}
    out = {
        "position": where, "objective": sol.objective.name, "player": sol.player, "solver": args.solver,
        "value": sol.value, "status": sol.status, "bound": bound,
        "line": [format_action(a) for a in sol.line], "per_player": sol.per_player, "stats": stats,
        "state": s.to_json(),
    }
    if agree is not None:
        out["agree"] = agree
        out["values"] = {name: x.value for name, x in sols}
    page = _html(args.html, out, s, where)
    if args.json:
        print(json.dumps(out))
        return _exit(frame, sols, agree, args.require_proved)
    print(f"position: {where}")
    print(describe(s))
    what = sol.objective.title.format(p=sol.player, floors=sol.stats.floors)
    print(f"\nobjective: {what}")
    for name, x in sols:
        print(_value_line(name, x))
    if agree is not None:
        print("the two solvers agree" if agree else "THE SOLVERS DISAGREE")
    print("final coins: " + ", ".join(f"p{q} {c}" for q, c in enumerate(sol.per_player)))
    print("\nline:")
    from solvers.endgame import line_text

    print(line_text(s, sol.line))
    if page:
        print(page)
    return _exit(frame, sols, agree, args.require_proved)


def _value_line(name: str, x: Any) -> str:
    """One solver's answer: its value, proved or how far it got, how it searched and how long."""
    xs = x.stats
    how = f"exact search, {xs.nodes} nodes" if name == "exact" else f"CP-SAT, {xs.branches} branches"
    if name != "exact" and xs.kind == "flow":
        st = xs.stages
        how = (f"CP-SAT flow solver, {st['rounds']} master rounds, {st['seat_problems']} seat "
               f"problems ({st['seats_exact']} solved exactly), work {xs.work:g}")
    stopped = (f" (stopped by the {xs.stopped_by.rstrip('s')} limit)"
               if xs.stopped_by in ("time", "work", "nodes") else " (interrupted)" if xs.interrupted else "")
    if x.status == Status.OPTIMAL:
        status = "proved optimal"
    elif xs.bound is None:
        status = f"feasible{stopped}, no bound proved"
    else:
        status = f"feasible{stopped}, proved bound {xs.bound:g}, gap {xs.bound - x.value:g}"
    return f"value: {x.value} ({status}; {how}, {xs.seconds:.3f} s)"


def _html(path: str | None, out: dict[str, Any], s: Any, where: str) -> str:
    """--html: the line as a page (as scripts/show.py draws it); what to say about it ('' without it)."""
    if path is None:
        return ""
    page = line_page(out, s, where, None)
    size = write(page, path)
    return f"page written to {path} ({page.count()}, {size / 1024:.0f} KB)"


def _exit(frame: cli.Frame, sols: list[tuple[str, Any]], agree: bool | None, proved: bool = False) -> int:
    """130 when Ctrl-C stopped a search (its best line so far is printed), 1 when the two solvers
    disagree or, with ``proved`` (--require-proved), when a line is not proved optimal, else 0."""
    if any(x.stats.interrupted for _, x in sols):
        frame.say("interrupted; the best line found so far is printed above (feasible, not proved)")
        return cli.INTERRUPTED
    unproved = [name for name, x in sols if x.status != Status.OPTIMAL]
    if proved and unproved:
        frame.say(f"not proved optimal ({', '.join(unproved)}): a limit stopped the solve; "
                  "the line printed is the best found (--require-proved)")
        return cli.NO
    return 0 if agree is not False else 1


if __name__ == "__main__":
    cli.exit(main())
