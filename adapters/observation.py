"""What one seat observes (H7) as a fixed-size tensor and as text: shared by the OpenSpiel and
PettingZoo adapters (pure Python and numpy).

A seat sees its own hand (in order) and coins; every seat's hand size, fields and set-aside cards;
the face-up cards, the top discard, the draw and discard pile sizes, turn, phase and counters; the
pending proposal and the deal being built or answered (offered hand cards are shown by bean:
offering shows the card, T3). Never another seat's hand or coins (all coins are shown once the game
is over, E4) nor the draw pile's order or contents. ``own`` / ``everyone`` choose whose private
cards are shown (OpenSpiel's private-info types); the default is the seat's own.

Tensor pieces, in order (N seats, B beans in play, H = deck size hand positions, F = 3 fields):
``player`` (N), ``phase`` (10: the engine phases, ``dealing`` and ``resolving``), ``active``,
``to_move`` (N each), ``counters`` (turn, planted, offers, cancels, exhaustions, draw size, discard
size), ``hand`` (H x B, one-hot by position), ``hand_sizes``, ``coins`` (N), ``fields``
(N x F x (B + 2): exists, count, bean), ``aside`` (N x B), ``face_up``, ``discard_top`` (B),
``pending_seats`` (2 x N), ``pending_give`` (B), ``pending_hand`` (H), ``pending_ask``,
``build_give`` (B), ``build_hand`` (H), ``build_ask`` (B), ``accept_hand`` (H); with ``recall``
also ``discard_pile`` and ``out_pile`` (B each: public by perfect recall).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from adapters.encoding import FIELDS, EncodedState, layout
from model.cards import BEAN_NAMES
from model.rules import Setup
from model.state import Phase

PHASES = ("plant", "trade", "plant_aside", "chance", "over", "offer", "discard", "turned",
          "dealing", "resolving")
COUNTERS = ("turn", "planted", "offers", "cancels", "exhaustions", "draw", "discard")


def observation_pieces(su: Setup, recall: bool = False) -> list[tuple[str, tuple[int, ...]]]:
    """The named pieces of the tensor and their shapes, in order (module docstring)."""
    n, nb, h = su.players, len(su.beans), layout(su).hand
    pieces: list[tuple[str, tuple[int, ...]]] = [
        ("player", (n,)), ("phase", (len(PHASES),)), ("active", (n,)), ("to_move", (n,)),
        ("counters", (len(COUNTERS),)), ("hand", (h, nb)), ("hand_sizes", (n,)), ("coins", (n,)),
        ("fields", (n, FIELDS, nb + 2)), ("aside", (n, nb)), ("face_up", (nb,)),
        ("discard_top", (nb,)), ("pending_seats", (2, n)), ("pending_give", (nb,)),
        ("pending_hand", (h,)), ("pending_ask", (nb,)), ("build_give", (nb,)), ("build_hand", (h,)),
        ("build_ask", (nb,)), ("accept_hand", (h,)),
    ]
    if recall:
        pieces += [("discard_pile", (nb,)), ("out_pile", (nb,))]
    return pieces


def max_turns(su: Setup) -> int:
    """An upper bound on ``state.turn``: at most ``final + 1`` piles of at most D cards are taken,
    and every turn but the last takes at least ``face_up + draw >= 1`` of them (T2, T7, E1, E2)."""
    taken = (su.final_exhaustion + 1) * len(su.deck)
    return taken // max(su.face_up + su.draw, 1) + 2


def _views(flat: np.ndarray, pieces: list[tuple[str, tuple[int, ...]]]) -> dict[str, Any]:
    """Named reshaped views into consecutive slices of ``flat``."""
    out: dict[str, Any] = {}
    at = 0
    for name, shape in pieces:
        k = int(np.prod(shape))
        out[name] = flat[at:at + k].reshape(shape)
        at += k
    return out


def _names(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(BEAN_NAMES[c] for c in cards)


class ObservationTensor:
    """A flat float32 ``tensor`` and ``dict``, named views of its pieces, filled for one seat (H7)."""

    def __init__(self, su: Setup, recall: bool = False, own: bool = True, everyone: bool = False) -> None:
        self.setup = su
        self.recall = recall
        self.own = own
        self.everyone = everyone
        self.index = layout(su).index
        self.pieces = observation_pieces(su, recall)
        size = sum(int(np.prod(shape)) for _, shape in self.pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = _views(self.tensor, self.pieces)

    def sees_hand(self, seat: int, player: int) -> bool:
        """Are ``seat``'s hand and coins shown to ``player`` (before the end)?"""
        return self.everyone or (self.own and seat == player)

    def high(self) -> np.ndarray:
        """Upper bounds of the entries (lower bounds are 0): one-hot entries 1, card counts the deck
        size D, offers and cancels ``max_offers``, exhaustions ``final + 1``, the turn ``max_turns``."""
        su = self.setup
        deck = len(su.deck)
        out = np.ones_like(self.tensor)
        view = _views(out, self.pieces)
        view["counters"][:] = (max_turns(su), deck, max(su.rules.max_offers, 1), max(su.rules.max_offers, 1),
                               su.final_exhaustion + 1, deck, deck)
        for name in ("hand_sizes", "coins", "aside", "face_up", "pending_give", "pending_ask",
                     "build_give", "build_ask", "discard_pile", "out_pile"):
            if name in view:
                view[name][...] = deck
        view["fields"][:, :, 1] = deck
        return out

    def set_dealing(self, player: int, deal_seats: list[int], top: tuple[int, ...]) -> None:
        """During a card-by-card initial deal (S2): ``player``'s cards dealt so far."""
        self.tensor.fill(0)
        d, ix = self.dict, self.index
        d["player"][player] = 1
        d["phase"][PHASES.index("dealing")] = 1
        for pos, (seat, b) in enumerate(zip(deal_seats, top, strict=False)):
            if seat == player and self.sees_hand(seat, player):
                d["hand"][sum(1 for x in deal_seats[:pos] if x == seat), ix[b]] = 1

    def set_state(self, enc: EncodedState, player: int, resolving: bool = False) -> None:
        """What ``player`` sees of ``enc`` (H7); ``resolving``: a transition waits for chance cards."""
        self.tensor.fill(0)
        d, ix = self.dict, self.index
        d["player"][player] = 1
        s = enc.state
        d["phase"][PHASES.index("resolving" if resolving else s.phase.name.lower())] = 1
        d["active"][s.active] = 1
        if s.to_move >= 0 and not resolving:
            d["to_move"][s.to_move] = 1
        d["counters"][:] = (s.turn, s.planted, s.offers, enc.cancels if enc.cancel_turn == s.turn else 0,
                            s.exhaustions, len(s.draw), len(s.discard))
        over = s.phase == Phase.OVER
        for seat, pl in enumerate(s.players):
            d["hand_sizes"][seat] = len(pl.hand)
            if seat == player and self.sees_hand(seat, player):
                for pos, b in enumerate(pl.hand):
                    d["hand"][pos, ix[b]] = 1
            if over or self.sees_hand(seat, player):
                d["coins"][seat] = len(pl.coins)
            for f, fl in enumerate(pl.fields):
                d["fields"][seat, f, 0] = 1
                if fl.count:
                    d["fields"][seat, f, 1] = fl.count
                    d["fields"][seat, f, 2 + ix[fl.bean]] = 1
            for b in pl.aside:
                d["aside"][seat, ix[b]] += 1
        for b in s.face_up:
            d["face_up"][ix[b]] += 1
        if s.discard:
            d["discard_top"][ix[s.discard[-1]]] = 1
        if s.pending is not None:
            pend = s.pending
            d["pending_seats"][0, pend.player] = 1
            d["pending_seats"][1, pend.partner] = 1
            giver = s.players[pend.player]
            for h in pend.give_hand:
                d["pending_hand"][h] = 1
                d["pending_give"][ix[giver.hand[h]]] += 1  # offered cards are shown (T3)
            for u in pend.give_up:
                d["pending_give"][ix[s.face_up[u]]] += 1
            for b in pend.ask:
                d["pending_ask"][ix[b]] += 1
        hand = s.players[s.active].hand
        for h in enc.give_hand:
            d["build_hand"][h] = 1
            d["build_give"][ix[hand[h]]] += 1
        for b in enc.give_up:
            d["build_give"][ix[b]] += 1
        for b in enc.ask:
            d["build_ask"][ix[b]] += 1
        for h in enc.accept:
            d["accept_hand"][h] = 1
        if self.recall:
            for b in s.discard:
                d["discard_pile"][ix[b]] += 1
            for b in s.out:
                d["out_pile"][ix[b]] += 1

    def dealing_text(self, player: int, deal_seats: list[int], top: tuple[int, ...]) -> str:
        """The text of ``set_dealing``."""
        su = self.setup
        mine = [b for seat, b in zip(deal_seats, top, strict=False) if self.sees_hand(seat, player)]
        return (f"p{player} | {su.rules.name} {su.players}p | dealing {len(top)}/{len(deal_seats)}"
                + (f" | hand [{_names(mine)}]" if mine or self.own else ""))

    def text(self, enc: EncodedState, player: int, resolving: str = "") -> str:
        """The text of ``set_state``: one line of public counters, the deal in progress, then a line
        per seat; ``resolving`` names a transition waiting for chance cards."""
        su = self.setup
        s = enc.state
        over = s.phase == Phase.OVER
        head = (f"p{player} | {su.rules.name} {su.players}p | turn {s.turn} | active p{s.active} | phase "
                f"{s.phase.name.lower()} | to move " + (f"p{s.to_move}" if s.to_move >= 0 else "-"))
        lines = [head,
                 f"draw {len(s.draw)} | discard {len(s.discard)} (top "
                 f"{BEAN_NAMES[s.discard[-1]] if s.discard else '-'}) | exhaustions {s.exhaustions}/"
                 f"{su.final_exhaustion} | planted {s.planted} | offers {s.offers}"
                 f" | cancels {enc.cancels if enc.cancel_turn == s.turn else 0}",
                 f"face up [{_names(s.face_up)}]"]
        if s.pending is not None:
            giver = s.players[s.pending.player]
            shown = [giver.hand[h] for h in s.pending.give_hand] + [s.face_up[u] for u in s.pending.give_up]
            lines.append(f"pending: {s.pending} (gives [{_names(shown)}])")
        if enc.building:
            hand = s.players[s.active].hand
            shown = [hand[h] for h in enc.give_hand]
            lines.append(f"offer so far: hand {list(enc.give_hand)} [{_names(shown)}]"
                         f" up [{_names(enc.give_up)}] ask [{_names(enc.ask)}]")
        if enc.accept:
            lines.append(f"accepting with hand {list(enc.accept)}")
        if resolving:
            lines.append(f"resolving: {resolving}")
        for seat, pl in enumerate(s.players):
            fields = ", ".join(f"{f.count} {BEAN_NAMES[f.bean]}" if f.count else "empty" for f in pl.fields)
            line = f"p{seat}: fields [{fields}] | aside [{_names(pl.aside)}] | hand {len(pl.hand)}"
            if self.sees_hand(seat, player):
                line += f" [{_names(pl.hand)}]"
            if over or self.sees_hand(seat, player):
                line += f" | coins {len(pl.coins)}"
            lines.append(line)
        return "\n".join(lines)
