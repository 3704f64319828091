"""Rulesets (editions, options, variants) and their setup per player count (sections S, F, V).

A ``Ruleset`` is a plain value: a preset name plus options, each overridable on its own (V3).
Options left at ``None`` take the value the setup table of section S gives for the player count;
``setup(ruleset, players)`` resolves them into a ``Setup`` that the engine reads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from model.cards import (
    AMIGO_BEANS,
    AMIGO_V2_BEANS,
    BEAN_NAMES,
    COUNTS,
    METERS,
    RIO_GRANDE_BEANS,
    Bean,
    Meter,
    bean,
    format_meter,
    parse_meter,
    payout_table,
)
from model.errors import InputError


class RulesetError(InputError):
    """An unknown preset, option or option value, or a player count the ruleset does not allow."""


class OptionRange(NamedTuple):
    """The whole numbers a count option may take (``low``-``high``), the rule it is about and what
    it counts. ``ruleset()`` and the JSON schema of the options (schemas/shapes.py) both read
    ``OPTION_RANGES``; docs/records.md lists them."""

    low: int
    high: int
    rule: str
    about: str


DECK_MOST = sum(COUNTS)  # every card of every type (C): no deck in play is larger

# The one table of option ranges. The bounds keep every preset, variant and test position playable
# and stop values that only make the engine hang or exhaust memory (face_up=10**9 turns up cards
# forever; max_deal_cards=10**9 made the Z3 referee grow to 23 GB), checked where options are read
# (``ruleset()``, the schema); setup() also checks hand, face_up and draw against the deck in play.
# A Ruleset changed in code (``replace``) is not checked: solvers may go further on purpose (the
# trade graph's --max-cards). max_deal_cards: the first
# trading state of a seeded 4-player game lists 198 / 3,168 / 22,308 / 93,093 actions at 1 / 2 /
# 3 / 4 cards a side (5 players: 263 / 4,223 / 29,743 / 124,123); 3 is kept for small decks.
OPTION_RANGES: dict[str, OptionRange] = {
    "min_players": OptionRange(2, 7, "S", "the fewest players the ruleset allows"),
    "max_players": OptionRange(2, 7, "S", "the most players the ruleset allows"),
    "fields": OptionRange(1, 3, "F1", "starting fields; the third field is the maximum"),
    "third_field_cost": OptionRange(0, 20, "F1", "coins the third field costs"),
    "hand": OptionRange(0, DECK_MOST, "S", "cards in each starting hand; the hands must leave a draw pile"),
    "face_up": OptionRange(0, DECK_MOST, "T2", "cards turned up in phase 2; at most the deck in play"),
    "draw": OptionRange(0, DECK_MOST, "T7", "cards drawn in phase 4; at most the deck in play"),
    "exhaustions": OptionRange(1, 10, "E2", "the exhaustion of the draw pile that ends the game"),
    "max_offers": OptionRange(0, 30, "T3", "proposals the active player may make in one turn"),
    "max_deal_cards": OptionRange(0, 3, "T3", "cards a side in the proposals legal_actions lists"),
}  # an expansion's own count options join when it is registered (``register``)


def out_of_range(key: str, number: int) -> str | None:
    """Why ``number`` is not a value of the count option ``key`` (None if it is): the value, the
    range and the rule ID, e.g. ``1000000000 is not within 0-157 (T2)``."""
    bound = OPTION_RANGES[key]
    if bound.low <= number <= bound.high:
        return None
    return f"{_show(number)} is not within {bound.low}-{bound.high} ({bound.rule})"


def _show(value: Any) -> str:
    """``repr(value)``, cut short: a message stays one readable line (a 4000-digit number is not)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a {value.bit_length()}-bit number"  # repr() of a 5000-digit int raises ValueError
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:30]}... ({len(text)} characters)"


