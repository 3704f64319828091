"""The registry of the expansions' pictures, by ``Setup.expansion`` name ("" is the base game), one
line each: the one lookup ``drawing/svg.py`` makes. An expansion without one draws nothing of its own
(its part still shows in ``str(state)``, through its text hooks)."""

from __future__ import annotations

from drawing.isla import ISLA
from drawing.picture import BASE, Picture
from model.isla.setup import NAME as ISLA_NAME
from model.state import GameState

PICTURES: dict[str, Picture] = {"": BASE, ISLA_NAME: ISLA}


def picture(s: GameState) -> Picture:
    """The picture hooks of the state's expansion (the base game's draw nothing)."""
    return PICTURES.get(s.setup.expansion, BASE)
