"""Section V of RULES.md: the variants V1-V5 as ruleset options."""

from __future__ import annotations

from collections import Counter

import pytest
from builders import B, fields, illegal, play, player, position, run_to_end, step

import model
from model import (
    EMPTY,
    BuyField,
    EndPhase,
    Field,
    Harvest,
    Phase,
    Plant,
    PlantAside,
    Reshuffle,
    apply,
    legal_actions,
    setup,
    winners,
)


def drawing_position(ruleset, n=4, active=0, draw=(), discard=(), exhaustions=0):
    """Active seat in phase 2 with nothing face up or set aside: EndPhase goes straight to phase 4."""
    seats = tuple(player(hand=[B.RED]) for _ in range(n))
    return position(ruleset, n, seats=seats, phase=Phase.TRADE, active=active, face_up=[], draw=draw,
                    discard=discard, exhaustions=exhaustions)


# ---------------------------------------------------------------- V1 quick game


@pytest.mark.rule("V1")
@pytest.mark.parametrize(("preset", "n"), [("rio-grande", 4), ("rio-grande", 3), ("amigo", 5)])
def test_V1_quick_game_ends_at_the_first_exhaustion(preset, n):
    r = model.ruleset(preset, {"quick": True})
    assert setup(r, n).final_exhaustion == 1
    assert setup(model.ruleset(preset), n).final_exhaustion > 1


@pytest.mark.rule("V1")
def test_V1_no_reshuffle_when_drawing_exhausts_the_pile():
    r = model.ruleset("rio-grande", {"quick": True})
    s = drawing_position(r, draw=[B.SOY, B.GREEN], discard=[B.WAX, B.WAX, B.BLUE])
    s = apply(s, EndPhase(0))
    assert s.is_over and s.exhaustions == 1
    assert s.players[0].hand == (B.RED, B.SOY, B.GREEN)


@pytest.mark.rule("V1")
def test_V1_exhaustion_while_turning_up_finishes_the_turn_without_reshuffle():
    r = model.ruleset("rio-grande", {"quick": True})
    p0 = player(hand=[B.RED, B.BLUE])
    s = position(r, 4, seats=(p0, player(hand=[B.RED]), player(), player()), phase=Phase.PLANT,
                 active=0, draw=[B.GREEN], discard=[B.WAX, B.WAX])
    s = play(s, Plant(0, 0), EndPhase(0))
    assert s.phase == Phase.TRADE and s.face_up == (B.GREEN,)
    s = play(s, EndPhase(0), PlantAside(0, B.GREEN, 1))
    assert s.is_over and s.players[0].hand == (B.BLUE,)


@pytest.mark.rule("V1")
def test_V1_whole_quick_game_never_reshuffles():
    s = model.new_game(model.ruleset("rio-grande", {"quick": True}), 4, seed=2)
    while not s.is_over:
        assert s.phase != Phase.CHANCE
        s = step(s)
    assert s.exhaustions == 1


# ---------------------------------------------------------------- V2 different fields


DISTINCT = model.ruleset("rio-grande", {"distinct_fields": True})


def v2_position(ruleset, hand, f):
    p0 = player(hand=hand, fields_=f)
    return position(ruleset, 4, seats=(p0, player(hand=[B.RED]), player(), player()),
                    phase=Phase.PLANT, active=0, draw=[B.WAX] * 10)


@pytest.mark.rule("V2")
def test_V2_second_planting_must_go_to_another_field():
    s = apply(v2_position(DISTINCT, [B.RED, B.RED, B.SOY], fields(None, None)), Plant(0, 0))
    assert Plant(0, 0) not in legal_actions(s)
    assert Plant(0, 1) in legal_actions(s)
    err = illegal(s, Plant(0, 0), "V2")
    assert "field 0" in str(err)
    s = apply(s, Plant(0, 1))
    assert s.players[0].fields == (Field(B.RED, 1), Field(B.RED, 1))


