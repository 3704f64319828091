"""Reading a state JSON: the format and version, then the shape against the published schema
(``schemas.shapes.State``), then the values by ``model.state.decode_state``. The rules are
``model.validate.check_state``'s to check, with their rule IDs."""

from __future__ import annotations

from typing import Any

from model.state import GameState, StateFormatError, check_format, decode_state


def state_from_json(obj: dict[str, Any]) -> GameState:
    """Read a state written by ``state_to_json``; StateFormatError names the first bad field.

    The shape is checked against ``schemas.shapes.State`` first (strict: ``"final": "false"`` is no
    boolean, a field count ``true`` is no count); ``model.validate.check_state`` checks the rules.
    """
    check_format(obj)
    from schemas.shapes import problem  # the pydantic edge: loaded by a loader only

    why = problem("state", obj)
    if why is not None:
        raise StateFormatError(why)
    return decode_state(obj)
