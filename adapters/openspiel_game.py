"""The OpenSpiel game ``python_bohnanza``: the engine behind ``pyspiel``, registered on import.

    import pyspiel
    import adapters.openspiel_game  # registers the game
    game = pyspiel.load_game("python_bohnanza", {"players": 4, "options": "quick:true;max_offers:3"})

Parameters: ``players`` (2-7), ``ruleset`` (a preset name), ``options`` (ruleset options,
``key:value`` items separated by ``;``, list values joined by ``+``: ``quick:true;beans:red+soy``;
``key=value`` and ``,`` are accepted too and rewritten, since OpenSpiel game strings cannot carry
them). La Isla Bohnita (``isla:true``) is refused with ValueError. Player actions are the ids of
``adapters.encoding``.

Chance model (explicit, lazy): no card order exists before it is needed. The initial deal is one
chance node per card, in the dealing order of S2; later, when a player's action (or a reshuffle,
E1) takes k cards from the draw pile, the action waits while k chance nodes decide those cards, top
first, and then it is applied. Each outcome is a bean type (ids 0-11, ``BEAN_NAMES``) with
probability (cards of that type left in the pile) / (cards left in the pile); the rest of the pile
keeps no order (the engine state holds it sorted, and nothing shows it). How many cards an action
takes depends only on counts, never on which cards they are, so it is known before they are drawn.
A reshuffle that takes no card at once is applied without a chance node.

Observations (H7): the observing seat's hand (in order) and coins; every seat's hand size, fields
and set-aside cards; the face-up cards, the top discard, the draw and discard pile sizes, turn,
phase and counters; the pending proposal and the deal being built or answered (offered hand cards
are shown by bean: offering shows the card, T3). Never another seat's hand or coins (all coins are
shown once the game is over) nor the draw pile's order. The information state adds the seat's
perfect-recall record: every action in order, and after each deal of cards, the face-up cards,
top discard and hand sizes, plus the seat's own hand. Its tensor is the observation tensor plus
what perfect recall of public events gives: the discard pile's and the out pile's contents by bean.

Returns: at the end each seat gets its coins minus the mean of all seats' coins (zero-sum; E4's
tie-break is not scored); 0 before the end.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pyspiel

from adapters.encoding import EncodedState, expansion_refused, layout
from adapters.observation import PHASES, ObservationTensor
from model.actions import Action, Reshuffle
from model.cards import BEAN_NAMES
from model.engine import apply, new_game
from model.rules import Setup, parse_option_args, ruleset, setup
from model.state import GameState, Phase

GAME_NAME = "python_bohnanza"
DEFAULTS: dict[str, Any] = {"players": 4, "ruleset": "rio-grande", "options": ""}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Bohnanza",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=7,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def parse_options(text: str) -> dict[str, str]:
    """``"quick:true;beans:red+soy"`` (or ``"quick=true,max_offers=3"``) -> ruleset options."""
    items: list[str] = []
    for raw in text.replace(";", " ").replace(",", " ").split():
        sep = min((i for i in (raw.find(":"), raw.find("=")) if i >= 0), default=-1)
        if sep < 0:
            if not items:
                raise ValueError(f"option {raw!r} must look like KEY:VALUE")
            items[-1] += "," + raw  # "beans=red,soy": a list value split by the comma
            continue
        key, value = raw[:sep], raw[sep + 1:]
        value = value.replace("+", ";" if key == "meters" else ",")
        items.append(f"{key}={value}")
    return parse_option_args(items)


def canonical_options(options: dict[str, str]) -> str:
    """The options as a game-string-safe value: ``key:value`` joined by ``;``, lists by ``+``."""
    return ";".join(f"{k}:{v.replace(',', '+').replace(';', '+')}" for k, v in sorted(options.items()))


def game_setup(params: dict[str, Any]) -> Setup:
    """The engine setup for game parameters; ValueError for La Isla Bohnita."""
    rules = ruleset(str(params["ruleset"]), parse_options(str(params["options"])))
    if rules.expansion:
        raise ValueError(expansion_refused(rules.expansion))
    return setup(rules, int(params["players"]))


def max_game_length(su: Setup) -> int:
    """An upper bound on player decisions: turns x deal steps, plus plantings, discards, harvests.

    At most ``final + 1`` piles of at most ``D`` cards are taken; a full turn takes its turn-up and
    draw cards; each card is planted at most once per pile pass and harvested once; a turn has at
    most 3 ENDs and ``max_offers`` deal slots of at most ``3 k + 2`` ids each. In the duel, cards
    discarded can come back on offer without a pile pass (D2), so each turn may add ``2 D`` more.
    """
    deck = len(su.deck)
    taken = (su.final_exhaustion + 1) * deck
    per_turn = su.face_up + (su.players if su.rules.draw_each and not su.duel else su.draw)
    turns = taken // max(per_turn, 1) + 2
    k, offers = su.rules.max_deal_cards, su.rules.max_offers
    per_turn_steps = offers * (3 * k + 2) + 3 + (2 * deck + 1 if su.duel else 0)
    return turns * per_turn_steps + 3 * (deck + taken) + su.players


class _Log:
    """An immutable linked list of info-state events: O(1) append, shared by clones, pickled flat.

    An event is (public text, per-seat private text or None)."""

    __slots__ = ("prev", "event", "size")
    prev: _Log | None
    event: tuple[str, tuple[str, ...] | None]
    size: int

    def __init__(self, prev: _Log | None, event: tuple[str, tuple[str, ...] | None]) -> None:
        self.prev = prev
        self.event = event
        self.size = 1 + (prev.size if prev is not None else 0)

    def events(self) -> list[tuple[str, tuple[str, ...] | None]]:
        out = []
        node: _Log | None = self
        while node is not None:
            out.append(node.event)
            node = node.prev
        out.reverse()
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> _Log:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_log_from, (tuple(self.events()),))


def _log_from(events: tuple[tuple[str, tuple[str, ...] | None], ...]) -> _Log | None:
    log = None
    for e in events:
        log = _Log(log, e)
    return log


class _Snap:
    """One immutable position of the OpenSpiel state (clones share it: deepcopy returns it).

    ``kind`` names the transition waiting for ``need`` chance cards (``top`` decided so far):
    ``"deal"`` the initial deal, ``"act"`` the player action ``action``, ``"reshuffle"`` (E1);
    ``""`` when none waits. ``enc`` is None only during the initial deal."""

    __slots__ = ("setup", "enc", "kind", "action", "need", "top", "log", "_ids")

    def __init__(self, setup: Setup, enc: EncodedState | None, kind: str = "", action: Action | None = None,
                 need: int = 0, top: tuple[int, ...] = (), log: _Log | None = None) -> None:
        self.setup = setup
        self.enc = enc
        self.kind = kind
        self.action = action
        self.need = need
        self.top = top
        self.log = log
        self._ids: list[int] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Snap:
        return self

    def __getstate__(self) -> tuple[Any, ...]:
        return (self.setup, self.enc, self.kind, self.action, self.need, self.top, self.log)

    def __setstate__(self, st: tuple[Any, ...]) -> None:
        (self.setup, self.enc, self.kind, self.action, self.need, self.top, self.log) = st
        self._ids = None

    def legal_ids(self) -> list[int]:
        if self._ids is None:
            self._ids = [] if self.kind or self.enc is None else self.enc.legal_ids()
        return self._ids

    def pool(self) -> Counter[int]:
        """The cards the next chance node draws from: the pile less the cards already decided."""
        if self.kind == "deal":
            pile: tuple[int, ...] = self.setup.deck
        else:
            assert self.enc is not None
            s = self.enc.state
            pile = s.discard if self.kind == "reshuffle" else s.draw
        left = Counter(pile)
        left.subtract(self.top)
        return +left


def _order(pile: tuple[int, ...], top: tuple[int, ...]) -> tuple[int, ...]:
    """The pile with the decided cards on top and the rest in sorted (meaningless) order."""
    rest = Counter(pile)
    rest.subtract(top)
    return top + tuple(sorted(rest.elements()))


def _deal_seats(su: Setup) -> list[int]:
    """The seat each dealt card goes to, in order (S2: one at a time, in seat order)."""
    got = [0] * su.players
    out = []
    while any(g < n for g, n in zip(got, su.hands, strict=True)):
        for seat in range(su.players):
            if got[seat] < su.hands[seat]:
                out.append(seat)
                got[seat] += 1
    return out


def _after_cards(s: GameState) -> tuple[str, tuple[str, ...]]:
    """The info-state event after cards were dealt: public piles and sizes, each seat's own hand."""
    public = (f"cards: face up [{_names(s.face_up)}], discard top "
              f"{BEAN_NAMES[s.discard[-1]] if s.discard else '-'}, hand sizes "
              f"{[len(p.hand) for p in s.players]}, draw {len(s.draw)}")
    return public, tuple(f"hand [{_names(p.hand)}]" for p in s.players)


