"""RULES.md E1's two readings (option ``reshuffle``): ``at-exhaustion`` (the default) shuffles the
discard pile when the last card is taken; ``on-demand`` shuffles it only when a card must be taken
from the empty draw pile, so the cards discarded in between join the new pile, and the exhaustion
is counted (and E2 applies, V1 and I9 too) at that moment. Each test plays the same position under
both readings where they differ, so a wrong reading fails one side or the other."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from builders import B, fields, play, player, position, rules, total_cards
from hypothesis import given
from hypothesis import strategies as st

import model
from model import (
    EndPhase,
    GameState,
    Harvest,
    Phase,
    Plant,
    PlantAside,
    PlantUp,
    Reshuffle,
    apply,
    legal_actions,
    state_to_json,
)
from model.dealing import Deal
from model.display import describe
from model.errors import PositionError
from model.isla import isla_of
from model.isla.actions import BuyShip
from model.validate import check_state
from model.views import view
from play.bots import BOTS
from play.playout import playout
from schemas.state_json import state_from_json

AT = "at-exhaustion"
ON = "on-demand"


def rs(reading: str, name: str = "rio-grande", **options: object) -> model.Ruleset:
    return rules(name, reshuffle=reading, **options)


def drawing(reading: str, draw, discard, exhaustions=0, n=4, p1_fields=None, **options) -> GameState:
    """p0 in phase 2 with nothing face up or set aside: EndPhase(0) draws 3 (T7); p1 (next) holds
    one red and the fields ``p1_fields``."""
    seats = tuple(player(hand=[B.RED], fields_=p1_fields if i == 1 else None) for i in range(n))
    s = position(rs(reading, **options), n, seats=seats, phase=Phase.TRADE, active=0, face_up=[],
                 draw=draw, discard=discard, exhaustions=exhaustions, planted=1, first_field=0)
    check_state(s)
    return s


THREE = [B.SOY, B.GREEN, B.CHILI]  # exactly p0's draw: the last card is taken at the end of the turn


# ---------------------------------------------------------------- E1: when the pile is exhausted


@pytest.mark.rule("E1")
def test_E1_at_exhaustion_counts_and_reshuffles_at_the_last_card():
    s = apply(drawing(AT, THREE, [B.WAX]), EndPhase(0))
    assert s.phase == Phase.CHANCE and s.exhaustions == 1 and s.discard == (B.WAX,)


@pytest.mark.rule("E1")
def test_E1_on_demand_the_last_card_leaves_an_empty_pile_and_no_exhaustion_yet():
    s = apply(drawing(ON, THREE, [B.WAX]), EndPhase(0))
    assert s.phase == Phase.PLANT and s.active == 1 and s.to_move == 1
    assert s.draw == () and s.exhaustions == 0 and s.players[0].hand == (B.RED, *THREE)
    check_state(s)


@pytest.mark.rule("E1")
def test_E1_on_demand_cards_discarded_after_the_last_card_join_the_new_pile():
    """p1 harvests 3 blue (no coin: all to the discard pile) after the last card was taken; the
    turn-up then needs a card: the exhaustion is counted now and the reshuffle holds the blues."""
    s = apply(drawing(ON, THREE, [B.WAX], p1_fields=fields((B.BLUE, 3), None)), EndPhase(0))
    s = play(s, Harvest(1, 0), Plant(1, 0))
    assert s.phase == Phase.CHANCE and s.exhaustions == 1
    assert Counter(s.discard) == Counter({B.WAX: 1, B.BLUE: 3})
    with pytest.raises(model.IllegalAction) as err:
        apply(s, Reshuffle((B.WAX,)))  # the at-exhaustion pile: the blues are missing
    assert err.value.rule == "E1"
    s = apply(s, Reshuffle((B.BLUE, B.WAX, B.BLUE, B.BLUE)))
    assert s.phase == Phase.TRADE and Counter(s.face_up) == Counter([B.BLUE, B.WAX])
    assert s.draw == (B.BLUE, B.BLUE) and s.exhaustions == 1


@pytest.mark.rule("E1")
def test_E1_at_exhaustion_cards_discarded_after_the_last_card_wait_for_the_next_reshuffle():
    """The same play at-exhaustion: the first pile is the wax alone; its last card is the first
    face-up card, a second exhaustion, and only that reshuffle holds the blues."""
    s = apply(drawing(AT, THREE, [B.WAX], p1_fields=fields((B.BLUE, 3), None)), EndPhase(0))
    s = apply(s, Reshuffle((B.WAX,)))
    s = play(s, Harvest(1, 0), Plant(1, 0))
    assert s.phase == Phase.CHANCE and s.face_up == (B.WAX,) and s.exhaustions == 2
    assert s.discard == (B.BLUE,) * 3


@pytest.mark.rule("E1")
def test_E1_on_demand_a_pile_emptied_while_turning_up_is_exhausted_at_the_draw():
    """The last card is the last face-up card: trading goes on with an empty pile; the draw needs
    a card, and only then is the pile exhausted and reshuffled (with p0's trade-phase harvest)."""
    p0 = player(hand=[B.RED], fields_=fields((B.RED, 1), (B.BLUE, 3)))
    seats = (p0, player(hand=[B.RED]), player(hand=[B.RED]), player(hand=[B.RED]))
    s = position(rs(ON), 4, seats=seats, phase=Phase.PLANT, active=0, draw=[B.GREEN, B.CHILI],
                 discard=[B.WAX])
    s = apply(s, Plant(0, 0))  # the hand is empty: the cards are turned up at once
    assert s.phase == Phase.TRADE and s.draw == () and s.exhaustions == 0 and not s.final
    s = play(s, Harvest(0, 1), EndPhase(0), PlantAside(0, B.CHILI, 1), Harvest(0, 0))
    s = apply(s, PlantAside(0, B.GREEN, 0))
    assert s.phase == Phase.CHANCE and s.exhaustions == 1 and s.todo == (0, 0, 0)
    assert Counter(s.discard) == Counter({B.WAX: 1, B.BLUE: 3, B.RED: 1})


@pytest.mark.rule("E1")
def test_E1_on_demand_chance_node_keeps_the_card_that_was_needed_in_todo():
    """Drawing 3 from a pile of 1: one card is taken, the second is needed: todo holds it and the
    third (E1 on-demand counts the need, not the last card)."""
    s = apply(drawing(ON, [B.SOY], [B.WAX, B.BLUE]), EndPhase(0))
    assert s.phase == Phase.CHANCE and s.todo == (0, 0) and s.exhaustions == 1
    s = apply(s, Reshuffle((B.BLUE, B.WAX)))
    assert s.players[0].hand == (B.RED, B.SOY, B.BLUE, B.WAX) and s.draw == () and s.active == 1


# ---------------------------------------------------------------- E2 at the need


@pytest.mark.rule("E2")
def test_E2_at_exhaustion_final_last_card_while_drawing_ends_the_game():
    s = apply(drawing(AT, THREE, [B.WAX], exhaustions=2), EndPhase(0))
    assert s.is_over and s.exhaustions == 3


@pytest.mark.rule("E2")
def test_E2_on_demand_final_exhaustion_at_the_next_turn_up_finishes_that_turn_with_no_face_up_card():
    """The final pile runs out at the end of p0's draw: p1 still plays phase 1; the turn-up needs a
    card, the final exhaustion comes then (E2 while turning up): p1 trades and plants with no
    face-up card, and the game ends without a draw."""
    s = apply(drawing(ON, THREE, [B.WAX], exhaustions=2), EndPhase(0))
    assert s.phase == Phase.PLANT and s.active == 1 and s.exhaustions == 2 and not s.final
    s = apply(s, Plant(1, 0))
    assert s.phase == Phase.TRADE and s.final and s.exhaustions == 3 and s.face_up == ()
    check_state(s)
    assert EndPhase(1) in legal_actions(s)  # trading goes on (hand cards only, T3)
    s = apply(s, EndPhase(1))
    assert s.is_over and s.players[1].hand == ()


@pytest.mark.rule("E2")
def test_E2_on_demand_final_exhaustion_while_turning_up_keeps_the_cards_turned_up_so_far():
    p0 = player(hand=[B.RED, B.BLUE])
    seats = (p0, player(hand=[B.SOY]), player(hand=[B.RED]), player(hand=[B.RED]))
    s = position(rs(ON), 4, seats=seats, phase=Phase.PLANT, active=0, draw=[B.GREEN],
                 discard=[B.WAX], exhaustions=2)
    s = play(s, Plant(0, 0), EndPhase(0))
    assert s.phase == Phase.TRADE and s.final and s.exhaustions == 3 and s.face_up == (B.GREEN,)
    s = play(s, EndPhase(0), PlantAside(0, B.GREEN, 1))
    assert s.is_over and s.players[0].hand == (B.BLUE,)


@pytest.mark.rule("E2")
def test_E2_on_demand_final_exhaustion_while_drawing_ends_the_game_at_once():
    s = apply(drawing(ON, [B.SOY], [B.WAX], exhaustions=2), EndPhase(0))
    assert s.is_over and s.exhaustions == 3
    assert s.players[0].hand == (B.RED, B.SOY) and s.players[1].hand == (B.RED,)


@pytest.mark.rule("E2")
def test_E2_empty_discard_at_the_last_card_ends_at_exhaustion_but_not_on_demand():
    """At the last card the discard pile is empty; p1's harvest fills it before the next need.
    at-exhaustion: the game ends at the last card (E2). on-demand: the need finds cards to shuffle."""
    p1 = fields((B.BLUE, 3), None)
    assert apply(drawing(AT, THREE, [], p1_fields=p1), EndPhase(0)).is_over
    s = apply(drawing(ON, THREE, [], p1_fields=p1), EndPhase(0))
    assert s.phase == Phase.PLANT and s.active == 1
    s = play(s, Harvest(1, 0), Plant(1, 0))
    assert s.phase == Phase.CHANCE and s.exhaustions == 1 and s.discard == (B.BLUE,) * 3


@pytest.mark.rule("E2")
def test_E2_on_demand_empty_discard_at_the_need_is_the_final_exhaustion_while_drawing():
    s = apply(drawing(ON, [B.SOY], []), EndPhase(0))
    assert s.is_over and s.exhaustions == 1 and s.players[0].hand == (B.RED, B.SOY)


@pytest.mark.rule("E2")
def test_E2_on_demand_empty_discard_at_the_need_is_the_final_exhaustion_while_turning_up():
    s = apply(drawing(ON, THREE, []), EndPhase(0))
    s = apply(s, Plant(1, 0))
    assert s.phase == Phase.TRADE and s.final and s.exhaustions == 1 and s.face_up == ()
    assert apply(s, EndPhase(1)).is_over


# ---------------------------------------------------------------- V1 quick


@pytest.mark.rule("V1")
def test_V1_quick_at_exhaustion_ends_at_the_last_card():
    assert apply(drawing(AT, THREE, [B.WAX], quick=True), EndPhase(0)).is_over


@pytest.mark.rule("V1")
def test_V1_quick_on_demand_ends_at_the_first_need_of_the_empty_pile():
    s = apply(drawing(ON, THREE, [B.WAX], quick=True), EndPhase(0))
    assert s.phase == Phase.PLANT and s.exhaustions == 0
    s = apply(s, Plant(1, 0))
    assert s.final and s.exhaustions == 1 and s.face_up == ()
    s = apply(s, EndPhase(1))
    assert s.is_over and s.discard.count(B.WAX) == 1  # no reshuffle ever (V1)


# ---------------------------------------------------------------- D2: the bean duel


def duel(reading: str, **changes) -> GameState:
    s = position(rs(reading), 2, **changes)
    check_state(s)
    return s


@pytest.mark.rule("D2")
def test_D2_step_4_last_card_ends_the_duel_at_exhaustion_but_on_demand_the_opponent_plays_on():
    seats = (player(hand=[B.RED]), player(hand=[B.BLUE, B.SOY]))
    kw = dict(seats=seats, phase=Phase.TURNED, active=0, face_up=[B.GREEN], draw=[B.SOY, B.WAX],
              discard=[B.CHILI], planted=1, first_field=0)
    assert apply(duel(AT, **kw), EndPhase(0)).is_over  # D2 step 4 with E2: the end at once
    s = apply(duel(ON, **kw), EndPhase(0))
    assert s.phase == Phase.OFFER and s.active == 1 and s.draw == () and s.exhaustions == 0
    s = play(s, PlantUp(1, 0, 0), Plant(1, 1), EndPhase(1), EndPhase(1))  # step 1, 2, no discard
    assert s.phase == Phase.TURNED and s.final and s.exhaustions == 1 and s.face_up == ()
    check_state(s)
    s = apply(s, EndPhase(1))
    assert s.is_over and s.players[1].hand == (B.SOY,)


@pytest.mark.rule("D2")
def test_D2_step_3_on_demand_need_then_the_matching_discards_join_the_face_up_cards():
    """D2 step 3 turns up 1 card, needs a 2nd from the empty pile (the final exhaustion, E2), and
    the top discard that matches still joins the turned-up card."""
    seats = (player(hand=[B.RED, B.BLUE]), player(hand=[B.SOY]))
    s = duel(ON, seats=seats, phase=Phase.PLANT, active=0, draw=[B.GREEN], discard=[B.WAX, B.GREEN])
    s = play(s, Plant(0, 0), EndPhase(0), EndPhase(0))
    assert s.phase == Phase.TURNED and s.final and s.exhaustions == 1
    assert s.face_up == (B.GREEN, B.GREEN) and s.discard == (B.WAX,)


# ---------------------------------------------------------------- I2, I9: La Isla Bohnita


def isla(reading: str, n: int, **changes) -> GameState:
    s = model.new_game(rs(reading, isla=True), n, seed=0)
    for key in ("draw", "discard", "out"):
        if key in changes:
            changes[key] = tuple(int(c) for c in changes[key])
    if "rows" in changes:
        rows = tuple(tuple(int(c) for c in r) for r in changes.pop("rows"))
        changes["ext"] = isla_of(s)._replace(rows=rows)
    changes.setdefault("to_move", changes.get("active", 0))
    s = s._replace(**changes)
    check_state(s)
    return s



@pytest.mark.rule("I9")
def test_I9_on_demand_duel_coins_paid_after_the_last_card_join_the_discard_pile_at_the_need():
    """Isla duel: p0 pays 5 coins for a second ship (they wait in ``out``), then draws the last 2
    cards. at-exhaustion: the coins join the discard pile at the last card; on-demand: only at the
    need (p1's turn-up), so the exhaustion and I9 come one turn later."""
    seats = (player(hand=[B.COFFEE], coins=[B.CHILI] * 5), player(hand=[B.WAX, B.BLUE]))
    kw = dict(players=(seats[0], seats[1]), phase=Phase.TRADE, active=0, planted=1, first_field=0,
              draw=[B.BLUE, B.WAX], discard=[B.COFFEE])
    at = play(isla(AT, 2, **kw), BuyShip(0, False), EndPhase(0))
    assert at.phase == Phase.CHANCE and at.out == () and Counter(at.discard)[B.CHILI] == 5
    on = play(isla(ON, 2, **kw), BuyShip(0, False), EndPhase(0))
    assert on.phase == Phase.PLANT and on.active == 1 and on.out == (B.CHILI,) * 5
    assert on.discard == (B.COFFEE,) and on.exhaustions == 0
    check_state(on)
    on = play(on, Plant(1, 0), EndPhase(1), EndPhase(1))  # no discard (I9): turn-up needs a card
    assert on.phase == Phase.CHANCE and on.exhaustions == 1 and on.out == ()
    assert Counter(on.discard) == Counter({B.COFFEE: 1, B.CHILI: 5})


@pytest.mark.rule("I2")
def test_I2_on_demand_row_refill_from_an_empty_pile_at_the_final_exhaustion_ends_the_game():
    """The draw takes the last cards; the empty row's refill needs one: on-demand that is the
    final exhaustion while drawing (E2), the game ends at once with the row empty."""
    base = isla(ON, 4)
    seats = tuple(player(hand=[B.COFFEE]) for _ in range(4))
    s = isla(ON, 4, players=seats, phase=Phase.TRADE, active=0, planted=1, first_field=0,
             draw=[B.COFFEE] * 3, discard=[B.WAX], exhaustions=2, rows=((), isla_of(base).rows[1]))
    s = apply(s, EndPhase(0))
    assert s.is_over and s.exhaustions == 3 and isla_of(s).rows[0] == ()
    assert s.players[0].hand == (B.COFFEE,) * 4


@pytest.mark.rule("I2")
@pytest.mark.parametrize("reading", [AT, ON])
def test_I2_row_refill_after_the_last_card_is_the_need_under_both_readings(reading):
    """A draw that takes the last card, then an empty row: at-exhaustion exhausts at the last
    card, on-demand at the refill's first card; both reshuffle there and refill from the new pile."""
    base = isla(reading, 4)
    seats = tuple(player(hand=[B.COFFEE]) for _ in range(4))
    s = isla(reading, 4, players=seats, phase=Phase.TRADE, active=0, planted=1, first_field=0,
             draw=[B.COFFEE] * 3, discard=[B.WAX] * 6, rows=((), isla_of(base).rows[1]))
    s = apply(s, EndPhase(0))
    assert s.phase == Phase.CHANCE and s.todo == (Deal.ROW_0,) * 5 and s.exhaustions == 1
    s = apply(s, Reshuffle((B.WAX,) * 6))
    assert isla_of(s).rows[0] == (B.WAX,) * 5 and s.draw == (B.WAX,) and s.active == 1


@pytest.mark.rule("I2")
def test_I2_on_demand_no_empty_row_no_need_no_exhaustion():
    seats = tuple(player(hand=[B.COFFEE]) for _ in range(4))
    s = isla(ON, 4, players=seats, phase=Phase.TRADE, active=0, planted=1, first_field=0,
             draw=[B.COFFEE] * 3, discard=[B.WAX] * 6)
    s = apply(s, EndPhase(0))
    assert s.phase == Phase.PLANT and s.draw == () and s.exhaustions == 0


# ---------------------------------------------------------------- views, display, JSON, validate


def empty_pile(reading: str = ON) -> GameState:
    return apply(drawing(reading, THREE, [B.WAX]), EndPhase(0))


@pytest.mark.rule("H7")
def test_H7_view_of_an_empty_pile_not_yet_exhausted_on_demand():
    v = view(empty_pile(), 2)
    assert v["draw_size"] == 0 and v["exhaustions"] == 0 and v["reshuffle"] == ON
    assert v["discard_top"] == "wax" and v["discard_size"] == 1
    assert view(apply(drawing(AT, THREE + [B.RED], [B.WAX]), EndPhase(0)), 0)["reshuffle"] == AT


def test_display_says_the_empty_pile_is_exhausted_at_the_next_need():
    text = describe(empty_pile())
    assert "draw pile 0 cards (exhausted when a card is next needed, E1 on-demand)" in text
    assert "exhausted when" not in describe(drawing(ON, THREE, [B.WAX]))


@pytest.mark.rule("E1")
def test_E1_validate_accepts_an_empty_pile_outside_chance_only_on_demand():
    s = empty_pile()
    check_state(s)
    assert state_from_json(state_to_json(s)) == s
    at = s._replace(setup=model.setup(rs(AT), 4))
    with pytest.raises(PositionError) as err:
        check_state(at)
    assert err.value.rule == "E1"


GAMES = ([("rio-grande", n) for n in range(2, 8)] + [("amigo", n) for n in (3, 4, 5)]
         + [("amigo-v2", 4), ("amigo-v2", 5), ("isla", 2), ("isla", 4), ("isla", 6)])


def _rules(name: str, reading: str) -> model.Ruleset:
    return rs(reading, isla=True) if name == "isla" else rs(reading, name)


@pytest.mark.rule("E1")
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), bot=st.sampled_from(["random", "greedy"]))
def test_E1_on_demand_random_games_every_state_validates_and_round_trips(game, seed, bot):
    """Every state of a seeded on-demand game passes ``check_state`` and the state JSON round trip;
    cards are conserved; every reshuffle happens with an empty draw pile at a need (a non-empty
    ``todo``), and the game ends with ``exhaustions`` at most the final one."""
    name, n = game
    s0 = model.new_game(_rules(name, ON), n, seed)
    cards = total_cards(s0) + (sum(len(r) for r in isla_of(s0).rows) if s0.ext else 0)
    for s, _ in playout(s0, BOTS[bot], random.Random(seed)):
        check_state(s)
        assert state_from_json(state_to_json(s)) == s
        if s.phase == Phase.CHANCE:
            assert s.todo and not s.draw
        if s.ext is None:
            assert total_cards(s) == cards
    assert s.is_over


