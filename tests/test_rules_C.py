"""Section C of RULES.md: the cards, the beanometer (C1), the decks of the editions (C2), C3 overrides."""

from __future__ import annotations

from collections import Counter

import pytest
from builders import B, fields, player, position, rules

import model
from model import Bean, Harvest, coins_for, setup
from model.cards import METERS

# The table of section C, copied from RULES.md: cards in the catalog, thresholds for 1/2/3/4 coins.
TABLE = {
    B.COFFEE: (24, (4, 7, 10, 12)),
    B.WAX: (22, (4, 7, 9, 11)),
    B.BLUE: (20, (4, 6, 8, 10)),
    B.CHILI: (18, (3, 6, 8, 9)),
    B.STINK: (16, (3, 5, 7, 8)),
    B.GREEN: (14, (3, 5, 6, 7)),
    B.SOY: (12, (2, 4, 6, 7)),
    B.BLACKEYED: (10, (2, 4, 5, 6)),
    B.RED: (8, (2, 3, 4, 5)),
    B.GARDEN: (6, (None, 2, 3, None)),
    B.COCOA: (4, (None, 2, 3, 4)),
    B.FIELD: (3, (None, None, 3, None)),
}


def expected_coins(thresholds: tuple[int | None, ...], n: int) -> int:
    """C1, written out independently: the largest value whose threshold is reached."""
    return max([v for v, need in enumerate(thresholds, start=1) if need is not None and need <= n],
               default=0)


@pytest.mark.rule("C1")
@pytest.mark.parametrize("bean", list(TABLE))
def test_C1_harvest_pays_largest_value_whose_threshold_is_reached(bean):
    thresholds = TABLE[bean][1]
    meter = METERS[bean]
    for n in range(0, 30):
        assert coins_for(meter, n) == expected_coins(thresholds, n), (bean.id, n)


@pytest.mark.rule("C1")
def test_C1_exact_thresholds_and_one_below():
    # coffee: 4/7/10/12
    assert [coins_for(METERS[B.COFFEE], n) for n in (3, 4, 6, 7, 9, 10, 11, 12, 20)] == [
        0, 1, 1, 2, 2, 3, 3, 4, 4]
    # red: 2/3/4/5
    assert [coins_for(METERS[B.RED], n) for n in range(0, 8)] == [0, 0, 1, 2, 3, 4, 4, 4]


@pytest.mark.rule("C1")
def test_C1_garden_two_pay_two_three_or_more_pay_three():
    m = METERS[B.GARDEN]
    assert [coins_for(m, n) for n in range(0, 7)] == [0, 0, 2, 3, 3, 3, 3]


@pytest.mark.rule("C1")
def test_C1_cocoa_two_three_four_pay_two_three_four():
    m = METERS[B.COCOA]
    assert [coins_for(m, n) for n in range(0, 6)] == [0, 0, 2, 3, 4, 4]


@pytest.mark.rule("C1")
def test_C1_setup_payout_table_agrees_with_the_catalog():
    su = setup(rules("rio-grande"), 4)
    for bean, (_, thresholds) in TABLE.items():
        for n in range(0, 25):
            assert su.payout[bean][n] == expected_coins(thresholds, n), (bean.id, n)


@pytest.mark.rule("C1")
def test_C1_engine_harvest_pays_the_beanometer_value():
    # 5 chili: threshold 3 for 1 coin, 6 for 2 -> 1 coin; 4 cards go to the discard pile.
    s = position("rio-grande", 4, seats=(
        player(hand=[B.RED], fields_=fields((B.CHILI, 5), None)), player(), player(), player()))
    s = model.apply(s, Harvest(0, 0))
    assert len(s.players[0].coins) == 1
    assert s.discard.count(B.CHILI) == 4


@pytest.mark.rule("C1")
def test_C1_catalog_counts_match_the_table():
    from model.cards import COUNTS

    for bean, (count, _) in TABLE.items():
        assert COUNTS[bean] == count, bean.id


@pytest.mark.rule("C2")
def test_C2_amigo_deck_is_the_eight_types_blue_to_garden_104_cards():
    for players in (3, 4, 5):
        su = setup(rules("amigo"), players)
        assert su.beans == tuple(range(B.BLUE, B.GARDEN + 1))
        assert len(su.deck) == 104
        counts = Counter(su.deck)
        for bean in su.beans:
            assert counts[bean] == TABLE[Bean(bean)][0]


@pytest.mark.rule("C2")
def test_C2_rio_grande_catalog_is_coffee_to_cocoa_154_cards():
    r = rules("rio-grande")
    assert tuple(r.beans) == tuple(range(B.COFFEE, B.COCOA + 1))
    assert sum(TABLE[Bean(b)][0] for b in r.beans) == 154
    # with removals set to nothing, the whole catalog is dealt
    su = setup(rules("rio-grande", removed=[]), 4)
    assert len(su.deck) == 154
    assert Counter(su.deck) == Counter({b: TABLE[Bean(b)][0] for b in r.beans})


@pytest.mark.rule("C2")
@pytest.mark.parametrize("preset", ["rio-grande", "amigo", "amigo-1997", "amigo-v1"])
def test_C2_field_bean_is_only_in_amigo_variant_2(preset):
    r = rules(preset)
    for n in range(r.min_players, r.max_players + 1):
        assert B.FIELD not in setup(r, n).deck
    for n in (4, 5):
        assert Counter(setup(rules("amigo-v2"), n).deck)[B.FIELD] == 3


@pytest.mark.rule("C3")
def test_C3_cocoa_default_is_2_3_4():
    su = setup(rules("rio-grande", removed=[]), 4)
    assert [su.payout[B.COCOA][n] for n in range(1, 6)] == [0, 2, 3, 4, 4]


@pytest.mark.rule("C3")
def test_C3_beanometer_can_be_overridden_per_bean():
    # Cocoa as "1/2/3 coins": say 2 cards pay 1, 3 pay 2, 4 pay 3.
    r = rules("rio-grande", removed=[], meters={"cocoa": "2/3/4/-"})
    su = setup(r, 4)
    assert [su.payout[B.COCOA][n] for n in range(1, 6)] == [0, 1, 2, 3, 3]
    # other beans keep the catalog values
    assert [su.payout[B.RED][n] for n in range(1, 6)] == [0, 1, 2, 3, 4]


@pytest.mark.rule("C3")
def test_C3_overridden_beanometer_is_what_a_harvest_pays():
    r = rules("rio-grande", removed=[], meters={"cocoa": "2/3/4/-"})
    s = position(r, 4, seats=(
        player(hand=[B.RED], fields_=fields((B.COCOA, 4), None)), player(), player(), player()))
    s = model.apply(s, Harvest(0, 0))
    assert len(s.players[0].coins) == 3  # default table would pay 4
    assert s.discard == (B.COCOA,)


@pytest.mark.rule("C3")
def test_C3_bad_beanometer_is_rejected():
    with pytest.raises(model.RulesetError):
        rules("rio-grande", meters={"cocoa": "4/3/2/-"})
    with pytest.raises(model.RulesetError):
        rules("rio-grande", meters={"cocoa": "2/3"})
