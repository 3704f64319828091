"""What the conformance builders share: the generation error, canonical JSON text, seeded games
(``play.playout``, seeded by the game's seed) and small state helpers."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from model import GameState, Phase, apply, legal_actions, new_game, ruleset
from model.rules import Ruleset
from model.state import PlayerState, state_to_json
from play.bots import BOTS
from play.playout import playout
from schemas.state_json import state_from_json

PERFT_DEPTHS = (1, 2, 3)
PARTS = ("perft", "records/legal", "records/illegal", "records/referee", "endgames")


class GenerationError(RuntimeError):
    """A fixture could not be made as specified (no such state in the seeded game, or a referee
    verdict that differs from the rule the mutation breaks)."""


# ---------------------------------------------------------------- JSON text


def dumps(value: Any, indent: int = 0) -> str:
    """JSON text: objects and lists of objects one item a line, other lists on one line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        items = [f"{pad}{json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list) and any(isinstance(v, dict) for v in value):
        return "[\n" + ",\n".join(pad + dumps(v, indent + 1) for v in value) + "\n" + "  " * indent + "]"
    return json.dumps(value)


# ---------------------------------------------------------------- seeded games


def rules_of(name: str, options: dict[str, Any] | None = None) -> Ruleset:
    return ruleset(name, options or {})


def game_states(rules: Ruleset, players: int, seed: int, bot: str) -> Iterator[GameState]:
    """Every state of a game: the deck shuffled by ``seed``, the bots and reshuffles drawn from
    ``random.Random(seed)``; the last one is over."""
    for s, _ in playout(new_game(rules, players, seed), BOTS[bot], random.Random(seed)):
        yield s


def find(rules: Ruleset, players: int, seed: int, bot: str, pred: Callable[[GameState], bool],
         what: str) -> GameState:
    """The first state of the seeded game where ``pred`` holds."""
    for s in game_states(rules, players, seed, bot):
        if pred(s):
            return s
    raise GenerationError(f"no state where {what} in {rules.name} {players}p seed {seed} ({bot} bots)")


def last_state(rules: Ruleset, players: int, seed: int, bot: str) -> GameState:
    for s in game_states(rules, players, seed, bot):
        last = s
    return last


def reaches(s: GameState, phases: tuple[int, ...], depth: int) -> bool:
    """Some sequence of at most ``depth`` actions (proposals left out) reaches one of ``phases``."""
    if s.phase in phases:
        return True
    if depth == 0 or s.phase in (Phase.CHANCE, Phase.OVER):
        return False
    return any(reaches(apply(s, a, False), phases, depth - 1) for a in legal_actions(s, proposals=False))


def with_options(s: GameState, options: dict[str, Any]) -> GameState:
    """The same position under other ruleset options (through the state JSON)."""
    obj = state_to_json(s)
    obj["options"] = {**obj["options"], **options}
    return state_from_json(obj)


def mover(s: GameState) -> PlayerState:
    """The seat to move (a decision point)."""
    return s.players[s.to_move]