TIE_BREAKS = ("hand", "seat", "none")  # E4: most cards in hand / farthest clockwise / shared win
HARVEST_READINGS = ("lenient", "strict")  # H4
RESHUFFLE_READINGS = ("at-exhaustion", "on-demand")  # E1: when the discard pile is shuffled


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One edition with its options. ``None`` means "as the table of section S says"."""

    name: str = "rio-grande"
    beans: tuple[int, ...] = RIO_GRANDE_BEANS  # types in the deck before removals (C2, V4, V5)
    removed: tuple[int, ...] | None = None  # types removed; None: the table of S
    min_players: int = 2  # 2-7 (S)
    max_players: int = 7  # 2-7 (S)
    fields: int | None = None  # starting fields, 1-3; None: 3 with 3 players, else 2 (S, S1, F1)
    third_field: bool | None = None  # may a third field be bought (F1); None: table of S
    third_field_cost: int | None = None  # 0-20; None: 3, or 2 with 6-7 players (S, F1)
    hand: int | None = None  # starting hand, 0-157, leaving a draw pile; None: 5, or 3/4/5/6.. with 6-7 (S)
    face_up: int | None = None  # cards turned up (T2), 0-157 and at most the deck; None: 2, the duel 3 (D2)
    draw: int | None = None  # drawn in phase 4 (T7), 0-157 and at most the deck; None: 3, duel 2, 6-7: 4
    exhaustions: int | None = None  # the game ends at this exhaustion (E2), 1-10; None: table of S
    tie_break: str = "hand"  # E4
    harvest: str = "lenient"  # H4 reading
    reshuffle: str = "at-exhaustion"  # E1 reading: at the last card, or when a card is next needed
    quick: bool = False  # V1: no reshuffle, the game ends at the first exhaustion
    distinct_fields: bool = False  # V2: the two phase-1 plantings go to different fields
    draw_each: bool = False  # V4: phase 4 is "every player draws 1, active player first"
    field_beans: bool = False  # V5: harvesting exactly 2 field beans gives a third field
    meters: tuple[tuple[int, Meter], ...] = ()  # beanometer overrides (C3)
    max_offers: int = 10  # proposals per turn (trading protocol, T3), 0-30
    max_deal_cards: int = 2  # cards per side that legal_actions enumerates (T3), 0-3
    expansion: str = ""  # the expansion played ("" none), turned on by its option (``name=true``)
    extra: tuple[tuple[str, int], ...] = ()  # the expansions' own options away from their defaults, by name

    def replace(self, **changes: Any) -> Ruleset:
        """The ruleset with ``changes``, by field name or by an expansion's option name (its switch,
        ``name=True``, sets ``expansion``; its own options go to ``extra``)."""
        own = {k: v for k, v in changes.items() if k in _FIELD_TYPES}
        if len(own) < len(changes):
            expansion = own.get("expansion", self.expansion)
            extra = dict(own.get("extra", self.extra))
            for k, v in changes.items():
                if k in own:
                    continue
                if k in SETUP_RULES and k:
                    if v and expansion not in ("", k):
                        raise RulesetError(f"options {expansion} and {k}: one expansion at a time")
                    expansion = k if v else ("" if expansion == k else expansion)
                elif k in EXTRA_DEFAULTS:
                    extra[k] = v
                else:
                    raise RulesetError(f"unknown option {k!r}; options are {', '.join(OPTION_NAMES)}")
            own["expansion"] = expansion
            own["extra"] = tuple(sorted((k, v) for k, v in extra.items() if v != EXTRA_DEFAULTS[k]))
        return dataclasses.replace(self, **own)

    def options(self) -> dict[str, Any]:
        """Every option by name, as JSON values (record headers, docs/records.md): the base ones by
        field name, then each registered expansion's switch (its name) and its own options."""
        out: dict[str, Any] = {k: _option_to_json(k, getattr(self, k)) for k in _BASE_OPTIONS}
        extra = dict(self.extra)
        for x in SETUP_RULES.values():
            if x.name:
                out[x.name] = self.expansion == x.name
                out.update((k, extra.get(k, default)) for k, (default, _) in x.options.items())
        return out

    def option(self, key: str) -> Any:
        """One option by its name in ``options()`` (an expansion's own, e.g. ``max_sails``, included)."""
        if key in _BASE_OPTIONS:
            return getattr(self, key)
        if key in SETUP_RULES and key:
            return self.expansion == key
        return dict(self.extra).get(key, EXTRA_DEFAULTS[key])


def _option_to_json(key: str, value: Any) -> Any:
    if key in ("beans", "removed") and value is not None:
        return [BEAN_NAMES[b] for b in value]
    if key == "meters":
        return {BEAN_NAMES[b]: format_meter(m) for b, m in value}
    return value


