"""Reading a position: a state JSON file, stdin, or a fixture file that holds one under ``state``
(perft and endgame fixtures), checked against the rules. Every failure is one
``PositionInputError`` line naming the source and, where there is one, the line or the field."""

from __future__ import annotations

import json
import sys
from typing import Any

from model.errors import InputError
from model.state import GameState, state_from_json
from model.validate import check_state

FIXTURE_FORMATS = ("bohnanza-perft", "bohnanza-endgame")  # fixtures holding a position under "state"


class PositionInputError(InputError):
    """A position that cannot be read or breaks the rules: one line naming the source and field."""


def read_json(source: str) -> Any:
    """The JSON value in a file (``-``: stdin)."""
    where = "stdin" if source == "-" else source
    try:
        if source == "-":
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise PositionInputError(f"{where}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise PositionInputError(f"{where}: cannot read: {e}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise PositionInputError(f"{where}:{e.lineno}: not JSON: {e.msg}") from None


def state_of(obj: Any, where: str, fixtures: bool = True) -> GameState:
    """The state in a state JSON object (or, with ``fixtures``, a fixture object holding one),
    checked against the rules."""
    if fixtures and isinstance(obj, dict) and obj.get("format") in FIXTURE_FORMATS:
        obj = obj.get("state")
    try:
        s = state_from_json(obj)
        check_state(s)
    except ValueError as e:  # the model's input and rule errors, and bad enum or int conversions
        raise PositionInputError(f"{where}: {e}") from None
    return s
