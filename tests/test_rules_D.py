"""Section D of RULES.md: the bean duel (rio-grande, 2 players): D1 and D2."""

from __future__ import annotations

from collections import Counter

import pytest
from builders import B, fields, illegal, play, player, position, stacked_game, step

import model
from model import (
    EMPTY,
    Discard,
    DiscardUp,
    EndPhase,
    Field,
    Harvest,
    Phase,
    Plant,
    PlantUp,
    Propose,
    apply,
    legal_actions,
)

HAND0 = [B.RED, B.BLUE, B.SOY, B.CHILI, B.STINK]
HAND1 = [B.GREEN, B.BLACKEYED, B.WAX, B.COFFEE, B.SOY]


def duel(draw=(), hands=(HAND0, HAND1)):
    return stacked_game("rio-grande", 2, hands=hands, draw=draw)


def duel_position(phase, p0=None, p1=None, **kw):
    kw.setdefault("draw", [B.WAX] * 10)
    return position("rio-grande", 2, seats=(p0 or player(hand=[B.RED]), p1 or player(hand=[B.BLUE])),
                    phase=phase, active=0, **kw)


# ---------------------------------------------------------------- D1


@pytest.mark.rule("D1")
def test_D1_there_is_no_trading():
    s = duel_position(Phase.TURNED, face_up=[B.SOY, B.GREEN, B.RED])
    assert not [a for a in legal_actions(s) if isinstance(a, Propose)]
    illegal(s, Propose(0, 1, give_up=(0,)), "D1", names_player=False)  # the message: next test


@pytest.mark.rule("D1")
def test_D1_no_trading_error_names_the_player():
    s = duel_position(Phase.TURNED, face_up=[B.SOY, B.GREEN, B.RED])
    illegal(s, Propose(0, 1, give_up=(0,)), "D1")


@pytest.mark.rule("D1")
def test_D1_a_whole_duel_has_no_trading_phase_and_only_the_active_player_moves():
    s = model.new_game("rio-grande", 2, seed=8)
    phases = set()
    while not s.is_over:
        phases.add(s.phase)
        assert s.to_move in (s.active, -1)
        assert not [a for a in legal_actions(s) if isinstance(a, (Propose, model.Accept))]
        s = step(s)
    assert Phase.TRADE not in phases and Phase.PLANT_ASIDE not in phases
    assert {Phase.PLANT, Phase.DISCARD, Phase.TURNED, Phase.OFFER} <= phases


def _harvest_position(phase):
    p0 = player(hand=[B.RED, B.SOY], fields_=fields((B.BLUE, 4), None))
    p1 = player(hand=[B.RED], fields_=fields((B.CHILI, 3), (B.GREEN, 2)))
    return duel_position(phase, p0=p0, p1=p1,
                         face_up=[B.WAX] if phase in (Phase.OFFER, Phase.TURNED) else [])


@pytest.mark.rule("D1")
@pytest.mark.parametrize("phase", [Phase.OFFER, Phase.PLANT, Phase.DISCARD, Phase.TURNED])
def test_D1_harvest_on_your_own_turn_in_every_step(phase):
    s = _harvest_position(phase)
    assert Harvest(0, 0) in legal_actions(s)
    t = apply(s, Harvest(0, 0))
    assert len(t.players[0].coins) == 1 and t.phase == phase and t.to_move == 0


@pytest.mark.rule("D1")
@pytest.mark.parametrize("phase", [Phase.OFFER, Phase.PLANT, Phase.DISCARD, Phase.TURNED])
def test_D1_opponent_cannot_harvest_on_your_turn(phase):
    s = _harvest_position(phase)
    with pytest.raises(model.IllegalAction) as info:
        apply(s, Harvest(1, 0))
    assert "p1" in str(info.value)
    assert s.players[1].fields == fields((B.CHILI, 3), (B.GREEN, 2))


@pytest.mark.rule("D1")
def test_D1_opponent_harvest_is_refused_citing_D1():
    illegal(_harvest_position(Phase.PLANT), Harvest(1, 0), "D1")


# ---------------------------------------------------------------- D2


@pytest.mark.rule("D2")
def test_D2_starting_player_skips_step_1_on_the_first_turn():
    s = duel()
    assert s.phase == Phase.PLANT and s.active == 0 and s.face_up == ()


