"""The codes of the dealing state: where each card still to be taken goes (``GameState.todo``)
and which dealing step a reshuffle interrupted (``GameState.resume``, E1)."""

from __future__ import annotations

from enum import IntEnum


class Deal(IntEnum):
    """Where a card in ``GameState.todo`` goes when it is taken (a seat number, >= 0, is that
    seat's hand, H1; these codes are the rest)."""

    FACE_UP = -1  # the active player's trade area (T2)
    ROW_0 = -2  # La Isla Bohnita: the Bohnbay row (I2)
    ROW_1 = -3  # the Bohnaco row (I2)


class Resume(IntEnum):
    """At a chance node (a reshuffle, E1): what the dealing was doing, so it resumes there."""

    NONE = 0  # not at a chance node
    TURNING_UP = 2  # phase 2 (T2)
    DRAWING = 4  # phase 4 (T7)