def _names(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(BEAN_NAMES[c] for c in cards)


class BohnanzaGame(pyspiel.Game):  # type: ignore[misc]
    """``python_bohnanza`` for one ruleset, options and player count (module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        su = game_setup(params)
        params["options"] = canonical_options(parse_options(str(params["options"])))
        n, deck = su.players, len(su.deck)
        info = pyspiel.GameInfo(
            num_distinct_actions=layout(su).size,
            max_chance_outcomes=len(BEAN_NAMES),
            num_players=n,
            min_utility=-deck / n,
            max_utility=deck * (n - 1) / n,
            utility_sum=0.0,
            max_game_length=max_game_length(su),
        )
        super().__init__(_GAME_TYPE, info, params)
        self.setup = su
        trial = new_game(su.rules, n, deck=tuple(sorted(su.deck)))
        self._initial = _Snap(su, None, "deal", None, deck - len(trial.draw))
        self.deal_seats = _deal_seats(su)

    def new_initial_state(self) -> BohnanzaState:
        return BohnanzaState(self)

    def max_chance_nodes_in_history(self) -> int:
        return (self.setup.final_exhaustion + 1) * len(self.setup.deck)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BohnanzaObserver:
        return BohnanzaObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                                self.setup, self.deal_seats, params)


class BohnanzaState(pyspiel.State):  # type: ignore[misc]
    """A position: an encoded engine state, or a transition waiting for chance cards."""

    def __init__(self, game: BohnanzaGame) -> None:
        super().__init__(game)
        self._snap: _Snap = game._initial

    # ------------------------------------------------------------ OpenSpiel API

    def current_player(self) -> int:
        sn = self._snap
        if sn.kind:
            return int(pyspiel.PlayerId.CHANCE)
        assert sn.enc is not None
        if sn.enc.state.phase == Phase.OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return sn.enc.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._snap.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._snap.pool()
        total = sum(left.values())
        return [(b, c / total) for b, c in sorted(left.items())]

    def _apply_action(self, action: int) -> None:
        sn = self._snap
        if sn.kind:
            self._snap = self._chance(sn, int(action))
        else:
            self._snap = self._play(sn, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {BEAN_NAMES[action]}" if 0 <= action < len(BEAN_NAMES) else f"chance {action}"
        return f"p{player} {layout(self._snap.setup).text(action)}"

    def is_terminal(self) -> bool:
        sn = self._snap
        return not sn.kind and sn.enc is not None and sn.enc.state.phase == Phase.OVER

    def returns(self) -> list[float]:
        sn = self._snap
        n = sn.setup.players
        if not self.is_terminal():
            return [0.0] * n
        assert sn.enc is not None
        coins = sn.enc.state.coins()
        mean = sum(coins) / n
        return [c - mean for c in coins]

    def __str__(self) -> str:
        sn = self._snap
        if sn.enc is None:
            return f"dealing: {_names(sn.top)}"
        lines = [str(sn.enc.state)]
        if sn.enc.building or sn.enc.accept:
            e = sn.enc
            lines.append(f"deal: give h{list(e.give_hand)} up [{_names(e.give_up)}] ask [{_names(e.ask)}] "
                         f"accept h{list(e.accept)}")
        if sn.kind:
            lines.append(f"waiting for {sn.need} cards ({sn.kind} {sn.action or ''}): {_names(sn.top)}")
        return "\n".join(lines)

    # ------------------------------------------------------------ transitions

    def engine_state(self) -> GameState | None:
        """The engine state (its draw pile holds the undecided cards sorted); None while dealing."""
        return self._snap.enc.state if self._snap.enc is not None else None

    def encoded_state(self) -> EncodedState | None:
        return self._snap.enc

    def _play(self, sn: _Snap, i: int) -> _Snap:
        if i not in sn.legal_ids():
            raise ValueError(f"action {i} is not legal here: {sn.legal_ids()}")
        enc = sn.enc
        assert enc is not None
        text = f"p{enc.state.to_move} {enc.id_to_text(i)}"
        log = _Log(sn.log, (text, None))
        nxt, action = enc.step(i)
        if action is None:
            return _Snap(sn.setup, nxt, log=log)
        s = enc.state
        trial = apply(s, action)
        need = len(s.draw) - len(trial.draw)
        if need == 0:
            return _settle(sn.setup, nxt.with_state(trial), log)
        return _Snap(sn.setup, nxt, "act", action, need, (), log)

    def _chance(self, sn: _Snap, b: int) -> _Snap:
        if sn.pool()[b] <= 0:
            raise ValueError(f"chance outcome {b} is not possible here")
        top = sn.top + (b,)
        if len(top) < sn.need:
            return _Snap(sn.setup, sn.enc, sn.kind, sn.action, sn.need, top, sn.log)
        su = sn.setup
        if sn.kind == "deal":
            pile = su.deck
            s = new_game(su.rules, su.players, deck=_order(pile, top))
            enc = EncodedState(s, cancel_turn=s.turn)
        else:
            assert sn.enc is not None
            old = sn.enc.state
            if sn.kind == "reshuffle":
                pile = old.discard
                s = apply(old, Reshuffle(_order(pile, top)))
            else:
                assert sn.action is not None
                pile = old.draw
                s = apply(old._replace(draw=_order(pile, top)), sn.action)
            enc = sn.enc.with_state(s)
        if len(pile) - len(s.draw) != sn.need:
            raise RuntimeError("the chance model's invariant failed: the cards taken depend on their types")
        return _settle(su, enc, _Log(sn.log, _after_cards(s)))


def _settle(su: Setup, enc: EncodedState, log: _Log | None) -> _Snap:
    """After an engine step: a due reshuffle (E1) waits for the cards it deals at once, if any."""
    s = enc.state
    while s.phase == Phase.CHANCE:
        trial = apply(s, Reshuffle(tuple(sorted(s.discard))))
        need = len(s.discard) - len(trial.draw)
        if need:
            return _Snap(su, enc, "reshuffle", None, need, (), log)
        enc = enc.with_state(trial)
        s = trial
    return _Snap(su, enc, log=log)


class BohnanzaObserver:
    """Observation (and, with perfect recall, information-state) tensors and strings (H7); the
    tensor and the current observation text come from ``adapters.observation``."""

    PHASES = PHASES

    def __init__(self, iig_obs_type: Any, su: Setup, deal_seats: list[int], params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.setup = su
        self.deal_seats = deal_seats
        self.recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        self.own = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.everyone = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        self._obs = ObservationTensor(su, self.recall, self.own, self.everyone)
        self.index = self._obs.index
        self.tensor = self._obs.tensor
        self.dict: dict[str, Any] = self._obs.dict

    def set_from(self, state: BohnanzaState, player: int) -> None:
        """Fill the tensor with what ``player`` sees of ``state`` (H7)."""
        sn = state._snap
        if sn.enc is None:  # the initial deal: own cards so far
            self._obs.set_dealing(player, self.deal_seats, sn.top)
        else:
            self._obs.set_state(sn.enc, player, resolving=bool(sn.kind))

    def string_from(self, state: BohnanzaState, player: int) -> str:
        """What ``player`` sees of ``state`` (H7); with perfect recall, its record first."""
        now = self._observation(state, player)
        if not self.recall:
            return now
        sn = state._snap
        lines = []
        for public, private in (sn.log.events() if sn.log is not None else []):
            mine = private[player] if private is not None and (self.own or self.everyone) else ""
            if private is not None and self.everyone:
                mine = " / ".join(private)
            lines.append(f"{public} | {mine}" if mine else public)
        return "\n".join(lines + ["now: " + now.replace("\n", "\n     ")])

    def _observation(self, state: BohnanzaState, player: int) -> str:
        sn = state._snap
        if sn.enc is None:
            return self._obs.dealing_text(player, self.deal_seats, sn.top)
        resolving = str(sn.action if sn.kind == "act" else sn.kind) if sn.kind else ""
        return self._obs.text(sn.enc, player, resolving)


pyspiel.register_game(_GAME_TYPE, BohnanzaGame)