@pytest.mark.rule("V2")
def test_V2_when_only_the_first_field_fits_the_player_stops_or_harvests():
    s = apply(v2_position(DISTINCT, [B.RED, B.RED, B.SOY], fields(None, (B.BLUE, 3))), Plant(0, 0))
    acts = set(legal_actions(s))
    assert not [a for a in acts if isinstance(a, Plant)]
    assert EndPhase(0) in acts and Harvest(0, 1) in acts
    s = play(s, Harvest(0, 1), Plant(0, 1))
    assert s.players[0].fields == (Field(B.RED, 1), Field(B.RED, 1))


@pytest.mark.rule("V2")
def test_V2_off_by_default_both_plantings_may_share_a_field():
    assert not model.ruleset("rio-grande").distinct_fields
    s = apply(v2_position("rio-grande", [B.RED, B.RED, B.SOY], fields(None, None)), Plant(0, 0))
    s = apply(s, Plant(0, 0))
    assert s.players[0].fields == (Field(B.RED, 2), EMPTY)


@pytest.mark.rule("V2")
def test_V2_does_not_restrict_phase_3():
    p0 = player(hand=[B.RED], aside=[B.SOY, B.SOY])
    s = position(DISTINCT, 4, seats=(p0, player(), player(), player()), phase=Phase.PLANT_ASIDE,
                 active=0, draw=[B.WAX] * 10)
    s = play(s, PlantAside(0, B.SOY, 0), PlantAside(0, B.SOY, 0))
    assert s.players[0].fields[0] == Field(B.SOY, 2)


# ---------------------------------------------------------------- V3 independent options


@pytest.mark.rule("V3")
@pytest.mark.parametrize(("option", "value", "attribute", "changed"), [
    ("harvest", "strict", "strict_harvest", True),
    ("third_field", True, "third_cost", 3),
    ("third_field_cost", 5, "third_cost", None),  # amigo sells none: the cost alone changes nothing
])
def test_V3_each_option_changes_only_its_own_setting(option, value, attribute, changed):
    base = setup(model.ruleset("amigo"), 4)
    new = setup(model.ruleset("amigo", {option: value}), 4)
    assert getattr(new, attribute) == changed
    for name in ("beans", "fields", "hands", "face_up", "draw", "final_exhaustion", "strict_harvest",
                 "third_cost", "payout"):
        if name != attribute:
            assert getattr(new, name) == getattr(base, name), name
    assert new.rules.tie_break == base.rules.tie_break


@pytest.mark.rule("V3")
def test_V3_tie_break_option_leaves_the_rest():
    r = model.ruleset("amigo", {"tie_break": "hand"})
    assert r.tie_break == "hand" and r.third_field is False and r.harvest == "lenient"
    seats = (player(hand=[B.RED] * 4, coins=[B.SOY] * 3), player(hand=[], coins=[B.SOY] * 3),
             player(), player())
    s = position(r, 4, seats=seats, phase=Phase.OVER, to_move=-1)
    assert winners(s) == (0,)  # "seat" would pick p1


@pytest.mark.rule("V3")
def test_V3_amigo_with_a_third_field_for_sale():
    r = model.ruleset("amigo", {"third_field": True, "third_field_cost": 2})
    p0 = player(hand=[B.RED], coins=[B.SOY, B.BLUE])
    s = position(r, 4, seats=(p0, player(), player(), player()), phase=Phase.PLANT, active=0)
    s = apply(s, BuyField(0))
    assert len(s.players[0].fields) == 3 and s.players[0].coins == ()


@pytest.mark.rule("V3")
def test_V3_rio_grande_without_the_third_field():
    r = model.ruleset("rio-grande", {"third_field": False})
    p0 = player(hand=[B.RED], coins=[B.SOY] * 5)
    s = position(r, 4, seats=(p0, player(), player(), player()), phase=Phase.PLANT, active=0)
    assert BuyField(0) not in legal_actions(s)
    with pytest.raises(model.IllegalAction) as info:
        apply(s, BuyField(0))
    assert info.value.rule == "F1"
    # the other options are untouched
    assert r.tie_break == "hand" and setup(r, 4).strict_harvest is False


@pytest.mark.rule("V3")
def test_V3_third_field_is_the_maximum_even_when_allowed():
    r = model.ruleset("rio-grande", {"third_field": True})
    assert setup(r, 3).third_cost is None  # three fields from the start


