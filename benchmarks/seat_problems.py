"""Random seat problems for the seat solvers' comparison (tests/test_seat_batch.py, ``bench.py
seats``): a seat's fields, coins and batches in timeline order, as solvers.flow.seat_dp.solve_seat takes
them, over every bean of a ruleset, 2 or 3 fields, a purchase open or not, both readings of H4.

Sized so that the card-level DP (the reference) answers: a phase-3 batch of up to 40 cards, with
the product of (count + 1) over its beans at most ``SPREAD`` (the DP's states grow with it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import model
from solvers.flow.seat_dp import EMPTY, SeatRules

SPREAD = 600
# (ruleset, players, fields, third-field option): a purchase open for 3, 2 or 1 coins, a third
# already owned, none to buy
CONFIGS: list[tuple[str, int, int, dict[str, int]]] = [
    ("rio-grande", 4, 2, {}), ("rio-grande", 6, 2, {}), ("rio-grande", 4, 2, {"third_field_cost": 1}),
    ("rio-grande", 4, 3, {}), ("amigo", 3, 3, {}), ("amigo", 4, 2, {}),
]


@dataclass(frozen=True)
class SeatProblem:
    rules: SeatRules
    fields: tuple[tuple[int, int], ...]
    coins: int
    batches: list[tuple[int, str, dict[int, int]]]
    label: str

    def __str__(self) -> str:
        return (f"{self.label}, strict H4 {self.rules.strict}, third field {self.rules.cost}: fields "
                f"{self.fields}, coins {self.coins}, batches {self.batches}")


def random_problem(rng: random.Random, most: int = 40) -> SeatProblem:
    """One seat problem; ``most``: the most cards of a phase-3 batch."""
    preset, players, nf, options = rng.choice(CONFIGS)
    su = model.setup(model.ruleset(preset, options), players)
    strict = rng.random() < 0.5
    rules = SeatRules(su.payout, strict, su.third_cost if nf == 2 else None)
    beans = list(su.beans)
    pool = rng.sample(beans, rng.randint(2, min(8, len(beans))))
    fields = tuple((rng.choice(pool), n) if (n := rng.choice([0, 1, 1, 2, 3, 5, 8])) else EMPTY
                   for _ in range(nf))
    batches: list[tuple[int, str, dict[int, int]]] = []
    for turn in range(rng.randint(1, 3)):
        if rng.random() < 0.7:
            batches.append((turn, "p1a", {rng.choice(pool): 1}))
            if rng.random() < 0.5:
                batches.append((turn, "p1b", {rng.choice(pool): 1}))
        size = rng.choice([0, 1, 2, 4, 8, 15, 25, most])
        counts: dict[int, int] = {}
        for b in rng.sample(pool, len(pool)):
            if size <= 0:
                break
            spread = 1
            for x in counts.values():
                spread *= x + 1
            n = min(size, SPREAD // spread - 1, rng.randint(1, most))
            if n <= 0:
                break
            counts[b] = n
            size -= n
        if counts:
            batches.append((turn, "p3", counts))
    return SeatProblem(rules, fields, rng.randint(0, 4), batches, f"{preset} {players}p")
