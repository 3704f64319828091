"""Section H of RULES.md: hand order (H1), fields (H2, H3), single-bean protection (H4), harvests (H5, H6).

H7 (views) is in test_rules_H7_views.py.
"""

from __future__ import annotations

import pytest
from builders import B, fields, illegal, pass_turn, play, player, position, stacked_game

import model
from model import (
    EMPTY,
    Accept,
    BuyField,
    EndPhase,
    Field,
    Harvest,
    IllegalAction,
    Phase,
    Plant,
    PlantAside,
    Propose,
    apply,
    legal_actions,
)

# ---------------------------------------------------------------- H1 hand order


@pytest.mark.rule("H1")
def test_H1_cards_are_played_from_the_front_of_the_hand():
    s = stacked_game("rio-grande", 4, hands=[[B.RED, B.BLUE, B.SOY, B.CHILI, B.STINK]])
    s = apply(s, Plant(0, 1))
    assert s.players[0].fields == (EMPTY, Field(B.RED, 1))
    assert s.players[0].hand == (B.BLUE, B.SOY, B.CHILI, B.STINK)
    s = apply(s, Plant(0, 0))
    assert s.players[0].fields == (Field(B.BLUE, 1), Field(B.RED, 1))
    assert s.players[0].hand == (B.SOY, B.CHILI, B.STINK)


@pytest.mark.rule("H1")
def test_H1_drawn_cards_go_to_the_back_one_at_a_time_in_draw_order():
    hand = [B.RED, B.BLUE, B.SOY, B.CHILI, B.STINK]
    s = stacked_game("rio-grande", 4, hands=[hand],
                     draw=[B.GREEN, B.GREEN, B.WAX, B.BLACKEYED, B.SOY, B.RED])
    s = play(s, Plant(0, 0), EndPhase(0))  # turn up green, green
    assert s.face_up == (B.GREEN, B.GREEN)
    s = play(s, EndPhase(0), PlantAside(0, B.GREEN, 1), PlantAside(0, B.GREEN, 1))
    # phase 4: draw wax, blackeyed, soy in this order, to the back
    assert s.active == 1
    assert s.players[0].hand == (B.BLUE, B.SOY, B.CHILI, B.STINK, B.WAX, B.BLACKEYED, B.SOY)
    assert s.draw[0] == B.RED


@pytest.mark.rule("H1")
def test_H1_trading_away_any_positions_keeps_the_order_of_the_rest():
    p0 = player(hand=[B.RED, B.BLUE, B.SOY, B.CHILI, B.STINK])
    p2 = player(hand=[B.GREEN, B.WAX, B.GREEN, B.BLACKEYED, B.COCOA])
    s = position("rio-grande", 4, seats=(p0, player(hand=[B.RED]), p2, player(hand=[B.RED])),
                 phase=Phase.TRADE, active=0, face_up=[B.CHILI, B.SOY])
    s = play(s, Propose(0, 2, give_hand=(1, 3), ask=(B.GREEN, B.GREEN)))
    s = play(s, Accept(2, (0, 2)))
    assert s.players[0].hand == (B.RED, B.SOY, B.STINK)
    assert s.players[2].hand == (B.WAX, B.BLACKEYED, B.COCOA)


@pytest.mark.rule("H1")
def test_H1_duel_discard_from_the_middle_keeps_the_order_of_the_rest():
    s = stacked_game("rio-grande", 2, hands=[[B.RED, B.BLUE, B.SOY, B.CHILI, B.STINK]])
    s = play(s, Plant(0, 0), EndPhase(0))
    assert s.phase == Phase.DISCARD
    assert s.players[0].hand == (B.BLUE, B.SOY, B.CHILI, B.STINK)
    s = apply(s, model.Discard(0, 2))
    assert s.players[0].hand == (B.BLUE, B.SOY, B.STINK)


@pytest.mark.rule("H1")
def test_H1_hand_of_the_other_players_is_untouched_by_a_turn_without_trades():
    s = stacked_game("rio-grande", 4)
    others = [p.hand for p in s.players[1:]]
    s = pass_turn(s)
    assert [p.hand for p in s.players[1:]] == others


# ---------------------------------------------------------------- H2 fields


