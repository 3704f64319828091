"""La Isla Bohnita's part of the published input schemas: its part of the state JSON (the key
"isla": ships, island rows and what this turn has used, I1-I9) and its ruleset options. The
registry ``schemas.shapes.SLOT_SCHEMAS`` names this module; schemas/shapes.py adds what it declares
to the state and the options, and checks ``problem("isla", ...)`` against ``STATE``. pydantic, like
schemas/shapes.py: loaded only by the loaders that read files.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict

from schemas.vocabulary import MOST_OF_A_TYPE, STRICT, BeanName, Cards, Seat, option_bounds

PortName = Literal["home", "bohnbay", "bohnaco"]  # model.isla.actions.PORT_NAMES (tests/test_schemas.py)
ShipName = Literal["m0", "m1", "pirate"]  # model.isla.actions.SHIP_NAMES


class Ship(BaseModel):
    """A ship's cargo, one type only (I4): ``count`` cards of ``bean`` (null when empty), at a port."""

    model_config = STRICT
    bean: BeanName | None = None
    count: Annotated[int, Field(ge=0, le=MOST_OF_A_TYPE)]
    at: PortName = "home"


class Fleet(BaseModel):
    """One player's ships: one or two merchant ships (I1) and the pirate ship once bought."""

    model_config = STRICT
    merchants: Annotated[list[Ship], Field(max_length=2)]
    pirate: Ship | None = None


ShipRef = Annotated[tuple[Seat, ShipName], Strict(False)]  # [seat, ship]: a JSON array of two


class Rows(BaseModel):
    """The two island rows, front card first (I2)."""

    model_config = STRICT
    bohnbay: Cards = []
    bohnaco: Cards = []


class IslaState(BaseModel):
    """La Isla Bohnita's part of a state: ships, island rows and what this turn has used (I1-I9)."""

    model_config = ConfigDict(strict=True, extra="forbid", title="Isla")
    fleets: list[Fleet] = []
    rows: Rows
    attacked: list[ShipRef] = Field([], description="the ships attacked this turn (I7)")
    attack: ShipRef | None = Field(None, description="the attacked ship awaiting its owner's answer (I7)")
    captured: bool = Field(False, description="the active player's pirate took a card this turn (I6)")
    sails: Annotated[int, option_bounds("max_sails")] = Field(
        0, description="ship moves this turn (max_sails)")
    discarded: bool = Field(False, description="duel: this turn's hand discard is used (I9)")


STATE = IslaState  # the state JSON's "isla" (``GameState.ext``)
OPTIONS: dict[str, Any] = {  # the ruleset options it adds, after the base ones
    "isla": Annotated[bool, Field(description="the La Isla Bohnita expansion (I1-I9)")],
    "max_sails": Annotated[int, option_bounds("max_sails")],
}
