"""La Isla Bohnita's actions and their notation (I1-I9), read by ``model.actions.parse_action``
through ``ISLA.notation`` (ships ``m0``, ``m1`` and ``pirate``, ports ``home``, ``bohnbay``,
``bohnaco``):

    p0 sail m0 bohnbay 2          sail merchant ship 0 to Bohnbay, loading 2 cards of the front type (I4)
    p0 sail m1 home               sail merchant ship 1 back to its harbour (I4)
    p1 harvest 0 onto m1          harvest field 0 onto merchant ship 1 instead of selling it (I5)
    p1 sell m0 / p1 sell pirate   sell a ship's whole cargo (I6)
    p1 move pirate m0             move a whole cargo between one's own ships (I6)
    p0 attack p2 m1               the pirate ship attacks p2's merchant ship 1 (I7)
    p2 yield                      the attacked player lets one card go instead of selling (I7)
    p0 buy ship / p0 buy pirate   buy the second merchant ship / the pirate ship (I1)
"""

from __future__ import annotations

from dataclasses import dataclass

from model.actions import Action, ExpansionAction, FieldHarvest, NotationError, clip, parse_number, parse_seat

SHIP_NAMES = ("m0", "m1", "pirate")  # ship numbers 0, 1: merchant ships; 2: the pirate ship
PIRATE = 2
PORT_NAMES = ("home", "bohnbay", "bohnaco")  # 0: the owner's harbour; 1, 2: the island ports


def ship_name(i: int) -> str:
    return SHIP_NAMES[i] if 0 <= i < len(SHIP_NAMES) else f"ship{i}"


def port_name(i: int) -> str:
    return PORT_NAMES[i] if 0 <= i < len(PORT_NAMES) else f"port{i}"


@dataclass(frozen=True, slots=True)
class Sail(ExpansionAction):
    """Sail merchant ship ``ship`` to ``port``, loading ``take`` cards of the row's front type (I4)."""

    player: int
    ship: int
    port: int
    take: int = 0

    def __str__(self) -> str:
        text = f"p{self.player} sail {ship_name(self.ship)} {port_name(self.port)}"
        return text + (f" {self.take}" if self.port else "")


@dataclass(frozen=True, slots=True)
class HarvestOnto(FieldHarvest):
    """Harvest field ``field`` onto merchant ship ``ship`` instead of selling it (I5)."""

    player: int
    field: int
    ship: int

    def __str__(self) -> str:
        return f"p{self.player} harvest {self.field} onto {ship_name(self.ship)}"


@dataclass(frozen=True, slots=True)
class Sell(ExpansionAction):
    """Sell ship ``ship``'s whole cargo by the beanometer, for at least one coin (I6)."""

    player: int
    ship: int

    def __str__(self) -> str:
        return f"p{self.player} sell {ship_name(self.ship)}"


@dataclass(frozen=True, slots=True)
class MoveCargo(ExpansionAction):
    """Move the whole cargo of ship ``source`` onto merchant ship ``target`` (I6)."""

    player: int
    source: int
    target: int

    def __str__(self) -> str:
        return f"p{self.player} move {ship_name(self.source)} {ship_name(self.target)}"


@dataclass(frozen=True, slots=True)
class Attack(ExpansionAction):
    """The active player's pirate ship attacks ``target``'s merchant ship ``ship`` (I7)."""

    player: int
    target: int
    ship: int

    def __str__(self) -> str:
        return f"p{self.player} attack p{self.target} {ship_name(self.ship)}"


@dataclass(frozen=True, slots=True)
class Yield(ExpansionAction):
    """The attacked player does not sell: one card goes to the pirate ship (I7)."""

    player: int

    def __str__(self) -> str:
        return f"p{self.player} yield"


@dataclass(frozen=True, slots=True)
class BuyShip(ExpansionAction):
    """Buy the second merchant ship, or with ``pirate`` the pirate ship (I1)."""

    player: int
    pirate: bool = False

    def __str__(self) -> str:
        return f"p{self.player} buy {'pirate' if self.pirate else 'ship'}"


@dataclass(frozen=True, slots=True)
class PlantCargo(ExpansionAction):
    """Plant a card from a ship onto a field: never legal (I5: island beans count as harvested).

    It exists so that a record from another implementation that does this is rejected naming I5.
    """

    player: int
    ship: int
    field: int

    def __str__(self) -> str:
        return f"p{self.player} plant {ship_name(self.ship)} {self.field}"


def _ship(word: str, text: str) -> int:
    if word not in SHIP_NAMES:
        raise NotationError(f"{clip(text)!r}: {word!r} is not a ship; ships are {', '.join(SHIP_NAMES)}")
    return SHIP_NAMES.index(word)


def _port(word: str, text: str) -> int:
    if word not in PORT_NAMES:
        raise NotationError(f"{clip(text)!r}: {word!r} is not a port; ports are {', '.join(PORT_NAMES)}")
    return PORT_NAMES.index(word)


def notation(p: int, verb: str, args: list[str], text: str) -> Action | None:
    """Seat ``p``'s action in the notation above, or None if ``verb`` and ``args`` are the base
    game's (``model.actions.parse_action`` asks this first)."""
    if verb == "plant" and len(args) == 2 and args[0] in SHIP_NAMES:
        return PlantCargo(p, _ship(args[0], text), parse_number(args[1], text))
    if verb == "harvest" and len(args) == 3 and args[1] == "onto":
        return HarvestOnto(p, parse_number(args[0], text), _ship(args[2], text))
    if verb == "buy" and args in (["ship"], ["pirate"]):
        return BuyShip(p, args[0] == "pirate")
    if verb == "sail" and len(args) in (2, 3):
        port = _port(args[1], text)
        if (port == 0) != (len(args) == 2):
            raise NotationError(f"{clip(text)!r}: expected 'sail SHIP home' or 'sail SHIP PORT CARDS'")
        return Sail(p, _ship(args[0], text), port, parse_number(args[2], text, "card") if port else 0)
    if verb == "sell" and len(args) == 1:
        return Sell(p, _ship(args[0], text))
    if verb == "move" and len(args) == 2:
        return MoveCargo(p, _ship(args[0], text), _ship(args[1], text))
    if verb == "attack" and len(args) == 2:
        return Attack(p, parse_seat(args[0], text), _ship(args[1], text))
    if verb == "yield" and not args:
        return Yield(p)
    return None