@pytest.mark.rule("H2")
def test_H2_a_field_holds_any_number_of_one_type():
    p0 = player(fields_=fields((B.RED, 7), None), aside=[B.RED] * 5)
    s = position("rio-grande", 4, seats=(p0, player(hand=[B.RED]), player(hand=[B.RED]), player()),
                 phase=Phase.PLANT_ASIDE, active=0)
    for _ in range(5):
        s = apply(s, PlantAside(0, B.RED, 0))
    assert s.players[0].fields[0] == Field(B.RED, 12)


@pytest.mark.rule("H2")
def test_H2_several_fields_may_hold_the_same_type():
    s = stacked_game("rio-grande", 4, hands=[[B.RED, B.RED]])
    s = apply(s, Plant(0, 0))
    assert Plant(0, 1) in legal_actions(s) and Plant(0, 0) in legal_actions(s)
    s = apply(s, Plant(0, 1))
    assert s.players[0].fields == (Field(B.RED, 1), Field(B.RED, 1))


@pytest.mark.rule("H2")
def test_H2_a_field_never_mixes_types_in_a_whole_game():
    from builders import step

    s = model.new_game("rio-grande", 5, seed=11)
    for _ in range(3000):
        if s.is_over:
            break
        before = s
        s = step(s)
        for p_old, p_new in zip(before.players, s.players, strict=True):
            for f_old, f_new in zip(p_old.fields, p_new.fields, strict=False):
                if f_new.count > f_old.count and f_old.count > 0:
                    assert f_new.bean == f_old.bean
                assert (f_new.count == 0) == (f_new == EMPTY)
    assert s.is_over


# ---------------------------------------------------------------- H3 planting


@pytest.mark.rule("H3")
def test_H3_planting_on_a_field_of_another_type_is_illegal():
    p0 = player(hand=[B.BLUE, B.RED], fields_=fields((B.RED, 2), None))
    s = position("rio-grande", 4, seats=(p0, player(), player(), player()), phase=Phase.PLANT, active=0)
    err = illegal(s, Plant(0, 0), "H3")
    assert "blue" in str(err) and "field 0" in str(err)
    assert apply(s, Plant(0, 1)).players[0].fields == (Field(B.RED, 2), Field(B.BLUE, 1))


@pytest.mark.rule("H3")
def test_H3_planting_goes_on_an_empty_field_or_one_of_its_type():
    p0 = player(hand=[B.RED], fields_=fields((B.RED, 2), (B.BLUE, 1), None), n_fields=3)
    s = position("rio-grande", 4, seats=(p0, player(), player(), player()), phase=Phase.PLANT, active=0)
    plants = [a for a in legal_actions(s) if isinstance(a, Plant)]
    assert sorted(a.field for a in plants) == [0, 2]
    assert apply(s, Plant(0, 0)).players[0].fields[0] == Field(B.RED, 3)


@pytest.mark.rule("H3")
def test_H3_when_no_field_fits_the_player_must_harvest_first():
    p0 = player(hand=[B.SOY, B.RED], fields_=fields((B.RED, 3), (B.BLUE, 2)))
    s = position("rio-grande", 4, seats=(p0, player(), player(), player()), phase=Phase.PLANT, active=0)
    acts = legal_actions(s)
    assert not [a for a in acts if isinstance(a, Plant)]
    assert set(acts) == {Harvest(0, 0), Harvest(0, 1)}
    illegal(s, Plant(0, 0), "H3")
    illegal(s, EndPhase(0), "T1")  # the front card must still be planted
    s = apply(s, Harvest(0, 1))
    s = apply(s, Plant(0, 1))
    assert s.players[0].fields == (Field(B.RED, 3), Field(B.SOY, 1))


@pytest.mark.rule("H3")
def test_H3_when_no_field_fits_a_third_field_may_be_bought_where_allowed():
    p0 = player(hand=[B.SOY, B.RED], fields_=fields((B.RED, 3), (B.BLUE, 2)), coins=[B.WAX] * 3)
    s = position("rio-grande", 4, seats=(p0, player(), player(), player()), phase=Phase.PLANT, active=0)
    assert BuyField(0) in legal_actions(s)
    s = play(s, BuyField(0), Plant(0, 2))
    assert s.players[0].fields == (Field(B.RED, 3), Field(B.BLUE, 2), Field(B.SOY, 1))


