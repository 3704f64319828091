"""The registry of expansions, by ``Setup.expansion`` name ("" is the base game).

To add an expansion: write its package (state, codec, moves, hooks: see ``model/isla/``), give its
``Expansion`` subclass a name (also its ruleset option, ``name=true``), list it here.
"""

from __future__ import annotations

from model.actions import NOTATIONS
from model.expansion import BASE, Expansion
from model.isla.hooks import ISLA
from model.rules import Setup, register
from model.state import SLOT_CODECS

EXPANSIONS: dict[str, Expansion] = {x.name: x for x in (BASE, ISLA)}
for _x in EXPANSIONS.values():
    register(_x)  # its table S changes and options, to ``model.rules.setup`` and ``ruleset``
SLOT_CODECS.update({x.name: x.codec for x in EXPANSIONS.values() if x.codec is not None})  # the state JSON's
NOTATIONS.extend(x.notation for x in EXPANSIONS.values() if x is not BASE)  # ``parse_action``'s


def hooks(su: Setup) -> Expansion:
    """The expansion a setup plays: the one place the registry is looked up by ``Setup.expansion``."""
    return EXPANSIONS[su.expansion]
