"""What the bots do with ships (La Isla Bohnita, I1-I9): greedy sailing, selling, loading and raiding.

The greedy bot (``play/bots.py``) asks ``ISLA_BOTS.greedy`` first when the game has the expansion;
``None`` means "play as in the base game". Every move returned is one of ``legal``.
"""

from __future__ import annotations

from typing import Any

from model import Action, GameState, Harvest
from model.isla import HOME, Isla, Ship, isla_of, isla_setup
from model.isla.actions import PIRATE, Attack, BuyShip, HarvestOnto, MoveCargo, Sail, Sell, Yield
from play.hook import BotHooks

SELL_AT = 3  # a cargo that pays this many coins is sold at once
LOAD_AT = 2  # a ship sails out for a row holding at least this many cards of the front type


def _pays(s: GameState, ship: Ship) -> int:
    return s.setup.payout[ship.bean][ship.count] if ship.count else 0


def greedy_isla(s: GameState, legal: list[Action]) -> Action | None:
    """A greedy ship policy: save attacked cargo, sell rich cargo, raid, buy, sail for cargo."""
    isla = s.ext
    if not isinstance(isla, Isla):
        return None
    p = s.to_move
    if isla.attack is not None:  # I7: sell if it pays, else yield a card
        sells = [a for a in legal if isinstance(a, Sell)]
        return sells[0] if sells else Yield(p)
    fleet = isla.fleets[p]
    for a in legal:
        if isinstance(a, Sell) and _pays(s, fleet.ship(a.ship) or Ship(-1, 0)) >= SELL_AT:
            return a
    for a in legal:
        if isinstance(a, MoveCargo) and a.source == PIRATE:
            return a  # captured beans are worth more on a merchant ship, which can take a harvest
    coins = len(s.players[p].coins)
    for a in legal:
        if isinstance(a, BuyShip):
            costs = isla_setup(s.setup)
            cost = costs.pirate_cost if a.pirate else costs.ship_cost
            if coins >= cost + 3:
                return a
    attacks = [a for a in legal if isinstance(a, Attack)]
    if attacks:
        return max(attacks, key=lambda a: isla.fleets[a.target].merchants[a.ship].count)
    sails = [a for a in legal if isinstance(a, Sail)]
    if sails:
        choice = _greedy_sail(s, sails)
        if choice is not None:
            return choice
    return None


def _greedy_sail(s: GameState, sails: list[Sail]) -> Sail | None:
    """Sail an empty or matching ship to the row with the most cards it can load (all of them);
    bring a ship home from an island when there is nothing more to load."""
    isla = isla_of(s)
    assert isla is not None
    best: Sail | None = None
    for a in sails:
        if a.port != HOME and a.take >= LOAD_AT and (best is None or a.take > best.take):
            best = a
    if best is not None:
        return best
    for a in sails:
        if a.port == HOME:
            return a
    return None


def greedy_harvest(s: GameState, legal: list[Action], harvest: Harvest) -> Action:
    """Load a forced harvest onto a merchant ship of its type (or an empty one if it pays nothing)."""
    isla = isla_of(s) if s.ext is not None else None
    if isla is None:
        return harvest
    p = harvest.player
    field = s.players[p].fields[harvest.field]
    pays = s.setup.payout[field.bean][field.count]
    for a in legal:
        if isinstance(a, HarvestOnto) and a.field == harvest.field:
            ship = isla.fleets[p].merchants[a.ship]
            if ship.count or not pays:
                return a
    return harvest


class IslaBots(BotHooks):
    """La Isla Bohnita's part of the bots and of the simulator's counts: sales of ship cargo (I6),
    pirate attacks (I7) and the cards they took (the owner yielded)."""

    name = "isla"
    counted = ((Sell, "ship_sales"), (Attack, "raids"), (Yield, "captures"))

    def greedy(self, s: GameState, legal: list[Action]) -> Action | None:
        return greedy_isla(s, legal)

    def harvest(self, s: GameState, legal: list[Action], harvest: Harvest) -> Action:
        return greedy_harvest(s, legal, harvest)

    def summary(self, totals: dict[str, int], games: int) -> dict[str, Any]:
        return {**totals, "mean_ship_sales": round(totals["ship_sales"] / games, 3),
                "mean_raids": round(totals["raids"] / games, 3)}

    def describe(self, summary: dict[str, Any]) -> str | None:
        s = summary
        return (f"La Isla Bohnita: {s['ship_sales']} ship sales ({s['mean_ship_sales']:.2f} a game), "
                f"{s['raids']} pirate raids ({s['mean_raids']:.2f} a game), "
                f"{s['captures']} cards captured")


ISLA_BOTS = IslaBots()