@pytest.mark.rule("H3")
def test_H3_set_aside_cards_also_need_a_fitting_field():
    p0 = player(fields_=fields((B.RED, 3), (B.BLUE, 2)), aside=[B.SOY])
    s = position("rio-grande", 4, seats=(p0, player(), player(), player()),
                 phase=Phase.PLANT_ASIDE, active=0)
    assert not [a for a in legal_actions(s) if isinstance(a, PlantAside)]
    illegal(s, PlantAside(0, B.SOY, 1), "H3")
    s = play(s, Harvest(0, 0), PlantAside(0, B.SOY, 0))
    assert s.players[0].fields == (Field(B.SOY, 1), Field(B.BLUE, 2))


# ---------------------------------------------------------------- H4 single-bean protection


def _plant_position(ruleset, f, hand=(B.RED,)):
    p0 = player(hand=hand, fields_=f)
    return position(ruleset, 4, seats=(p0, player(hand=[B.RED]), player(), player()),
                    phase=Phase.PLANT, active=0)


@pytest.mark.rule("H4")
def test_H4_single_bean_is_protected_while_another_field_has_more():
    s = _plant_position("rio-grande", fields((B.SOY, 1), (B.BLUE, 3)))
    err = illegal(s, Harvest(0, 0), "H4")
    assert "field 0" in str(err)
    assert Harvest(0, 0) not in legal_actions(s)
    assert Harvest(0, 1) in legal_actions(s)
    s = apply(s, Harvest(0, 1))
    assert s.players[0].fields[1] == EMPTY


@pytest.mark.rule("H4")
def test_H4_lenient_single_bean_becomes_harvestable_once_the_other_field_is_gone():
    s = _plant_position("rio-grande", fields((B.SOY, 1), (B.BLUE, 3)))
    s = apply(s, Harvest(0, 1))
    assert Harvest(0, 0) in legal_actions(s)  # empty fields do not block (lenient)
    s = apply(s, Harvest(0, 0))
    assert s.players[0].fields == (EMPTY, EMPTY)


@pytest.mark.rule("H4")
def test_H4_lenient_all_single_fields_may_be_harvested():
    s = _plant_position("rio-grande", fields((B.SOY, 1), (B.BLUE, 1)))
    assert {Harvest(0, 0), Harvest(0, 1)} <= set(legal_actions(s))
    apply(s, Harvest(0, 0))
    apply(s, Harvest(0, 1))


@pytest.mark.rule("H4")
def test_H4_lenient_empty_field_does_not_block_in_three_fields():
    p0 = player(hand=[B.RED], fields_=fields((B.SOY, 1), None, (B.BLUE, 1)))
    s = position("rio-grande", 3, seats=(p0, player(), player()), phase=Phase.PLANT, active=0)
    assert {Harvest(0, 0), Harvest(0, 2)} <= set(legal_actions(s))
    s = apply(s, Harvest(0, 0))
    assert s.players[0].fields == (EMPTY, EMPTY, Field(B.BLUE, 1))


@pytest.mark.rule("H4")
def test_H4_lenient_one_big_field_protects_every_single_field():
    p0 = player(hand=[B.RED], fields_=fields((B.SOY, 1), (B.GREEN, 1), (B.BLUE, 2)))
    s = position("rio-grande", 3, seats=(p0, player(), player()), phase=Phase.PLANT, active=0)
    harvests = {a for a in legal_actions(s) if isinstance(a, Harvest)}
    assert harvests == {Harvest(0, 2)}
    illegal(s, Harvest(0, 0), "H4")
    illegal(s, Harvest(0, 1), "H4")


@pytest.mark.rule("H4")
@pytest.mark.parametrize("preset", ["rio-grande", "amigo", "amigo-1997", "amigo-v1", "amigo-v2"])
def test_H4_lenient_is_the_default_for_every_preset(preset):
    r = model.ruleset(preset)
    assert r.harvest == "lenient"
    s = _plant_position(r, fields((B.RED, 1), None))
    assert Harvest(0, 0) in legal_actions(s)


