"""Where La Isla Bohnita changes the base turn: ``ISLA``, the expansion the engine calls (I1-I9).

Each hook names the rule it implements; the base game's behaviour at the same point is the default
in ``model/expansion.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from model.actions import Action, BuyField, Discard, Harvest, PlantAside, Propose
from model.core import evolve
from model.dealing import Deal
from model.errors import IllegalAction
from model.expansion import Expansion
from model.isla import actions, drawing, moves, position
from model.isla.actions import SHIP_NAMES, BuyShip, HarvestOnto, MoveCargo, Sell, Yield
from model.isla.codec import IslaFormatError, isla_from_json, isla_to_json
from model.isla.setup import NAME, IslaTable
from model.isla.state import ROW, Isla, isla_of, new_isla, new_turn
from model.state import GameState, Phase, SlotCodec
from model.steps import STEPS

_DEFENCE = (Sell, Yield)  # I7: the only answers to an attack
_OWN_TURN = (Harvest, HarvestOnto, Sell, MoveCargo, BuyShip, BuyField)  # I9: the duel's own-turn moves


class IslaBohnita(IslaTable, Expansion):
    """La Isla Bohnita: its table S (``setup.IslaTable``) and its hooks in the turn."""

    handlers = moves.HANDLERS
    duel_trading = ("I9", "the Isla duel has no trading")
    trade_hand_cards = False  # I3: only the turned-up cards are traded
    adds_moves = True
    codec = SlotCodec(NAME, "ships and ports", "I1", isla_to_json, isla_from_json, IslaFormatError)
    notation = staticmethod(actions.notation)  # its actions' notation (I1-I7)
    # its part of str(state) (drawing.py): ships, rows, the attack
    seat_text = staticmethod(drawing.seat_text)
    table_text = staticmethod(drawing.table_text)
    todo_codes = (Deal.ROW_0, Deal.ROW_1)  # I2: the two island rows
    # hooks that are one function of moves.py or position.py, called without a wrapper
    refill = staticmethod(moves.refill_todo)  # I2: empty rows are refilled after the draw
    final_scoring = staticmethod(moves.sell_all)  # the Isla reading of E3: cargo is sold like a field
    forced = staticmethod(moves.defence)  # I7: sell the attacked cargo or yield a card
    anytime_actions = staticmethod(moves.anytime_actions)  # I1, I5, I6 whenever the seat is to move
    card_zones = staticmethod(position.zones)  # rows and ships hold cards (C2)
    check_position = staticmethod(position.check)  # I1-I9 (the Isla duel has a trading phase, I9)

    def on_deal(self, s: GameState, cards: Sequence[int]) -> GameState:
        """I1-I2: one empty merchant ship each in its harbour; the rows as dealt, front card first."""
        return evolve(s, ext=new_isla(len(s.players), (tuple(cards[:ROW]), tuple(cards[ROW:]))))

    def dealt_first(self, s: GameState) -> tuple[int, ...]:
        """I2: the Bohnbay row, then the Bohnaco row."""
        rows = isla_of(s).rows
        return rows[0] + rows[1]

    def start_turn(self, s: GameState) -> GameState:
        """I6, I7, I9: attacks, captures, ship moves and the duel discard are counted per turn."""
        isla = s.ext
        assert isinstance(isla, Isla)  # inlined isla_of: the hooks are the engine's hot loop
        fresh = new_turn(isla)
        return s if fresh is isla else evolve(s, ext=fresh)

    def deal_card(self, s: GameState, dest: int, card: int) -> GameState:
        """I2: an island row is refilled, one card at a time to its back."""
        rows = isla_of(s).rows
        if dest == Deal.ROW_0:
            return evolve(s, ext=isla_of(s)._replace(rows=(rows[0] + (card,), rows[1])))
        if dest == Deal.ROW_1:
            return evolve(s, ext=isla_of(s)._replace(rows=(rows[0], rows[1] + (card,))))
        return super().deal_card(s, dest, card)

    def exhausted(self, s: GameState) -> GameState:
        """I9: in the Isla duel the coins paid for purchases come back at the reshuffle."""
        if s.setup.duel and s.out:
            return evolve(s, discard=s.discard + s.out, out=())
        return s

    def may_discard(self, s: GameState) -> bool:
        """I9: the duel's hand discard is once a turn, before, between or after planting."""
        return not isla_of(s).discarded

    def turned_up_phase(self, s: GameState) -> Phase:
        """I9: the active player plants the turned-up cards in phase 2 (or from set-aside)."""
        return Phase.TRADE

    def blocked(self, s: GameState) -> bool:
        """I7: an attacked player answers before anything else happens."""
        isla = s.ext
        assert isinstance(isla, Isla)  # inlined isla_of: the hooks are the engine's hot loop
        return isla.attack is not None

    def phase_actions(self, s: GameState, p: int) -> Sequence[Action]:
        """I9: the duel's hand discard during phase 1; I3: planting in any order with trading and
        ship moves in phase 2."""
        isla = s.ext
        assert isinstance(isla, Isla)  # inlined isla_of: the hooks are the engine's hot loop
        pl = s.players[p]
        if s.phase == Phase.PLANT:
            if s.setup.duel and not isla.discarded:
                return [Discard(p, h) for h in range(len(pl.hand))]
            return ()
        if s.phase != Phase.TRADE or s.pending is not None:
            return ()
        fields = pl.fields
        fits = STEPS.fits
        out = moves.plant_ups(s, p, fields)
        out.extend(PlantAside(p, b, i) for b in sorted(set(pl.aside))
                   for i, f in enumerate(fields) if fits(f, b))
        out.extend(moves.sea_actions(s, p))
        return out

    def seat_rule(self, s: GameState, kind: type, rule: str) -> str:
        if isla_of(s).attack is not None:
            return "I7"
        if s.setup.duel and kind in _OWN_TURN:
            return "I9"  # fields and ships are sold only on one's own turn
        return rule

    def check_action(self, s: GameState, kind: type) -> None:
        isla = s.ext
        assert isinstance(isla, Isla)  # inlined isla_of: the hooks are the engine's hot loop
        attack = isla.attack
        if attack is not None and kind not in _DEFENCE:
            q, i = attack
            raise IllegalAction(f"p{q} must first answer the attack on its "
                                f"{SHIP_NAMES[i]}: sell it or yield", "I7")

    def check_offer(self, s: GameState, a: Propose) -> None:
        if a.give_hand:
            raise IllegalAction(f"p{a.player} may offer only the turned-up cards, not hand cards", "I3")

    def plants_while_trading(self, s: GameState, p: int) -> bool:
        """I3: the active player may plant during phase 2, between deals and ship moves."""
        return s.phase == Phase.TRADE and p == s.active and s.pending is None

    def discards_while_planting(self, s: GameState) -> bool:
        return s.phase == Phase.PLANT and s.setup.duel

    def check_discard(self, s: GameState, p: int) -> None:
        if isla_of(s).discarded:
            raise IllegalAction(f"p{p} has discarded a hand card this turn; once per turn", "I9")

    def discarded(self, s: GameState) -> tuple[GameState, bool]:
        """I9: the discard came before or between the plantings when phase 1 is still on."""
        return evolve(s, ext=isla_of(s)._replace(discarded=True)), s.phase == Phase.PLANT


ISLA = IslaBohnita()
