"""La Isla Bohnita CP-SAT ``solo``: the model's state at one moment (P's fields, ships, coins, the
rows, the other seats' cargo) and P's actions as steps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeAlias

from model import Action, GameState, Phase
from solvers.cpsat_lazy import cp_model

RATE = 100  # the redundant bound's rate: a group pays at most ``num / RATE`` coins a card
ROW_CARDS = 5  # a refill of more than this many cards would not end the game (I2, E2)
LInt: TypeAlias = "cp_model.LinearExprT"  # a string: CP-SAT is loaded by the first model (cpsat_lazy)


@dataclass
class ShipVars:
    bean: cp_model.IntVar
    count: cp_model.IntVar
    at: cp_model.IntVar  # 0 home, 1 Bohnbay, 2 Bohnaco (I4); the pirate stays home
    owned: cp_model.IntVar


@dataclass
class State:
    """Everything the future of P depends on, at one moment of the model."""

    fb: list[cp_model.IntVar]  # P's fields: bean (-1 empty), count (H2)
    fc: list[cp_model.IntVar]
    own3: cp_model.IntVar
    coins: cp_model.IntVar
    ships: list[ShipVars]  # P's m0, m1, pirate
    rows: list[cp_model.IntVar]  # the row states (``row_states``)
    pos: cp_model.IntVar  # P's next hand card, in the stream
    others: dict[int, list[tuple[cp_model.IntVar, cp_model.IntVar]]]  # seat: merchants, then pirate
    alive: cp_model.IntVar  # the game goes on (a refill may end it, I2, E2)


@dataclass
class Step:
    """One of P's actions in the model: its literal and the engine action it stands for."""

    lit: cp_model.IntVar
    make: Callable[[GameState], Action]
    reads: frozenset[str] = frozenset()  # what it reads and writes (fields, ships, rows, ...)
    writes: frozenset[str] = frozenset()
    coins: int = 0  # +1 it earns coins, -1 it spends them (I1)

    def commutes(self, other: Step) -> bool:
        """Either order is legal and ends in the same state: nothing one writes is read or written
        by the other, and not both touch the coins unless both only earn."""
        if self.writes & (other.reads | other.writes) or other.writes & self.reads:
            return False
        return not (self.coins and other.coins and (self.coins < 0 or other.coins < 0))


@dataclass
class Segment:
    """P's actions in one phase of one of P's turns (turn number, phase), in order."""

    turn: int
    phase: Phase
    steps: list[list[Step]] = field(default_factory=list)


def hi(v: cp_model.IntVar) -> int:
    """The largest value in ``v``'s domain (the model tracks how full a field or ship can be)."""
    return int(max(v.proto.domain))