@pytest.mark.rule("V3")
def test_V3_options_combine():
    r = model.ruleset("rio-grande", {"tie_break": "seat", "harvest": "strict", "third_field_cost": 4})
    su = setup(r, 4)
    assert (r.tie_break, su.strict_harvest, su.third_cost) == ("seat", True, 4)


@pytest.mark.rule("V3")
def test_V3_unknown_option_or_value_is_refused():
    with pytest.raises(model.RulesetError):
        model.ruleset("rio-grande", {"third_fields": True})
    with pytest.raises(model.RulesetError):
        model.ruleset("rio-grande", {"third_field": "maybe"})


@pytest.mark.rule("V3")
@pytest.mark.parametrize("value", ["junk", "cocoa:1/3/4/-;junk"])
def test_V3_meters_text_without_bean_colon_meter_is_refused_in_one_line(value):
    with pytest.raises(model.RulesetError, match="option meters: .* is not like 'cocoa:"):
        model.ruleset("rio-grande", {"meters": value})


@pytest.mark.rule("V3")
@pytest.mark.parametrize("value", [1.7, 2.0, [2], {"n": 2}, "1.7", True])
def test_V3_a_count_option_must_be_a_whole_number_never_rounded(value):
    with pytest.raises(model.RulesetError, match="max_offers.*not a whole number"):
        model.ruleset("rio-grande", {"max_offers": value})
    assert model.ruleset("rio-grande", {"max_offers": "3"}).max_offers == 3  # command-line strings


# ---------------------------------------------------------------- V4 everyone draws one


V1_PRESET = model.ruleset("amigo-v1")


@pytest.mark.rule("V4")
def test_V4_every_player_draws_one_active_first_then_clockwise():
    s = drawing_position(V1_PRESET, n=4, active=2, draw=[B.SOY, B.GREEN, B.CHILI, B.WAX, B.BLUE])
    s = apply(s, EndPhase(2))
    assert [p.hand for p in s.players] == [(B.RED, B.CHILI), (B.RED, B.WAX), (B.RED, B.SOY),
                                           (B.RED, B.GREEN)]
    assert s.draw == (B.BLUE,)
    assert s.active == 3


@pytest.mark.rule("V4")
@pytest.mark.parametrize(("n", "final"), [(3, 2), (4, 3), (5, 3)])
def test_V4_game_ends_at_the_2nd_exhaustion_with_3_players_else_3rd(n, final):
    assert setup(V1_PRESET, n).final_exhaustion == final
    s = run_to_end(model.new_game(V1_PRESET, n, seed=6))
    assert s.exhaustions == final


@pytest.mark.rule("V4")
def test_V4_deck_adds_coffee_wax_cocoa_with_rio_grande_removals():
    b3, b4 = set(setup(V1_PRESET, 3).beans), set(setup(V1_PRESET, 4).beans)
    assert {B.COFFEE, B.WAX} <= b3 and B.COCOA not in b3
    assert {B.WAX, B.COCOA} <= b4 and B.COFFEE not in b4
    assert set(range(B.BLUE, B.GARDEN + 1)) <= b3 & b4


@pytest.mark.rule("V4")
def test_V4_final_exhaustion_while_everyone_draws_ends_at_once():
    s = drawing_position(V1_PRESET, n=4, active=1, draw=[B.SOY, B.GREEN], discard=[B.WAX],
                         exhaustions=2)
    s = apply(s, EndPhase(1))
    assert s.is_over
    assert [p.hand for p in s.players] == [(B.RED,), (B.RED, B.SOY), (B.RED, B.GREEN), (B.RED,)]


@pytest.mark.rule("V4")
def test_V4_reshuffle_in_the_middle_of_the_round_of_draws():
    s = drawing_position(V1_PRESET, n=4, active=3, draw=[B.SOY],
                         discard=[B.WAX, B.BLUE, B.GREEN, B.CHILI])
    s = apply(s, EndPhase(3))
    assert s.phase == Phase.CHANCE
    s = apply(s, Reshuffle((B.GREEN, B.BLUE, B.WAX, B.CHILI)))
    assert [p.hand[1:] for p in s.players] == [(B.GREEN,), (B.BLUE,), (B.WAX,), (B.SOY,)]
    assert s.draw == (B.CHILI,)
    assert s.active == 0 and s.phase == Phase.PLANT


