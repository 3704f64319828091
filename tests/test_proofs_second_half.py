"""The Z3 proofs of the rule invariants, continued: the second half of the covering configurations
(tests/test_proofs.py proves the first, and says why the two halves are two files). Every property
is proved on ``SECOND`` alone, reaches every situation it speaks about, and every transition of
``KINDS_SECOND`` is proved.
"""

from __future__ import annotations

import pytest
from test_proofs import EXPECTED_SECOND, KINDS_SECOND, SECOND, check_proved, check_reached

from proofs.invariants import Result, prove


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {r.id: r for r in prove(SECOND, only=EXPECTED_SECOND)}


def test_every_property_is_proved_on_the_second_half(results):
    check_proved(results, EXPECTED_SECOND)
    assert any(o.get("reshuffle") == "on-demand" and n > 2 for _, n, o in SECOND)  # with reshuffles


def test_every_property_reaches_what_it_speaks_about(results):
    check_reached(results, EXPECTED_SECOND)


def test_proofs_cover_every_transition_kind_of_the_second_half(results):
    assert KINDS_SECOND <= set(results["card-conservation"].per_kind)
