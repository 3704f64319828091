"""Section I of RULES.md: La Isla Bohnita (I1-I9), with the readings listed in model/isla/state.py.

Positions are built from a real ``new_game`` with ``isla=true`` and edited with ``_replace``
(players, fleets, rows, phase...); ``model.validate.check_state`` accepts each of them. They use only
the five types every Isla deck keeps (coffee, wax, blue, chili, stink: the duel's deck, I2), so the
same helpers serve 2-7 players. ``builders.stack_deck`` does not know that the two island rows are
dealt before the hands (I2), so the deck helper for the expansion is here (``isla_deck``).

Beanometer of those types (C): coffee 4/7/10/12, wax 4/7/9/11, blue 4/6/8/10, chili 3/6/8/9,
stink 3/5/7/8.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

import pytest
from builders import B, fields, illegal, pass_turn, play, player, reshuffle_in_order

import model
from model import (
    EMPTY,
    Accept,
    BuyField,
    Discard,
    EndPhase,
    Field,
    Harvest,
    Phase,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    Reshuffle,
    RulesetError,
    apply,
    legal_actions,
    parse_action,
    setup,
    state_to_json,
)
from model.cards import COUNTS
from model.isla import BOHNACO, BOHNBAY, EMPTY_SHIP, HOME, Fleet, Ship, isla_of, isla_setup
from model.isla.actions import PIRATE, Attack, BuyShip, HarvestOnto, MoveCargo, PlantCargo, Sail, Sell, Yield
from model.isla.setup import REMOVED_AMIGO as ISLA_REMOVED_AMIGO
from model.isla.setup import REMOVED_RIO_GRANDE as ISLA_REMOVED_RIO_GRANDE
from model.validate import check_state
from play.bots import BOTS
from play.playout import play_game
from records.game import header, initial_deck, parse_record, record_lines, replay
from schemas.state_json import state_from_json

ISLA = model.ruleset("rio-grande", {"isla": True})
AMIGO_ISLA = model.ruleset("amigo", {"isla": True})
FILL = [B.WAX] * 10 + [B.COFFEE] * 10  # a draw pile for built positions
ROW_BAY = [B.STINK, B.CHILI, B.STINK, B.STINK, B.BLUE]  # Bohnbay, front card first
ROW_ACO = [B.CHILI, B.CHILI, B.WAX, B.CHILI, B.COFFEE]  # Bohnaco


# ---------------------------------------------------------------- helpers


def ship(b: int | None = None, n: int = 0, at: int = HOME) -> Ship:
    """A ship holding ``n`` cards of ``b`` at port ``at`` (empty if ``n`` is 0)."""
    return Ship(int(b), n, at) if n else EMPTY_SHIP._replace(at=at)


def fleet(m0: Ship = EMPTY_SHIP, m1: Ship | None = None, pirate: Ship | None = None) -> Fleet:
    return Fleet((m0,) if m1 is None else (m0, m1), pirate)


def beans(cards) -> tuple[int, ...]:
    return tuple(int(c) for c in cards)


def isla_position(players: int = 4, seats=None, fleets=None, rows=(ROW_BAY, ROW_ACO), ruleset=ISLA,
                  phase: Phase = Phase.TRADE, active: int = 0, isla_changes=None, **changes):
    """A new Isla game (seed 0) edited: seats, fleets, rows, phase, active seat and any other field.

    Cards are not conserved in such a position (the rule tests check what the rule moves), but
    ``check_state`` must accept it.
    """
    s = model.new_game(ruleset, players, seed=0)
    n_fields = s.setup.fields
    if seats is None:
        seats = tuple(player(hand=[B.COFFEE]) for _ in range(players))
    # every seat gets the starting fields of the setup (3 with 3 players)
    seats = tuple(p._replace(fields=p.fields + (EMPTY,) * (n_fields - len(p.fields))) for p in seats)
    if fleets is None:
        fleets = tuple(fleet() for _ in range(players))
    isla = isla_of(s)._replace(fleets=tuple(fleets), rows=(beans(rows[0]), beans(rows[1])),
                           **(isla_changes or {}))
    changes.setdefault("draw", FILL)
    for key in ("draw", "discard", "out"):
        if key in changes:
            changes[key] = beans(changes[key])
    if "face_up" in changes:
        changes["face_up"] = tuple(sorted(beans(changes["face_up"])))
    changes.setdefault("to_move", active)
    if Phase(phase) != Phase.PLANT and seats[active].hand:  # T1: a hand with cards planted first
        changes.setdefault("planted", 1)
        changes.setdefault("first_field", 0)
    s = s._replace(players=tuple(seats), ext=isla, phase=Phase(phase), active=active, **changes)
    check_state(s)
    return s


def duel_position(**kw):
    return isla_position(2, **kw)


def isla_deck(ruleset, players, bohnbay, bohnaco, hands, draw=()) -> list[int]:
    """A full deck, top first: the two rows (I2), then the hands dealt one card at a time in seat
    order (S2), then ``draw``, then the rest of the cards in catalog order."""
    su = setup(ruleset, players)
    assert len(bohnbay) == len(bohnaco) == 5
    assert [len(h) for h in hands] == list(su.hands)
    dealt = [hands[seat][k] for k in range(max(su.hands)) for seat in range(players) if k < su.hands[seat]]
    top = [int(c) for c in [*bohnbay, *bohnaco, *dealt, *draw]]
    left = Counter(su.deck)
    left.subtract(Counter(top))
    assert min(left.values()) >= 0, "more cards named than the deck has"
    return top + sorted(left.elements())


def all_cards(s) -> Counter:
    """Every card of the state, wherever it is (card conservation)."""
    cards = list(s.draw) + list(s.discard) + list(s.face_up) + list(s.out)
    for p in s.players:
        cards += list(p.hand) + list(p.coins) + list(p.aside)
        cards += [f.bean for f in p.fields for _ in range(f.count)]
    if s.ext is not None:
        cards += isla_of(s).cards()
    return Counter(cards)


def kinds(s, kind) -> list:
    return [a for a in legal_actions(s) if isinstance(a, kind)]


def states_of(s0, actions) -> list:
    """Every state of a game, from the first one, replayed with every check on."""
    states = [s0]
    for a in actions:
        states.append(apply(states[-1], a))
    return states


@cache
def simulated(players: int, bot: str, seed: int):
    """A whole seeded Isla game played by one kind of bot: (result, first state, last state, actions)."""
    return play_game(ISLA, players, seed, [BOTS[bot]] * players)


# ---------------------------------------------------------------- I1 purchases


@pytest.mark.rule("I1")
@pytest.mark.parametrize("players, ship_cost", [(2, 5), (3, 4), (4, 4), (5, 3), (6, 3), (7, 3)])
def test_I1_costs_by_player_count(players, ship_cost):
    """I1/I9: second merchant ship 4 coins with 3-4 players, 3 with 5-7, 5 in the duel; pirate 2;
    third field 3 coins (also with 6-7 players); with 3 players everyone has 3 fields (none to buy)."""
    su = setup(ISLA, players)
    assert su.expansion == "isla"
    assert isla_setup(su).ship_cost == ship_cost
    assert isla_setup(su).pirate_cost == 2
    if players == 3:
        assert su.fields == 3 and su.third_cost is None
    else:
        assert su.fields == 2 and su.third_cost == 3
    if players <= 5:
        assert isla_setup(setup(AMIGO_ISLA, players)).ship_cost == ship_cost
        assert isla_setup(setup(AMIGO_ISLA, players)).pirate_cost == 2
    plain = setup(model.ruleset("rio-grande"), players)
    assert plain.expansion == "" and plain.ext is None
    assert model.new_game("rio-grande", players, seed=0).ext is None


COIN_TYPES = [B.COFFEE, B.WAX, B.BLUE, B.CHILI, B.STINK]


def seats_with_coins(players, coins):
    """p0 holds ``coins``; every seat holds one coffee."""
    others = tuple(player(hand=[B.COFFEE]) for _ in range(players - 1))
    return (player(hand=[B.COFFEE], coins=coins),) + others


@pytest.mark.rule("I1")
@pytest.mark.parametrize("players, cost", [(3, 4), (4, 4), (5, 3), (6, 3), (7, 3)])
def test_I1_second_merchant_ship_price_and_paid_coins_go_to_the_discard_pile(players, cost):
    """I1: the second merchant ship costs 4 coins with 3-4 players, 3 with 5-7; the paid coins are
    the top of the coin stack and go to the discard pile; one coin short is refused with I1."""
    short = isla_position(players, seats=seats_with_coins(players, COIN_TYPES[:cost - 1]))
    assert BuyShip(0, False) not in legal_actions(short)
    err = illegal(short, BuyShip(0, False), "I1")
    assert f"costs {cost}" in str(err)
    coins = COIN_TYPES[:cost + 1]
    s = isla_position(players, seats=seats_with_coins(players, coins), discard=[B.STINK])
    assert BuyShip(0, False) in legal_actions(s)
    t = apply(s, BuyShip(0, False))
    assert isla_of(t).fleets[0].merchants == (EMPTY_SHIP, EMPTY_SHIP)
    assert t.players[0].coins == beans(coins[:1])
    assert t.discard == beans([B.STINK, *coins[1:]])
    assert t.out == ()
    assert t.phase == Phase.TRADE and t.to_move == 0


@pytest.mark.rule("I1")
def test_I1_pirate_ship_costs_two_coins():
    """I1: the pirate ship costs 2 coins (paid to the discard pile); 1 coin is not enough (I1)."""
    s = isla_position(seats=seats_with_coins(4, [B.BLUE]))
    assert BuyShip(0, True) not in legal_actions(s)
    illegal(s, BuyShip(0, True), "I1")
    s = isla_position(seats=seats_with_coins(4, [B.BLUE, B.CHILI, B.STINK]))
    assert BuyShip(0, True) in legal_actions(s)
    assert BuyShip(0, False) not in legal_actions(s)  # 3 coins: not the second merchant ship (4)
    t = apply(s, BuyShip(0, True))
    assert isla_of(t).fleets[0].pirate == EMPTY_SHIP and isla_of(t).fleets[0].pirate.at == HOME
    assert isla_of(t).fleets[0].merchants == (EMPTY_SHIP,)
    assert t.players[0].coins == (B.BLUE,)
    assert t.discard == (B.CHILI, B.STINK)


@pytest.mark.rule("I1")
@pytest.mark.parametrize("players", [4, 6, 7])
def test_I1_third_field_costs_three_coins_also_with_6_and_7_players(players):
    """I1: with the expansion the third field costs 3 coins at every player count (not 2 with 6-7,
    S); the paid coins go to the discard pile. 2 coins are not enough (F1)."""
    s = isla_position(players, seats=seats_with_coins(players, [B.BLUE, B.CHILI]))
    assert BuyField(0) not in legal_actions(s)
    illegal(s, BuyField(0), "F1")
    s = isla_position(players, seats=seats_with_coins(players, [B.BLUE, B.CHILI, B.STINK]))
    assert BuyField(0) in legal_actions(s)
    t = apply(s, BuyField(0))
    assert len(t.players[0].fields) == 3 and t.players[0].coins == ()
    assert t.discard[-3:] == (B.BLUE, B.CHILI, B.STINK) and t.out == ()


@pytest.mark.rule("I1")
def test_I1_each_ship_is_bought_once():
    """I1: one second merchant ship and one pirate ship per player: buying either again is refused (I1)."""
    s = isla_position(seats=seats_with_coins(4, [B.BLUE] * 12))
    s = play(s, BuyShip(0, False), BuyShip(0, True))
    assert len(s.players[0].coins) == 6
    assert not kinds(s, BuyShip)
    err = illegal(s, BuyShip(0, False), "I1")
    assert "already" in str(err)
    illegal(s, BuyShip(0, True), "I1")
    assert len(s.players[0].coins) == 6


@pytest.mark.rule("I1")
def test_I1_a_bought_ship_is_usable_at_once():
    """I1: a ship bought is usable at once: the new merchant ship sails in the same phase 2."""
    s = isla_position(seats=seats_with_coins(4, [B.BLUE] * 4))
    assert not [a for a in kinds(s, Sail) if a.ship == 1]
    illegal(s, Sail(0, 1, BOHNBAY, 1), "I4")
    s = apply(s, BuyShip(0, False))
    assert Sail(0, 1, BOHNBAY, 1) in legal_actions(s)
    s = apply(s, Sail(0, 1, BOHNBAY, 1))
    assert isla_of(s).fleets[0].merchants[1] == Ship(B.STINK, 1, BOHNBAY)


@pytest.mark.rule("I1")
def test_I1_purchases_off_turn_while_answering_an_offer():
    """I1: ships can be bought at any time, even off-turn: the partner of a pending offer, who is to
    move, may buy (the offer stays pending); a player who is not to move may not act."""
    seats = (player(hand=[B.COFFEE]), player(hand=[B.STINK], coins=[B.BLUE] * 6),
             player(hand=[B.STINK], coins=[B.BLUE] * 6), player())
    s = isla_position(seats=seats, face_up=[B.CHILI, B.STINK])
    s = apply(s, Propose(0, 1, give_up=(s.face_up.index(B.CHILI),)))
    assert s.to_move == 1
    acts = legal_actions(s)
    assert BuyShip(1, False) in acts and BuyShip(1, True) in acts
    assert all(a.player == 1 for a in acts)
    t = play(s, BuyShip(1, True), BuyShip(1, False))
    assert t.pending == s.pending and t.to_move == 1 and t.phase == Phase.TRADE
    assert isla_of(t).fleets[1] == Fleet((EMPTY_SHIP, EMPTY_SHIP), EMPTY_SHIP)
    assert t.players[1].coins == () and t.discard[-6:] == (B.BLUE,) * 6
    t = apply(t, Accept(1))
    assert t.to_move == 0 and t.players[1].aside == (B.CHILI,)
    with pytest.raises(model.IllegalAction):
        apply(s, BuyShip(2, True))  # p2 is not to move


@pytest.mark.rule("I1")
def test_I1_purchases_off_turn_while_planting_set_aside_cards():
    """I1: a player planting its set-aside cards in phase 3 (off-turn) may buy a ship."""
    seats = (player(), player(), player(aside=[B.STINK], coins=[B.BLUE] * 4), player())
    s = isla_position(seats=seats, phase=Phase.PLANT_ASIDE, to_move=2)
    assert BuyShip(2, False) in legal_actions(s) and BuyShip(2, True) in legal_actions(s)
    s = apply(s, BuyShip(2, False))
    assert len(isla_of(s).fleets[2].merchants) == 2 and s.to_move == 2 and s.phase == Phase.PLANT_ASIDE


@pytest.mark.rule("I1")
def test_I1_duel_second_ship_costs_five_and_missing_coins_cite_I9():
    """I1/I9: in the Isla duel the second merchant ship costs 5; with 4 coins the purchase is refused
    naming I9 (the duel's costs are rule I9); the paid coins are set aside in ``out`` (I9)."""
    s = duel_position(seats=(player(hand=[B.COFFEE], coins=[B.BLUE] * 4), player()))
    assert BuyShip(0, False) not in legal_actions(s)
    illegal(s, BuyShip(0, False), "I9")
    s = duel_position(seats=(player(hand=[B.COFFEE], coins=[B.CHILI] + [B.BLUE] * 5), player()),
                      discard=[B.STINK])
    assert BuyShip(0, False) in legal_actions(s)
    t = apply(s, BuyShip(0, False))
    assert len(isla_of(t).fleets[0].merchants) == 2
    assert t.players[0].coins == (B.CHILI,)
    assert t.out == (B.BLUE,) * 5 and t.discard == (B.STINK,)
    illegal(t, BuyShip(0, False), "I1")  # already bought: I1 also in the duel


# ---------------------------------------------------------------- I2 setup and rows


RIO_REMOVED = {
    2: {B.COCOA, B.GARDEN, B.RED, B.BLACKEYED, B.SOY, B.GREEN},
    3: {B.COCOA, B.GARDEN, B.RED, B.BLACKEYED, B.SOY},
    4: {B.COCOA, B.GARDEN, B.RED, B.BLACKEYED},
    5: {B.COCOA, B.GARDEN, B.RED},
    6: {B.COCOA, B.GARDEN, B.RED, B.BLACKEYED},
    7: {B.COCOA, B.GARDEN, B.RED},
}


@pytest.mark.rule("I2")
@pytest.mark.parametrize("players", range(2, 8))
def test_I2_removed_types_with_the_rio_grande_deck(players):
    """I2: the rio-grande deck (coffee..cocoa) loses the types of seed 003's table at 2-7 players."""
    removed = RIO_REMOVED[players]
    assert set(ISLA_REMOVED_RIO_GRANDE[players]) == removed
    su = setup(ISLA, players)
    expected = [b for b in range(B.COFFEE, B.COCOA + 1) if b not in removed]
    assert list(su.beans) == expected
    assert Counter(su.deck) == Counter({b: COUNTS[b] for b in expected})
    s = model.new_game(ISLA, players, seed=3)
    assert all_cards(s) == Counter(su.deck)


@pytest.mark.rule("I2")
@pytest.mark.parametrize("players", range(2, 6))
def test_I2_removed_types_with_the_amigo_deck(players):
    """I2: the amigo deck (blue..garden) loses garden (only garden) at 2-5 players."""
    assert set(ISLA_REMOVED_AMIGO) == {B.GARDEN}
    su = setup(AMIGO_ISLA, players)
    assert list(su.beans) == [B.BLUE, B.CHILI, B.STINK, B.GREEN, B.SOY, B.BLACKEYED, B.RED]
    assert len(su.deck) == 104 - 6
    assert all_cards(model.new_game(AMIGO_ISLA, players, seed=3)) == Counter(su.deck)


@pytest.mark.rule("I2")
@pytest.mark.parametrize("players", [6, 7])
def test_I2_amigo_deck_with_6_or_7_players_is_impossible(players):
    """I2: 6-7 players with the amigo deck and the expansion is impossible (RulesetError)."""
    with pytest.raises(RulesetError):
        setup(AMIGO_ISLA, players)
    with pytest.raises(RulesetError):
        model.new_game(AMIGO_ISLA, players, seed=0)
    assert setup(ISLA, players).expansion == "isla"  # the rio-grande deck plays them


@pytest.mark.rule("I2")
@pytest.mark.parametrize("players, hands", [
    (2, (5, 5)), (3, (3, 4, 5)), (4, (3, 4, 5, 6)), (5, (3, 4, 5, 6, 6)),
    (6, (3, 4, 5, 6, 6, 6)), (7, (3, 4, 5, 6, 6, 6, 6)),
])
def test_I2_starting_hands_3_4_5_then_6_duel_5_each(players, hands):
    """I2: the starting player gets 3 cards, the next 4, the next 5, the rest 6; I9: 5 each in the duel."""
    assert setup(ISLA, players).hands == hands
    s = model.new_game(ISLA, players, seed=1)
    assert tuple(len(p.hand) for p in s.players) == hands
    if players <= 5:
        assert setup(AMIGO_ISLA, players).hands == hands


@pytest.mark.rule("I2")
def test_I2_rows_are_dealt_first_then_the_hands():
    """I2 reading: 5 cards to Bohnbay, then 5 to Bohnaco, from the top of the deck (front card first),
    then the hands one card at a time in seat order (S2); every ship empty in its harbour."""
    hands = [[B.COFFEE] * 3, [B.WAX] * 4, [B.BLUE] * 5, [B.GREEN] * 6]
    deck = isla_deck(ISLA, 4, ROW_BAY, ROW_ACO, hands, draw=[B.STINK, B.SOY])
    s = model.new_game(ISLA, 4, deck=deck)
    assert isla_of(s).rows == (beans(ROW_BAY), beans(ROW_ACO))
    assert isla_of(s).rows == (tuple(deck[:5]), tuple(deck[5:10]))
    assert [list(p.hand) for p in s.players] == hands
    assert s.players[0].hand[0] == deck[10] and s.players[1].hand[0] == deck[11]
    assert s.draw[:2] == (B.STINK, B.SOY)
    assert isla_of(s).fleets == (Fleet((EMPTY_SHIP,)),) * 4
    assert initial_deck(s) == tuple(deck)
    assert s.phase == Phase.PLANT and s.active == 0


@pytest.mark.rule("I2")
def test_I2_empty_rows_are_refilled_after_the_draw_bohnbay_first():
    """I2: a row emptied during the turn stays empty until the turn ends; then, after the active
    player's draw, each empty row gets 5 cards from the draw pile, Bohnbay first."""
    rows = ([B.STINK] * 5, [B.CHILI] * 5)
    s = isla_position(fleets=(fleet(EMPTY_SHIP, EMPTY_SHIP),) + (fleet(),) * 3, rows=rows,
                      draw=[B.COFFEE, B.WAX, B.BLUE] + [B.BLUE] * 5 + [B.COFFEE] * 5 + [B.WAX] * 10)
    s = play(s, Sail(0, 0, BOHNBAY, 5), Sail(0, 1, BOHNACO, 5))
    assert isla_of(s).rows == ((), ())
    assert Sail(0, 0, BOHNACO, 0) in legal_actions(s)  # empty rows: nothing to load, no refill yet
    hand = s.players[0].hand
    t = apply(s, EndPhase(0))
    assert t.players[0].hand == hand + (B.COFFEE, B.WAX, B.BLUE)  # the draw comes first
    assert isla_of(t).rows == ((B.BLUE,) * 5, (B.COFFEE,) * 5)
    assert t.draw == (B.WAX,) * 10
    assert t.active == 1


@pytest.mark.rule("I2")
def test_I2_a_row_that_is_not_empty_is_not_refilled():
    """I2: only an empty row is refilled; a row with cards left keeps them and gets no more."""
    s = isla_position(draw=[B.COFFEE] * 3 + [B.WAX] * 10)
    s = play(s, Sail(0, 0, BOHNBAY, 3), EndPhase(0))
    assert isla_of(s).rows == ((B.CHILI, B.BLUE), beans(ROW_ACO))
    assert s.draw == (B.WAX,) * 10


@pytest.mark.rule("I2")
def test_I2_refill_that_exhausts_the_final_pile_ends_the_game_at_once():
    """I2 with E2: a refill that takes the last card at the final exhaustion ends the game at once."""
    s = isla_position(rows=([B.STINK] * 5, ROW_ACO), draw=[B.COFFEE] * 3 + [B.CHILI, B.BLUE],
                      discard=[B.WAX] * 6, exhaustions=2)
    s = play(s, Sail(0, 0, BOHNBAY, 5), EndPhase(0))
    assert s.phase == Phase.OVER and s.to_move == -1
    assert s.exhaustions == 3
    assert isla_of(s).rows[0] == (B.CHILI, B.BLUE)  # a short refill
    assert s.players[0].hand == (B.COFFEE,) * 4
    assert s.players[0].coins == (B.STINK,) * 2  # E3 reading: the cargo (5 stink) is sold at the end
    assert s.turn == 0


@pytest.mark.rule("I2")
def test_I2_refill_that_exhausts_an_earlier_pile_reshuffles_and_goes_on():
    """I2 with E1: before the final exhaustion, a refill that empties the pile waits for the
    reshuffle and then takes the rest of its 5 cards from the new pile."""
    s = isla_position(rows=([B.STINK] * 5, ROW_ACO), draw=[B.COFFEE] * 3 + [B.CHILI, B.BLUE],
                      discard=[B.WAX, B.BLUE, B.CHILI, B.COFFEE], exhaustions=0)
    s = play(s, Sail(0, 0, BOHNBAY, 5), EndPhase(0))
    assert s.phase == Phase.CHANCE and s.exhaustions == 1
    assert isla_of(s).rows[0] == (B.CHILI, B.BLUE)
    s = reshuffle_in_order(s)
    assert isla_of(s).rows[0] == (B.CHILI, B.BLUE, B.WAX, B.BLUE, B.CHILI)
    assert s.draw == (B.COFFEE,) and s.discard == ()
    assert s.active == 1 and s.phase == Phase.PLANT


# ---------------------------------------------------------------- I3 a turn


@pytest.mark.rule("I3")
@pytest.mark.parametrize("players, draw", [(2, 2), (3, 3), (4, 3), (5, 4), (6, 5), (7, 5)])
def test_I3_draw_counts(players, draw):
    """I3: the draw is 3 cards with 3-4 players, 4 with 5, 5 with 6-7; I9: 2 in the duel."""
    assert setup(ISLA, players).draw == draw
    if players <= 5:
        assert setup(AMIGO_ISLA, players).draw == draw
    s = isla_position(players, draw=[B.BLUE] * 7 + [B.CHILI] * 10)
    s = apply(s, EndPhase(0))
    assert s.players[0].hand == (B.COFFEE,) + (B.BLUE,) * draw
    assert len(s.draw) == 17 - draw and s.active == 1


@pytest.mark.rule("I3")
@pytest.mark.parametrize("players, up", [(2, 3), (3, 2), (4, 2), (7, 2)])
def test_I3_two_cards_turned_up_three_in_the_duel(players, up):
    """I3: after phase 1 the top 2 cards of the draw pile are turned up (3 in the duel, I9)."""
    assert setup(ISLA, players).face_up == up
    s = isla_position(players, phase=Phase.PLANT, discard=[B.COFFEE],
                      draw=[B.BLUE, B.CHILI, B.STINK, B.WAX] + [B.BLUE] * 10)
    s = apply(s, Plant(0, 0))
    assert s.phase == Phase.TRADE and s.to_move == 0
    assert s.face_up == tuple(sorted(beans([B.BLUE, B.CHILI, B.STINK, B.WAX][:up])))
    assert s.discard == (B.COFFEE,)


def trade_position(**kw):
    """p0 active in phase 2 with blue and stink turned up (u0 blue, u1 stink)."""
    seats = (player(hand=[B.COFFEE, B.WAX], fields_=fields((B.STINK, 1), None)),
             player(hand=[B.CHILI, B.WAX]), player(hand=[B.CHILI]), player(hand=[B.WAX]))
    return isla_position(seats=seats, face_up=[B.STINK, B.BLUE], **kw)


@pytest.mark.rule("I3")
def test_I3_the_active_player_offers_only_turned_up_cards():
    """I3: the active player offers only the turned-up cards (a proposal giving hand cards is
    refused with I3); the partner gives hand cards."""
    s = trade_position()
    props = kinds(s, Propose)
    assert props and all(not a.give_hand and a.player == 0 for a in props)
    illegal(s, Propose(0, 1, give_hand=(0,), ask=(B.CHILI,)), "I3")
    illegal(s, Propose(0, 1, give_hand=(1,), give_up=(0,)), "I3")
    s = play(s, Propose(0, 1, give_up=(s.face_up.index(B.BLUE),), ask=(B.CHILI,)), Accept(1, (0,)))
    assert s.players[1].aside == (B.BLUE,) and s.players[1].hand == (B.WAX,)
    assert s.players[0].aside == (B.CHILI,) and s.players[0].hand == (B.COFFEE, B.WAX)


@pytest.mark.rule("I3")
def test_I3_active_player_plants_during_phase_2_and_keeps_trading_and_sailing():
    """I3 reading: trading, ship moves and planting in any order and repeatedly: the active player
    plants a turned-up card and a received card during phase 2, then still trades and sails."""
    s = trade_position()
    up_stink = s.face_up.index(B.STINK)
    assert PlantUp(0, up_stink, 0) in legal_actions(s)
    s = apply(s, PlantUp(0, up_stink, 0))
    assert s.players[0].fields[0] == Field(B.STINK, 2)
    assert s.phase == Phase.TRADE and s.to_move == 0 and s.face_up == (B.BLUE,)
    s = play(s, Propose(0, 2, ask=(B.CHILI,)), Accept(2, (0,)))
    assert s.players[0].aside == (B.CHILI,)
    assert PlantAside(0, B.CHILI, 1) in legal_actions(s)
    s = apply(s, PlantAside(0, B.CHILI, 1))
    assert s.players[0].fields == (Field(B.STINK, 2), Field(B.CHILI, 1))
    assert s.phase == Phase.TRADE and s.to_move == 0 and s.players[0].aside == ()
    s = apply(s, Sail(0, 0, BOHNACO, 1))
    s = apply(s, Propose(0, 1, give_up=(0,)))
    assert s.to_move == 1
    s = apply(s, Accept(1))
    assert s.players[1].aside == (B.BLUE,) and s.face_up == ()
    s = apply(s, Sail(0, 0, HOME))
    assert isla_of(s).fleets[0].merchants[0] == Ship(B.CHILI, 1, HOME)
    assert s.phase == Phase.TRADE and s.to_move == 0


@pytest.mark.rule("I3")
def test_I3_other_players_plant_received_cards_after_phase_2():
    """I3 reading: only the active player plants during phase 2; a partner's received cards wait
    for phase 3 (T6), even when that partner is to move answering another offer."""
    s = trade_position()
    s = play(s, Propose(0, 1, give_up=(s.face_up.index(B.BLUE),)), Accept(1))
    assert s.players[1].aside == (B.BLUE,)
    s = apply(s, Propose(0, 1, give_up=(0,)))
    assert s.to_move == 1
    assert not kinds(s, PlantAside)
    illegal(s, PlantAside(1, B.BLUE, 0), "T6")
    s = play(s, Accept(1), EndPhase(0))
    assert s.phase == Phase.PLANT_ASIDE and s.to_move == 1
    assert PlantAside(1, B.BLUE, 0) in legal_actions(s)


# ---------------------------------------------------------------- I4 ship moves


@pytest.mark.rule("I4")
def test_I4_sailing_loads_the_front_card_and_optional_cards_of_its_type():
    """I4: arriving at an island port the ship loads the row's front card and, if the player wants,
    more cards of that type from the row (the rest keep their order)."""
    s = isla_position()
    sails = {a for a in kinds(s, Sail) if a.ship == 0 and a.port == BOHNBAY}
    assert sails == {Sail(0, 0, BOHNBAY, k) for k in (1, 2, 3)}
    one = apply(s, Sail(0, 0, BOHNBAY, 1))
    assert isla_of(one).fleets[0].merchants[0] == Ship(B.STINK, 1, BOHNBAY)
    assert isla_of(one).rows[0] == beans([B.CHILI, B.STINK, B.STINK, B.BLUE])
    two = apply(s, Sail(0, 0, BOHNBAY, 2))
    assert isla_of(two).fleets[0].merchants[0] == Ship(B.STINK, 2, BOHNBAY)
    assert isla_of(two).rows[0] == beans([B.CHILI, B.STINK, B.BLUE])
    three = apply(s, Sail(0, 0, BOHNBAY, 3))
    assert isla_of(three).rows[0] == beans([B.CHILI, B.BLUE])
    assert isla_of(three).rows[1] == beans(ROW_ACO) and isla_of(three).sails == 1
    assert three.phase == Phase.TRADE and three.to_move == 0


@pytest.mark.rule("I4")
@pytest.mark.parametrize("take", [0, 4, 9])
def test_I4_take_out_of_range_is_refused(take):
    """I4: the front card must be loaded (take >= 1), and at most the cards of its type in the row."""
    s = isla_position()
    illegal(s, Sail(0, 0, BOHNBAY, take), "I4")


@pytest.mark.rule("I4")
def test_I4_a_ship_holds_one_type_and_must_fit_the_front_card():
    """I4: a ship holding chili cannot sail to Bohnbay, whose front card is stink, even though the
    row holds a chili further back (refused with I4); it may sail to Bohnaco (front chili) and add."""
    s = isla_position(fleets=(fleet(ship(B.CHILI, 2)),) + (fleet(),) * 3)
    assert not [a for a in kinds(s, Sail) if a.port == BOHNBAY]
    err = illegal(s, Sail(0, 0, BOHNBAY, 1), "I4")
    assert "one type" in str(err)
    assert Sail(0, 0, BOHNACO, 3) in legal_actions(s)
    t = apply(s, Sail(0, 0, BOHNACO, 3))
    assert isla_of(t).fleets[0].merchants[0] == Ship(B.CHILI, 5, BOHNACO)
    assert isla_of(t).rows[1] == (B.WAX, B.COFFEE)


@pytest.mark.rule("I4")
def test_I4_moves_between_harbour_and_island_ports():
    """I4 reading: harbour to island, island to island, island to harbour; never to the port the
    ship is at; a move home loads nothing."""
    s = isla_position(fleets=(fleet(ship(B.CHILI, 1, BOHNBAY)),) + (fleet(),) * 3)
    illegal(s, Sail(0, 0, BOHNBAY, 1), "I4")
    assert Sail(0, 0, HOME) in legal_actions(s)
    t = apply(s, Sail(0, 0, BOHNACO, 1))
    assert isla_of(t).fleets[0].merchants[0] == Ship(B.CHILI, 2, BOHNACO)
    t = apply(t, Sail(0, 0, HOME))
    assert isla_of(t).fleets[0].merchants[0] == Ship(B.CHILI, 2, HOME)
    assert isla_of(t).rows[0] == beans(ROW_BAY) and isla_of(t).sails == 2
    illegal(t, Sail(0, 0, HOME), "I4")


@pytest.mark.rule("I4")
def test_I4_sailing_to_an_empty_row_loads_nothing():
    """I4 reading: a ship may sail to a port whose row is empty; it loads nothing (take must be 0)."""
    s = isla_position(rows=((), ROW_ACO), fleets=(fleet(ship(B.CHILI, 2)),) + (fleet(),) * 3)
    assert Sail(0, 0, BOHNBAY, 0) in legal_actions(s)
    illegal(s, Sail(0, 0, BOHNBAY, 1), "I4")
    t = apply(s, Sail(0, 0, BOHNBAY, 0))
    assert isla_of(t).fleets[0].merchants[0] == Ship(B.CHILI, 2, BOHNBAY)
    assert isla_of(t).rows == ((), beans(ROW_ACO))


@pytest.mark.rule("I4")
def test_I4_only_the_active_player_sails_in_phase_2():
    """I4/I3 reading: ship moves are the active player's, in phase 2 with no offer pending; in phase 1,
    in phase 3, or for a partner answering an offer, sailing is refused."""
    s = isla_position(phase=Phase.PLANT)
    assert not kinds(s, Sail)
    illegal(s, Sail(0, 0, BOHNBAY, 1), "I3")
    s = trade_position()
    assert kinds(s, Sail)
    s = apply(s, Propose(0, 1, give_up=(0,)))
    assert not kinds(s, Sail)
    illegal(s, Sail(1, 0, BOHNBAY, 1), "I3")
    with pytest.raises(model.IllegalAction):
        apply(s, Sail(0, 0, BOHNBAY, 1))  # p0 waits for the answer
    s = isla_position(phase=Phase.PLANT_ASIDE, seats=(player(aside=[B.STINK]),) + (player(),) * 3)
    assert not kinds(s, Sail)
    illegal(s, Sail(0, 0, BOHNBAY, 1), "I3")


@pytest.mark.rule("I4")
def test_I4_max_sails_bounds_the_moves_of_a_turn():
    """I4 reading: at most ``max_sails`` ship moves a turn (default 6); the next is refused (I4)."""
    assert ISLA.option("max_sails") == 6
    r = model.ruleset("rio-grande", {"isla": True, "max_sails": 2})
    s = isla_position(ruleset=r)
    s = play(s, Sail(0, 0, BOHNBAY, 1), Sail(0, 0, HOME))
    assert isla_of(s).sails == 2
    assert not kinds(s, Sail)
    illegal(s, Sail(0, 0, BOHNBAY, 1), "I4")
    s = isla_position(isla_changes={"sails": 5})
    assert kinds(s, Sail)
    s = apply(s, Sail(0, 0, BOHNACO, 1))
    assert not kinds(s, Sail)
    illegal(s, Sail(0, 0, HOME), "I4")


@pytest.mark.rule("I4")
def test_I4_the_pirate_ship_does_not_sail_to_the_island():
    """I4/I7: only merchant ships sail to the island; the pirate ship sails only to attack."""
    s = isla_position(fleets=(fleet(pirate=EMPTY_SHIP),) + (fleet(),) * 3)
    assert not [a for a in kinds(s, Sail) if a.ship == PIRATE]
    illegal(s, Sail(0, PIRATE, BOHNBAY, 1), "I7")


# ---------------------------------------------------------------- I5 loading a harvest


def harvest_position(m0=EMPTY_SHIP, **kw):
    seats = (player(hand=[B.COFFEE], fields_=fields((B.STINK, 3), (B.CHILI, 1))),) + (player(),) * 3
    return isla_position(seats=seats, fleets=(fleet(m0),) + (fleet(),) * 3, **kw)


@pytest.mark.rule("I5")
def test_I5_harvest_onto_a_merchant_ship_instead_of_selling():
    """I5: a harvested field may be loaded onto one's merchant ship (empty or of the same type, in its
    harbour): no coins, nothing discarded, the field is empty."""
    s = harvest_position(discard=[B.WAX])
    assert HarvestOnto(0, 0, 0) in legal_actions(s)
    t = apply(s, HarvestOnto(0, 0, 0))
    assert t.players[0].fields == (EMPTY, Field(B.CHILI, 1))
    assert isla_of(t).fleets[0].merchants[0] == Ship(B.STINK, 3, HOME)
    assert t.players[0].coins == () and t.discard == (B.WAX,)
    s = harvest_position(m0=ship(B.STINK, 2))
    t = apply(s, HarvestOnto(0, 0, 0))
    assert isla_of(t).fleets[0].merchants[0] == Ship(B.STINK, 5, HOME)


@pytest.mark.rule("I5")
def test_I5_single_bean_protection_still_applies():
    """I5 with H4: a one-card field cannot be harvested onto a ship while another field holds more."""
    s = harvest_position()
    assert HarvestOnto(0, 1, 0) not in legal_actions(s)
    illegal(s, HarvestOnto(0, 1, 0), "H4")
    t = apply(s, HarvestOnto(0, 0, 0))  # once the 3 stink are gone, the single chili may go
    t = t._replace(ext=isla_of(t)._replace(fleets=(fleet(),) + isla_of(t).fleets[1:]))
    assert HarvestOnto(0, 1, 0) in legal_actions(t)


@pytest.mark.rule("I5")
def test_I5_a_ship_holding_another_type_or_away_takes_no_harvest():
    """I5: a ship holds one type (loading a second type is refused with I5); a ship away from its
    harbour takes no harvest (reading: the fields are at home)."""
    s = harvest_position(m0=ship(B.CHILI, 2))
    assert not kinds(s, HarvestOnto)
    err = illegal(s, HarvestOnto(0, 0, 0), "I5")
    assert "one type" in str(err)
    s = harvest_position(m0=ship(B.STINK, 1, BOHNBAY))
    assert not kinds(s, HarvestOnto)
    illegal(s, HarvestOnto(0, 0, 0), "I5")


@pytest.mark.rule("I5")
def test_I5_island_beans_are_never_planted():
    """I5: cargo counts as harvested: PlantCargo is never listed and always refused with I5."""
    fl = fleet(ship(B.STINK, 2), pirate=ship(B.STINK, 1))
    s = isla_position(fleets=(fl,) + (fleet(),) * 3)
    assert not kinds(s, PlantCargo)
    illegal(s, PlantCargo(0, 0, 0), "I5")
    illegal(s, PlantCargo(0, PIRATE, 1), "I5")
    illegal(isla_position(phase=Phase.PLANT, fleets=(fl,) + (fleet(),) * 3), PlantCargo(0, 0, 0), "I5")
    assert isla_of(s).fleets[0] == fl


@pytest.mark.rule("I5")
def test_I5_harvest_onto_a_ship_off_turn_when_to_move():
    """I5/H6 reading: a player who is to move off-turn (answering an offer) may load a harvest."""
    seats = (player(hand=[B.COFFEE]), player(hand=[B.WAX], fields_=fields((B.STINK, 2), None)),
             player(), player())
    s = isla_position(seats=seats, face_up=[B.BLUE, B.CHILI])
    illegal(s, HarvestOnto(1, 0, 0), "T3")  # not to move
    s = apply(s, Propose(0, 1, give_up=(0,)))
    assert HarvestOnto(1, 0, 0) in legal_actions(s)
    s = apply(s, HarvestOnto(1, 0, 0))
    assert isla_of(s).fleets[1].merchants[0] == Ship(B.STINK, 2, HOME) and s.to_move == 1


# ---------------------------------------------------------------- I6 selling and moving cargo


@pytest.mark.rule("I6")
def test_I6_cargo_is_sold_whole_by_the_beanometer():
    """I6: a cargo is sold whole: the beanometer's coins to the coin stack, the rest to the discard
    pile; the ship stays where it is, empty. A ship may sell at an island port."""
    fl = fleet(ship(B.STINK, 5), ship(B.CHILI, 3, BOHNACO))
    s = isla_position(fleets=(fl,) + (fleet(),) * 3, discard=[B.WAX])
    assert Sell(0, 0) in legal_actions(s) and Sell(0, 1) in legal_actions(s)
    t = apply(s, Sell(0, 0))  # stink 3/5/7/8: 5 cards pay 2
    assert t.players[0].coins == (B.STINK, B.STINK)
    assert t.discard == (B.WAX, B.STINK, B.STINK, B.STINK)
    assert isla_of(t).fleets[0].merchants[0] == EMPTY_SHIP
    t = apply(t, Sell(0, 1))  # chili 3/6/8/9: 3 cards pay 1
    assert t.players[0].coins == (B.STINK, B.STINK, B.CHILI)
    assert t.discard[-2:] == (B.CHILI, B.CHILI)
    assert isla_of(t).fleets[0].merchants[1] == ship(at=BOHNACO)
    assert t.phase == Phase.TRADE and t.to_move == 0


@pytest.mark.rule("I6")
def test_I6_a_cargo_that_pays_nothing_cannot_be_sold():
    """I6: a cargo is sold only for at least one coin (never thrown overboard): 2 chili pay nothing
    and cannot be sold (I6); an empty ship has nothing to sell (I6)."""
    fl = fleet(ship(B.CHILI, 2), EMPTY_SHIP, pirate=ship(B.STINK, 1))
    s = isla_position(fleets=(fl,) + (fleet(),) * 3)
    assert not kinds(s, Sell)
    for i in (0, 1, PIRATE):
        illegal(s, Sell(0, i), "I6")
    assert isla_of(s).fleets[0] == fl


@pytest.mark.rule("I6")
def test_I6_selling_off_turn_when_to_move():
    """I6 reading: like a harvest (H6), a sale is allowed whenever the player is to move (3+ players)."""
    fl = fleet(ship(B.STINK, 5, BOHNBAY))
    s = trade_position(fleets=(fleet(), fl, fleet(), fleet()))
    illegal(s, Sell(1, 0), "T3")  # not to move
    s = apply(s, Propose(0, 1, give_up=(0,)))
    assert Sell(1, 0) in legal_actions(s)
    s = apply(s, Sell(1, 0))
    assert s.players[1].coins == (B.STINK, B.STINK) and s.to_move == 1
    assert isla_of(s).fleets[1].merchants[0] == ship(at=BOHNBAY)


@pytest.mark.rule("I6")
def test_I6_cargo_moves_between_own_merchant_ships_in_the_same_port():
    """I6 reading: a whole cargo moves onto one's other merchant ship in the same port, empty or of
    the same type; another port or another type is refused (I6)."""
    s = isla_position(fleets=(fleet(ship(B.STINK, 2), ship(B.STINK, 1)),) + (fleet(),) * 3)
    assert {MoveCargo(0, 0, 1), MoveCargo(0, 1, 0)} <= set(legal_actions(s))
    t = apply(s, MoveCargo(0, 0, 1))
    assert isla_of(t).fleets[0].merchants == (EMPTY_SHIP, Ship(B.STINK, 3, HOME))
    s = isla_position(fleets=(fleet(ship(B.STINK, 2), ship(B.CHILI, 1)),) + (fleet(),) * 3)
    assert not kinds(s, MoveCargo)
    illegal(s, MoveCargo(0, 0, 1), "I6")
    s = isla_position(fleets=(fleet(ship(B.STINK, 2), ship(at=BOHNBAY)),) + (fleet(),) * 3)
    assert not kinds(s, MoveCargo)
    illegal(s, MoveCargo(0, 0, 1), "I6")
    s = isla_position(fleets=(fleet(ship(B.STINK, 2, BOHNACO), ship(at=BOHNACO)),) + (fleet(),) * 3)
    t = apply(s, MoveCargo(0, 0, 1))
    assert isla_of(t).fleets[0].merchants == (ship(at=BOHNACO), Ship(B.STINK, 2, BOHNACO))
    illegal(t, MoveCargo(0, 0, 1), "I6")  # an empty ship has no cargo to move


@pytest.mark.rule("I6")
def test_I6_pirate_cargo_moves_to_a_merchant_ship_but_not_in_the_turn_of_a_capture():
    """I6 reading: pirate cargo may move onto one's merchant ship (in the harbour), except in the
    turn the pirate captured a card (refused with I6)."""
    fl = fleet(ship(B.STINK, 1), pirate=ship(B.STINK, 2))
    s = isla_position(fleets=(fl,) + (fleet(),) * 3)
    assert MoveCargo(0, PIRATE, 0) in legal_actions(s)
    t = apply(s, MoveCargo(0, PIRATE, 0))
    assert isla_of(t).fleets[0] == fleet(ship(B.STINK, 3), pirate=EMPTY_SHIP)
    s = isla_position(fleets=(fl,) + (fleet(),) * 3, isla_changes={"captured": True})
    assert MoveCargo(0, PIRATE, 0) not in legal_actions(s)
    err = illegal(s, MoveCargo(0, PIRATE, 0), "I6")
    assert "captured" in str(err)


# ---------------------------------------------------------------- I7 pirate attacks


THREE_STINK = Ship(B.STINK, 3, HOME)


def raid_position(victim=THREE_STINK, pirate=EMPTY_SHIP, players=3, seats=None, **kw):
    """p0 (active, phase 2) owns ``pirate``; p1's merchant ships hold ``victim`` and 4 stink, at home."""
    fleets = (fleet(pirate=pirate), fleet(victim, ship(B.STINK, 4))) + (fleet(),) * (players - 2)
    return isla_position(players, seats=seats, fleets=fleets, **kw)


@pytest.mark.rule("I7")
def test_I7_attack_and_the_owner_sells_first():
    """I7: the active player's pirate attacks a merchant ship; its owner is to move and may sell
    the cargo (it pays): the sale answers the attack, which still counts as made."""
    s = raid_position(discard=[B.WAX])
    assert set(kinds(s, Attack)) == {Attack(0, 1, 0), Attack(0, 1, 1)}
    s = apply(s, Attack(0, 1, 0))
    assert s.to_move == 1 and isla_of(s).attack == (1, 0) and s.phase == Phase.TRADE
    assert legal_actions(s) == [Sell(1, 0), Yield(1)]
    check_state(s)
    s = apply(s, Sell(1, 0))
    assert s.players[1].coins == (B.STINK,) and s.discard == (B.WAX, B.STINK, B.STINK)
    assert isla_of(s).fleets[1].merchants[0] == EMPTY_SHIP
    assert isla_of(s).fleets[0].pirate == EMPTY_SHIP and not isla_of(s).captured
    assert isla_of(s).attack is None and isla_of(s).attacked == ((1, 0),) and s.to_move == 0


@pytest.mark.rule("I7")
def test_I7_attack_and_the_owner_yields_one_card():
    """I7: if the owner does not sell, one card moves from its ship to the pirate ship."""
    s = play(raid_position(), Attack(0, 1, 0), Yield(1))
    assert isla_of(s).fleets[1].merchants[0] == Ship(B.STINK, 2, HOME)
    assert isla_of(s).fleets[0].pirate == Ship(B.STINK, 1, HOME)
    assert isla_of(s).captured and isla_of(s).attack is None and s.to_move == 0
    s = play(raid_position(victim=ship(B.STINK, 1), pirate=ship(B.STINK, 2)), Attack(0, 1, 0), Yield(1))
    assert isla_of(s).fleets[1].merchants[0] == EMPTY_SHIP
    assert isla_of(s).fleets[0].pirate == Ship(B.STINK, 3, HOME)


@pytest.mark.rule("I7")
def test_I7_a_cargo_that_pays_nothing_can_only_yield():
    """I7 with I6: the owner may sell only a cargo that pays; otherwise it must yield a card."""
    s = apply(raid_position(victim=ship(B.STINK, 1)), Attack(0, 1, 0))
    assert legal_actions(s) == [Yield(1)]
    illegal(s, Sell(1, 0), "I6")


@pytest.mark.rule("I7")
def test_I7_the_attacked_player_answers_at_once_and_nothing_else():
    """I7 reading: while an attack waits, the owner may only sell that ship or yield; no other sale,
    harvest or purchase, and the attacker waits (all refused with I7)."""
    seats = (player(hand=[B.COFFEE]), player(hand=[B.WAX], fields_=fields((B.CHILI, 3), None),
                                              coins=[B.BLUE] * 5), player(hand=[B.COFFEE]))
    s = apply(raid_position(seats=seats), Attack(0, 1, 0))
    illegal(s, Sell(1, 1), "I7", names_player=False)
    illegal(s, Harvest(1, 0), "I7", names_player=False)
    illegal(s, BuyShip(1, True), "I7", names_player=False)
    illegal(s, EndPhase(0), "I7", names_player=False)
    illegal(s, Attack(0, 1, 1), "I7", names_player=False)
    illegal(s, Yield(2), "I7", names_player=False)


@pytest.mark.rule("I7")
def test_I7_each_merchant_ship_once_per_turn():
    """I7: each enemy merchant ship can be attacked once per turn (a second attack is refused with
    I7); the owner's other merchant ship is still a target."""
    s = play(raid_position(), Attack(0, 1, 0), Yield(1))
    assert Attack(0, 1, 0) not in legal_actions(s)
    err = illegal(s, Attack(0, 1, 0), "I7", who=1)
    assert "once per turn" in str(err)
    assert Attack(0, 1, 1) in legal_actions(s)
    s = play(s, Attack(0, 1, 1), Sell(1, 1))
    assert isla_of(s).attacked == ((1, 0), (1, 1))
    assert not kinds(s, Attack)
    illegal(s, Attack(0, 1, 1), "I7", who=1)


@pytest.mark.rule("I7")
def test_I7_attack_preconditions():
    """I7 reading: only the active player with a pirate ship, in phase 2; the target is another
    player's merchant ship in its harbour, with cargo of a type the pirate can hold."""
    illegal(raid_position(pirate=None), Attack(0, 1, 0), "I7")
    s = raid_position(victim=ship(B.STINK, 3, BOHNBAY))
    assert Attack(0, 1, 0) not in legal_actions(s)
    illegal(s, Attack(0, 1, 0), "I7", who=1)
    s = raid_position(victim=EMPTY_SHIP)
    assert Attack(0, 1, 0) not in legal_actions(s)
    illegal(s, Attack(0, 1, 0), "I7", who=1)
    s = raid_position(pirate=ship(B.CHILI, 1))
    assert not kinds(s, Attack)
    err = illegal(s, Attack(0, 1, 0), "I7")
    assert "one type" in str(err)
    s = raid_position()
    illegal(s, Attack(0, 0, 0), "I7")  # its own ship
    illegal(s, Attack(0, 1, PIRATE), "I7", names_player=False)  # merchant ships only
    s = raid_position(phase=Phase.PLANT)
    assert not kinds(s, Attack)
    illegal(s, Attack(0, 1, 0), "I7")
    s = isla_position(3, fleets=(fleet(ship(B.STINK, 2)), fleet(pirate=EMPTY_SHIP), fleet()))
    with pytest.raises(model.IllegalAction):
        apply(s, Attack(1, 0, 0))  # p1 is not the active player


@pytest.mark.rule("I7")
def test_I7_merchant_cargo_and_harvests_never_go_onto_a_pirate_ship():
    """I7: merchant cargo is never moved onto a pirate ship, nor a harvest loaded onto it (I7)."""
    seats = (player(hand=[B.COFFEE], fields_=fields((B.STINK, 3), None)), player(), player())
    s = isla_position(3, seats=seats, fleets=(fleet(ship(B.STINK, 2), pirate=EMPTY_SHIP), fleet(), fleet()))
    assert not [a for a in kinds(s, MoveCargo) if a.target == PIRATE]
    assert not [a for a in kinds(s, HarvestOnto) if a.ship == PIRATE]
    illegal(s, MoveCargo(0, 0, PIRATE), "I7")
    illegal(s, HarvestOnto(0, 0, PIRATE), "I7")


@pytest.mark.rule("I7")
def test_I7_next_turn_the_ship_can_be_attacked_again_and_captured_cargo_moves():
    """I7: the once-per-turn count starts again the next turn; I6 reading: the captured cards may be
    moved onto a merchant ship in a later turn (not in the turn of the capture)."""
    seats = (player(hand=[B.COFFEE, B.COFFEE]), player(hand=[B.WAX, B.WAX]), player(hand=[B.BLUE, B.BLUE]))
    s = raid_position(seats=seats, draw=[B.BLUE] * 10 + [B.CHILI] * 10, victim=ship(B.STINK, 4))
    s = play(s, Attack(0, 1, 0), Yield(1))
    assert MoveCargo(0, PIRATE, 0) not in legal_actions(s)
    illegal(s, MoveCargo(0, PIRATE, 0), "I6")
    s = apply(s, EndPhase(0))
    assert s.active == 1 and isla_of(s).attacked == () and not isla_of(s).captured
    s = pass_turn(pass_turn(s))
    assert s.active == 0 and s.phase == Phase.PLANT
    s = play(s, Plant(0, 0), EndPhase(0))
    assert s.phase == Phase.TRADE
    assert isla_of(s).fleets[1].merchants[0] == Ship(B.STINK, 3, HOME)
    acts = legal_actions(s)
    assert Attack(0, 1, 0) in acts and MoveCargo(0, PIRATE, 0) in acts
    t = apply(s, MoveCargo(0, PIRATE, 0))
    assert isla_of(t).fleets[0] == fleet(ship(B.STINK, 1), pirate=EMPTY_SHIP)
    t = play(s, Attack(0, 1, 0), Yield(1))
    assert isla_of(t).fleets[0].pirate == Ship(B.STINK, 2, HOME)


# ---------------------------------------------------------------- I8 the end


@pytest.mark.rule("I8")
@pytest.mark.parametrize("ruleset, players", [(ISLA, n) for n in (2, 4, 5, 6, 7)]
                         + [(AMIGO_ISLA, n) for n in (2, 3, 4, 5)])
def test_I8_the_game_ends_at_the_third_exhaustion(ruleset, players):
    """I8: the game ends at the 3rd exhaustion, also in the Isla duel (the plain bean duel ends at
    the 1st, D)."""
    assert setup(ruleset, players).final_exhaustion == 3
    assert setup(model.ruleset("rio-grande"), 2).final_exhaustion == 1


@pytest.mark.rule("I8")
def test_I8_three_players_with_the_rio_grande_deck_end_as_in_the_base_game():
    """I8 reading: "as in the base game (E2)", whose exhaustion is numbered in S: 3 players with the
    rio-grande deck end at the 2nd, as without the expansion (RULES.md's "3rd" is the usual case;
    the seed says only "as in the basic rules"). Documented in model/isla/state.py and the README."""
    assert setup(ISLA, 3).final_exhaustion == 2 == setup(model.ruleset("rio-grande"), 3).final_exhaustion


@pytest.mark.rule("I8")
@pytest.mark.parametrize("players", [2, 4])
def test_I8_played_games_end_at_the_third_exhaustion(players):
    """I8: a played Isla game (duel and 4 players) reshuffles twice and ends at the 3rd exhaustion."""
    result, _, end, actions = simulated(players, "greedy", 11)
    assert end.is_over and end.exhaustions == 3
    assert result.reshuffles == 2
    assert sum(isinstance(a, Reshuffle) for a in actions) == 2


@pytest.mark.rule("I8")
def test_I8_final_exhaustion_while_drawing_ends_at_once_in_the_isla_duel():
    """I8/E2: in the Isla duel the 3rd exhaustion while drawing ends the game at once; the 2nd does
    not (a reshuffle follows)."""
    seats = (player(hand=[B.COFFEE]), player(hand=[B.WAX]))
    s = duel_position(seats=seats, draw=[B.BLUE, B.CHILI], discard=[B.STINK] * 4, exhaustions=2)
    s = apply(s, EndPhase(0))
    assert s.is_over and s.exhaustions == 3
    assert s.players[0].hand == (B.COFFEE, B.BLUE, B.CHILI)
    s = duel_position(seats=seats, draw=[B.BLUE, B.CHILI], discard=[B.STINK] * 4, exhaustions=1)
    s = apply(s, EndPhase(0))
    assert s.phase == Phase.CHANCE and s.exhaustions == 2


# ---------------------------------------------------------------- I9 the Isla duel


def duel_plant_position(hand, **kw):
    """Duel, p0 in phase 1 with fields (stink 1) and (chili 1); stink, chili, stink on the draw pile."""
    seats = (player(hand=hand, fields_=fields((B.STINK, 1), (B.CHILI, 1))), player(hand=[B.WAX]))
    kw.setdefault("draw", [B.STINK, B.CHILI, B.STINK] + [B.COFFEE] * 15)
    return duel_position(seats=seats, phase=Phase.PLANT, **kw)


@pytest.mark.rule("I9")
def test_I9_duel_setup():
    """I9: 5 cards each, 3 turned up, 2 drawn; the rows are dealt too."""
    su = setup(ISLA, 2)
    assert su.duel and su.hands == (5, 5) and su.face_up == 3 and su.draw == 2
    s = model.new_game(ISLA, 2, seed=5)
    assert [len(p.hand) for p in s.players] == [5, 5]
    assert [len(r) for r in isla_of(s).rows] == [5, 5]
    assert s.phase == Phase.PLANT and s.face_up == ()


@pytest.mark.rule("I9")
def test_I9_discard_before_the_plantings_once_a_turn():
    """I9 reading: the hand discard may come before the first planting; a second discard in the same
    turn is refused with I9."""
    s = duel_plant_position([B.STINK, B.WAX, B.CHILI, B.BLUE])
    assert {Discard(0, h) for h in range(4)} <= set(legal_actions(s))
    s = apply(s, Discard(0, 1))
    assert s.players[0].hand == (B.STINK, B.CHILI, B.BLUE)
    assert s.discard[-1] == B.WAX and isla_of(s).discarded
    assert s.phase == Phase.PLANT and s.planted == 0 and s.to_move == 0
    assert not kinds(s, Discard)
    err = illegal(s, Discard(0, 0), "I9")
    assert "once per turn" in str(err)
    assert EndPhase(0) not in legal_actions(s)  # the front card must still be planted
    s = play(s, Plant(0, 0), Plant(0, 1))
    assert s.phase == Phase.TRADE  # no discard step after the plantings: it is used
    assert not kinds(s, Discard)
    with pytest.raises(model.IllegalAction):
        apply(s, Discard(0, 0))


@pytest.mark.rule("I9")
def test_I9_discard_between_the_plantings():
    """I9 reading: the discard may come between the two plantings."""
    s = duel_plant_position([B.STINK, B.WAX, B.CHILI, B.BLUE])
    s = play(s, Plant(0, 0), Discard(0, 0))
    assert s.players[0].hand == (B.CHILI, B.BLUE) and s.phase == Phase.PLANT and s.planted == 1
    illegal(s, Discard(0, 0), "I9")
    s = apply(s, Plant(0, 1))
    assert s.phase == Phase.TRADE and s.players[0].hand == (B.BLUE,)


@pytest.mark.rule("I9")
def test_I9_discard_after_the_plantings():
    """I9: after the plantings the player may discard one hand card (or not), then turns up 3."""
    s = duel_plant_position([B.STINK, B.CHILI, B.WAX, B.BLUE])
    s = play(s, Plant(0, 0), Plant(0, 1))
    assert s.phase == Phase.DISCARD
    s = apply(s, Discard(0, 1))
    assert s.players[0].hand == (B.WAX,) and s.phase == Phase.TRADE
    assert isla_of(s).discarded and len(s.face_up) == 3
    s = duel_plant_position([B.STINK, B.CHILI, B.WAX, B.BLUE])
    s = play(s, Plant(0, 0), Plant(0, 1), EndPhase(0))
    assert s.players[0].hand == (B.WAX, B.BLUE) and s.phase == Phase.TRADE


@pytest.mark.rule("I9")
def test_I9_turned_up_cards_and_matching_discards_are_all_the_active_players():
    """I9: 3 cards turned up plus the matching top discards; the active player plants them all (they
    are set aside at the end of phase 2): nothing is left on offer to the opponent."""
    s = duel_plant_position([B.STINK], discard=[B.BLUE, B.CHILI, B.STINK])
    s = apply(s, Plant(0, 0))
    assert s.phase == Phase.TRADE and s.to_move == 0
    assert s.face_up == beans(sorted([B.STINK, B.CHILI, B.STINK, B.STINK, B.CHILI]))
    assert s.discard == (B.BLUE,)
    s = apply(s, EndPhase(0))
    assert s.phase == Phase.PLANT_ASIDE and s.to_move == 0 and s.face_up == ()
    assert Counter(s.players[0].aside) == Counter({B.STINK: 3, B.CHILI: 2})
    assert s.players[1].aside == ()
    for b, f in ((B.STINK, 0), (B.STINK, 0), (B.CHILI, 1), (B.STINK, 0), (B.CHILI, 1)):
        assert s.to_move == 0
        s = apply(s, PlantAside(0, b, f))
    assert s.players[0].fields == (Field(B.STINK, 5), Field(B.CHILI, 3))
    assert s.active == 1 and s.phase == Phase.PLANT and s.face_up == ()  # no offer step (D2 step 1)


@pytest.mark.rule("I9")
def test_I9_turned_up_cards_may_be_planted_during_phase_2():
    """I9/I3: the active player may plant turned-up cards during phase 2, between ship moves."""
    s = apply(duel_plant_position([B.STINK]), Plant(0, 0))
    s = play(s, PlantUp(0, s.face_up.index(B.CHILI), 1), Sail(0, 0, BOHNBAY, 3))
    assert s.players[0].fields[1] == Field(B.CHILI, 2) and s.phase == Phase.TRADE
    assert isla_of(s).fleets[0].merchants[0] == Ship(B.STINK, 3, BOHNBAY)


@pytest.mark.rule("I9")
def test_I9_no_trading_in_the_isla_duel():
    """I9: there is no trading in the Isla duel: no proposal is listed, one is refused with I9."""
    s = apply(duel_plant_position([B.STINK]), Plant(0, 0))
    assert s.phase == Phase.TRADE
    assert not kinds(s, Propose)
    illegal(s, Propose(0, 1, give_up=(0,)), "I9")
    illegal(s, Propose(0, 1, ask=(B.WAX,)), "I9")


def duel_sale_position(**kw):
    """Duel, p0 active in phase 2 with a pirate; p1 has coffee 5 and wax 4 on its ships, at home."""
    fleets = (fleet(ship(B.COFFEE, 4), pirate=EMPTY_SHIP), fleet(ship(B.COFFEE, 5), ship(B.WAX, 4)))
    seats = (player(hand=[B.COFFEE]), player(hand=[B.WAX], fields_=fields((B.STINK, 3), None),
                                             coins=[B.BLUE] * 5))
    return duel_position(seats=seats, fleets=fleets, **kw)


@pytest.mark.rule("I9")
def test_I9_selling_only_on_ones_own_turn_except_to_save_an_attacked_cargo():
    """I9: fields and ships are sold only on one's own turn, except the sale that answers an attack;
    the attacked player may sell only the attacked ship."""
    s = duel_sale_position()
    assert Sell(0, 0) in legal_actions(s)
    for a in (Sell(1, 0), Harvest(1, 0), HarvestOnto(1, 0, 1), BuyShip(1, True)):
        with pytest.raises(model.IllegalAction):
            apply(s, a)
    s = apply(s, Attack(0, 1, 0))
    assert s.to_move == 1
    assert legal_actions(s) == [Sell(1, 0), Yield(1)]
    illegal(s, Sell(1, 1), "I7", names_player=False)
    illegal(s, HarvestOnto(1, 0, 1), "I7", names_player=False)
    illegal(s, BuyShip(1, True), "I7", names_player=False)
    t = apply(s, Sell(1, 0))
    assert t.players[1].coins == (B.BLUE,) * 5 + (B.COFFEE,)
    assert t.to_move == 0


@pytest.mark.rule("I9")
def test_I9_off_turn_sale_in_the_isla_duel_is_refused_citing_I9():
    """I9: a sale by the player whose turn it is not is refused naming I9, the rule that forbids it
    in the Isla duel ("fields and ships may be sold only on one's own turn")."""
    s = duel_sale_position()
    illegal(s, Sell(1, 1), "I9")


@pytest.mark.rule("I9")
def test_I9_duel_purchase_coins_leave_play_and_return_when_the_pile_runs_out():
    """I9: coins paid in the duel (ships and the third field) are set aside in ``out`` and join the
    discard pile when the draw pile runs out, before the reshuffle."""
    seats = (player(hand=[B.COFFEE], coins=[B.CHILI] * 3 + [B.STINK] * 2), player(hand=[B.WAX]))
    s = duel_position(seats=seats, draw=[B.BLUE, B.WAX], discard=[B.COFFEE])
    s = play(s, BuyShip(0, True), BuyField(0))
    assert s.players[0].coins == () and len(s.players[0].fields) == 3
    assert Counter(s.out) == Counter({B.CHILI: 3, B.STINK: 2})
    assert s.discard == (B.COFFEE,)
    s = apply(s, EndPhase(0))  # draw 2: the pile runs out
    assert s.phase == Phase.CHANCE and s.exhaustions == 1
    assert s.out == ()
    assert Counter(s.discard) == Counter({B.COFFEE: 1, B.CHILI: 3, B.STINK: 2})
    s = reshuffle_in_order(s)
    assert len(s.draw) == 6 and s.discard == () and s.active == 1


# ---------------------------------------------------------------- E3 the end with ships


@pytest.mark.rule("E3")
def test_E3_ships_cargo_is_sold_at_the_end_by_the_beanometer():
    """E3 (Isla reading): at the end every cargo is sold like a field, by the beanometer (no coin if
    it pays nothing, the cards go to the discard pile); the rows score nothing."""
    fleets = (fleet(ship(B.STINK, 5), ship(B.CHILI, 2, BOHNBAY), pirate=ship(B.STINK, 1)),
              fleet(ship(B.WAX, 4, BOHNACO), pirate=ship(B.CHILI, 3)), fleet(), fleet())
    seats = (player(hand=[B.COFFEE], fields_=fields((B.BLUE, 4), None)),) + (player(),) * 3
    s = isla_position(seats=seats, fleets=fleets, draw=[B.WAX] * 3, discard=[B.COFFEE], exhaustions=2)
    s = apply(s, EndPhase(0))
    assert s.is_over
    assert Counter(s.players[0].coins) == Counter({B.STINK: 2, B.BLUE: 1})  # chili 2 and stink 1 pay 0
    assert Counter(s.players[1].coins) == Counter({B.WAX: 1, B.CHILI: 1})
    assert model.scores(s) == (3, 2, 0, 0)
    assert all(sh.count == 0 for f in isla_of(s).fleets for _, sh in f.ships())
    assert isla_of(s).rows == (beans(ROW_BAY), beans(ROW_ACO))
    assert Counter(s.discard) == Counter({B.COFFEE: 1, B.STINK: 4, B.CHILI: 4, B.BLUE: 3, B.WAX: 3})


# ---------------------------------------------------------------- whole games


GAMES = [(players, bot, seed) for players in range(2, 8) for bot, seed in (("greedy", 11), ("random", 12))]


@pytest.mark.rule("I2")
@pytest.mark.parametrize("players, bot, seed", GAMES)
def test_I2_card_conservation_and_valid_states_over_whole_games(players, bot, seed):
    """I1-I9: over whole Isla games every card is in exactly one place (hands, fields, coins,
    set-aside, draw, discard, face-up, out, ships, rows) and ``check_state`` accepts every state; no
    state offers a PlantCargo; the game ends with every ship empty (E3 reading)."""
    _, s0, end, actions = simulated(players, bot, seed)
    deck = Counter(s0.setup.deck)
    for s in states_of(s0, actions):
        assert all_cards(s) == deck
        check_state(s)
        assert s.ext is not None and len(isla_of(s).fleets) == players
    assert end.is_over
    assert all(sh.count == 0 for f in isla_of(end).fleets for _, sh in f.ships())
    assert not [a for a in actions if isinstance(a, PlantCargo)]


@pytest.mark.rule("I2")
@pytest.mark.parametrize("players, bot, seed", [g for g in GAMES if g[0] in (2, 4, 6)])
def test_I2_record_and_state_json_round_trips(players, bot, seed):
    """Records: an Isla game written with ``header``/``record_lines`` and read back with
    ``parse_record`` + ``replay`` ends in the same state; states survive the JSON round trip."""
    _, s0, end, actions = simulated(players, bot, seed)
    text = record_lines(header(s0, seats=[bot] * players, seed=seed), actions, end)
    rec = parse_record(text)
    assert rec.rules == ISLA and rec.players == players and rec.actions == actions
    assert rec.initial_state() == s0
    assert replay(rec) == end
    for s in states_of(s0, actions):
        assert state_from_json(json.loads(json.dumps(state_to_json(s)))) == s


def test_I7_simulated_games_use_every_ship_move():
    """The simulated games above exercise the expansion: ships sail, load, sell, move cargo and raid."""
    seen: Counter = Counter()
    for g in GAMES:
        seen.update(type(a).__name__ for a in simulated(*g)[3])
    for name in ("Sail", "Sell", "Attack", "Yield", "BuyShip", "HarvestOnto", "MoveCargo"):
        assert seen[name] > 0, name


# ---------------------------------------------------------------- notation


ISLA_ACTIONS = [
    Sail(0, 0, BOHNBAY, 2), Sail(3, 1, BOHNACO, 1), Sail(1, 0, BOHNACO, 0), Sail(2, 1, HOME, 0),
    HarvestOnto(1, 0, 1), HarvestOnto(6, 2, 0),
    Sell(1, 0), Sell(0, 1), Sell(4, PIRATE),
    MoveCargo(1, PIRATE, 0), MoveCargo(0, 0, 1), MoveCargo(5, 1, 0),
    Attack(0, 2, 1), Attack(6, 0, 0),
    Yield(2),
    BuyShip(0, False), BuyShip(3, True),
    PlantCargo(1, 0, 2), PlantCargo(0, PIRATE, 0),
]


@pytest.mark.rule("I4")
@pytest.mark.parametrize("action", ISLA_ACTIONS, ids=str)
def test_I4_I7_notation_round_trip(action):
    """Every Isla action kind reads back from its text: ``parse_action(str(a)) == a``."""
    assert parse_action(str(action)) == action


@pytest.mark.rule("I4")
def test_I4_I7_notation_of_the_actions_module():
    """The notation documented in model/actions.py reads as the actions it describes; malformed
    ship moves are NotationErrors."""
    assert parse_action("p0 sail m0 bohnbay 2") == Sail(0, 0, BOHNBAY, 2)
    assert parse_action("p0 sail m1 home") == Sail(0, 1, HOME, 0)
    assert parse_action("p1 harvest 0 onto m1") == HarvestOnto(1, 0, 1)
    assert parse_action("p1 sell m0") == Sell(1, 0)
    assert parse_action("p1 sell pirate") == Sell(1, PIRATE)
    assert parse_action("p1 move pirate m0") == MoveCargo(1, PIRATE, 0)
    assert parse_action("p0 attack p2 m1") == Attack(0, 2, 1)
    assert parse_action("p2 yield") == Yield(2)
    assert parse_action("p0 buy ship") == BuyShip(0, False)
    assert parse_action("p0 buy pirate") == BuyShip(0, True)
    assert parse_action("p0 buy") == BuyField(0)
    assert parse_action("p1 plant pirate 0") == PlantCargo(1, PIRATE, 0)
    for bad in ("p0 sail m2 bohnbay 1", "p0 sail m0 home 1", "p0 sail m0 bohnbay", "p0 attack p1 m3",
                "p0 sail m0 tortuga 1", "p0 buy boat"):
        with pytest.raises(model.NotationError):
            parse_action(bad)
