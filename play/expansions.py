"""The bots' hooks by expansion name (``Setup.expansion``): one line an expansion with bots of its
own (``play/isla/``); any other plays with ``BASE_BOTS``, the base game's."""

from __future__ import annotations

from play.hook import BASE_BOTS, BotHooks
from play.isla import ISLA_BOTS

BOT_HOOKS: dict[str, BotHooks] = {x.name: x for x in (BASE_BOTS, ISLA_BOTS)}


def bot_hooks(expansion: str) -> BotHooks:
    """The bots' hook of ``expansion`` ("" the base game; one without its own: the base game's)."""
    return BOT_HOOKS.get(expansion, BASE_BOTS)
