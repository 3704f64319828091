"""Engine vs spec: on concrete states, the engine's legal actions must be exactly the spec's
satisfying actions (enumerated by Z3 with blocking clauses), and the engine's successor must equal
the spec's (the decision followed by the spec's internal steps)."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import z3

from console.progress import ProgressFn
from model import (
    EMPTY,
    Action,
    GameState,
    IllegalAction,
    Phase,
    apply,
    chance_outcome,
    legal_actions,
    new_game,
    ruleset,
)
from model import engine as _engine  # winners() runs STEPS.winners, which a mutant may replace
from model.actions import format_action
from model.display import describe
from model.rules import Ruleset
from play.bots import greedy_bot, random_trader_bot
from play.playout import playout
from proofs.bridge import action_to_spec, observable, spec_key, state_to_spec
from proofs.runner import catching_ctrl_c, stop_if_interrupted
from proofs.spec import (
    ACCEPT_K,
    DECISION_KINDS,
    DISCARD_K,
    DISCARD_UP_K,
    HARVEST_K,
    PLANT_ASIDE_K,
    PLANT_K,
    PLANT_UP_K,
    PROPOSE_K,
    RESHUFFLE_K,
    SAction,
    Spec,
    SpecConfig,
    SState,
    action_var,
)
from proofs.symbolic import all_of, any_of, implies

FIELD_KINDS = (PLANT_K, PLANT_ASIDE_K, PLANT_UP_K, HARVEST_K)
TICK_EVERY = 100  # spec actions found between two ``tick`` calls of ``spec_legal``
BEAN_KINDS = (PLANT_ASIDE_K, PLANT_UP_K, DISCARD_UP_K)


def canonical(a: SAction, k: int) -> Any:
    """Unused parts of an action are 0, so that each action has exactly one model."""
    parts = [any_of(*[a.kind == kind for kind in DECISION_KINDS if kind != RESHUFFLE_K])]
    parts.append(implies(all_of(*[a.kind != x for x in FIELD_KINDS]), a.field == 0))
    parts.append(implies(all_of(*[a.kind != x for x in BEAN_KINDS]), a.bean == 0))
    parts.append(implies(a.kind != DISCARD_K, a.pos == 0))
    parts.append(implies(a.kind != PROPOSE_K, all_of(a.partner == 0, a.ghn == 0, a.gun == 0, a.askn == 0)))
    parts.append(implies(a.kind != ACCEPT_K, a.accn == 0))
    for j in range(k):
        parts += [implies(j >= a.ghn, a.gh[j] == 0), implies(j >= a.gun, a.gu[j] == 0),
                  implies(j >= a.askn, a.ask[j] == 0), implies(j >= a.accn, a.acc[j] == 0)]
    return all_of(*parts)


def spec_legal(spec: Spec, ss: SState, limit: int = 200_000,
               tick: Callable[[int], None] | None = None) -> set[tuple[Any, ...]]:
    """Every decision the spec allows in ``ss``, by Z3 with blocking clauses; ``tick(found so
    far)`` every TICK_EVERY actions. Each query is small (one action more), so Z3's own Ctrl-C
    handler is off: Python's raises KeyboardInterrupt as the query returns (Z3's answered
    "unknown", which ended the enumeration early and reported actions missing from the spec)."""
    k = spec.cfg.k
    a = action_var("a", k)
    guards = []
    for t in spec.transitions():
        if t.internal or t.kind == RESHUFFLE_K:
            continue
        g = t.guard(ss, a)
        if g is False:
            continue
        guards.append(all_of(a.kind == t.kind, g))
    found: set[tuple[Any, ...]] = set()
    if not guards:
        return found
    with catching_ctrl_c():
        return _enumerate(a, k, guards, limit, tick)


def _enumerate(a: SAction, k: int, guards: list[Any], limit: int, tick: Callable[[int], None] | None
               ) -> set[tuple[Any, ...]]:
    found: set[tuple[Any, ...]] = set()
    solver = z3.Solver()
    solver.set("ctrl_c", False)
    solver.add(any_of(*guards), canonical(a, k))
    variables = [a.kind, a.player, a.field, a.bean, a.pos, a.partner, a.ghn, a.gun, a.askn, a.accn,
                 *a.gh, *a.gu, *a.ask, *a.acc]
    while solver.check() == z3.sat:
        stop_if_interrupted()  # a Ctrl-C Python lost in a Z3 term's __del__ (proofs/runner.py)
        m = solver.model()
        vals = [m.eval(v, model_completion=True).as_long() for v in variables]
        concrete = SAction(
            kind=vals[0], player=vals[1], field=vals[2], bean=vals[3], pos=vals[4], partner=vals[5],
            ghn=vals[6], gun=vals[7], askn=vals[8], accn=vals[9],
            gh=tuple(vals[10:10 + k]), gu=tuple(vals[10 + k:10 + 2 * k]),
            ask=tuple(vals[10 + 2 * k:10 + 3 * k]), acc=tuple(vals[10 + 3 * k:10 + 4 * k]))
        found.add(spec_key(concrete))
        if tick is not None and len(found) % TICK_EVERY == 0:
            tick(len(found))
        solver.add(z3.Or([v != x for v, x in zip(variables, vals, strict=True)]))
        if len(found) > limit:
            raise RuntimeError("too many spec actions")
    return found


@dataclass
class Disagreement:
    state: GameState
    action: Action | None
    what: str

    def __str__(self) -> str:
        head = f"{self.what}"
        if self.action is not None:
            head += f"\n  action: {format_action(self.action)}"
        return head + "\n  state:\n    " + describe(self.state).replace("\n", "\n    ")


def _reductions(s: GameState) -> Iterator[GameState]:
    """Smaller variants of ``s``: fewer cards in the piles, coins, hands and fields."""
    for k in (0, 1, 2, 4, 8):
        if k < len(s.draw):
            yield s._replace(draw=s.draw[:k])
    for k in (0, 1, 2, 4):
        if k < len(s.discard):
            yield s._replace(discard=s.discard[len(s.discard) - k:])
    if s.out:
        yield s._replace(out=())
    for p, pl in enumerate(s.players):
        variants = [pl._replace(coins=())] if pl.coins else []
        variants += [pl._replace(hand=pl.hand[:k]) for k in (0, 1, 2) if k < len(pl.hand)]
        variants += [pl._replace(fields=pl.fields[:i] + (EMPTY,) + pl.fields[i + 1:])
                     for i, f in enumerate(pl.fields) if f.count]
        for v in variants:
            yield s._replace(players=s.players[:p] + (v,) + s.players[p + 1:])


def minimize(d: Disagreement, mutant: str | None = None, budget: int = 60) -> Disagreement:
    """Greedily remove cards from the state while the engine and the spec still disagree (on the
    same action, when there is one): a small state to read instead of a whole game."""
    best = d
    tries = 0
    improved = True
    while improved and tries < budget:
        improved = False
        for cand in _reductions(best.state):
            tries += 1
            if tries > budget:
                break
            try:
                found = check_state(cand, mutant=mutant)
            except Exception:  # the reduced state is not one the engine or spec can handle
                continue
            same = [p for p in found if d.action is None or p.action == d.action]
            if same:
                best = same[0]
                improved = True
                break
    return best


def check_state(s: GameState, rng: random.Random | None = None, successors: int = 60,
                mutant: str | None = None, tick: Callable[[int], None] | None = None) -> list[Disagreement]:
    """Compare engine and spec on ``s``: the legal sets, then successors (all non-proposals and a
    deterministic sample of at most ``successors`` proposals). ``mutant`` breaks the spec;
    ``tick``: ``spec_legal``'s."""
    spec = Spec(SpecConfig.from_setup(s.setup), mutant)
    ss = state_to_spec(s)
    problems: list[Disagreement] = []
    n = len(s.players)
    if s.phase == Phase.OVER:
        mine_w, theirs_w = spec.winners(ss), _engine.winners(s)
        if mine_w != theirs_w:
            problems.append(Disagreement(s, None, f"winners differ: engine {theirs_w} spec {mine_w} (E4)"))
        return problems
    if s.phase == Phase.CHANCE:
        if legal_actions(s):
            problems.append(Disagreement(s, None, "engine lists actions at a chance node"))
        actions: list[Action] = [chance_outcome(s, rng or random.Random(0))]
    else:
        actions = legal_actions(s)
        engine_keys = [spec_key(action_to_spec(s, a)) for a in actions]
        if len(set(engine_keys)) != len(engine_keys):
            problems.append(Disagreement(s, None, "engine lists the same action twice"))
        spec_keys = spec_legal(spec, ss, tick=tick)
        eng = set(engine_keys)
        for key in sorted(spec_keys - eng)[:5]:
            problems.append(Disagreement(s, None, f"spec allows {_describe(key)}; the engine does not"))
        for key in sorted(eng - spec_keys)[:5]:
            problems.append(Disagreement(s, None, f"engine allows {_describe(key)}; the spec does not"))
    proposals = [a for a in actions if type(a).__name__ == "Propose"]
    others = [a for a in actions if type(a).__name__ != "Propose"]
    if len(proposals) > successors:
        proposals = random.Random(len(proposals)).sample(proposals, successors)
    table = {t.kind: t for t in spec.transitions()}
    for a in others + proposals:
        sa = action_to_spec(s, a)
        t = table[sa.kind]
        if t.guard(ss, sa) is not True:
            problems.append(Disagreement(s, a, "the spec's guard refuses the engine's action"))
            continue
        mine = observable(spec.settle(t.after(ss, sa)), n)
        try:
            theirs = observable(state_to_spec(apply(s, a)), n)
        except IllegalAction as exc:
            problems.append(Disagreement(s, a, f"the engine lists the action but refuses it: {exc}"))
            continue
        if mine != theirs:
            diff = {key: (theirs.get(key), mine.get(key)) for key in sorted(set(mine) | set(theirs))
                    if mine.get(key) != theirs.get(key)}
            text = "; ".join(f"{key}: engine {e} spec {p}" for key, (e, p) in diff.items())
            problems.append(Disagreement(s, a, f"successors differ: {text}"))
    return problems


