"""Primitives the base rules and the expansions share: the state rebuilt with changes, a seat
replaced, the field rules H3-H4 and the coins/discard split of H5. ``model/engine.py`` and
``model/isla/`` import them from here (the rules among them through ``model.steps.STEPS``), so
neither imports the other's internals."""

from __future__ import annotations

from typing import Any

from model.state import Field, GameState, PlayerState

_FIELD_INDEX = {name: i for i, name in enumerate(GameState._fields)}
_new_state = tuple.__new__


def evolve(s: GameState, **changes: object) -> GameState:
    """``s._replace(**changes)``, about twice as fast (states are rebuilt on every action)."""
    values: list[Any] = list(s)
    for key, value in changes.items():
        values[_FIELD_INDEX[key]] = value
    return _new_state(GameState, values)


_PLAYERS, _DISCARD = _FIELD_INDEX["players"], _FIELD_INDEX["discard"]


def with_seat(s: GameState, p: int, pl: PlayerState, discard: tuple[int, ...] | None = None) -> GameState:
    """``evolve(s, players=with_player(s, p, pl))``, and the discard pile ``discard`` if given,
    without keywords: the rebuild of the steps that change one seat at most actions (H5, T6)."""
    values: list[Any] = list(s)
    players = s.players
    values[_PLAYERS] = players[:p] + (pl,) + players[p + 1:]
    if discard is not None:
        values[_DISCARD] = discard
    return _new_state(GameState, values)


def with_player(s: GameState, p: int, pl: PlayerState) -> tuple[PlayerState, ...]:
    """The seats with seat ``p`` replaced by ``pl``."""
    return s.players[:p] + (pl,) + s.players[p + 1:]


def fits(field: Field, b: int) -> bool:
    """H3: a card goes on an empty field or on a field of its own type (H2)."""
    return field.count == 0 or field.bean == b


def singles_harvestable(fields: tuple[Field, ...], strict: bool) -> bool:
    """H4: may a one-card field be harvested now? Lenient: no field holds more than one card;
    strict: every field holds exactly one."""
    if strict:
        for f in fields:
            if f.count != 1:
                return False
        return True
    for f in fields:  # a loop, not all(): this is asked at most moves
        if f.count > 1:
            return False
    return True


def harvestable(fields: tuple[Field, ...], i: int, strict: bool) -> bool:
    """H4-H5: may field ``i`` be harvested now (outside the final harvest, E3)?"""
    n = fields[i].count
    return n > 1 or (n == 1 and singles_harvestable(fields, strict))


def pay(s: GameState, p: int, cost: int) -> GameState:
    """F1 (a field) and I1 (a ship): the top ``cost`` coins of seat ``p`` pay, bean side up to the
    discard pile; in the duel they are set aside out of the game (D, I9)."""
    pl = s.players[p]
    keep = len(pl.coins) - cost
    new = PlayerState(pl.hand, pl.fields, pl.coins[:keep], pl.aside)
    players = s.players[:p] + (new,) + s.players[p + 1:]
    if s.setup.duel:
        return evolve(s, players=players, out=s.out + pl.coins[keep:])
    return evolve(s, players=players, discard=s.discard + pl.coins[keep:])


def cash_in(s: GameState, p: int, fields: tuple[Field, ...], b: int, n: int) -> GameState:
    """H5 (fields) and I6 (cargo): of ``n`` cards of ``b`` the beanometer's coins (C1) go onto the
    coin stack of seat ``p``, the rest onto the discard pile; the seat's fields become ``fields``
    (the harvested one emptied, or unchanged for a cargo)."""
    k = s.setup.payout[b][n]
    players = s.players
    pl = players[p]
    new = _new_state(PlayerState, (pl.hand, fields, pl.coins + (b,) * k if k else pl.coins, pl.aside))
    values: list[Any] = list(s)  # ``with_seat``, inlined: a harvest is a third of the actions
    values[_PLAYERS] = players[:p] + (new,) + players[p + 1:]
    if n > k:
        values[_DISCARD] = s.discard + (b,) * (n - k)
    return _new_state(GameState, values)


# F1 leaves open which coin cards pay; an engine that pays with the oldest declares it
# (docs/engine-protocol.md, coin_payment), and a record can say so (docs/records.md, header.declares).


def paid_by(before: GameState, after: GameState, p: int, paid: tuple[int, ...]) -> GameState:
    """``after`` (seat ``p`` bought a field from ``before``, F1) with the coin cards ``paid`` (taken
    from the bottom of the stack, the oldest, where a type repeats) gone to the discard pile
    instead of the top ones."""
    coins = list(before.players[p].coins)
    for c in paid:
        coins.remove(c)
    pl = after.players[p]
    seat = PlayerState(pl.hand, pl.fields, tuple(coins), pl.aside)
    players = after.players[:p] + (seat,) + after.players[p + 1:]
    if before.setup.duel:
        return evolve(after, players=players, out=before.out + paid)
    return evolve(after, players=players, discard=before.discard + paid)


def oldest(before: GameState, after: GameState, p: int) -> GameState:
    """``after`` with the oldest coins paid (``coin_payment: oldest``)."""
    n = len(before.players[p].coins) - len(after.players[p].coins)
    return paid_by(before, after, p, before.players[p].coins[:n])
