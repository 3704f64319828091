"""The kinds of conformance case (a seeded game record, an illegal record made from one, a perft
position, an endgame position) and the helpers their makers share, the base game's and every
expansion's (conformance/isla/)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conformance.common import GenerationError, rules_of
from model import Action, GameState, Phase, legal_actions
from model.expansions import hooks
from model.rules import Ruleset
from records.game import action_line
from solvers.api import registered
from solvers.contract import Objective, entry_point
from solvers.positions import BUILTINS, LIBRARY


@dataclass(frozen=True)
class GameSpec:
    """A seeded simulated game (``play.playout.play_game``), written as a record."""

    name: str
    about: str
    ruleset: str
    players: int
    seed: int
    bot: str
    options: tuple[tuple[str, Any], ...] = ()
    stop: Callable[[GameState], bool] | None = None  # stop the record before the first such state

    def rules(self) -> Ruleset:
        return rules_of(self.ruleset, dict(self.options))


@dataclass
class Game:
    """A played game: its record's lines (header, one per action, the end line when over) and the
    state before each action (``states[i]`` before ``actions[i]``; the last one after them all)."""

    spec: GameSpec
    lines: list[dict[str, Any]]
    actions: list[Action]
    states: list[GameState]

    @property
    def final(self) -> GameState:
        return self.states[-1]

    def at(self, pred: Callable[[GameState, Action], bool], nth: int = 0) -> int:
        """The index of the ``nth`` action whose state and action satisfy ``pred``."""
        for i, (s, a) in enumerate(zip(self.states, self.actions, strict=False)):
            if pred(s, a):
                if nth == 0:
                    return i
                nth -= 1
        raise GenerationError(f"{self.spec.name}: no step where the mutation applies")


@dataclass(frozen=True)
class Illegal:
    """A legal record with one step changed, and what a referee must say about it."""

    name: str
    base: str
    rule: str
    make: Callable[[Game], tuple[list[dict[str, Any]], int, str, str]]  # lines, line, change, why
    reason: str = ""  # a word the referee's reason must contain (checked as the record is made)


def insert(game: Game, i: int, action: Action | dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """The record with ``action`` inserted before action ``i``; the new line's number (1-based)."""
    line = action if isinstance(action, dict) else action_line(action)
    return game.lines[:i + 1] + [line] + game.lines[i + 1:], i + 2


def replace(game: Game, i: int, action: Action | dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    line = action if isinstance(action, dict) else action_line(action)
    return game.lines[:i + 1] + [line] + game.lines[i + 2:], i + 2


def delete(game: Game, i: int) -> tuple[list[dict[str, Any]], int]:
    """The record without action ``i``: the line after it takes its number."""
    return game.lines[:i + 1] + game.lines[i + 2:], i + 2


def ins(game: Game, i: int, action: Action, why: str) -> tuple[list[dict[str, Any]], int, str, str]:
    lines, no = insert(game, i, action)
    return lines, no, f"inserted {action}", why


def rep(game: Game, i: int, action: Action, why: str) -> tuple[list[dict[str, Any]], int, str, str]:
    lines, no = replace(game, i, action)
    return lines, no, f"replaced {game.actions[i]} by {action}", why


def other(s: GameState, *not_these: int) -> int:
    return next(q for q in range(len(s.players)) if q not in not_these)


def decision(s: GameState) -> bool:
    return s.to_move >= 0


@dataclass(frozen=True)
class PerftSpec:
    name: str
    description: str
    build: Callable[[], GameState]


def in_trade(s: GameState) -> bool:
    """Phase 2 with nothing to answer first: no offer pending, no expansion's question (``blocked``)."""
    return s.phase == Phase.TRADE and s.pending is None and not hooks(s.setup).blocked(s)


def can(kind: type) -> Callable[[GameState], bool]:
    return lambda s: s.to_move >= 0 and any(isinstance(a, kind) for a in legal_actions(s, proposals=False))


@dataclass(frozen=True)
class EndgameSpec:
    name: str
    description: str
    build: Callable[[], GameState]
    objectives: tuple[tuple[Objective, int | None], ...]  # (objective, player; None: every seat)
    method: str = "exact"  # "cpsat": coop and best by the flow solver (real hands), proved optimal
    # or an expansion's own method (``conformance/expansions.py``'s ``EXPANSION_METHODS``)


def dotted(fn: Callable[..., Any]) -> str:
    """The name a fixture records for a solver's entry point (``tests/test_conformance.py`` imports it
    to solve again): its module's, or its package's where the package exports it
    (``solvers.flow.solve_flow``, not ``solvers.flow.solver.solve_flow``)."""
    module = fn.__module__
    package = module.rpartition(".")[0]
    if package != "solvers" and getattr(sys.modules[package], fn.__name__, None) is fn:
        module = package
    return f"{module}.{fn.__name__}"


def solver_name(s: GameState, objective: Objective, method: str) -> str:
    """The name a fixture records for the solver the registry runs for ``objective`` by ``method`` on
    ``s``'s rules (``solvers.api.registered``): the function behind it (``entry_point``), which
    ``tests/test_conformance.py`` calls to solve again."""
    return dotted(entry_point(registered(s, objective, method), objective))


EXACT_SECONDS = 900.0  # exact search's time limit per value (the node limit comes first today)


def library(name: str) -> Callable[[], GameState]:
    """A built-in position of solvers/positions.py, built when the case is made."""
    def build() -> GameState:
        return (LIBRARY[name] if name in LIBRARY else BUILTINS[name]).position()
    return build
