"""A state drawn as an SVG picture, above the rules (``drawing.svg``: for notebooks, the record
viewer and ``scripts/show.py``), from the pieces of ``drawing.canvas``; an expansion adds its part
through a ``drawing.picture.Picture`` registered in ``drawing.pictures.PICTURES`` (La Isla
Bohnita's: ``drawing.isla``). Importing the package registers the picture as
``GameState._repr_svg_``, so a notebook shows a state once ``drawing`` is imported."""

from drawing.svg import svg
from model.state import DRAWINGS

DRAWINGS["svg"] = svg  # GameState._repr_svg_ (Jupyter)
