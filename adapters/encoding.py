"""A finite action encoding of the engine's moves, with deals built one card at a time (T3).

For a ``Setup`` (ruleset and player count) the ids ``0 .. num_distinct_actions(setup) - 1`` are laid
out in blocks, in this order (``F = 3`` field slots, ``B = len(setup.beans)`` bean types in play,
indexed in ``setup.beans`` order, ``H = len(setup.deck)`` hand positions, ``N`` seats):

    block         size   argument              engine action (or sub-step)
    PLANT         F      field f               Plant(p, f): the front hand card (T1, D2)
    PLANT_ASIDE   B*F    bean b, field f       PlantAside(p, b, f) (T6)
    PLANT_UP      B*F    bean b, field f       PlantUp(p, u, f), u the lowest face-up index of b (D2)
    DISCARD_UP    B      bean b                DiscardUp(p, u), u the lowest face-up index of b (D2)
    DISCARD       H      hand position h       Discard(p, h) (D2)
    HARVEST       F      field f               Harvest(p, f) (H4-H6)
    BUY           1                            BuyField(p) (F1)
    END           1                            EndPhase(p) (T1, T5, D2)
    OFFER_HAND    H      hand position h       sub-step: offer own hand card h
    OFFER_UP      B      bean b                sub-step: offer a face-up card of bean b
    ASK           B      bean b                sub-step: ask for a card of bean b
    PROPOSE       N      seat q                Propose(p, q, ...) with the offer built so far
    CANCEL        1                            sub-step: drop the offer built so far
    ACCEPT_HAND   H      hand position h       sub-step: give hand card h for the pending proposal
    CONFIRM       1                            Accept(p, hand positions chosen so far)
    DECLINE       1                            Decline(p)

so ``num_distinct_actions = 3H + 9B + N + 11`` (4-player ``rio-grande``: H = 130, B = 10, 495 ids).

Deals (the trading protocol of docs/records.md): in trading, with no proposal pending, the active
player builds an offer in canonical order, so that each proposal has exactly one id sequence:
hand positions strictly increasing, then face-up beans nondecreasing (each takes the lowest face-up
index of that bean not yet offered), then asked beans nondecreasing; at most ``max_deal_cards``
given and at most ``max_deal_cards`` asked. Starting an offer needs ``offers + cancels <
max_offers`` (a cancelled offer uses up one of the turn's ``max_offers``, which keeps games
finite). While an offer is being built only OFFER_HAND, OFFER_UP, ASK, PROPOSE (the offer is not
empty) and CANCEL are legal. The partner answers with ACCEPT_HAND h (positions strictly increasing,
each of a still-needed asked type, only while the rest of the ask can still be met from later
positions), then CONFIRM once the chosen cards match the asked multiset (at once for an empty ask);
or, before choosing a card, DECLINE, HARVEST or BUY (H6, F1). Once a card is chosen the answer
always ends in CONFIRM, so every answer has one id sequence.

Round trip: from an ``EncodedState`` without a partial deal, every engine-legal action
(``legal_actions(state)``, every proposal up to ``max_deal_cards`` included) is reached by exactly
one id sequence, and every id sequence ends in an engine-legal action (``enumerate_actions``).

La Isla Bohnita (``isla=true``) is not encoded: ``layout`` and ``EncodedState`` raise ValueError.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache

from model.actions import (
    Accept,
    Action,
    BuyField,
    Decline,
    Discard,
    DiscardUp,
    EndPhase,
    Harvest,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
)
from model.cards import BEAN_NAMES
from model.engine import IllegalAction, apply, legal_moves
from model.expansions import EXPANSIONS
from model.rules import Setup
from model.state import GameState, Phase

FIELDS = 3  # field slots: the third field is the maximum (F1)


def expansion_refused(name: str) -> str:
    """The one-line refusal of a game with expansion ``name``: the adapters encode the base game."""
    x = EXPANSIONS.get(name)
    called = x.called if x is not None and x.called else name
    return f"the adapters do not encode {called} moves: use {name}=false"

BLOCKS = ("PLANT", "PLANT_ASIDE", "PLANT_UP", "DISCARD_UP", "DISCARD", "HARVEST", "BUY", "END",
          "OFFER_HAND", "OFFER_UP", "ASK", "PROPOSE", "CANCEL", "ACCEPT_HAND", "CONFIRM", "DECLINE")


@dataclass(frozen=True, slots=True)
class Layout:
    """The id blocks for one setup: ``start[name]`` is a block's first id, ``sizes[name]`` its size."""

    setup: Setup
    beans: tuple[int, ...]
    index: dict[int, int]  # bean type -> its index in ``beans``
    hand: int
    players: int
    start: dict[str, int]
    sizes: dict[str, int]
    size: int

    def decode(self, i: int) -> tuple[str, int, int]:
        """Block name and arguments of id ``i``: (name, a, b); unused arguments are 0."""
        if not 0 <= i < self.size:
            raise ValueError(f"action id {i} is not in 0..{self.size - 1}")
        for name in BLOCKS:
            off = i - self.start[name]
            if 0 <= off < self.sizes[name]:
                if name in ("PLANT_ASIDE", "PLANT_UP"):
                    return name, off // FIELDS, off % FIELDS
                return name, off, 0
        raise AssertionError("unreachable: the blocks cover 0..size-1")

    def text(self, i: int) -> str:
        """A short name for id ``i`` (bean names, ``h`` hand positions, ``p`` seats)."""
        name, a, b = self.decode(i)
        bean = BEAN_NAMES[self.beans[a]] if a < len(self.beans) else "?"
        return {
            "PLANT": f"plant {a}",
            "PLANT_ASIDE": f"plant {bean} {b}",
            "PLANT_UP": f"plant up {bean} {b}",
            "DISCARD_UP": f"discard up {bean}",
            "DISCARD": f"discard h{a}",
            "HARVEST": f"harvest {a}",
            "BUY": "buy",
            "END": "end",
            "OFFER_HAND": f"offer h{a}",
            "OFFER_UP": f"offer up {bean}",
            "ASK": f"ask {bean}",
            "PROPOSE": f"propose p{a}",
            "CANCEL": "cancel",
            "ACCEPT_HAND": f"accept h{a}",
            "CONFIRM": "confirm",
            "DECLINE": "decline",
        }[name]


