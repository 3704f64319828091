"""The bean cards: the catalog of section C and the beanometer (C1-C3).

Beans are small ints (``Bean`` members are ints), so states stay compact tuples of ints.
This module holds the only copy of the card counts and coin thresholds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum

from model.errors import InputError


class Bean(IntEnum):
    """The twelve bean types of section C, in catalog order (most common first)."""

    COFFEE = 0
    WAX = 1
    BLUE = 2
    CHILI = 3
    STINK = 4
    GREEN = 5
    SOY = 6
    BLACKEYED = 7
    RED = 8
    GARDEN = 9
    COCOA = 10
    FIELD = 11

    @property
    def id(self) -> str:
        """The lower-case name used in notation, JSON and records (``blackeyed``)."""
        return self.name.lower()


BEAN_NAMES: tuple[str, ...] = tuple(b.id for b in Bean)
_BY_NAME = {name: Bean(i) for i, name in enumerate(BEAN_NAMES)}
BEAN_INDEX: dict[str, int] = {name: i for i, name in enumerate(BEAN_NAMES)}  # exact names, as JSON has them

# Cards in the catalog per type (C).
COUNTS: tuple[int, ...] = (24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 3)

# Beanometer (C): cards needed for 1, 2, 3, 4 coins; None where the card shows no value.
Meter = tuple[int | None, int | None, int | None, int | None]
METERS: tuple[Meter, ...] = (
    (4, 7, 10, 12),  # coffee
    (4, 7, 9, 11),  # wax
    (4, 6, 8, 10),  # blue
    (3, 6, 8, 9),  # chili
    (3, 5, 7, 8),  # stink
    (3, 5, 6, 7),  # green
    (2, 4, 6, 7),  # soy
    (2, 4, 5, 6),  # blackeyed
    (2, 3, 4, 5),  # red
    (None, 2, 3, None),  # garden
    (None, 2, 3, 4),  # cocoa (C3: disputed; 2/3/4 is the default)
    (None, None, 3, None),  # field (V5: 2 cards give a third field instead)
)

# Decks before the per-player-count removals of section S (C2, V4, V5).
AMIGO_BEANS: tuple[int, ...] = tuple(range(Bean.BLUE, Bean.GARDEN + 1))
RIO_GRANDE_BEANS: tuple[int, ...] = tuple(range(Bean.COFFEE, Bean.COCOA + 1))
AMIGO_V2_BEANS: tuple[int, ...] = (Bean.WAX, *AMIGO_BEANS, Bean.FIELD)


class UnknownBean(InputError):
    """A bean name that is not in the catalog of section C."""


def bean(name: str | int) -> Bean:
    """The bean called ``name`` (as in ``BEAN_NAMES``, case-insensitive, ``-``/``_`` ignored)."""
    if isinstance(name, int):
        if 0 <= name < len(COUNTS):
            return Bean(name)
        raise UnknownBean(f"unknown bean number {name} (C)")
    if not isinstance(name, str):
        raise UnknownBean(f"expected a bean name, got {name!r} (C)")
    key = name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    try:
        return _BY_NAME[key]
    except KeyError:
        raise UnknownBean(f"unknown bean {name!r}; beans are {', '.join(BEAN_NAMES)} (C)") from None


def coins_for(meter: Meter, cards: int) -> int:
    """C1: the largest coin value whose threshold is <= ``cards`` (0 if none)."""
    best = 0
    for value, need in enumerate(meter, start=1):
        if need is not None and need <= cards:
            best = value
    return best


def payout_table(meters: tuple[Meter, ...], longest: int) -> tuple[tuple[int, ...], ...]:
    """``table[bean][n]`` = coins for a harvest of ``n`` cards, for n in 0..longest (C1)."""
    return tuple(tuple(coins_for(m, n) for n in range(longest + 1)) for m in meters)


def parse_meter(text: str) -> Meter:
    """Read a beanometer written ``4/7/10/12`` (``-`` for no value), as C3 asks to allow."""
    parts = text.split("/")
    if len(parts) != 4:
        raise ValueError(f"beanometer {text!r} needs four values like 2/3/4/5 or -/2/3/4 (C3)")
    values: list[int | None] = []
    for p in parts:
        p = p.strip()
        if p in ("-", ""):
            values.append(None)
        elif p.isdigit() and int(p) > 0:
            values.append(int(p))
        else:
            raise ValueError(f"beanometer {text!r}: {p!r} is not a card count or '-' (C3)")
    known = [v for v in values if v is not None]
    if known != sorted(known) or len(set(known)) != len(known):
        raise ValueError(f"beanometer {text!r}: thresholds must increase (C1)")
    return (values[0], values[1], values[2], values[3])


def format_meter(meter: Meter) -> str:
    return "/".join("-" if v is None else str(v) for v in meter)


def difference(have: Sequence[int | None], want: Sequence[int]) -> str:
    """``+1 garden, -1 wax``: what ``have`` holds more (+) and less (-) than ``want``, by bean
    (``None``, a card not seen, is not counted)."""
    more = Counter(c for c in have if c is not None)
    more.subtract(Counter(want))
    parts = [f"{n:+d} {BEAN_NAMES[b]}" for b, n in sorted(more.items()) if n]
    return ", ".join(parts) or "the same cards"
