"""The built-in positions are named after what they hold, not after the threshold they were cut at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from builders import run_script

from model import Phase
from solvers.positions import DEFAULT, LIBRARY, in_final_pass, unknown_position

ROOT = Path(__file__).resolve().parent.parent
CARDS = re.compile(r"^(?:rio|amigo)(?P<players>[3-7])-(?P<cards>\d+)cards$|^duel-(?P<duel>\d+)cards$")
OLD = ("rio3-6", "rio3-12", "rio4-10", "rio4-20", "rio5-15", "amigo3-8", "amigo4-10", "amigo5-20",
       "duel-8", "duel-12", "rio4-pass", "rio4-last")


@pytest.mark.parametrize("name", [n for n in LIBRARY if CARDS.match(n)])
def test_a_cards_name_says_the_players_and_the_cards_left(name: str) -> None:
    m = CARDS.match(name)
    assert m is not None
    s = LIBRARY[name].position()
    assert len(s.draw) == int(m["cards"] or m["duel"])
    assert len(s.players) == (2 if m["duel"] else int(m["players"]))
    assert s.setup.rules.name == ("amigo" if name.startswith("amigo") else "rio-grande")
    assert in_final_pass(s) and not s.final


def test_last_turn_and_final_pass_hold_what_they_say() -> None:
    last = LIBRARY["rio4-last-turn"].position()
    su = last.setup
    # the pile holds this turn's turn-up and draw and no more: the game ends in this turn (E2)
    assert su.face_up < len(last.draw) <= su.face_up + su.draw and in_final_pass(last)
    assert last.phase == Phase.PLANT and len(last.players) == 4
    first = LIBRARY["rio4-final-pass"].position()
    # the first turn after the last reshuffle: the pile is the last one, with more than one turn in it
    assert first.exhaustions == first.setup.final_exhaustion - 1 and len(first.draw) > su.face_up + su.draw
    assert first.phase == Phase.PLANT and len(first.players) == 4


def test_the_old_threshold_names_are_gone() -> None:
    assert not set(OLD) & set(LIBRARY)
    assert DEFAULT == "rio4-last-turn" and DEFAULT in LIBRARY


def test_an_unknown_name_lists_the_built_in_ones() -> None:
    message = unknown_position("rio4-10")
    assert message.startswith("rio4-10: no such file or built-in position")
    assert all(name in message for name in LIBRARY) and "\n" not in message
    proc = run_script("solve_endgame.py", "rio4-10")
    assert proc.returncode == 2 and proc.stderr.strip() == f"solve_endgame.py: {message}"