@pytest.mark.rule("H4")
def test_H4_strict_single_field_needs_every_field_to_hold_exactly_one():
    strict = model.ruleset("rio-grande", {"harvest": "strict"})
    s = _plant_position(strict, fields((B.SOY, 1), None))
    err = illegal(s, Harvest(0, 0), "H4")
    assert "field 0" in str(err)
    assert Harvest(0, 0) not in legal_actions(s)
    s = _plant_position(strict, fields((B.SOY, 1), (B.BLUE, 1)))
    assert {Harvest(0, 0), Harvest(0, 1)} <= set(legal_actions(s))
    apply(s, Harvest(0, 0))


@pytest.mark.rule("H4")
def test_H4_strict_single_field_protected_by_a_bigger_field():
    strict = model.ruleset("rio-grande", {"harvest": "strict"})
    s = _plant_position(strict, fields((B.SOY, 1), (B.BLUE, 4)))
    illegal(s, Harvest(0, 0), "H4")
    assert Harvest(0, 1) in legal_actions(s)


@pytest.mark.rule("H4")
def test_H4_strict_after_harvesting_the_big_field_the_single_stays_protected():
    # Strict: (1 soy, empty) -- the empty field does not hold exactly one card.
    strict = model.ruleset("rio-grande", {"harvest": "strict"})
    s = _plant_position(strict, fields((B.SOY, 1), (B.BLUE, 4)))
    s = apply(s, Harvest(0, 1))
    assert s.players[0].fields == (Field(B.SOY, 1), EMPTY)
    illegal(s, Harvest(0, 0), "H4")


@pytest.mark.rule("H4")
@pytest.mark.parametrize("reading", ["lenient", "strict"])
def test_H4_fields_of_two_or_more_are_never_protected(reading):
    r = model.ruleset("rio-grande", {"harvest": reading})
    s = _plant_position(r, fields((B.SOY, 2), (B.BLUE, 9)))
    assert {Harvest(0, 0), Harvest(0, 1)} <= set(legal_actions(s))


@pytest.mark.rule("H4")
def test_H4_unknown_reading_is_refused():
    with pytest.raises(model.RulesetError):
        model.ruleset("rio-grande", {"harvest": "literal"})


# ---------------------------------------------------------------- H5 harvest


@pytest.mark.rule("H5")
def test_H5_harvest_empties_the_field_coins_on_top_of_stack_rest_on_discard():
    p0 = player(hand=[B.RED], fields_=fields((B.SOY, 5), (B.BLUE, 2)), coins=[B.WAX, B.GREEN])
    s = position("rio-grande", 4, seats=(p0, player(), player(), player()), phase=Phase.PLANT, active=0,
                 discard=[B.CHILI])
    s = apply(s, Harvest(0, 0))  # 5 soy: 2/4/6/7 -> 2 coins
    pl = s.players[0]
    assert pl.fields == (EMPTY, Field(B.BLUE, 2))
    assert pl.coins == (B.WAX, B.GREEN, B.SOY, B.SOY)  # top is last
    assert s.discard == (B.CHILI, B.SOY, B.SOY, B.SOY)
    assert s.discard[-1] == B.SOY  # the harvested rest is the new top discard


@pytest.mark.rule("H5")
def test_H5_harvest_worth_nothing_goes_wholly_to_the_discard_pile():
    p0 = player(hand=[B.RED], fields_=fields((B.BLUE, 3), (B.RED, 2)))
    s = position("rio-grande", 4, seats=(p0, player(), player(), player()), phase=Phase.PLANT, active=0)
    s = apply(s, Harvest(0, 0))  # 3 blue: threshold 4 -> 0 coins
    assert s.players[0].coins == ()
    assert s.discard == (B.BLUE,) * 3
    assert s.players[0].fields == (EMPTY, Field(B.RED, 2))


@pytest.mark.rule("H5")
def test_H5_harvest_that_pays_every_card():
    p0 = player(hand=[B.RED], fields_=fields((B.GARDEN, 2), None))
    s = position("rio-grande", 4, seats=(p0, player(), player(), player()), phase=Phase.PLANT, active=0)
    s = apply(s, Harvest(0, 0))  # 2 garden pay 2
    assert s.players[0].coins == (B.GARDEN, B.GARDEN)
    assert s.discard == ()


