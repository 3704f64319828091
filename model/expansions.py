"""The registry of expansions, by ``Setup.expansion`` name ("" is the base game), and ``install``,
the one call that makes an expansion playable.

The modules below the expansions read them through small registries of their own, so that none
names one: ``model.rules`` (table S and the options, ``register``), ``model.state.SLOT_CODECS``
(the expansion's part of the state JSON) and ``model.actions.NOTATIONS`` (its notation). ``install``
fills all of them from one ``Expansion`` and this module's ``EXPANSIONS`` (the engine's hooks);
``model/__init__.py`` installs the built-in ones, ``BUILT_IN``, and a test's example expansion is
``installed`` for one block. To add an expansion: write its package (state, codec, moves, hooks: see
``model/isla/``), give its ``Expansion`` subclass a name (also its ruleset option, ``name=true``),
add it to ``BUILT_IN``. ``model/engine.py`` must be imported first (it sets ``STEPS``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from model import actions, rules
from model.expansion import BASE, Expansion
from model.isla.hooks import ISLA
from model.rules import Setup
from model.state import SLOT_CODECS
from model.steps import STEPS

BUILT_IN: tuple[Expansion, ...] = (BASE, ISLA)  # installed by model/__init__.py
EXPANSIONS: dict[str, Expansion] = {}


def install(x: Expansion) -> None:
    """Make ``x`` playable: its hooks (``EXPANSIONS``), its actions (``STEPS.handlers``), its table
    S and options (``model.rules``), its part of the state JSON (``SLOT_CODECS``) and its notation
    (``NOTATIONS``)."""
    EXPANSIONS[x.name] = x
    STEPS.handlers.update(x.handlers)
    rules.register(x)
    if x.codec is not None:
        SLOT_CODECS[x.name] = x.codec
    if type(x).notation is not Expansion.notation:
        actions.NOTATIONS.append(x.notation)


@contextmanager
def installed(x: Expansion) -> Iterator[Expansion]:
    """``x`` installed for the length of the block; every registry as it was afterwards."""
    maps: tuple[dict[Any, Any], ...] = (EXPANSIONS, STEPS.handlers, SLOT_CODECS, rules.SETUP_RULES,
                                        rules.OPTION_RANGES, rules.EXTRA_DEFAULTS)
    lists: tuple[list[Any], ...] = (actions.NOTATIONS, rules.OPTION_NAMES)
    saved_maps = [dict(m) for m in maps]
    saved_lists = [list(v) for v in lists]
    install(x)
    try:
        yield x
    finally:
        for m, old in zip(maps, saved_maps, strict=True):
            m.clear()
            m.update(old)
        for v, was in zip(lists, saved_lists, strict=True):
            v[:] = was
        rules.setup.cache_clear()


def hooks(su: Setup) -> Expansion:
    """The expansion a setup plays: the registry looked up by ``Setup.expansion``."""
    return EXPANSIONS[su.expansion]