@pytest.mark.rule("E1")
def test_E1_on_demand_games_reach_an_empty_pile_outside_chance():
    """The random games above do meet the case that matters: an empty pile at a decision point."""
    seen = 0
    for seed in range(6):
        for s, _ in playout(model.new_game(rs(ON), 4, seed), BOTS["greedy"], random.Random(seed)):
            if not s.draw and s.phase not in (Phase.CHANCE, Phase.OVER) and not s.final:
                seen += 1
                break
    assert seen


@pytest.mark.rule("E1")
@pytest.mark.parametrize("name, n", [("rio-grande", 4), ("amigo", 3), ("rio-grande", 2)])
def test_E1_at_exhaustion_games_never_leave_an_empty_pile_outside_chance_before_the_end(name, n):
    for seed in range(3):
        for s, _ in playout(model.new_game(_rules(name, AT), n, seed), BOTS["greedy"], random.Random(seed)):
            if s.phase not in (Phase.CHANCE, Phase.OVER):
                assert s.draw or s.final


@pytest.mark.rule("E1")
def test_E1_the_on_demand_conformance_record_reshuffles_cards_discarded_after_the_last_card():
    """conformance/games.py's ``rio-grande-4p-on-demand``: some reshuffle order holds more cards
    than the discard pile had when the last card was taken (what at-exhaustion would shuffle)."""
    from conformance.games import played

    game = played("rio-grande-4p-on-demand")
    assert game.spec.rules().reshuffle == ON
    grown, emptied = 0, None
    for s, a in zip(game.states, game.actions, strict=False):
        if not s.draw and emptied is None and s.phase != Phase.CHANCE:
            emptied = len(s.discard)
        if isinstance(a, Reshuffle):
            grown += emptied is not None and len(a.order) > emptied
            emptied = None
    assert grown >= 1