@pytest.mark.rule("H5")
def test_H5_harvest_conserves_cards():
    from builders import total_cards

    p0 = player(hand=[B.RED], fields_=fields((B.COFFEE, 11), (B.BLUE, 2)), coins=[B.SOY])
    s = position("rio-grande", 4, seats=(p0, player(), player(), player()), phase=Phase.PLANT, active=0)
    before = total_cards(s)
    s = apply(s, Harvest(0, 0))  # 11 coffee: 4/7/10/12 -> 3 coins
    assert len(s.players[0].coins) == 4
    assert s.discard.count(B.COFFEE) == 8
    assert total_cards(s) == before


@pytest.mark.rule("H5")
def test_H5_harvesting_an_empty_or_missing_field_is_illegal():
    p0 = player(hand=[B.RED], fields_=fields((B.BLUE, 2), None))
    s = position("rio-grande", 4, seats=(p0, player(), player(), player()), phase=Phase.PLANT, active=0)
    illegal(s, Harvest(0, 1), "H5")
    illegal(s, Harvest(0, 2), "H5")


# ---------------------------------------------------------------- H6 harvesting any time


def _trade_position():
    p0 = player(hand=[B.RED, B.SOY], fields_=fields((B.BLUE, 4), None))
    p2 = player(hand=[B.GREEN, B.RED], fields_=fields((B.CHILI, 3), (B.WAX, 1)))
    return position("rio-grande", 4, seats=(p0, player(hand=[B.RED]), p2, player(hand=[B.SOY])),
                    phase=Phase.TRADE, active=0, face_up=[B.STINK, B.COFFEE])


@pytest.mark.rule("H6")
def test_H6_partner_may_harvest_while_answering_an_offer():
    s = _trade_position()
    stink = s.face_up.index(B.STINK)
    s = apply(s, Propose(0, 2, give_up=(stink,), ask=(B.GREEN,)))
    assert s.to_move == 2
    assert Harvest(2, 0) in legal_actions(s)
    s = apply(s, Harvest(2, 0))  # 3 chili pay 1
    assert s.players[2].fields == (EMPTY, Field(B.WAX, 1))
    assert len(s.players[2].coins) == 1
    # the offer is still pending and p2 still answers it
    assert s.pending is not None and s.to_move == 2 and s.phase == Phase.TRADE
    s = apply(s, Accept(2, (0,)))
    assert s.players[2].aside == tuple(sorted((B.STINK,)))


@pytest.mark.rule("H6")
def test_H6_non_active_player_may_harvest_while_planting_set_aside_cards():
    p0 = player(hand=[B.RED], fields_=fields((B.BLUE, 4), None))
    p1 = player(hand=[B.RED], fields_=fields((B.CHILI, 3), (B.WAX, 2)), aside=[B.SOY])
    s = position("rio-grande", 4, seats=(p0, p1, player(), player()), phase=Phase.PLANT_ASIDE,
                 active=0, to_move=1)
    assert {Harvest(1, 0), Harvest(1, 1)} <= set(legal_actions(s))
    s = play(s, Harvest(1, 1), PlantAside(1, B.SOY, 1))
    assert s.players[1].fields == (Field(B.CHILI, 3), Field(B.SOY, 1))


@pytest.mark.rule("H6")
@pytest.mark.parametrize("phase", [Phase.PLANT, Phase.TRADE])
def test_H6_active_player_may_harvest_in_phases_1_and_2(phase):
    s = _trade_position()._replace(phase=Phase(phase), face_up=() if phase == Phase.PLANT else
                                   (B.COFFEE, B.STINK))
    assert Harvest(0, 0) in legal_actions(s)
    t = apply(s, Harvest(0, 0))
    assert t.phase == phase and t.to_move == 0
    assert len(t.players[0].coins) == 1


@pytest.mark.rule("H6")
def test_H6_a_player_not_to_move_cannot_act_even_to_harvest():
    s = _trade_position()
    with pytest.raises(IllegalAction) as info:
        apply(s, Harvest(2, 0))
    assert "p2" in str(info.value)