@pytest.mark.rule("D2")
def test_D2_a_whole_turn_plant_discard_turn_up_plant_offer_draw():
    s = duel(draw=[B.GREEN, B.WAX, B.GREEN, B.BLACKEYED, B.SOY, B.CHILI])
    # step 2: plant one, may plant a second
    s = play(s, Plant(0, 0), Plant(0, 1))
    assert s.phase == Phase.DISCARD and s.to_move == 0
    assert s.players[0].hand == (B.SOY, B.CHILI, B.STINK)
    # then may discard one card from anywhere in the hand
    s = apply(s, Discard(0, 1))
    assert s.players[0].hand == (B.SOY, B.STINK)
    # step 3: three cards turned up (the chili on the discard pile matches none of them)
    assert s.phase == Phase.TURNED
    assert Counter(s.face_up) == Counter([B.GREEN, B.WAX, B.GREEN])
    assert s.discard == (B.CHILI,)
    # plant any of them (here after a harvest), the rest stay on offer
    s = apply(s, Harvest(0, 0))
    s = apply(s, PlantUp(0, s.face_up.index(B.GREEN), 0))
    s = apply(s, PlantUp(0, s.face_up.index(B.GREEN), 0))
    assert s.players[0].fields == (Field(B.GREEN, 2), Field(B.BLUE, 1))
    s = apply(s, EndPhase(0))
    # step 4: draw 2, to the back of the hand
    assert s.players[0].hand == (B.SOY, B.STINK, B.BLACKEYED, B.SOY)
    assert s.draw[0] == B.CHILI
    # the opponent's turn starts with step 1: the wax left on offer
    assert s.active == 1 and s.to_move == 1 and s.phase == Phase.OFFER
    assert s.face_up == (B.WAX,)


@pytest.mark.rule("D2")
def test_D2_step_1_every_offered_card_is_planted_or_discarded():
    s = duel_position(Phase.OFFER, p0=player(hand=[B.RED, B.SOY]), face_up=[B.GREEN, B.WAX, B.WAX],
                      discard=[B.CHILI])
    illegal(s, EndPhase(0), "D2")
    s = apply(s, PlantUp(0, s.face_up.index(B.WAX), 0))
    assert s.phase == Phase.OFFER
    s = apply(s, DiscardUp(0, s.face_up.index(B.GREEN)))
    assert s.discard == (B.CHILI, B.GREEN)
    assert s.phase == Phase.OFFER
    s = apply(s, PlantUp(0, 0, 0))
    # all handled: step 2 starts
    assert s.phase == Phase.PLANT and s.face_up == ()
    assert s.players[0].fields == (Field(B.WAX, 2), EMPTY)


@pytest.mark.rule("D2")
def test_D2_step_1_before_planting_from_the_hand():
    s = duel_position(Phase.OFFER, p0=player(hand=[B.RED, B.SOY]), face_up=[B.GREEN])
    with pytest.raises(model.IllegalAction):
        apply(s, Plant(0, 0))
    assert not [a for a in legal_actions(s) if isinstance(a, Plant)]


@pytest.mark.rule("D2")
def test_D2_step_2_front_card_must_be_planted():
    s = duel()
    assert EndPhase(0) not in legal_actions(s)
    illegal(s, EndPhase(0), "D2")  # section T is for 3+ players; D2 step 2 is the duel's rule


@pytest.mark.rule("D2")
def test_D2_step_2_never_a_third_planting():
    s = duel()
    s = play(s, Plant(0, 0), Plant(0, 1))
    assert s.phase == Phase.DISCARD
    assert not [a for a in legal_actions(s) if isinstance(a, Plant)]
    with pytest.raises(model.IllegalAction):
        apply(s, Plant(0, 0))


@pytest.mark.rule("D2")
def test_D2_step_2_one_planting_then_discard_is_optional():
    s = duel(draw=[B.GREEN, B.WAX, B.COFFEE])
    s = play(s, Plant(0, 0), EndPhase(0))
    assert s.phase == Phase.DISCARD
    assert set(legal_actions(s)) >= {Discard(0, h) for h in range(4)} | {EndPhase(0)}
    s = apply(s, EndPhase(0))  # no discard
    assert s.phase == Phase.TURNED
    assert s.players[0].hand == (B.BLUE, B.SOY, B.CHILI, B.STINK)
    assert s.discard == ()


@pytest.mark.rule("D2")
def test_D2_step_2_only_one_discard():
    s = duel(draw=[B.GREEN, B.WAX, B.COFFEE])
    s = play(s, Plant(0, 0), EndPhase(0), Discard(0, 3))
    assert s.phase == Phase.TURNED
    assert s.players[0].hand == (B.BLUE, B.SOY, B.CHILI)
    illegal(s, Discard(0, 0), "D2")


@pytest.mark.rule("D2")
def test_D2_step_2_discarded_card_must_exist():
    s = play(duel(), Plant(0, 0), EndPhase(0))
    illegal(s, Discard(0, 4), "D2")


