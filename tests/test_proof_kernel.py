"""The proof kernel (proofs/kernel.py) both specs share: its phase numbers are the engine's, its
beanometer is the card table's (C1) in both of its term shapes, field fit (H3) and harvest
protection (H4) read the rules, and ``settle`` stops at a decision point and refuses a stuck or an
ambiguous spec."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
import z3

from model.cards import coins_for as table_coins
from model.rules import ruleset, setup
from model.state import Phase
from proofs import kernel
from proofs.kernel import SpecError, Transition, coins_for, field_fits, harvestable, settle


@dataclass(frozen=True)
class Pl:
    fb: tuple[int, ...]
    fc: tuple[int, ...]
    nf: int


@dataclass(frozen=True)
class St:
    phase: int
    n: int = 0


def test_decision_phases_are_the_engines_public_numbers():
    assert {kernel.PLANT, kernel.TRADE, kernel.PLANT_ASIDE, kernel.OFFER, kernel.DISCARD, kernel.TURNED,
            kernel.CHANCE, kernel.OVER} == {int(p) for p in Phase}
    internal = (kernel.DRAW, kernel.TURNUP, kernel.MATCH, kernel.START, kernel.ENDTURN, kernel.FINISH,
                kernel.ASIDE_NEXT, kernel.REFILL)
    assert len(set(internal)) == len(internal) and not set(internal) & {int(p) for p in Phase}


@pytest.mark.parametrize("name", ["rio-grande", "amigo"])
def test_C1_beanometer_terms_agree_with_the_card_table(name):
    su = setup(ruleset(name), 4)
    b, n = z3.Int("b"), z3.Int("n")
    for bean in su.beans:
        for cards in range(0, 14):
            want = table_coins(su.meters[bean], cards)
            assert coins_for(su.meters, bean, cards) == want
            assert coins_for(su.meters, bean, cards, beans=su.beans) == want
            for term in (coins_for(su.meters, b, n), coins_for(su.meters, b, n, beans=su.beans)):
                got = z3.simplify(z3.substitute(term, (b, z3.IntVal(bean)), (n, z3.IntVal(cards))))
                assert got.as_long() == want
        late = coins_for(su.meters, bean, su.meters[bean][0] or 99, late_first=True)
        assert su.meters[bean][0] is None or late == 0  # the mutant's first coin comes one card late


def test_H3_a_card_fits_an_empty_field_or_its_own_type_on_an_owned_field():
    pl = Pl(fb=(3, -1, -1), fc=(2, 0, 0), nf=2)
    assert field_fits(pl, 0, 3) is True and field_fits(pl, 1, 5) is True
    assert field_fits(pl, 0, 5) is False and field_fits(pl, 2, 5) is False  # not owned
    assert field_fits(pl, 3, 5) is False and field_fits(pl, -1, 5) is False


def test_H4_a_single_is_protected_while_another_field_holds_more():
    pl = Pl(fb=(3, 4, -1), fc=(1, 2, 0), nf=2)
    assert harvestable(pl, 0, strict=False) is False and harvestable(pl, 1, strict=False) is True
    assert harvestable(pl, 0, strict=False, protect=False) is True
    ones = Pl(fb=(3, 4, -1), fc=(1, 1, 0), nf=3)  # the strict reading: every field exactly one
    assert harvestable(ones, 0, strict=False) is True and harvestable(ones, 0, strict=True) is False
    assert harvestable(replace(ones, nf=2), 0, strict=True) is True
    assert harvestable(pl, 2, strict=False) is False and harvestable(pl, 5, strict=False) is False


def test_settle_runs_internal_steps_and_refuses_a_stuck_or_ambiguous_spec():
    def step(to: int) -> Transition[St, int]:
        return Transition(0, f"to-{to}", lambda s, a: s.phase == 10, lambda s, a: St(to, s.n + 1), True)

    assert settle(St(10), [(step(1), 0)], internal=(10,), limit=5) == St(1, 1)
    assert settle(St(1), [(step(1), 0)], internal=(10,), limit=5) == St(1)
    with pytest.raises(SpecError, match="2 internal steps enabled"):
        settle(St(10), [(step(1), 0), (step(2), 0)], internal=(10,), limit=5)
    assert settle(St(10), [(step(1), 0), (step(2), 0)], internal=(10,), limit=5, any_order=(10,)) == St(1, 1)
    with pytest.raises(SpecError, match="0 internal steps enabled"):
        settle(St(11), [(step(1), 0)], internal=(11,), limit=5)
    with pytest.raises(SpecError, match="did not reach a decision point"):
        settle(St(10), [(step(10), 0)], internal=(10,), limit=5)