_BY_ID: dict[int, tuple[Setup, Layout]] = {}  # by identity: hashing a Setup hashes its whole deck


def layout(setup: Setup) -> Layout:
    """The id layout of the module docstring for ``setup``; ValueError with La Isla Bohnita."""
    hit = _BY_ID.get(id(setup))
    if hit is not None and hit[0] is setup:
        return hit[1]
    if len(_BY_ID) >= 256:
        _BY_ID.clear()
    lay = _layout(setup)
    _BY_ID[id(setup)] = (setup, lay)
    return lay


@lru_cache(maxsize=64)
def _layout(setup: Setup) -> Layout:
    if setup.rules.expansion:
        raise ValueError(expansion_refused(setup.rules.expansion))
    beans, h, n = setup.beans, len(setup.deck), setup.players
    nb = len(beans)
    sizes = {
        "PLANT": FIELDS, "PLANT_ASIDE": nb * FIELDS, "PLANT_UP": nb * FIELDS, "DISCARD_UP": nb,
        "DISCARD": h, "HARVEST": FIELDS, "BUY": 1, "END": 1, "OFFER_HAND": h, "OFFER_UP": nb,
        "ASK": nb, "PROPOSE": n, "CANCEL": 1, "ACCEPT_HAND": h, "CONFIRM": 1, "DECLINE": 1,
    }
    start: dict[str, int] = {}
    total = 0
    for name in BLOCKS:
        start[name] = total
        total += sizes[name]
    return Layout(setup, beans, {b: k for k, b in enumerate(beans)}, h, n, start, sizes, total)


def num_distinct_actions(setup: Setup) -> int:
    """``3H + 9B + N + 11`` ids (module docstring)."""
    return layout(setup).size