@pytest.mark.rule("D2")
def test_D2_step_3_matching_discards_join_the_turned_up_cards():
    # discard pile, top last: green, red, blue; turned up: blue, soy, red -> blue, then red join
    p0 = player(hand=[B.RED, B.SOY])
    s = duel_position(Phase.PLANT, p0=p0, draw=[B.BLUE, B.SOY, B.RED, B.WAX, B.WAX, B.WAX],
                      discard=[B.GREEN, B.RED, B.BLUE])
    s = play(s, Plant(0, 0), EndPhase(0), EndPhase(0))  # plant one, discard nothing
    assert s.phase == Phase.TURNED
    assert Counter(s.face_up) == Counter([B.BLUE, B.BLUE, B.SOY, B.RED, B.RED])
    assert s.discard == (B.GREEN,)  # green matches none: the chain stops


@pytest.mark.rule("D2")
def test_D2_step_3_chain_stops_at_the_first_non_matching_discard():
    p0 = player(hand=[B.RED, B.SOY])
    s = duel_position(Phase.PLANT, p0=p0, draw=[B.BLUE, B.SOY, B.RED, B.WAX, B.WAX, B.WAX],
                      discard=[B.RED, B.GREEN])
    s = play(s, Plant(0, 0), EndPhase(0), EndPhase(0))
    assert Counter(s.face_up) == Counter([B.BLUE, B.SOY, B.RED])
    assert s.discard == (B.RED, B.GREEN)


@pytest.mark.rule("D2")
def test_D2_step_3_own_discard_comes_back_if_it_matches():
    p0 = player(hand=[B.RED, B.SOY, B.BLUE])
    s = duel_position(Phase.PLANT, p0=p0, draw=[B.BLUE, B.GREEN, B.WAX, B.WAX, B.WAX])
    s = play(s, Plant(0, 0), EndPhase(0), Discard(0, 1))  # discard the blue
    assert Counter(s.face_up) == Counter([B.BLUE, B.BLUE, B.GREEN, B.WAX])
    assert s.discard == ()


@pytest.mark.rule("D2")
def test_D2_step_3_cards_not_planted_stay_on_offer_for_the_opponent():
    s = duel_position(Phase.TURNED, p0=player(hand=[B.RED], fields_=fields((B.SOY, 2), None)),
                      face_up=[B.SOY, B.GREEN, B.WAX], draw=[B.CHILI, B.CHILI, B.WAX])
    s = play(s, PlantUp(0, s.face_up.index(B.SOY), 0), EndPhase(0))
    assert s.players[0].fields[0] == Field(B.SOY, 3)
    assert s.active == 1 and s.phase == Phase.OFFER
    assert Counter(s.face_up) == Counter([B.GREEN, B.WAX])
    assert s.players[0].hand == (B.RED, B.CHILI, B.CHILI)  # step 4: draw 2


@pytest.mark.rule("D2")
def test_D2_step_3_plant_only_on_a_fitting_field():
    s = duel_position(Phase.TURNED, p0=player(hand=[B.RED], fields_=fields((B.SOY, 2), (B.RED, 1))),
                      face_up=[B.GREEN])
    illegal(s, PlantUp(0, 0, 0), "H3")
    assert not [a for a in legal_actions(s) if isinstance(a, PlantUp)]


@pytest.mark.rule("D2")
def test_D2_offered_cards_are_discarded_only_in_step_1():
    s = duel_position(Phase.TURNED, face_up=[B.GREEN])
    illegal(s, DiscardUp(0, 0), "D2")


@pytest.mark.rule("D2")
def test_D2_face_up_cards_are_planted_only_in_steps_1_and_3():
    s = play(duel(), Plant(0, 0), EndPhase(0))  # step 2's discard
    illegal(s, PlantUp(0, 0, 1), "D2")


@pytest.mark.rule("D2")
def test_D2_a_missing_face_up_card_is_refused_naming_the_player():
    s = duel_position(Phase.TURNED, face_up=[B.GREEN])
    illegal(s, PlantUp(0, 3, 0), "D2")


@pytest.mark.rule("D2")
def test_D2_empty_hand_skips_step_2():
    s = duel_position(Phase.OFFER, p0=player(hand=[]), face_up=[B.GREEN], draw=[B.SOY, B.WAX, B.RED, B.RED])
    s = apply(s, PlantUp(0, 0, 0))
    assert s.phase == Phase.TURNED
    assert Counter(s.face_up) == Counter([B.SOY, B.WAX, B.RED])


@pytest.mark.rule("D2")
def test_D2_draws_two():
    s = model.new_game("rio-grande", 2, seed=3)
    assert s.setup.draw == 2 and s.setup.face_up == 3
    s = play(s, Plant(0, 0), EndPhase(0), EndPhase(0))
    hand = s.players[0].hand
    top = s.draw[:2]
    s = apply(s, EndPhase(0))
    assert s.players[0].hand == hand + top
