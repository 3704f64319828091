"""The expansion protocol: every point where an expansion may change the base game's turn.

``model/engine.py`` plays the base rules and, at each of these points, asks the game's expansion
(``model.expansions.hooks(setup)``: the registry, looked up by ``Setup.expansion`` in that one
place). Every default here *is* the base rule, so the base game is the expansion that overrides
nothing. An expansion subclasses ``Expansion``, overrides the hooks its rules change, lists its own
actions in ``handlers``; its part of the state lives in ``GameState.ext`` (the state's one
expansion slot, written to JSON by its ``codec``) and its own setup numbers come from ``setup_of``
(kept in ``Setup.ext``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from model.actions import Action, Propose
from model.errors import PositionError
from model.rules import SetupRules
from model.state import GameState, Phase, SlotCodec

Handler = Callable[[GameState, Any, bool], GameState]


class Expansion(SetupRules):
    """The base game: no extra state, no extra actions, every hook a no-op. Its setup hooks (table
    S: the player range, removed types, hands, draws, the end, the reserved cards, its own setup
    numbers ``setup_of`` and options) are ``model.rules.SetupRules``'s."""

    handlers: Mapping[type, Handler] = {}  # its own action types (merged into ``STEPS.handlers``)
    duel_trading = ("D1", "there is no trading in the bean duel")  # rule, reason a duel refuses a deal
    trade_hand_cards = True  # T3: the active player may offer hand cards
    todo_codes: tuple[int, ...] = ()  # ``GameState.todo`` codes it deals to (``deal_card``)
    codec: SlotCodec | None = None  # its part of the state JSON (``GameState.ext``); None: it has none
    adds_moves = False  # does it use the move hooks (blocked, forced, *_actions, check_action)? If
    # not, ``legal_actions`` and ``apply`` skip them: they are the engine's hot loop

    def __repr__(self) -> str:
        return f"<expansion {self.name or 'none'}>"

    def notation(self, p: int, verb: str, args: list[str], text: str) -> Action | None:
        """Seat ``p``'s action if ``verb`` and ``args`` are the expansion's notation, else None
        (``model.actions.parse_action`` asks every expansion before the base verbs)."""
        return None

    # ------------------------------------------------------------ dealing and the turn's steps

    def on_deal(self, s: GameState, cards: Sequence[int]) -> GameState:
        """The new game with the expansion's part of the state set up from its ``reserved`` cards."""
        return s

    def dealt_first(self, s: GameState) -> tuple[int, ...]:
        """S2: the ``reserved`` cards of a new game ``s``, in the deck order they were dealt from."""
        return ()

    def start_turn(self, s: GameState) -> GameState:
        """T1: what the expansion counts per turn starts again."""
        return s

    def deal_card(self, s: GameState, dest: int, card: int) -> GameState:
        """``card`` taken for a ``GameState.todo`` code the base game does not know."""
        raise ValueError(f"no place to deal a card to: todo code {dest}")

    def exhausted(self, s: GameState) -> GameState:
        """E1: the draw pile just ran out (before the reshuffle or the end is decided)."""
        return s

    def may_discard(self, s: GameState) -> bool:
        """D2 step 2: after planting, the duel offers one hand discard."""
        return True

    def turned_up_phase(self, s: GameState) -> Phase:
        """D2 step 3: the phase in which the duel's turned-up cards are planted."""
        return Phase.TURNED

    def refill(self, s: GameState) -> tuple[int, ...]:
        """T7: ``GameState.todo`` codes dealt after the draw."""
        return ()

    def final_scoring(self, s: GameState) -> GameState:
        """E3: after every field is harvested."""
        return s

    def break_tie(self, s: GameState, tied: tuple[int, ...]) -> tuple[int, ...]:
        """E4: the winners among the seats ``tied`` on most coins (two or more): the ruleset's
        tie-break (most cards in hand, or the seat farthest clockwise); a surviving tie is shared."""
        rule = s.setup.rules.tie_break
        if rule == "hand":
            most = max(len(s.players[p].hand) for p in tied)
            return tuple(p for p in tied if len(s.players[p].hand) == most)
        if rule == "seat":
            return (max(tied),)  # farthest clockwise from the starting player, seat 0
        return tied

    # ------------------------------------------------------------ the move generator

    def blocked(self, s: GameState) -> bool:
        """Must the player to move answer something before any other action?"""
        return False

    def forced(self, s: GameState) -> list[Action]:
        """The answers when ``blocked``."""
        return []

    def phase_actions(self, s: GameState, p: int) -> Sequence[Action]:
        """Actions the expansion adds to the phase's own (after them, before harvests)."""
        return ()

    def anytime_actions(self, s: GameState, p: int) -> Sequence[Action]:
        """Actions the expansion adds whenever ``p`` is to move (after harvests and purchases)."""
        return ()

    # ------------------------------------------------------------ checks (raise IllegalAction)

    def seat_rule(self, s: GameState, kind: type, rule: str) -> str:
        """The rule cited when a seat acts out of turn (``rule`` is the base game's)."""
        return rule

    def check_action(self, s: GameState, kind: type) -> None:
        """Before any action of the player to move."""

    def check_offer(self, s: GameState, a: Propose) -> None:
        """After the base game's T3 checks of a proposal."""

    def plants_while_trading(self, s: GameState, p: int) -> bool:
        """May ``p`` plant face-up and set-aside cards in phase 2?"""
        return False

    def discards_while_planting(self, s: GameState) -> bool:
        """May the duel's hand discard come before or between the phase-1 plantings?"""
        return False

    def check_discard(self, s: GameState, p: int) -> None:
        """Before a duel hand discard."""

    def discarded(self, s: GameState) -> tuple[GameState, bool]:
        """After a duel hand discard: the state, and whether phase 1 goes on (else cards are turned up)."""
        return s, False

    # ------------------------------------------------------------ a position read from a file

    def card_zones(self, s: GameState) -> list[tuple[str, tuple[int, ...]]]:
        """Where the expansion keeps cards: (state field, cards), counted by card conservation (C2)."""
        return []

    def check_position(self, s: GameState) -> None:
        """Raise ``PositionError`` at the first part of ``s`` the expansion's rules forbid; the
        base game: the bean duel has no trading phases (D1)."""
        if s.setup.duel and s.phase in (Phase.TRADE, Phase.PLANT_ASIDE):
            raise PositionError("phase", f"{s.phase.name.lower()} does not exist in the bean duel", "D1")

    # ------------------------------------------------------------ drawing (its ``ext`` is not None)

    def seat_text(self, s: GameState, i: int) -> str:
        """What ``str(s)`` adds to seat ``i``'s line (model/display.py)."""
        return ""

    def table_text(self, s: GameState) -> list[str]:
        """The lines ``str(s)`` adds after the seats."""
        return []


BASE = Expansion()
