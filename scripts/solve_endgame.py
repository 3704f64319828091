"""Solve an open Bohnanza endgame: the optimal line and value for an objective.

POSITION is a state JSON file (as the engine writes it), `-` for stdin, or the name of a built-in
position (`--list`); without one, the built-in position `trade-gift`, where deals pay.

Objectives (DESIGN.md): solo P (no trades; P's coins), coop (all deals; everyone's coins), best P
(all deals; P's coins while every other seat keeps at least its own solo optimum).

Status of issue 4: the exact solver solves solo, coop and best; coop and best only on small
positions (it stops with an error past --node-limit). The CP-SAT solver and the duel and
expected objectives are not built yet, and asking for them is an error (exit 2).

Examples:
  python scripts/solve_endgame.py
  python scripts/solve_endgame.py rio4-pass --objective solo --json
  python scripts/solve_endgame.py --from-game 7 --players 4 --cards-left 20 --objective solo
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

OBJECTIVES = ("solo", "coop", "best", "duel", "expected")


class UsageError(Exception):
    """A bad argument: one line, exit 2."""


def _position(args: argparse.Namespace) -> tuple[Any, str]:
    from solvers.positions import DEFAULT, LIBRARY, cut, read_position

    if args.from_game is not None:
        if args.position is not None:
            raise UsageError("give a POSITION or --from-game, not both")
        if args.players is None or args.cards_left is None:
            raise UsageError("--from-game needs --players and --cards-left")
        return cut(args.ruleset, args.players, args.from_game, args.cards_left), (
            f"{args.ruleset} {args.players}p seed {args.from_game}, first turn with at most "
            f"{args.cards_left} cards left")
    name = args.position or DEFAULT
    if name in LIBRARY:
        return LIBRARY[name].position(), f"{name}: {LIBRARY[name].about}"
    if name != "-" and not Path(name).exists():
        raise UsageError(f"{name}: no such file or built-in position (see --list)")
    return read_position(name), name


def _list() -> int:
    from solvers.positions import DEFAULT, LIBRARY

    print(f"{'name':<14} {'players':>7} {'cards left':>10} {'hand cards':>10}  about")
    for e in LIBRARY.values():
        s = e.position()
        hands = sum(len(p.hand) for p in s.players)
        mark = " (default)" if e.name == DEFAULT else ""
        print(f"{e.name:<14} {len(s.players):>7} {len(s.draw):>10} {hands:>10}  {e.about}{mark}")
    return 0


def _line_text(s0: Any, line: list[Any]) -> list[str]:
    """The line turn by turn, each step with the coins it earns."""
    from model import Phase, apply, format_action
    from model.cards import BEAN_NAMES

    out: list[str] = []
    s = s0
    turn = None
    for a in line:
        if s.turn != turn:
            turn = s.turn
            out.append(f"turn {s.turn} (p{s.active} active):")
        before = [len(p.coins) for p in s.players]
        prev = s
        s = apply(s, a)
        after = [len(p.coins) for p in s.players]
        gains = ", ".join(f"p{q} +{y - x}" for q, (x, y) in enumerate(zip(before, after, strict=True))
                          if y != x)
        if s.phase == Phase.OVER:
            out.append(f"  {format_action(a)}")
            out.append("  game over, final harvest (E3)" + (f"   [{gains}]" if gains else ""))
            continue
        out.append(f"  {format_action(a)}" + (f"   [{gains}]" if gains else ""))
        if s.face_up and not prev.face_up and len(s.draw) < len(prev.draw):
            out.append(f"    turned up: {' '.join(BEAN_NAMES[b] for b in s.face_up)}")
        drawn = [(q, p.hand[len(prev.players[q].hand):]) for q, p in enumerate(s.players)
                 if len(p.hand) > len(prev.players[q].hand) and len(s.draw) < len(prev.draw)]
        for q, cards in drawn:
            out.append(f"    p{q} draws {' '.join(BEAN_NAMES[b] for b in cards)}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("position", nargs="?", metavar="POSITION|NAME")
    parser.add_argument("--objective", default="best", choices=OBJECTIVES)
    parser.add_argument("--player", type=int, help="the seat P (default: the player to move)")
    parser.add_argument("--solver", default="exact", choices=("exact", "cpsat", "both"))
    parser.add_argument("--node-limit", type=int, default=2_000_000,
                        help="exact search gives up past this many nodes (coop, best)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--list", action="store_true", help="list the built-in positions")
    parser.add_argument("--from-game", type=int, metavar="SEED", help="cut a position from a seeded game")
    parser.add_argument("--players", type=int)
    parser.add_argument("--cards-left", type=int)
    parser.add_argument("--ruleset", default="rio-grande")
    args = parser.parse_args(argv)
    if args.list:
        return _list()

    from model.display import describe
    from model.rules import RulesetError
    from solvers.exact import SolveError, solve_open, solve_solo
    from solvers.positions import PositionInputError

    try:
        if args.solver != "exact":
            raise UsageError(f"--solver {args.solver}: the CP-SAT solver is not built yet (issue 4); "
                             "use --solver exact")
        if args.objective in ("duel", "expected"):
            raise UsageError(f"--objective {args.objective}: not built yet (issue 4); use solo, coop or best")
        s, where = _position(args)
        if args.objective == "solo":
            sol = solve_solo(s, args.player)
        else:
            sol = solve_open(s, args.objective, args.player, args.node_limit)
    except (UsageError, PositionInputError, RulesetError, SolveError) as e:
        print(f"solve_endgame.py: {e}", file=sys.stderr)
        return 2

    from model import format_action

    stats = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in sol.stats.items()}
    if args.json:
        print(json.dumps({
            "position": where, "objective": sol.objective, "player": sol.player, "solver": "exact",
            "value": sol.value, "status": sol.status, "bound": sol.value,
            "line": [format_action(a) for a in sol.line], "per_player": sol.per_player, "stats": stats,
        }))
        return 0
    print(f"position: {where}")
    print(describe(s))
    what = {"solo": f"solo p{sol.player}: p{sol.player}'s coins, no trades",
            "coop": "coop: everyone's coins, all deals",
            "best": f"best p{sol.player}: p{sol.player}'s coins, all deals, every other seat at least "
                    f"its solo optimum {stats.get('floors')}"}[sol.objective]
    print(f"\nobjective: {what}")
    print(f"value: {sol.value} ({'proved optimal' if sol.status == 'optimal' else sol.status}, exact search, "
          f"{stats['nodes']} nodes, {stats['seconds']} s)")
    print("final coins: " + ", ".join(f"p{q} {c}" for q, c in enumerate(sol.per_player)))
    print("\nline:")
    for text in _line_text(s, sol.line):
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
