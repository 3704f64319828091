"""The benchmarks' one sampler of positions (solvers/positions.py ``sample_cuts``): seeded cuts,
skipping the games that end too early, so every run measures the very same positions."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import solvers.positions as positions
from solvers.positions import PositionInputError, cut, game_seeds, in_final_pass, sample_cuts


def test_it_yields_count_positions_in_the_final_pass_alternating_rulesets() -> None:
    got = list(sample_cuts(game_seeds(5), 3, 10, 4))
    assert len(got) == 4
    assert all(in_final_pass(s) and len(s.draw) <= 10 and len(s.players) == 3 for s in got)
    assert [s.setup.rules.name for s in got] == ["rio-grande", "amigo", "rio-grande", "amigo"]


def test_it_is_reproducible_from_its_seed() -> None:
    first = list(sample_cuts(game_seeds(7), 4, 15, 3))
    assert first == list(sample_cuts(game_seeds(7), 4, 15, 3))
    assert first != list(sample_cuts(game_seeds(8), 4, 15, 3))


def test_it_skips_a_cut_that_raises() -> None:
    with pytest.raises(PositionInputError):  # seed 12 ends before a turn with at most 1 card left
        cut("rio-grande", 3, 12, 1)
    got = list(sample_cuts([11, 12, 13], 3, 1, rulesets=("rio-grande",)))
    assert got == [cut("rio-grande", 3, 11, 1), cut("rio-grande", 3, 13, 1)]


def test_after_a_skip_the_next_seed_tries_the_same_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_cut(name: str, players: int, seed: int, cards_left: int) -> Any:
        if seed == 2:
            raise PositionInputError("too early")
        return (name, seed)

    monkeypatch.setattr(positions, "cut", fake_cut)
    assert list(sample_cuts([1, 2, 3, 4], 3, 10)) == [("rio-grande", 1), ("amigo", 3), ("rio-grande", 4)]


def test_it_draws_no_seed_after_the_last_position() -> None:
    seeds = iter([11, 13, 15])
    assert len(list(sample_cuts(seeds, 3, 1, 1, rulesets=("rio-grande",)))) == 1
    assert next(seeds) == 13


def test_hand_makes_each_position_small() -> None:
    whole, short = (list(sample_cuts(game_seeds(3), 4, 10, 2, hand=h, draw=4)) for h in (None, 2))
    assert short == [positions.small(s, 2, 4) for s in whole]
    assert all(len(p.hand) <= 2 and len(s.draw) <= 4 for s in short for p in s.players)


def test_it_gives_up_after_max_skips_games_in_a_row_end_too_early(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(name: str, players: int, seed: int, cards_left: int) -> Any:
        raise PositionInputError("too early")

    monkeypatch.setattr(positions, "cut", never)
    with pytest.raises(PositionInputError, match="6 games in a row ended before a turn started"):
        list(sample_cuts(itertools.count(), 3, 10, 2, max_skips=5))
