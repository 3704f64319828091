"""La Isla Bohnita's setup (I1, I2, I3, I8, I9): what it changes in table S, its own option
(``max_sails``) and its own setup numbers (``IslaSetup``: the ship prices, the sail bound):
``IslaTable``, the ``model.rules.SetupRules`` hooks ``model.rules.setup`` calls (``hooks.IslaBohnita``
extends it), and the numbers it keeps in ``Setup.ext``.
"""

from __future__ import annotations

from typing import NamedTuple

from model.cards import Bean
from model.isla.state import ROW
from model.rules import OptionRange, Ruleset, Setup, SetupRules

NAME = "isla"  # the ruleset option ``isla=true``, ``Setup.expansion``, the state JSON's key

# The expansion's own count option: ship moves per turn (I4 sets no limit; a protocol bound like
# max_offers), with its default.
OPTIONS = {"max_sails": (6, OptionRange(0, 20, "I4", "ship moves in one turn with La Isla Bohnita"))}

# I2: types removed with La Isla Bohnita, by player count (seed 003's table, without its Mokkabohne).
REMOVED_RIO_GRANDE: dict[int, tuple[int, ...]] = {
    2: (Bean.COCOA, Bean.GARDEN, Bean.RED, Bean.BLACKEYED, Bean.SOY, Bean.GREEN),
    3: (Bean.COCOA, Bean.GARDEN, Bean.RED, Bean.BLACKEYED, Bean.SOY),
    4: (Bean.COCOA, Bean.GARDEN, Bean.RED, Bean.BLACKEYED),
    5: (Bean.COCOA, Bean.GARDEN, Bean.RED),
    6: (Bean.COCOA, Bean.GARDEN, Bean.RED, Bean.BLACKEYED),
    7: (Bean.COCOA, Bean.GARDEN, Bean.RED),
}
REMOVED_AMIGO: tuple[int, ...] = (Bean.GARDEN,)  # 2-5 players; 6-7 impossible (I2)


class IslaSetup(NamedTuple):
    """The expansion's own setup numbers (the third field's price is the base ``Setup.third_cost``)."""

    ship_cost: int  # the second merchant ship: 4 coins with 3-4 players, 3 with 5-7 (I1), 5 in the duel (I9)
    pirate_cost: int  # the pirate ship: 2 (I1, I9)
    max_sails: int = 6  # ship moves a turn (the option ``max_sails``, I4 reading)


class IslaTable(SetupRules):
    """What La Isla Bohnita changes in table S; ``hooks.IslaBohnita`` extends it."""

    name = NAME
    called = "La Isla Bohnita"
    rule_ids = "I1-I9"
    rule = "I2"  # its player counts
    options = OPTIONS

    def player_range(self, rules: Ruleset) -> tuple[int, int]:
        """I2: 2-7 players with the big deck, 2-5 without."""
        return 2, (7 if Bean.COFFEE in rules.beans else 5)

    def removed(self, rules: Ruleset, players: int) -> tuple[int, ...]:
        """I2: the types removed by player count."""
        return REMOVED_RIO_GRANDE[players] if Bean.COFFEE in rules.beans else REMOVED_AMIGO

    def third_field(self, rules: Ruleset, players: int, fields: int) -> bool:
        """I1: the third field is for sale in every edition."""
        return fields < 3

    def third_field_cost(self, players: int) -> int:
        """I1: 3 coins with the expansion."""
        return 3

    def hands(self, players: int) -> tuple[int, ...]:
        """I2: hands of 3, 4, 5, then 6 cards by seat; 5 each in the duel (I9)."""
        return tuple(min(3 + seat, 6) for seat in range(players)) if players > 2 else (5,) * players

    def draw(self, players: int) -> int:
        """I3, I9: cards drawn in phase 4."""
        return 2 if players == 2 else (3 if players <= 4 else (4 if players == 5 else 5))

    def final_exhaustion(self, players: int) -> int:
        """I8: the game ends as in the base game; the Isla duel reshuffles and ends at the 3rd (I9)."""
        return 3 if players == 2 else (2 if players == 3 else 3)

    def reserved(self, su: Setup) -> int:
        """I2: the two island rows are dealt first, 5 cards each."""
        return 2 * ROW

    def setup_of(self, rules: Ruleset, players: int) -> IslaSetup:
        """I1, I9: the prices for ``players``; the ruleset's sail bound (``Setup.ext``)."""
        return IslaSetup(ship_cost=5 if players == 2 else 4 if players <= 4 else 3, pirate_cost=2,
                         max_sails=rules.option("max_sails"))


def isla_setup(su: Setup) -> IslaSetup:
    """La Isla Bohnita's setup numbers for ``su`` (I1, I9); ``su`` must play the expansion."""
    ext = su.ext
    assert isinstance(ext, IslaSetup)
    return ext
