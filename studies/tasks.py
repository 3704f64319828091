"""A study expanded into independent tasks, each with a key and a seed derived from the key.

A task's result is a function of its parameters and its seed only: the seed is
``derive(study seed, key)``, and each game inside a task takes ``derive(study seed, game key)``,
so results do not depend on the order tasks run in, on the executor, or on the batch size
(``batch`` groups games into tasks; the games and their seeds stay the same).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from studies.spec import Endgame, Simulation, Study, bot_names


def derive(seed: int, key: str) -> int:
    """A 48-bit seed from the study seed and a key (SHA-256: stable across Python versions and
    processes, unlike ``hash``)."""
    return int.from_bytes(hashlib.sha256(f"{seed}/{key}".encode()).digest()[:6], "big")


@dataclass(frozen=True)
class Task:
    """One unit of work: ``kind`` ("simulation" or "endgame"), its ``key`` (unique in the study,
    ``sim/NAME/RULESET/4p/BOTS/g0-99`` or ``end/NAME/RULESET/4p/6cards/pos3``), its ``seed``
    and the JSON-able ``params`` the worker needs."""

    key: str
    kind: str
    seed: int
    params: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "kind": self.kind, "seed": self.seed, "params": self.params}

    @staticmethod
    def from_json(obj: dict[str, Any]) -> Task:
        return Task(obj["key"], obj["kind"], obj["seed"], obj["params"])


def expand(study: Study) -> list[Task]:
    """Every task of the study, in the study's order (the order of the results file)."""
    tasks: list[Task] = []
    for sim in study.simulations:
        tasks.extend(_simulation_tasks(study.seed, sim))
    for end in study.endgames:
        tasks.extend(_endgame_tasks(study.seed, end))
    return tasks


def _simulation_tasks(seed: int, sim: Simulation) -> list[Task]:
    out = []
    for name in sim.rulesets:
        for n in sim.players:
            for bots in sim.bots:
                seats = bot_names(bots, n)
                group = f"sim/{sim.name}/{name}/{n}p/{','.join(seats)}"
                for g0 in range(0, sim.games, sim.batch):
                    games = list(range(g0, min(g0 + sim.batch, sim.games)))
                    key = f"{group}/g{games[0]}-{games[-1]}"
                    params = {"study": sim.name, "group": group, "ruleset": name, "options": sim.options,
                              "players": n, "bots": seats, "games": games,
                              "seeds": [derive(seed, f"{group}/game{g}") for g in games]}
                    out.append(Task(key, "simulation", derive(seed, key), params))
    return out


def _endgame_tasks(seed: int, end: Endgame) -> list[Task]:
    out = []
    for name in end.rulesets:
        for n in end.players:
            for k in end.cards_left:
                group = f"end/{end.name}/{name}/{n}p/{k}cards"
                for i in range(end.positions):
                    key = f"{group}/pos{i}"
                    params = {"study": end.name, "group": group, "ruleset": name, "options": end.options,
                              "players": n, "cards_left": k, "hand": end.hand, "draw": end.draw,
                              "objectives": end.objectives, "method": end.method,
                              "node_limit": end.node_limit, "time_limit": end.time_limit}
                    if end.work_limit is not None:  # absent otherwise: older studies keep their tasks
                        params["work_limit"] = end.work_limit
                    out.append(Task(key, "endgame", derive(seed, key), params))
    return out
