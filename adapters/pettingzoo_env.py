"""A PettingZoo AEC environment for the engine (``bohnanza_v0``).

    from adapters.pettingzoo_env import env
    e = env(players=4, options={"quick": True, "max_offers": 2})
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0])
        e.step(action)

Agents ``player_0`` .. ``player_{n-1}`` are the seats. Actions are the ids of
``adapters.encoding`` (``Discrete(num_distinct_actions(setup))``; deals are built one card
at a time). Observations are ``{"observation": float32 tensor, "action_mask": int8}``: the tensor of
``adapters.observation`` for that seat (H7: never another seat's hand or coins before the
end, nor the draw pile), the mask exactly the legal ids of the seat to move (zeros for the others).
An in-range id that is not legal raises ``IllegalAction`` (a ValueError) and changes nothing.

Seeds: ``reset(seed=s)`` deals ``new_game(rules, players, seed=s)`` and resolves every reshuffle
(E1, the engine's chance nodes) inside ``step`` with ``chance_outcome`` and an RNG seeded from s
(``chance_rng(s)``), so the same seed and actions give the same game. ``reset()`` without a seed
deals the next game of the sequence started by the last seed (from OS entropy if there was none).
``reset(options={"state": s})`` starts from ``s``, an engine ``GameState`` (a position of a record,
say) or an ``EncodedState``.

Rewards: 0 until the end; then each seat's coins minus the mean of all seats' coins (zero-sum, as
the OpenSpiel adapter; E4's tie-break is not scored), and every termination is True. Truncations
are always False (the encoding bounds the game's length). ``infos[agent]``: ``legal_moves`` (the
legal ids of the seat to move, else []) and ``last_action`` (``"p2 plant 0"``, "" after a reset).

``render()`` (``render_mode`` ``"ansi"`` returns it, ``"human"`` prints it) shows the whole
engine state (``str(state)``: every hand and the draw pile count, a spectator's view, not H7) and
the deal being built; ``observation_text(agent)`` is the seat's own view (H7) as text.

La Isla Bohnita is not encoded: ``isla=true`` raises ValueError.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from adapters.encoding import EncodedState, expansion_refused, num_distinct_actions
from adapters.observation import ObservationTensor
from model.cards import BEAN_NAMES
from model.engine import apply, chance_outcome, new_game, scores
from model.rules import Setup, setup
from model.rules import ruleset as make_ruleset
from model.state import GameState, Phase

NAME = "bohnanza_v0"


def env(players: int = 4, ruleset: str = "rio-grande", options: Mapping[str, Any] | None = None,
        render_mode: str | None = None) -> AECEnv:
    """``raw_env`` wrapped as PettingZoo's classic games are: ids out of range are refused
    (``AssertOutOfBoundsWrapper``) and the AEC call order is enforced (``OrderEnforcingWrapper``)."""
    e: AECEnv = raw_env(players, ruleset, options, render_mode)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def chance_rng(seed: int) -> random.Random:
    """The RNG that resolves the reshuffles (E1) of the game dealt with ``seed``."""
    return random.Random(f"bohnanza-chance-{seed}")


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name; AECEnv is untyped
    """The AEC environment of the module docstring, for one ruleset, options and player count."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": NAME, "is_parallelizable": False}

    def __init__(self, players: int = 4, ruleset: str = "rio-grande",
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        rules = make_ruleset(ruleset, dict(options or {}))
        if rules.expansion:
            raise ValueError(expansion_refused(rules.expansion))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.setup: Setup = setup(rules, players)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self._obs = ObservationTensor(self.setup)
        size = num_distinct_actions(self.setup)
        high = self._obs.high()
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(np.zeros_like(high), high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game_seed: int | None = None
        self._enc: EncodedState | None = None
        self._legal: list[int] = []
        self._rng = random.Random()
        self.agent_selection = self.possible_agents[0]

    # ------------------------------------------------------------ spaces and views

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def encoded(self) -> EncodedState:
        """The engine state with the deal being built (``EncodedState``); after ``reset``."""
        if self._enc is None:
            raise RuntimeError("call reset() first")
        return self._enc

    @property
    def game_state(self) -> GameState:
        """The engine state (its draw pile in order: never shown to the agents)."""
        return self.encoded.state

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The seat's tensor (H7) and the action mask (its legal ids if it is to move, else zeros)."""
        seat = self.possible_agents.index(agent)
        self._obs.set_state(self.encoded, seat)
        mask = np.zeros(self.action_spaces[agent].n, np.int8)
        if agent == self.agent_selection and self._legal:
            mask[self._legal] = 1
        return {"observation": self._obs.tensor.copy(), "action_mask": mask}

    def observation_text(self, agent: str) -> str:
        """The seat's view as text (H7): the same information as its observation tensor."""
        return self._obs.text(self.encoded, self.possible_agents.index(agent))

    # ------------------------------------------------------------ the game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal ``new_game(..., seed=seed)`` (or the next seed of the last sequence); with
        ``options={"state": s}`` continue from ``s`` instead, a ``GameState`` or an ``EncodedState``
        (with a deal in progress); other keys are ignored."""
        su = self.setup
        start = (options or {}).get("state")
        if isinstance(start, GameState):
            start = EncodedState(start, cancel_turn=start.turn)
        if start is not None and (not isinstance(start, EncodedState) or start.state.setup != su):
            raise ValueError("options['state'] must be a GameState or EncodedState of this setup")
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = int(seed)
        else:
            game_seed = self._seeds.getrandbits(63)
        self.game_seed = game_seed
        self._rng = chance_rng(game_seed)
        if start is None:
            s0 = new_game(su.rules, su.players, seed=game_seed)
            start = EncodedState(s0, cancel_turn=s0.turn)
        self._enc = self._resolve(start)
        s = self._enc.state
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, s.phase == Phase.OVER)
        self.truncations = dict.fromkeys(self.agents, False)
        self._after_step("")
        self._deads_step_first()  # a finished state: the seats only step out

    def step(self, action: int | None) -> None:
        """Apply id ``action`` for the seat to move; reshuffles (E1) are resolved at once."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move and must choose an action id")
        i = int(action)
        enc = self.encoded
        text = f"p{enc.state.to_move} {enc.id_to_text(i)}"
        self._enc = self._resolve(enc.apply_id(i))  # IllegalAction (ValueError) if not legal
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        s = self.game_state
        if s.phase == Phase.OVER:
            coins = scores(s)
            mean = sum(coins) / len(coins)
            for a, c in zip(self.possible_agents, coins, strict=True):
                self.rewards[a] = float(c - mean)
                self.terminations[a] = True
        self._after_step(text)
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _resolve(self, enc: EncodedState) -> EncodedState:
        """Resolve due reshuffles (E1, chance nodes) with the game's RNG."""
        while enc.state.phase == Phase.CHANCE:
            enc = enc.with_state(apply(enc.state, chance_outcome(enc.state, self._rng)))
        return enc

    def _after_step(self, text: str) -> None:
        """Select the seat to move (any seat once the game is over) and refresh the infos."""
        enc = self.encoded
        seat = enc.current_player()
        self._legal = enc.legal_ids()
        if seat >= 0:  # at the end the last mover stays selected until _deads_step_first
            self.agent_selection = self.possible_agents[seat]
        self.infos = {a: {"legal_moves": list(self._legal) if a == self.agent_selection and seat >= 0 else [],
                          "last_action": text} for a in self.agents}

    # ------------------------------------------------------------ rendering

    def render(self) -> str | None:
        """The whole engine state (a spectator's view, not H7) and the deal being built."""
        if self.render_mode is None:
            return None
        enc = self.encoded
        lines = [str(enc.state)]
        if enc.building or enc.accept:
            up, ask = (" ".join(BEAN_NAMES[b] for b in beans) for beans in (enc.give_up, enc.ask))
            lines.append(f"deal: give h{list(enc.give_hand)} up [{up}] ask [{ask}]"
                         f" accept h{list(enc.accept)}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (text rendering only)."""