@dataclass(frozen=True, slots=True)
class EncodedState:
    """An engine state plus the deal being built (``give_hand``, ``give_up``, ``ask``) or answered
    (``accept``), and the offers cancelled this turn (``cancels`` during turn ``cancel_turn``)."""

    state: GameState
    give_hand: tuple[int, ...] = ()
    give_up: tuple[int, ...] = ()  # bean types, nondecreasing
    ask: tuple[int, ...] = ()  # bean types, nondecreasing
    accept: tuple[int, ...] = ()  # the partner's hand positions, increasing
    cancels: int = 0
    cancel_turn: int = 0

    def __post_init__(self) -> None:
        if self.state.ext is not None:
            raise ValueError(expansion_refused(self.state.setup.expansion))

    @property
    def layout(self) -> Layout:
        return layout(self.state.setup)

    @property
    def building(self) -> bool:
        """Is an offer being built (then only building ids, PROPOSE and CANCEL are legal)?"""
        return bool(self.give_hand or self.give_up or self.ask)

    def current_player(self) -> int:
        """The seat to move; -1 at a chance node (a reshuffle is due, E1) and when the game is over."""
        s = self.state
        return -1 if s.phase in (Phase.CHANCE, Phase.OVER) else s.to_move

    def id_to_text(self, i: int) -> str:
        return self.layout.text(i)

    def with_state(self, state: GameState) -> EncodedState:
        """``state`` after an engine action: no partial deal; cancels carry over within the turn."""
        if state.turn == self.cancel_turn:
            return EncodedState(state, cancels=self.cancels, cancel_turn=self.cancel_turn)
        return EncodedState(state, cancel_turn=state.turn)

    def _cancels(self) -> int:
        return self.cancels if self.cancel_turn == self.state.turn else 0

    def _may_offer(self) -> bool:
        """T3 and the protocol: the active player in trading, nothing pending, offers left."""
        s = self.state
        rules = s.setup.rules
        return (s.phase == Phase.TRADE and s.pending is None and not s.setup.duel
                and s.to_move == s.active and rules.max_deal_cards > 0
                and s.offers + self._cancels() < rules.max_offers)

    def legal_ids(self) -> list[int]:
        """The legal ids, ascending (empty at chance nodes and at the end)."""
        s = self.state
        p = self.current_player()
        if p < 0:
            return []
        if self.building:
            return sorted(self._building_ids())
        if s.pending is not None:
            ids = self._answer_ids()
            if not self.accept:
                lay = self.layout
                ids += [self._id_of(a, lay) for a in legal_moves(s, proposals=False)
                        if not isinstance(a, (Accept, Decline))]
            return sorted(ids)
        lay = self.layout
        ids = [self._id_of(a, lay) for a in legal_moves(s, proposals=False)]
        if self._may_offer():
            ids += self._building_ids()
        return sorted(ids)

    def _id_of(self, a: Action, lay: Layout) -> int:
        """The id of a non-deal engine action (PlantUp and DiscardUp by the bean they name)."""
        st = lay.start
        if isinstance(a, Plant):
            return st["PLANT"] + a.field
        if isinstance(a, PlantAside):
            return st["PLANT_ASIDE"] + lay.index[a.bean] * FIELDS + a.field
        if isinstance(a, PlantUp):
            return st["PLANT_UP"] + lay.index[self.state.face_up[a.index]] * FIELDS + a.field
        if isinstance(a, DiscardUp):
            return st["DISCARD_UP"] + lay.index[self.state.face_up[a.index]]
        if isinstance(a, Discard):
            return st["DISCARD"] + a.index
        if isinstance(a, Harvest):
            return st["HARVEST"] + a.field
        if isinstance(a, BuyField):
            return st["BUY"]
        if isinstance(a, EndPhase):
            return st["END"]
        if isinstance(a, Decline):
            return st["DECLINE"]
        raise ValueError(f"{a} has no single id (deals are built in sub-steps; Isla is not encoded)")

    def _building_ids(self) -> list[int]:
        """OFFER_HAND, OFFER_UP, ASK in canonical order; PROPOSE and CANCEL once the offer is not empty."""
        s = self.state
        lay = self.layout
        st = lay.start
        k = s.setup.rules.max_deal_cards
        hs, us, asks = self.give_hand, self.give_up, self.ask
        given = len(hs) + len(us)
        out: list[int] = []
        if not us and not asks and given < k:
            first = hs[-1] + 1 if hs else 0
            out += [st["OFFER_HAND"] + h for h in range(first, len(s.players[s.active].hand))]
        if not asks and given < k:
            up, used = Counter(s.face_up), Counter(us)
            low = us[-1] if us else -1
            out += [st["OFFER_UP"] + lay.index[b] for b in sorted(up) if b >= low and used[b] < up[b]]
        if len(asks) < k:
            low = asks[-1] if asks else -1
            out += [st["ASK"] + lay.index[b] for b in lay.beans if b >= low]
        if self.building:
            out += [st["PROPOSE"] + q for q in range(lay.players) if q != s.active]
            out.append(st["CANCEL"])
        return out

    def _need(self) -> Counter[int]:
        """Asked beans not yet covered by the chosen hand positions."""
        s = self.state
        assert s.pending is not None
        hand = s.players[s.to_move].hand
        need = Counter(s.pending.ask)
        need.subtract(hand[h] for h in self.accept)
        return +need

    def _answer_ids(self) -> list[int]:
        """DECLINE before any card is chosen; CONFIRM when the ask is met; ACCEPT_HAND h that keep
        the rest of the ask feasible (so a started answer always ends in CONFIRM)."""
        s = self.state
        st = self.layout.start
        hand = s.players[s.to_move].hand
        out = [] if self.accept else [st["DECLINE"]]
        need = self._need()
        if not need:
            out.append(st["CONFIRM"])
            return out
        rest = Counter(hand)
        first = self.accept[-1] + 1 if self.accept else 0
        for h in range(first):
            rest[hand[h]] -= 1
        for h in range(first, len(hand)):
            b = hand[h]
            rest[b] -= 1  # now the cards after h
            if need[b] > 0 and all(rest[t] >= c - (t == b) for t, c in need.items()):
                out.append(st["ACCEPT_HAND"] + h)
        return out

    def step(self, i: int) -> tuple[EncodedState, Action | None]:
        """Id ``i`` as a sub-step (the new partial state, None) or an engine action (the state with
        the partial deal cleared, the action to apply). Legality is checked by ``apply_id``."""
        s = self.state
        lay = self.layout
        p = s.to_move
        name, a, b = lay.decode(i)
        clear = replace(self, give_hand=(), give_up=(), ask=(), accept=())
        if name == "PLANT":
            return clear, Plant(p, a)
        if name == "PLANT_ASIDE":
            return clear, PlantAside(p, lay.beans[a], b)
        if name == "PLANT_UP":
            return clear, PlantUp(p, s.face_up.index(lay.beans[a]), b)
        if name == "DISCARD_UP":
            return clear, DiscardUp(p, s.face_up.index(lay.beans[a]))
        if name == "DISCARD":
            return clear, Discard(p, a)
        if name == "HARVEST":
            return clear, Harvest(p, a)
        if name == "BUY":
            return clear, BuyField(p)
        if name == "END":
            return clear, EndPhase(p)
        if name == "OFFER_HAND":
            return replace(self, give_hand=self.give_hand + (a,)), None
        if name == "OFFER_UP":
            return replace(self, give_up=self.give_up + (lay.beans[a],)), None
        if name == "ASK":
            return replace(self, ask=self.ask + (lay.beans[a],)), None
        if name == "PROPOSE":
            return clear, Propose(p, a, self.give_hand, self._up_indices(), self.ask)
        if name == "CANCEL":
            return replace(clear, cancels=self._cancels() + 1, cancel_turn=s.turn), None
        if name == "ACCEPT_HAND":
            return replace(self, accept=self.accept + (a,)), None
        if name == "CONFIRM":
            return clear, Accept(p, self.accept)
        return clear, Decline(p)

    def _up_indices(self) -> tuple[int, ...]:
        """Face-up beans offered -> the lowest indices of each bean (face_up is sorted)."""
        face_up = self.state.face_up
        out: list[int] = []
        for b in self.give_up:
            out.append(face_up.index(b) + sum(1 for u in out if face_up[u] == b))
        return tuple(out)

    def apply_id(self, i: int) -> EncodedState:
        """The state after id ``i``; IllegalAction if ``i`` is not legal here (the engine checks
        the completed action again)."""
        if i not in self.legal_ids():
            lay = self.layout
            if not 0 <= i < lay.size:
                raise IllegalAction(f"action id {i} is not in 0..{lay.size - 1}", "T")
            name = lay.decode(i)[0]
            if not (self.building or self.accept) and name in BLOCKS[:8] and self.current_player() >= 0:
                try:
                    action = self.step(i)[1]
                except ValueError:  # PLANT_UP / DISCARD_UP of a bean that is not face up
                    action = None
                if action is not None:
                    apply(self.state, action)  # the engine names the rule it breaks
            raise IllegalAction(f"p{self.state.to_move} cannot take action {i} ({lay.text(i)}) now", "T3")
        nxt, action = self.step(i)
        if action is None:
            return nxt
        return nxt.with_state(apply(self.state, action))


