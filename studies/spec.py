"""A study file: what to run, declared in TOML or JSON (docs/studies.md).

Two kinds of work, each a list of entries: ``simulations`` (bots playing whole games: rulesets,
player counts, bots, games, options) and ``endgames`` (positions cut from seeded bot games, solved
for ``solo`` per seat, ``coop``, ``best`` and ``expected``). Every key is checked before any work:
an unknown key, a value out of range, a ruleset, bot, option or player count the rules do not
allow is one ``StudyError`` naming the file and the key (``small.toml: endgames[0].players[1]: ...``).
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from model.errors import InputError
from model.jsonio import loads
from model.rules import PRESETS, ruleset, setup
from play.bots import BOTS
from schemas.shapes import describe
from solvers.api import methods
from solvers.contract import DEFAULT_NODES, DEFAULT_SECONDS, EXPECTED, OBJECTIVES

BUILTIN = ("small", "medium", "paper")
NAME = r"^[a-z0-9][a-z0-9-]*$"
_STRICT = ConfigDict(strict=True, extra="forbid")

Players = Annotated[int, Field(ge=2, le=7)]
OptionValue = str | int | bool


class StudyError(InputError):
    """A study file that cannot be read or asks for what the rules or the solvers do not allow."""


class Simulation(BaseModel):
    """Bots play ``games`` whole games per (ruleset, players, bots); ``batch`` games make one task."""

    model_config = _STRICT
    name: Annotated[str, Field(pattern=NAME)]
    rulesets: Annotated[list[str], Field(min_length=1)]
    players: Annotated[list[Players], Field(min_length=1)]
    bots: Annotated[list[str], Field(min_length=1)] = ["greedy"]
    games: Annotated[int, Field(ge=1)]
    batch: Annotated[int, Field(ge=1)] = 100
    options: dict[str, OptionValue] = {}


# A study solves every objective but the bean duel's (a study has no two-seat games, D1), read from
# the registry of objectives; the literal keeps pydantic's check and its message.
STUDY_OBJECTIVES = tuple(o.name for o in OBJECTIVES.values() if not o.duel)
if TYPE_CHECKING:
    Objective = str
else:
    Objective = Literal[STUDY_OBJECTIVES]


class Endgame(BaseModel):
    """``positions`` positions per (ruleset, players, cards_left), cut from greedy games at the
    first turn of the final pass with at most ``cards_left`` cards in the draw pile (E2), hands cut
    to ``hand`` cards and the pile to ``draw`` when given; each solved for ``objectives``."""

    model_config = _STRICT
    name: Annotated[str, Field(pattern=NAME)]
    rulesets: Annotated[list[str], Field(min_length=1)]
    players: Annotated[list[Players], Field(min_length=1)]
    cards_left: Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=1)]
    positions: Annotated[int, Field(ge=1)]
    hand: Annotated[int, Field(ge=0)] | None = None
    draw: Annotated[int, Field(ge=0)] | None = None
    objectives: Annotated[list[Objective], Field(min_length=1)] = ["solo", "coop", "best"]
    method: Literal["exact", "cpsat"] = "exact"
    node_limit: Annotated[int, Field(ge=1)] = DEFAULT_NODES
    time_limit: Annotated[float, Field(gt=0)] = DEFAULT_SECONDS
    work_limit: Annotated[float, Field(gt=0)] | None = None  # the flow solver's, CP-SAT deterministic s
    options: dict[str, OptionValue] = {}


class Study(BaseModel):
    """A whole study: its ``name``, the ``seed`` every task's seed derives from, and the work."""

    model_config = _STRICT
    name: Annotated[str, Field(pattern=NAME)]
    seed: Annotated[int, Field(ge=0)] = 0
    about: str = ""
    simulations: list[Simulation] = []
    endgames: list[Endgame] = []

    def canonical(self) -> str:
        """The study as canonical JSON: equal for equal studies, whatever the file's layout."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))

    def digest(self) -> str:
        """The first 16 hex digits of the canonical JSON's SHA-256: names the study in its results."""
        return hashlib.sha256(self.canonical().encode()).hexdigest()[:16]