PRESETS: dict[str, Ruleset] = {
    # The English Rio Grande rulebook, 2-7 players, 154 cards.
    "rio-grande": Ruleset(),
    # The current Amigo rulebook (S1): 104 cards, 3-5 players, no third field, 3 exhaustions.
    "amigo": Ruleset(
        name="amigo", beans=AMIGO_BEANS, min_players=3, max_players=5,
        third_field=False, exhaustions=3, tie_break="seat",
    ),
    # The first Amigo printing (seed 001): two fields for everyone, a third for 3 coins.
    "amigo-1997": Ruleset(
        name="amigo-1997", beans=AMIGO_BEANS, min_players=3, max_players=5, fields=2,
        third_field=True, third_field_cost=3, exhaustions=3, tie_break="seat",
    ),
    # Amigo "Variante 1" (V4): coffee, wax and cocoa added; everyone draws 1 in phase 4.
    "amigo-v1": Ruleset(
        name="amigo-v1", beans=RIO_GRANDE_BEANS, min_players=3, max_players=5,
        third_field=False, tie_break="seat", draw_each=True,
    ),
    # Amigo "Variante 2" (V5): 8 base types, wax and 3 field beans, 4-5 players.
    "amigo-v2": Ruleset(
        name="amigo-v2", beans=AMIGO_V2_BEANS, min_players=4, max_players=5,
        third_field=False, tie_break="seat", draw_each=True, field_beans=True, exhaustions=3,
    ),
}

_BOOL_WORDS = {"true": True, "yes": True, "1": True, "on": True,
               "false": False, "no": False, "0": False, "off": False}


def preset(name: str) -> Ruleset:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesetError(f"unknown ruleset {name!r}; presets are {', '.join(PRESETS)}") from None


def _bean_list(key: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, (str, list, tuple)):
        raise RulesetError(f"option {key}: expected a list of bean names, got {_show(value)}")
    items = value.split(",") if isinstance(value, str) else list(value)
    try:
        return tuple(sorted({int(bean(x)) for x in items if str(x).strip()}))
    except ValueError as e:
        raise RulesetError(f"option {key}: {e}") from None


def _coerce(key: str, value: Any, kind: Any) -> Any:
    """Turn an option value (a string from the command line or a JSON value) into its field type."""
    if key in ("beans", "removed"):
        if value is None or (key == "removed" and value in ("table", "auto", "none-table")):
            if key == "beans":
                raise RulesetError("option beans cannot be null")
            return None
        return _bean_list(key, value)
    if key == "meters":
        if isinstance(value, str):  # cocoa:1/3/4/-;garden:...
            pairs = [p.split(":", 1) for p in value.split(";") if p.strip()]
            if any(len(pair) != 2 for pair in pairs):
                raise RulesetError(f"option meters: {value!r} is not like 'cocoa:1/3/4/-;garden:2/3/-/-'")
            value = {k: v for k, v in pairs}
        if not isinstance(value, dict):
            raise RulesetError("option meters: expected an object like {\"cocoa\": \"1/3/4/-\"}")
        if not all(isinstance(v, str) for v in value.values()):
            raise RulesetError("option meters: each beanometer is a string like \"1/3/4/-\" (C3)")
        try:
            return tuple(sorted((int(bean(k)), parse_meter(v)) for k, v in value.items()))
        except ValueError as e:
            raise RulesetError(f"option meters: {e}") from None
    if key in ("tie_break", "harvest", "reshuffle"):
        allowed = {"tie_break": TIE_BREAKS, "harvest": HARVEST_READINGS, "reshuffle": RESHUFFLE_READINGS}[key]
        if value not in allowed:
            raise RulesetError(f"option {key}: {_show(value)} is not one of {', '.join(allowed)}")
        return value
    optional = "None" in str(kind)
    if value is None or (isinstance(value, str) and value in ("table", "auto", "null")):
        if optional:
            return None
        raise RulesetError(f"option {key} needs a value")
    if "bool" in str(kind):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _BOOL_WORDS:
            return _BOOL_WORDS[value.lower()]
        raise RulesetError(f"option {key}: {value!r} is not true or false")
    if "int" in str(kind):
        if isinstance(value, bool) or not isinstance(value, (int, str)):  # 1.7 is not read as 1
            raise RulesetError(f"option {key}: {_show(value)} is not a whole number")
        try:
            number = int(value)
        except ValueError:  # also more digits than int() reads (4300)
            raise RulesetError(f"option {key}: {_show(value)} is not a whole number") from None
        why = out_of_range(key, number) if key in OPTION_RANGES else None
        if why is not None:
            raise RulesetError(f"option {key}: {why}")
        return number
    raise RulesetError(f"option {key} cannot be set")


