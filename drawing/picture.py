"""What an expansion adds to a state's SVG picture (``drawing/svg.py``), hook by hook. Every
default draws nothing, so the base game is the picture that adds nothing; an expansion subclasses
``Picture`` and registers it in ``drawing.pictures.PICTURES`` under its name. The hooks are called
only when the state has the expansion's part (``GameState.ext`` is not None)."""

from __future__ import annotations

from drawing.canvas import Canvas
from model.state import GameState


class Picture:
    """An expansion's part of the picture: a status line, a band below the piles, one in each seat."""

    def svg_status(self, s: GameState) -> str:
        """What the picture adds to the table's status line."""
        return ""

    def svg_table_height(self, s: GameState) -> int:
        """The height the expansion's part of the table takes below the piles."""
        return 0

    def svg_table(self, c: Canvas, s: GameState, y: float) -> None:
        """Its part of the table, drawn from height ``y``."""

    def svg_seat_height(self, s: GameState, i: int) -> int:
        """The height its part of seat ``i`` takes below the hand and set-aside cards."""
        return 0

    def svg_seat(self, c: Canvas, s: GameState, i: int, y: float) -> None:
        """Its part of seat ``i``, drawn from height ``y``."""


BASE = Picture()
