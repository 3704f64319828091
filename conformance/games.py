"""The legal game records: seeded games of the bots, cut where each case needs, with their results."""

from __future__ import annotations

import json
from typing import Any

from conformance.expansions import EXPANSION_GAMES
from conformance.kinds import Game, GameSpec
from model import GameState, Phase, apply, winners
from play.bots import BOTS
from play.playout import play_game
from records.game import action_line, header

# ---------------------------------------------------------------- game records


def _stop_at_pending(s: GameState) -> bool:
    return s.phase == Phase.TRADE and s.pending is not None and s.turn >= 3


def _stop_at_chance(s: GameState) -> bool:
    return s.phase == Phase.CHANCE


LEGAL: list[GameSpec] = [
    GameSpec("rio-grande-2p-duel", "the bean duel (D1-D2), greedy bots", "rio-grande", 2, 101, "greedy"),
    GameSpec("rio-grande-3p", "rio-grande, 3 players (three fields, ends at the 2nd exhaustion), greedy "
             "bots", "rio-grande", 3, 102, "greedy"),
    GameSpec("rio-grande-4p", "rio-grande, 4 players, greedy bots (gifts and deals, two reshuffles)",
             "rio-grande", 4, 103, "greedy"),
    GameSpec("rio-grande-5p", "rio-grande, 5 players, random proposals", "rio-grande", 5, 104,
             "random-trader"),
    GameSpec("rio-grande-6p", "rio-grande, 6 players (hands 3-6, draw 4)", "rio-grande", 6, 105, "greedy"),
    GameSpec("rio-grande-7p", "rio-grande, 7 players, random bots", "rio-grande", 7, 106, "random"),
    GameSpec("amigo-3p", "amigo, 3 players, greedy bots", "amigo", 3, 111, "greedy"),
    GameSpec("amigo-4p", "amigo, 4 players, random proposals", "amigo", 4, 112, "random-trader"),
    GameSpec("amigo-5p", "amigo, 5 players, greedy bots", "amigo", 5, 113, "greedy"),
    GameSpec("amigo-1997-3p", "amigo-1997, 3 players (two fields, a third to buy)", "amigo-1997", 3, 121,
             "random"),
    GameSpec("amigo-1997-4p", "amigo-1997, 4 players, greedy bots", "amigo-1997", 4, 122, "greedy"),
    GameSpec("amigo-1997-5p", "amigo-1997, 5 players, random bots", "amigo-1997", 5, 123, "random"),
    GameSpec("amigo-v1-3p", "amigo-v1 (V4), 3 players, greedy bots", "amigo-v1", 3, 131, "greedy"),
    GameSpec("amigo-v1-4p", "amigo-v1 (V4), 4 players, random bots", "amigo-v1", 4, 132, "random"),
    GameSpec("amigo-v1-5p", "amigo-v1 (V4), 5 players, random proposals", "amigo-v1", 5, 133,
             "random-trader"),
    GameSpec("amigo-v2-4p", "amigo-v2 (V5, field beans), 4 players, greedy bots", "amigo-v2", 4, 141,
             "greedy"),
    GameSpec("amigo-v2-5p", "amigo-v2 (V5), 5 players, random bots", "amigo-v2", 5, 142, "random"),
    GameSpec("rio-grande-4p-strict", "rio-grande, 4 players, harvest=strict (H4), random bots",
             "rio-grande", 4, 151, "random", (("harvest", "strict"),)),
    GameSpec("rio-grande-4p-distinct", "rio-grande, 4 players, distinct_fields (V2), random bots",
             "rio-grande", 4, 152, "random", (("distinct_fields", True),)),
    GameSpec("rio-grande-3p-quick", "rio-grande, 3 players, quick (V1: ends at the first exhaustion)",
             "rio-grande", 3, 153, "greedy", (("quick", True),)),
    GameSpec("rio-grande-4p-one-offer", "rio-grande, 4 players, max_offers=1, random proposals",
             "rio-grande", 4, 154, "random-trader", (("max_offers", 1),)),
    GameSpec("rio-grande-4p-seat-tie-break", "rio-grande, 4 players, tie_break=seat (E4), greedy bots",
             "rio-grande", 4, 155, "greedy", (("tie_break", "seat"),)),
    GameSpec("rio-grande-4p-hand-tie-break", "rio-grande, 4 players, tie_break=hand (E4, the default): two "
             "seats tie on coins, the one with more cards in hand wins", "rio-grande", 4, 172, "greedy"),
    GameSpec("rio-grande-4p-on-demand", "rio-grande, 4 players, reshuffle=on-demand (E1): each pile runs "
             "out at the end of a draw and is reshuffled at the next turn-up, with the cards discarded "
             "in between; greedy bots", "rio-grande", 4, 182, "greedy", (("reshuffle", "on-demand"),)),
    GameSpec("rio-grande-5p-stopped-pending", "rio-grande, 5 players, stopped while an offer is pending "
             "(a game in progress)", "rio-grande", 5, 171, "random-trader", stop=_stop_at_pending),
    GameSpec("amigo-4p-stopped-reshuffle", "amigo, 4 players, stopped where a reshuffle is due (E1; a "
             "game in progress)", "amigo", 4, 172, "greedy", stop=_stop_at_chance),
    *EXPANSION_GAMES,
]
GAMES = {g.name: g for g in LEGAL}


_PLAYED: dict[str, Game] = {}


def played(name: str) -> Game:
    """The game of the legal record ``name`` (played once, then kept)."""
    if name not in _PLAYED:
        spec = GAMES[name]
        n = spec.players
        bots = [BOTS[spec.bot]] * n
        _, s0, final, actions = play_game(spec.rules(), n, spec.seed, bots)
        states = [s0]
        for a in actions:
            states.append(apply(states[-1], a, False))
        assert states[-1] == final
        if spec.stop is not None:
            k = next(i for i, s in enumerate(states) if spec.stop(s))
            actions, states = actions[:k], states[:k + 1]
        head = header(s0, [spec.bot] * n, seed=spec.seed, about=spec.about)
        lines = [head] + [action_line(a) for a in actions]
        end = states[-1]
        if end.phase == Phase.OVER:
            lines.append({"end": {"coins": list(end.coins()), "winners": list(winners(end))}})
        _PLAYED[name] = Game(spec, lines, list(actions), states)
    return _PLAYED[name]


def jsonl(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines)


def legal_expect(game: Game) -> dict[str, Any]:
    end = game.final
    out: dict[str, Any] = {"status": "legal", "over": end.phase == Phase.OVER,
                           "steps": len(game.actions), "coins": list(end.coins())}
    if end.phase == Phase.OVER:
        out["winners"] = list(winners(end))
    out["about"] = game.spec.about
    return out