_FIELD_TYPES = {f.name: f.type for f in dataclasses.fields(Ruleset)}
_BASE_OPTIONS: tuple[str, ...] = tuple(k for k in _FIELD_TYPES if k not in ("name", "expansion", "extra"))
OPTION_NAMES: list[str] = list(_BASE_OPTIONS)  # every option; a registered expansion adds its own
EXTRA_DEFAULTS: dict[str, int] = {}  # an expansion's own options: their defaults


def ruleset(name: str = "rio-grande", options: dict[str, Any] | None = None) -> Ruleset:
    """The preset ``name`` with ``options`` (field name -> value, strings accepted) applied (V3)."""
    base = preset(name)
    changes: dict[str, Any] = {}
    for key, value in (options or {}).items():
        k = key.replace("-", "_")
        if k not in OPTION_NAMES:
            raise RulesetError(f"unknown option {key!r}; options are {', '.join(OPTION_NAMES)}")
        changes[k] = _coerce(k, value, _FIELD_TYPES.get(k, "bool" if k in SETUP_RULES else "int"))
    rules = base.replace(**changes) if changes else base
    if rules.min_players > rules.max_players:
        raise RulesetError(
            f"options min_players and max_players: {rules.min_players}-{rules.max_players} is no range (S)")
    if rules.face_up == 0 and rules.draw == 0:
        raise RulesetError("options face_up and draw cannot both be 0: the deck would never run out (E1)")
    return rules


def parse_option_args(items: list[str]) -> dict[str, str]:
    """``["tie_break=seat", "quick=true"]`` -> dict; errors name the bad item."""
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise RulesetError(f"option {item!r} must look like KEY=VALUE")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


# Section S, rio-grande column: bean types removed by player count.
REMOVED_BY_PLAYERS: dict[int, tuple[int, ...]] = {
    2: (Bean.GARDEN, Bean.COCOA),
    3: (Bean.COCOA,),
    4: (Bean.COFFEE,),
    5: (Bean.COFFEE,),
    6: (Bean.GARDEN, Bean.COCOA),
    7: (Bean.GARDEN, Bean.COCOA),
}


def _ramp(players: int) -> tuple[int, ...]:
    """S: starting hands of 3, 4, 5, then 6 cards by seat."""
    return tuple(min(3 + seat, 6) for seat in range(players))


class SetupRules:
    """Section S for the base game: the numbers an expansion may change when a ruleset is resolved
    for a player count (``setup``), and the options it adds. ``model.expansion.Expansion`` extends
    it; the registry (``model/expansions.py``) hands every expansion to ``register``, so that this
    module, below the expansions, reads them without naming one."""

    name = ""  # the expansion's name: ``Setup.expansion``, and its option that turns it on (``name=true``)
    called = ""  # its name in words, for messages ("ruleset amigo with ...")
    rule_ids = ""  # the span of its rule IDs, e.g. "X1-X9"
    rule = "S"  # the rule its player counts come from
    options: Mapping[str, tuple[int, OptionRange]] = {}  # its own count options: default and range

    def player_range(self, rules: Ruleset) -> tuple[int, int]:
        """The player counts the ruleset allows (S)."""
        return rules.min_players, rules.max_players

    def removed(self, rules: Ruleset, players: int) -> tuple[int, ...]:
        """S: the bean types removed for ``players`` (when the ruleset does not say)."""
        return REMOVED_BY_PLAYERS[players]

    def third_field(self, rules: Ruleset, players: int, fields: int) -> bool:
        """F1: may the third field be bought, with ``fields`` starting fields (the third is the most)."""
        can_buy = rules.third_field if rules.third_field is not None else players != 3
        return can_buy and fields < 3

    def third_field_cost(self, players: int) -> int:
        """F1: the third field's price when the ruleset does not say."""
        return 2 if players >= 6 else 3

    def hands(self, players: int) -> tuple[int, ...]:
        """S: the starting hand per seat when the ruleset does not say."""
        return _ramp(players) if players >= 6 else (5,) * players

    def draw(self, players: int) -> int:
        """T7, D2: cards drawn in phase 4 when the ruleset does not say."""
        return 2 if players == 2 else (4 if players >= 6 else 3)

    def final_exhaustion(self, players: int) -> int:
        """E2: the exhaustion that ends the game when the ruleset does not say (the duel, D: the first)."""
        return 1 if players == 2 else (2 if players == 3 else 3)

    def reserved(self, su: Setup) -> int:
        """S2: how many cards from the top of the shuffled deck the expansion is dealt before the hands."""
        return 0

    def setup_of(self, rules: Ruleset, players: int) -> object | None:
        """The expansion's own setup numbers (``Setup.ext``: prices, counts); the base game has none."""
        return None