def _describe(key: tuple[Any, ...]) -> str:
    return f"{DECISION_KINDS.get(key[0], key[0])} {key[1:]}"


SAMPLE_PLAN: list[tuple[str, int, dict[str, Any]]] = [
    (name, n, opts)
    for name, counts in [("rio-grande", range(2, 8)), ("amigo", range(3, 6)), ("amigo-1997", range(3, 6)),
                         ("amigo-v1", range(3, 6)), ("amigo-v2", range(4, 6))]
    for n in counts
    for opts in ({"max_deal_cards": 1}, {"max_deal_cards": 1, "harvest": "strict", "distinct_fields": True})
] + [("amigo", 3, {"max_deal_cards": 2}), ("rio-grande", 3, {"max_deal_cards": 2})]

# E1's on-demand reading: every fourth sampled game (the duel, V1, V4 and V5 among them).
_ON_DEMAND_GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("rio-grande", 5, {}), ("rio-grande", 2, {}), ("amigo", 3, {}), ("rio-grande", 3, {"quick": True}),
    ("amigo-v1", 4, {}), ("rio-grande", 4, {}), ("amigo-v2", 4, {}), ("rio-grande", 7, {"harvest": "strict"}),
    ("amigo", 5, {})]
ON_DEMAND_PLAN: list[tuple[str, int, dict[str, Any]]] = [
    (name, n, {"max_deal_cards": 1, "reshuffle": "on-demand", **extra})
    for name, n, extra in _ON_DEMAND_GAMES
]
ON_DEMAND_EVERY = 4


