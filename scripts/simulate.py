"""Play many games with bots and report coins, game length, deals and winners per seat.

Example:
  python scripts/simulate.py --players 4 --games 600 --seed 1 --ruleset amigo --bots random --json
  python scripts/simulate.py --players 5 --games 50 --seed 7 --bots greedy --record out/games
  python scripts/simulate.py --players 4 --games 50 --seed 1 --option isla=true --bots greedy
  python scripts/simulate.py --players 4 --games 50 --seed 1 --option reshuffle=on-demand  # E1 reading

--record DIR is checked before the first game: an existing record file there is refused unless
--force. Ctrl-C stops with exit 130 and prints the statistics of the games finished, marked
partial (with --json: "partial": true, "games" finished of "games_asked"); the records written so
far are whole (written atomically).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from console import cli
from model.errors import UsageError

if TYPE_CHECKING:
    from play.hook import BotHooks


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__, progress=True, force=True)
    parser.add_argument("--players", type=int, default=4, help="2 (the bean duel) to 7")
    parser.add_argument("--games", type=cli.at_least(0, "--games"), default=100, help="games to play")
    parser.add_argument("--seed", type=int, default=0, help="the seed every game's seed derives from")
    parser.add_argument("--ruleset", default="rio-grande",
                        help="rio-grande (default), amigo, amigo-1997, amigo-v1, amigo-v2")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="override a ruleset option, e.g. tie_break=seat, quick=true, "
                        "reshuffle=on-demand (repeatable)")
    parser.add_argument("--bots", default="random",
                        help="one bot for every seat, or one per seat separated by commas: "
                             "random, random-trader, greedy")
    parser.add_argument("--record", metavar="DIR", help="write one game record (JSON Lines) per game")
    parser.add_argument("--json", action="store_true", help="print one JSON object, no progress bar")
    args = parser.parse_args(argv)
    return cli.run("simulate.py", args, lambda frame: _simulate(frame, args))


def _simulate(frame: cli.Frame, args: argparse.Namespace) -> int:
    from model.rules import parse_option_args, ruleset, setup
    from play.bots import BOTS

    rules = ruleset(args.ruleset, parse_option_args(args.option))
    setup(rules, args.players)
    names = [b.strip() for b in args.bots.split(",")]
    if len(names) == 1:
        names = names * args.players
    unknown = [b for b in names if b not in BOTS]
    if unknown or len(names) != args.players:
        why = (f"unknown bot {unknown[0]!r}; bots are {', '.join(BOTS)}" if unknown
               else f"--bots names {len(names)} bots for {args.players} players")
        raise UsageError(why)
    bots = [BOTS[b] for b in names]

    from play.playout import game_seed, play_games

    record_dir = None
    if args.record:  # checked before the first game: a file, a clash or a read-only place is refused
        record_dir = cli.output_dir(args.record, args.force, [_record_name(g) for g in range(args.games)])
    bar = frame.progress("games", total=args.games, unit="games")
    results: list[Any] = []
    seeds = (game_seed(args.seed, g) for g in range(args.games))
    try:
        for g, (result, s0, final, actions) in enumerate(play_games(rules, args.players, seeds, bots)):
            seed = result.seed
            results.append(result)
            if record_dir is not None:
                from records.game import header, write_record

                head = header(s0, names, seed=seed, game=g)
                write_record(record_dir / _record_name(g), head, actions, final)
                frame.kept = f"the records of games 0-{g} are in {record_dir}, each whole"
            bar(g + 1)
    except KeyboardInterrupt:  # Ctrl-C: the statistics of the games finished, marked partial, then 130
        frame.close()
        _report(args, rules, names, results, partial=True)
        done = f"the statistics of the {len(results)} games finished are printed (partial)"
        frame.kept = f"{done}; {frame.kept}" if frame.kept else done
        raise
    _report(args, rules, names, results)
    return 0


def _report(args: argparse.Namespace, rules: Any, names: list[str], results: list[Any],
            partial: bool = False) -> None:
    """The statistics of ``results`` on stdout (one JSON object with --json); ``partial``: the run
    was interrupted, and says how many of the games asked for finished."""
    from play.expansions import bot_hooks
    x = bot_hooks(rules.expansion)
    summary = _summary(results, args.players, x)
    if args.json:
        out: dict[str, Any] = {
            "games": len(results) if partial else args.games, "players": args.players,
            "ruleset": rules.name, "options": rules.options(), "seed": args.seed, "bots": names,
            "results": [_game_json(g, r) for g, r in enumerate(results)],
            "summary": summary,
        }
        if partial:
            out.update(partial=True, games_asked=args.games)
        print(json.dumps(out, separators=(",", ":")), flush=True)
    else:
        finished = len(results) if partial else None
        _print_summary(summary, args, rules.name, names, finished, x.describe(summary))


def _record_name(game: int) -> str:
    return f"game-{game:05d}.jsonl"


def _game_json(g: int, r: Any) -> dict[str, Any]:
    out = {"game": g, "seed": r.seed, "coins": list(r.coins), "winners": list(r.winners),
           "turns": r.turns, "actions": r.actions, "deals": r.deals, "reshuffles": r.reshuffles}
    out.update(r.counts)  # the expansion's counted actions (La Isla Bohnita: sales, raids, captures)
    return out


def _summary(results: list[Any], players: int, x: BotHooks) -> dict[str, Any]:
    n = max(len(results), 1)
    wins = [0.0] * players
    for r in results:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    totals = {key: sum(dict(r.counts)[key] for r in results) for _, key in x.counted}
    extra: dict[str, Any] = x.summary(totals, n)
    return extra | {
        "mean_coins": [round(sum(r.coins[p] for r in results) / n, 3) for p in range(players)],
        "mean_turns": round(sum(r.turns for r in results) / n, 3),
        "mean_actions": round(sum(r.actions for r in results) / n, 3),
        "mean_deals": round(sum(r.deals for r in results) / n, 3),
        "wins": [round(w, 3) for w in wins],
        "win_share": [round(w / n, 4) for w in wins],
    }


def _print_summary(s: dict[str, Any], args: argparse.Namespace, name: str, bots: list[str],
                   finished: int | None = None, expansion: str | None = None) -> None:
    """The summary as text; ``expansion``: the expansion's line (``BotHooks.describe``), if any."""
    games = (f"{args.games} games" if finished is None
             else f"partial (interrupted): the {finished} of {args.games} games finished")
    print(f"{games}, {name}, {args.players} players, seed {args.seed}, bots {','.join(bots)}")
    print(f"game length: {s['mean_turns']:.1f} turns, {s['mean_actions']:.1f} actions; "
          f"deals per game: {s['mean_deals']:.2f}")
    if expansion is not None:
        print(expansion)
    print("seat  mean coins  wins (ties shared)  win share")
    for p in range(args.players):
        print(f"p{p:<4}{s['mean_coins'][p]:>10.2f}{s['wins'][p]:>20.1f}{s['win_share'][p]:>11.1%}")


if __name__ == "__main__":
    cli.exit(main())
