"""Reading a position: a state JSON file, stdin, or a fixture file that holds one under ``state``
(perft and endgame fixtures), checked against the rules. Every failure is one
``PositionInputError`` line naming the source and, where there is one, the line or the field."""

from __future__ import annotations

from typing import Any

from model import jsonio
from model.errors import InputError
from model.state import GameState
from model.validate import check_state
from schemas.state_json import state_from_json

# fixtures holding a position under "state": format -> its schema in schemas/shapes.py
FIXTURE_FORMATS = {"bohnanza-perft": "perft", "bohnanza-endgame": "endgame"}


class PositionInputError(InputError):
    """A position that cannot be read or breaks the rules: one line naming the source and field."""


def read_json(source: str) -> Any:
    """The JSON value in a file (``-``: stdin); ``model.jsonio`` refuses what is not JSON."""
    try:
        return jsonio.read_json(source)
    except jsonio.JSONInputError as e:
        raise PositionInputError(str(e)) from None


def state_of(obj: Any, where: str, fixtures: bool = True) -> GameState:
    """The state in a state JSON object (or, with ``fixtures``, a fixture object holding one),
    checked against its schema (schemas/shapes.py), then against the rules."""
    if fixtures and isinstance(obj, dict) and obj.get("format") in FIXTURE_FORMATS:
        from schemas.shapes import problem  # the pydantic edge: loaded by a loader only

        why = problem(FIXTURE_FORMATS[obj["format"]], obj)
        if why is not None:
            raise PositionInputError(f"{where}: {why}")
        obj = obj["state"]
    try:
        s = state_from_json(obj)
        check_state(s)
    except ValueError as e:  # the model's input and rule errors, and bad enum or int conversions
        raise PositionInputError(f"{where}: {e}") from None
    return s