def plan_of(game: int) -> tuple[str, int, dict[str, Any]]:
    """The ruleset, players and options of sampled game ``game``: SAMPLE_PLAN in turn, and every
    ON_DEMAND_EVERY-th game one of ON_DEMAND_PLAN."""
    k = ON_DEMAND_EVERY
    if game % k == k - 1:
        return ON_DEMAND_PLAN[(game // k) % len(ON_DEMAND_PLAN)]
    return SAMPLE_PLAN[(game - game // k) % len(SAMPLE_PLAN)]


def waiting_for_need(s: GameState) -> bool:
    """E1 on-demand: the draw pile is empty and the next card needed will exhaust it."""
    return s.setup.on_demand and not s.draw and s.phase not in (Phase.CHANCE, Phase.OVER) and not s.final


def near_exhaustion(s: GameState) -> bool:
    """E1 on-demand: at most three cards left, so the next turning up or drawing may take the last
    one (where the two readings part: on-demand waits for the next need)."""
    return s.setup.on_demand and 0 < len(s.draw) <= 3 and s.phase != Phase.CHANCE


def sample_states(count: int, seed: int = 0) -> Iterator[GameState]:
    """``count`` decision states from seeded games over every preset, 2-7 players, option mixes and
    both E1 readings, with the random-trader and greedy bots (so trades, chance nodes and game ends
    all occur; on-demand games also give states whose empty pile waits for the next need)."""
    rng = random.Random(seed)
    made = 0
    game = 0
    while made < count:
        name, n, opts = plan_of(game)
        rules: Ruleset = ruleset(name, opts)
        start = new_game(rules, n, seed * 7919 + game)
        bot = random_trader_bot if game % 2 else greedy_bot
        per_game = max(1, min(6, count - made))
        picks = set(rng.sample(range(400), per_game))
        for steps, (s, _) in enumerate(playout(start, bot, rng)):
            if made >= count:
                break
            if s.phase == Phase.OVER:
                if rng.random() < 0.2:
                    made += 1
                    yield s
                break
            if (steps in picks or s.phase == Phase.CHANCE and rng.random() < 0.3
                    or (waiting_for_need(s) or near_exhaustion(s)) and rng.random() < 0.3):
                made += 1
                yield s
        game += 1


# One seeded game each for ``end_states``: both E1 readings, the duel's end at the first exhaustion,
# reshuffles before the final one (E2).
END_PLAN: list[tuple[str, int, dict[str, Any]]] = [
    ("rio-grande", 2, {}), ("rio-grande", 2, {"reshuffle": "on-demand"}), ("amigo", 3, {}),
    ("rio-grande", 4, {"reshuffle": "on-demand"})]


def end_states(seed: int = 0) -> Iterator[GameState]:
    """The states just before the moments E1-E3 speak about, from one seeded game of each of
    END_PLAN (greedy bot): each whose next step takes the draw pile's last card, counts an
    exhaustion, starts the final turn or ends the game (the final harvest). Trading states are
    left out: their proposals make them the costliest to check, and a deal takes no card."""
    for game, (name, n, opts) in enumerate(END_PLAN):
        rng = random.Random(seed * 7919 + game)
        before: GameState | None = None
        for s, _ in playout(new_game(ruleset(name, opts), n, seed * 7919 + game), greedy_bot, rng):
            if before is not None and before.phase != Phase.TRADE and (
                    len(s.draw) == 0 < len(before.draw) or s.exhaustions != before.exhaustions
                    or s.final != before.final or s.phase == Phase.OVER):
                yield before
            before = s


@dataclass
class SpecCheck:
    """What ``check_states`` compared: states and legal actions, the states with disagreements
    (each state's list), counts by phase, players and ruleset, the on-demand states (E1) with those
    waiting for a need and the reshuffles at a need, and the seconds it took."""

    states: int = 0
    actions: int = 0
    bad: list[list[Disagreement]] = field(default_factory=list)
    by_phase: Counter[str] = field(default_factory=Counter)
    by_players: Counter[int] = field(default_factory=Counter)
    by_rules: Counter[str] = field(default_factory=Counter)
    on_demand: int = 0
    waiting: int = 0  # on-demand, an empty draw pile before the need
    need_chance: int = 0  # on-demand, a reshuffle due at a need
    seconds: float = 0.0


def check_states(count: int, seed: int = 0, progress: ProgressFn | None = None,
                 into: SpecCheck | None = None) -> SpecCheck:
    """Engine against spec on ``count`` sampled states (``sample_states``): ``progress(states
    done, count, note)`` before each state and every TICK_EVERY spec actions of a large one.
    Ctrl-C raises KeyboardInterrupt within a second (no Z3 query here runs long); ``into``, when
    given, is the SpecCheck returned, its counts and ``seconds`` kept up to date as each state is
    checked, so a caller that catches the interrupt reports the states checked before it."""
    with catching_ctrl_c():
        return _check_states(count, seed, progress, SpecCheck() if into is None else into)


def _check_states(count: int, seed: int, progress: ProgressFn | None, out: SpecCheck) -> SpecCheck:
    t0 = time.perf_counter()
    for s in sample_states(count, seed):
        stop_if_interrupted()
        what = f"{s.setup.rules.name} {len(s.players)}p, {s.phase.name.lower()}"
        if progress is not None:
            progress(out.states, count, what)

        def tick(found: int, what: str = what) -> None:
            if progress is not None:
                progress(out.states, count, f"{what}: {found} spec actions")

        problems = check_state(s, tick=tick if progress is not None else None)
        # counted once the state is checked: an interrupt inside one leaves the counts whole
        out.by_phase[s.phase.name.lower()] += 1
        out.by_players[len(s.players)] += 1
        out.by_rules[s.setup.rules.name] += 1
        if s.setup.on_demand:
            out.on_demand += 1
            out.waiting += waiting_for_need(s)
            out.need_chance += s.phase == Phase.CHANCE
        out.actions += len(legal_actions(s))
        if problems:
            out.bad.append(problems)
        out.states += 1
        out.seconds = time.perf_counter() - t0
    if progress is not None:
        progress(out.states, count, "done")
    return out