# ---------------------------------------------------------------- the endgame solvers


def _final_pass(reading: str, n: int = 4) -> GameState:
    """Phase 1 in the final pass (2 exhaustions of 3; the duel: none of 1) with a pile of one turn."""
    seats = tuple(player(hand=[B.RED, B.SOY]) for _ in range(n))
    su = model.setup(rs(reading), n)
    s = position(rs(reading), n, seats=seats, phase=Phase.PLANT, active=0,
                 draw=[B.GREEN] * (su.face_up + su.draw), discard=[B.WAX],
                 exhaustions=su.final_exhaustion - 1)
    check_state(s)
    return s


@pytest.mark.rule("E1")
@pytest.mark.parametrize("n, objective", [(2, "duel"), (4, "expected")])
def test_E1_duel_and_expected_solvers_refuse_the_on_demand_reading(n, objective):
    """They count the turns left from the pile's length (the game ends at the last card)."""
    from solvers.contract import SolveError
    from solvers.duel import solve_duel
    from solvers.expected import solve_expected

    run = solve_duel if objective == "duel" else solve_expected
    run(_final_pass(AT, n))  # answers at-exhaustion
    with pytest.raises(SolveError, match="not reshuffle=on-demand"):
        run(_final_pass(ON, n))


@pytest.mark.rule("E1")
def test_E1_on_demand_exact_bound_counts_the_cards_drawn_before_the_extra_turn():
    """A pile of exactly one turn: at-exhaustion the drawn cards end the game in hand; on-demand
    the next seat plays a turn in which they may be traded to it (T3), so the bound counts them."""
    from solvers.exact import _live_draws

    assert _live_draws(_final_pass(AT)) == 2  # the two face-up cards
    assert _live_draws(_final_pass(ON)) == 5
    coop = {r: model.apply(_final_pass(r), Plant(0, 0)) for r in (AT, ON)}
    from solvers.api import solve
    from solvers.contract import COOP

    at, on = (solve(coop[r], COOP, "exact").value for r in (AT, ON))
    assert on >= at
