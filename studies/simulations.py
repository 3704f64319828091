"""A simulation task: bots play a batch of whole games (play.playout.play_games), one seed each.

Per game the result keeps what the report needs and nothing that depends on the machine: the
seed, final coins, winners (E4), turns, and every executed deal (T3) as the beans each side gave,
from which the trade network of the games is rebuilt (studies/trade_network.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from model import Accept, GameState
from model.cards import BEAN_NAMES
from model.rules import ruleset
from play.bots import BOTS
from play.playout import play_games
from studies.trade_network import deal_at


def run_simulation(params: dict[str, Any]) -> dict[str, Any]:
    """The games of one simulation task: ``{"games": [per game: game, seed, coins, winners, turns,
    deals]}``; a deal is ``[active, partner, beans the active player gave, beans the partner gave]``."""
    rules = ruleset(params["ruleset"], dict(params["options"]))
    n = params["players"]
    bots = [BOTS[b] for b in params["bots"]]
    games = []
    deals: list[list[Any]] = []  # the deals of the game being played
    played = play_games(rules, n, params["seeds"], bots, on_accept=_recorder(deals))
    for g, (result, _, _, _) in zip(params["games"], played, strict=True):
        games.append({"game": g, "seed": result.seed, "coins": list(result.coins),
                      "winners": list(result.winners), "turns": result.turns, "deals": deals[:]})
        deals.clear()
    return {"games": games}


def _recorder(out: list[list[Any]]) -> Callable[[GameState, Accept], None]:
    """Each deal as it is accepted (no replay of the game afterwards)."""
    def record(before: GameState, accept: Accept) -> None:
        d = deal_at(before, accept)
        out.append([d.active, d.partner, [BEAN_NAMES[b] for b in d.active_gave],
                    [BEAN_NAMES[b] for b in d.partner_gave]])
    return record