# ---------------------------------------------------------------- V5 field beans


V2_PRESET = model.ruleset("amigo-v2")


def v5_position(f, hand=(B.RED, B.SOY), coins=(), ruleset=V2_PRESET, n=4):
    p0 = player(hand=hand, fields_=f, coins=coins)
    seats = (p0,) + tuple(player(hand=[B.RED]) for _ in range(n - 1))
    return position(ruleset, n, seats=seats, phase=Phase.PLANT, active=0, discard=[B.BLUE],
                    draw=[B.WAX] * 10)


@pytest.mark.rule("V5")
def test_V5_two_field_beans_give_a_third_field_and_no_coins():
    s = v5_position(fields((B.FIELD, 2), (B.SOY, 1)), coins=[B.SOY])
    s = apply(s, Harvest(0, 0))
    pl = s.players[0]
    assert len(pl.fields) == 3
    assert pl.fields == (EMPTY, Field(B.SOY, 1), EMPTY)
    assert pl.coins == (B.SOY,)
    assert Counter(s.discard) == Counter([B.BLUE, B.FIELD, B.FIELD])
    # usable at once
    s = apply(s, Plant(0, 2))
    assert s.players[0].fields[2] == Field(B.RED, 1)


@pytest.mark.rule("V5")
def test_V5_two_field_beans_give_nothing_when_a_third_field_is_owned():
    s = v5_position(fields((B.FIELD, 2), (B.SOY, 1), (B.GREEN, 2)))
    s = apply(s, Harvest(0, 0))
    pl = s.players[0]
    assert len(pl.fields) == 3
    assert pl.fields == (EMPTY, Field(B.SOY, 1), Field(B.GREEN, 2))
    assert pl.coins == ()
    assert s.discard.count(B.FIELD) == 2


@pytest.mark.rule("V5")
def test_V5_three_field_beans_pay_three_coins():
    s = v5_position(fields((B.FIELD, 3), (B.SOY, 1)))
    s = apply(s, Harvest(0, 0))
    pl = s.players[0]
    assert pl.coins == (B.FIELD,) * 3
    assert len(pl.fields) == 2
    assert s.discard == (B.BLUE,)


@pytest.mark.rule("V5")
def test_V5_one_field_bean_pays_nothing():
    s = v5_position(fields((B.FIELD, 1), (B.SOY, 1)))
    s = apply(s, Harvest(0, 0))
    assert s.players[0].coins == () and len(s.players[0].fields) == 2
    assert s.discard == (B.BLUE, B.FIELD)


@pytest.mark.rule("V5")
def test_V5_deck_is_base_types_wax_and_three_field_beans():
    for n in (4, 5):
        su = setup(V2_PRESET, n)
        assert len(su.deck) == 129
        assert set(su.beans) == {B.WAX, B.FIELD} | set(range(B.BLUE, B.GARDEN + 1))
        assert Counter(su.deck)[B.FIELD] == 3


@pytest.mark.rule("V5")
def test_V5_turn_and_end_rules_as_V4():
    assert setup(V2_PRESET, 4).final_exhaustion == 3
    s = drawing_position(V2_PRESET, n=5, active=4, draw=[B.SOY, B.GREEN, B.CHILI, B.WAX, B.BLUE, B.RED])
    s = apply(s, EndPhase(4))
    assert [p.hand[1:] for p in s.players] == [(B.GREEN,), (B.CHILI,), (B.WAX,), (B.BLUE,), (B.SOY,)]


@pytest.mark.rule("V5")
def test_V5_field_bean_rule_is_the_option():
    r = V2_PRESET.replace(field_beans=False)
    s = v5_position(fields((B.FIELD, 2), (B.SOY, 1)), ruleset=r)
    s = apply(s, Harvest(0, 0))
    assert len(s.players[0].fields) == 2 and s.players[0].coins == ()
