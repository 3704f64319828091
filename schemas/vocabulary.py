"""The vocabulary the published input schemas share (schemas/shapes.py and an expansion's own
schema module, as schemas/isla.py): the enums, the bounds of counts and seats, the patterns
and how a field's description and an option's range are written. pydantic, like schemas/shapes.py:
loaded only by the loaders that read files.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from model.cards import COUNTS
from model.rules import OPTION_RANGES

BeanName = Literal["coffee", "wax", "blue", "chili", "stink", "green", "soy", "blackeyed", "red", "garden",
                   "cocoa", "field"]
PresetName = Literal["rio-grande", "amigo", "amigo-1997", "amigo-v1", "amigo-v2"]
PhaseName = Literal["plant", "trade", "plant_aside", "chance", "over", "offer", "discard", "turned"]
TieBreak = Literal["hand", "seat", "none"]
HarvestReading = Literal["lenient", "strict"]
ReshuffleReading = Literal["at-exhaustion", "on-demand"]
# The enums above are spelled out for the type checker; tests/test_schemas.py checks that they are
# the model's own names (BEAN_NAMES, PRESETS, Phase, TIE_BREAKS...).

STRICT = ConfigDict(strict=True, extra="forbid")

MOST_OF_A_TYPE = max(COUNTS)  # no field or cargo holds more cards of one type than the catalog has (C)
SEATS = 7  # seats p0-p6 (S)

METER = r"^(-|[1-9][0-9]{0,2})(/(-|[1-9][0-9]{0,2})){3}$"
FRACTION = r"^-?[0-9]{1,12}(/[0-9]{1,12})?$"
RULE_ID = r"^[A-Z][0-9]{0,2}$"
DEPTH = r"^[0-9]{1,2}$"
PATTERN_WORDS = {  # what a string that fails its pattern should have looked like
    METER: "a beanometer like 4/7/10/12 or -/2/3/- (C3)",
    FRACTION: "a whole number or a fraction like 13/2",
    RULE_ID: "a rule ID like H4 (docs/rules.md)",
    DEPTH: "a perft depth like 3",
}


def says(text: str) -> Any:
    """A description for the published schema."""
    return Field(description=text)


def option_bounds(key: str) -> Any:
    """The bounds and meaning of the count option ``key`` (``model.rules.OPTION_RANGES``)."""
    r = OPTION_RANGES[key]
    return Field(ge=r.low, le=r.high, description=f"{r.about} ({r.rule}); {r.low}-{r.high}")


Count = Annotated[int, Field(ge=0)]
Seat = Annotated[int, Field(ge=0, le=SEATS - 1)]
Cards = list[BeanName]
FieldCount = Annotated[int, Field(gt=0, le=MOST_OF_A_TYPE)]