def enumerate_actions(enc: EncodedState) -> list[tuple[tuple[int, ...], Action]]:
    """Every id sequence from ``enc`` that ends in an engine action, with that action (CANCEL
    excluded: it returns to the start). The round trip: these actions are ``legal_actions``."""
    out: list[tuple[tuple[int, ...], Action]] = []
    cancel = enc.layout.start["CANCEL"]

    def walk(e: EncodedState, path: tuple[int, ...]) -> None:
        for i in e.legal_ids():
            if i == cancel:
                continue
            nxt, action = e.step(i)
            if action is None:
                walk(nxt, path + (i,))
            else:
                out.append((path + (i,), action))

    walk(enc, ())
    return out


def ids_for(enc: EncodedState, action: Action) -> tuple[int, ...]:
    """The id sequence that plays engine ``action`` from ``enc`` (no partial deal): the inverse map."""
    st = enc.layout.start
    lay = enc.layout
    if isinstance(action, Propose):
        ups = [enc.state.face_up[u] for u in action.give_up]
        return (tuple(st["OFFER_HAND"] + h for h in action.give_hand)
                + tuple(st["OFFER_UP"] + lay.index[b] for b in ups)
                + tuple(st["ASK"] + lay.index[b] for b in action.ask) + (st["PROPOSE"] + action.partner,))
    if isinstance(action, Accept):
        return tuple(st["ACCEPT_HAND"] + h for h in sorted(action.hand)) + (st["CONFIRM"],)
    return (enc._id_of(action, lay),)
