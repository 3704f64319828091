"""A simulation task: bots play a batch of whole games (play.playout.play_game), one seed each.

Per game the result keeps what the report needs and nothing that depends on the machine: the
seed, final coins, winners (E4), turns, and every executed deal (T3) as the beans each side gave,
from which the trade network of the games is rebuilt (solvers/trade_network.py).
"""

from __future__ import annotations

from typing import Any

from model.cards import BEAN_NAMES
from model.rules import ruleset
from play.bots import BOTS
from play.playout import play_game
from solvers.trade_network import deals_in_game


def run_simulation(params: dict[str, Any]) -> dict[str, Any]:
    """The games of one simulation task: ``{"games": [per game: game, seed, coins, winners, turns,
    deals]}``; a deal is ``[active, partner, beans the active player gave, beans the partner gave]``."""
    rules = ruleset(params["ruleset"], dict(params["options"]))
    n = params["players"]
    bots = [BOTS[b] for b in params["bots"]]
    games = []
    for g, seed in zip(params["games"], params["seeds"], strict=True):
        result, s0, _, actions = play_game(rules, n, seed, bots)
        deals = [[d.active, d.partner, [BEAN_NAMES[b] for b in d.active_gave],
                  [BEAN_NAMES[b] for b in d.partner_gave]] for d in deals_in_game(s0, actions, check=False)]
        games.append({"game": g, "seed": seed, "coins": list(result.coins), "winners": list(result.winners),
                      "turns": result.turns, "deals": deals})
    return {"games": games}
