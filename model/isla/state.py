"""La Isla Bohnita (RULES.md I1-I9): the state of ships, harbours and the two island ports.

The expansion is the ruleset option ``isla=true``; a game without it has ``GameState.ext is None``
and plays exactly as before. This module holds the expansion's part of the state; its JSON is in
``codec.py``, its moves in ``moves.py`` and the points where it changes the base turn in
``hooks.py``. Ships are numbered 0 and 1 (merchant ships) and 2 (the pirate ship); ports 0 (the
owner's harbour), 1 (Bohnbay) and 2 (Bohnaco).

Readings chosen where seed 003 is unclear (also listed in the README):

- Setup (I2): the two rows are dealt first, 5 cards to Bohnbay then 5 to Bohnaco, from the top of
  the shuffled deck; then the hands, one card at a time in seat order (S2). The "front card" of a
  row is the card dealt to it first; a row keeps its order.
- Fields (I1): starting fields as in the base game (3 with 3 players, else 2); the third field is
  for sale in every edition, for 3 coins.
- Loading (I4): arriving at an island port, a ship must load the front card if the row has one
  (so it may sail there only if that card fits its cargo) and may load any number of the other
  cards of that type in the row. Sailing to an empty row loads nothing. Any move changes the
  ship's port: harbour to island, island to island, island to harbour. The seed sets no limit on
  moves; the option ``max_sails`` (default 6 a turn) keeps the game finite, like ``max_offers``.
- Ship moves and pirate attacks are the active player's, in phase 2 (trading), before it ends the
  phase; the active player may plant face-up and received cards during phase 2 (I3: "in any
  order"); the other players plant their received cards after phase 2 ends, as in T6.
- Harvested beans are loaded (I5) onto a merchant ship in its home harbour only (the fields are
  at home); a cargo may be sold (I6) wherever the ship is.
- Moving cargo (I6) moves a whole cargo onto a merchant ship in the same port that is empty or
  holds the same type (the pirate ship stays in its harbour); pirate cargo may not move in the
  turn its pirate captured a card.
- Pirate attacks (I7): only a merchant ship in its home harbour can be attacked (the pirate sails
  to that harbour), only one with cargo that fits the pirate's cargo (one type per ship). The
  attacked player answers at once: sell that ship's cargo (if it pays) or yield one card; nothing
  else. A sale saves the cargo and the attack still counts as made.
- Purchases (I1) and sales (I6), like harvests (H6), are offered whenever that player is to move;
  in the duel only on one's own turn (I9), except the sale that answers an attack.
- End (E3, I8): every ship's cargo is sold at the end like a field (coins by the beanometer, none
  if it pays nothing); the rows are not scored. The game ends "as in the base game" (E2): at the
  exhaustion of table S, the 3rd, but the 2nd with 3 players and the rio-grande deck (RULES.md
  I8's "3rd" is the usual case; the seed says only "as in the basic rules"). The Isla duel ends at
  the 3rd exhaustion and its paid coins (kept in ``out``) join the discard pile when the draw pile
  runs out (I9).
- Duel (I9): the hand discard may come before, between or after the phase-1 plantings, once a
  turn; the turned-up cards (with the matching discards, D2) are the active player's to plant:
  there is no offer to the opponent and no trading.
"""

from __future__ import annotations

from typing import NamedTuple

from model.dealing import Deal
from model.isla.actions import PIRATE
from model.state import GameState

HOME, BOHNBAY, BOHNACO = 0, 1, 2
ROW = 5  # cards per island row (I2)
REFILL = (Deal.ROW_0, Deal.ROW_1)  # ``GameState.todo`` codes: deal to the Bohnbay / Bohnaco row (I2)


class Ship(NamedTuple):
    """A ship's cargo, one type only (I4): ``count`` cards of ``bean`` (-1 when empty), at ``at``."""

    bean: int
    count: int  # type: ignore[assignment]  # shadows tuple.count on purpose
    at: int = HOME


EMPTY_SHIP = Ship(-1, 0, HOME)


class Fleet(NamedTuple):
    """One player's ships: one or two merchant ships (I1) and the pirate ship once bought."""

    merchants: tuple[Ship, ...]
    pirate: Ship | None = None

    def ship(self, i: int) -> Ship | None:
        """Ship ``i`` (0, 1 merchant; 2 pirate), or None if the player has no such ship."""
        if i == PIRATE:
            return self.pirate
        return self.merchants[i] if 0 <= i < len(self.merchants) else None

    def with_ship(self, i: int, ship: Ship) -> Fleet:
        if i == PIRATE:
            return Fleet(self.merchants, ship)
        return Fleet(self.merchants[:i] + (ship,) + self.merchants[i + 1:], self.pirate)

    def ships(self) -> list[tuple[int, Ship]]:
        out = list(enumerate(self.merchants))
        if self.pirate is not None:
            out.append((PIRATE, self.pirate))
        return out


class Isla(NamedTuple):
    """The expansion's part of a ``GameState`` (None without the expansion)."""

    fleets: tuple[Fleet, ...]
    rows: tuple[tuple[int, ...], tuple[int, ...]]  # Bohnbay, Bohnaco rows, front card first (I2)
    attacked: tuple[tuple[int, int], ...] = ()  # (seat, ship) attacked this turn, sorted (I7)
    attack: tuple[int, int] | None = None  # the attacked (seat, ship) awaiting its owner's answer
    captured: bool = False  # the active player's pirate took a card this turn (I6 reading)
    sails: int = 0  # ship moves this turn (max_sails)
    discarded: bool = False  # duel: this turn's hand discard is used (I9)

    def cards(self) -> list[int]:
        """Every card on ships and in the rows (card conservation counts them)."""
        out: list[int] = [c for row in self.rows for c in row]
        for fleet in self.fleets:
            for _, ship in fleet.ships():
                out.extend([ship.bean] * ship.count)
        return out


def new_isla(players: int, rows: tuple[tuple[int, ...], tuple[int, ...]]) -> Isla:
    """I1-I2: each player has one empty merchant ship in its harbour; the rows are dealt."""
    return Isla(fleets=tuple(Fleet((EMPTY_SHIP,)) for _ in range(players)), rows=rows)


def new_turn(isla: Isla) -> Isla:
    """What is counted per turn starts again: attacks (I7), captures (I6), moves, the duel discard."""
    if not (isla.attacked or isla.attack or isla.captured or isla.sails or isla.discarded):
        return isla
    return isla._replace(attacked=(), attack=None, captured=False, sails=0, discarded=False)


def isla_of(s: GameState) -> Isla:
    """The expansion's part of ``s`` (``GameState.ext``), typed; ``s`` must play La Isla Bohnita (I1)."""
    isla = s.ext
    assert isinstance(isla, Isla)
    return isla