def load(source: str) -> Study:
    """The study in file ``source`` (``.toml`` or ``.json``), or the built-in study of that name."""
    if source in BUILTIN and not Path(source).exists():
        text = resources.files("studies").joinpath(f"builtin/{source}.toml").read_text("utf-8")
        return parse(text, f"{source}.toml", "toml")
    path = Path(source)
    kind = "json" if path.suffix == ".json" else "toml" if path.suffix == ".toml" else ""
    if not kind:
        raise StudyError(f"{source}: a study file ends in .toml or .json (or name a built-in study: "
                         f"{', '.join(BUILTIN)})")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise StudyError(f"{source}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise StudyError(f"{source}: not UTF-8 text (byte offset {e.start})") from None
    return parse(text, source, kind)


def parse(text: str, where: str, kind: str = "toml") -> Study:
    """A checked study from TOML or JSON text; ``where`` leads every message."""
    if kind == "toml":
        try:
            data: Any = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise StudyError(f"{where}: not TOML: {e}") from None
    else:
        data = loads(text, where)
    try:
        study = Study.model_validate(data)
    except ValidationError as e:
        raise StudyError(f"{where}: {describe(e.errors(include_url=False)[0])}") from None
    check(study, where)
    return study


def check(study: Study, where: str) -> None:
    """What the shapes cannot say: known rulesets, bots and options, player counts the rules allow
    (S, D1), objectives the solvers cover, names unique, some work to do."""
    if not study.simulations and not study.endgames:
        raise StudyError(f"{where}: the study has no simulations and no endgames: nothing to run")
    seen: set[str] = set()
    entries: list[tuple[str, int, Simulation | Endgame]] = [
        *(("simulations", i, e) for i, e in enumerate(study.simulations)),
        *(("endgames", i, e) for i, e in enumerate(study.endgames))]
    for section, i, e in entries:
        _check_entry(e, f"{where}: {section}[{i}]", seen)


def _check_entry(e: Simulation | Endgame, at: str, seen: set[str]) -> None:
    if e.name in seen:
        raise StudyError(f"{at}.name: {e.name!r} is used twice; names key the tasks")
    seen.add(e.name)
    for j, name in enumerate(e.rulesets):
        if name not in PRESETS:
            raise StudyError(f"{at}.rulesets[{j}]: unknown ruleset {name!r}; rulesets are "
                             f"{', '.join(PRESETS)}")
    for name in e.rulesets:
        try:
            rules = ruleset(name, dict(e.options))
        except InputError as err:
            raise StudyError(f"{at}.options: {err}") from None
        for k, n in enumerate(e.players):
            try:
                setup(rules, n)
            except InputError as err:
                raise StudyError(f"{at}.players[{k}]: {err}") from None
    if isinstance(e, Simulation):
        for j, bots in enumerate(e.bots):
            names = bot_names(bots, 0)
            bad = [b for b in names if b not in BOTS]
            if bad:
                raise StudyError(f"{at}.bots[{j}]: unknown bot {bad[0]!r}; bots are "
                                 f"{', '.join(BOTS)}")
            for k, n in enumerate(e.players):
                if len(names) not in (1, n):
                    raise StudyError(f"{at}.bots[{j}]: {bots!r} names {len(names)} bots for the "
                                     f"{n} players of players[{k}]")
    else:
        _check_endgame(e, at)
    if len(set(e.players)) != len(e.players) or len(set(e.rulesets)) != len(e.rulesets):
        raise StudyError(f"{at}: a ruleset or player count is listed twice")


def _check_endgame(e: Endgame, at: str) -> None:
    if len(set(e.objectives)) != len(e.objectives):
        raise StudyError(f"{at}.objectives: an objective is listed twice")
    for k, n in enumerate(e.players):
        if n == 2:
            raise StudyError(f"{at}.players[{k}]: the bean duel has no trading (D1) and is solved by "
                             "scripts/solve_endgame.py --objective duel, not by a study")
    goals = [OBJECTIVES[name] for name in e.objectives]  # the study file's names, checked by pydantic
    for goal in goals:
        have = methods(goal)
        if e.method not in have:
            raise StudyError(f"{at}.objectives: {goal.name} is solved by {' and '.join(have)} only; "
                             f"use method = \"{have[0]}\"")
    if e.options.get("reshuffle") == "on-demand" and EXPECTED in goals:
        raise StudyError(f"{at}.options.reshuffle: expected covers E1's at-exhaustion reading only")


def bot_names(bots: str, players: int) -> list[str]:
    """``"greedy"`` or ``"greedy,random,..."``: one bot for every seat, or one per seat."""
    names = [b.strip() for b in bots.split(",")]
    return names * players if len(names) == 1 and players else names