SETUP_RULES: dict[str, SetupRules] = {"": SetupRules()}  # by name; ``register`` adds the expansions


def register(x: SetupRules) -> None:
    """Make ``x``'s setup rules and options known (``model.expansions.install`` calls it)."""
    SETUP_RULES[x.name] = x
    for key, (default, bound) in x.options.items():
        OPTION_RANGES[key] = bound
        EXTRA_DEFAULTS[key] = default
    OPTION_NAMES.extend(k for k in (x.name, *x.options) if k and k not in OPTION_NAMES)


@dataclass(frozen=True, slots=True)
class Setup:
    """A ruleset resolved for one player count: the numbers the engine plays by (S, F1, D, V)."""

    rules: Ruleset
    players: int
    beans: tuple[int, ...]  # bean types in play
    deck: tuple[int, ...] = field(repr=False)  # one unshuffled copy of every card in play
    fields: int  # starting fields
    third_cost: int | None  # cost of the third field, None if it cannot be bought (F1)
    hands: tuple[int, ...]  # starting hand size per seat
    face_up: int  # T2 / D2 step 3
    draw: int  # T7 / D2 step 4
    final_exhaustion: int  # E2
    duel: bool  # D1-D2
    strict_harvest: bool  # H4 reading
    on_demand: bool  # E1 reading ``reshuffle=on-demand``: exhaust when a card is needed from an empty pile
    payout: tuple[tuple[int, ...], ...] = field(repr=False)  # payout[bean][n] (C1)
    meters: tuple[Meter, ...] = field(repr=False)
    expansion: str = ""  # the ``model.expansions.EXPANSIONS`` key of the expansion played ("" none)
    ext: object | None = field(default=None, repr=False)  # the expansion's own setup numbers, typed by
    # it (``SetupRules.setup_of``: prices, counts; the expansion reads it back with its own accessor)


@lru_cache(maxsize=256)
def setup(rules: Ruleset, players: int) -> Setup:
    """Resolve ``rules`` for ``players`` seats (section S, as its expansion changes it); raises
    RulesetError if impossible."""
    x = SETUP_RULES[rules.expansion]
    lo, hi = x.player_range(rules)
    if not lo <= players <= hi:
        title = f" with {x.called}" if x.called else ""
        raise RulesetError(f"ruleset {rules.name}{title} is for {lo}-{hi} players, not {players} ({x.rule})")
    duel = players == 2
    removed = rules.removed if rules.removed is not None else x.removed(rules, players)
    beans = tuple(b for b in rules.beans if b not in removed)
    if not beans:
        raise RulesetError("no bean types left in the deck after removals (S)")
    fields = rules.fields if rules.fields is not None else (3 if players == 3 else 2)
    can_buy = x.third_field(rules, players, fields)
    cost = rules.third_field_cost if rules.third_field_cost is not None else x.third_field_cost(players)
    hands = (rules.hand,) * players if rules.hand is not None else x.hands(players)
    face_up = rules.face_up if rules.face_up is not None else (3 if duel else 2)
    draw = rules.draw if rules.draw is not None else x.draw(players)
    if rules.quick:
        final = 1  # V1
    elif rules.exhaustions is not None:
        final = rules.exhaustions
    else:
        final = x.final_exhaustion(players)
    meters = list(METERS)
    for b, m in rules.meters:
        meters[b] = m
    deck = tuple(b for b in beans for _ in range(COUNTS[b]))
    for key, value in (("face_up", face_up), ("draw", draw)):
        if value > len(deck):
            bound = OPTION_RANGES[key]
            raise RulesetError(f"option {key}: {value} is more than the {len(deck)} cards of the deck "
                               f"({bound.rule})")
    su = Setup(
        rules=rules, players=players, beans=beans, deck=deck, fields=fields,
        third_cost=cost if can_buy else None, hands=hands, face_up=face_up, draw=draw,
        final_exhaustion=final, duel=duel, strict_harvest=rules.harvest == "strict",
        on_demand=rules.reshuffle == "on-demand",
        payout=payout_table(tuple(meters), max(COUNTS) + 8), meters=tuple(meters),
        expansion=x.name, ext=x.setup_of(rules, players),
    )
    if sum(hands) + x.reserved(su) >= len(deck):
        raise RulesetError(
            f"a deck of {len(deck)} cards cannot deal {sum(hands)} cards and keep a draw pile (S2)")
    return su
