"""Another engine played step by step beside ours (docs/engine-protocol.md).

``run_game`` plays one seeded game (a bot of play/ choosing among our legal actions, reshuffle
orders drawn by the harness) through both engines at once and compares at every step: the legal
action sets (missing and extra, each with its rule ID), the canonical breakages of
``conformance/live/probes.py`` (each one the engine accepts), whether the engine accepts the
action played, the state after it, and at the end the coins and winners. A difference that leaves
the two engines in different states ends the game, unless ``Checks.past`` (the engine started again
at our state) or ``Checks.ignore`` (a known cause) takes it on; missing, extra and accepted ones do not (after
an accepted probe the engine is put back, from the state or by replaying the game).

``plan`` lists the games of a run: every preset and player count the engine claims, crossed with
the documented readings and the bots, then the conformance perft positions.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.live import offers as offers
from conformance.live.client import Engine, EngineFailure
from conformance.live.probes import probes
from conformance.live.protocol import (
    Protocol,
    by_type,
    by_type_text,
    choice_of,
    explained_payment,
    oversized,
    pattern_of,
    phase3_seats,
    typed_groups,
    typed_parts,
)
from conformance.live.rules import allowing, refusal
from model import (
    BEAN_NAMES,
    PRESETS,
    Action,
    BuyField,
    GameState,
    IllegalAction,
    NotationError,
    Phase,
    Propose,
    Reshuffle,
    apply,
    chance_outcome,
    format_action,
    legal_actions,
    new_game,
    parse_action,
    ruleset,
    scores,
    winners,
)
from model.core import evolve, oldest
from model.engine import proposal_parts
from model.errors import BohnanzaError
from model.rules import Ruleset
from model.state import state_to_json
from play.bots import BOTS
from play.playout import game_seed
from records.claims import Diff, coin_gain, compare_state, counted, state_rule
from records.game import initial_deck
from schemas.state_json import state_from_json

ROOT = Path(__file__).resolve().parents[2]
PERFT_DIR = ROOT / "tests" / "conformance" / "perft"
BOT_ORDER = ("random", "greedy", "random-trader")
# The documented readings a run crosses the presets with (docs/rules.md, RULES.md E1, H4, E4).
VARIANTS: tuple[dict[str, Any], ...] = (
    {}, {"reshuffle": "on-demand"}, {"harvest": "strict"}, {"tie_break": "none"})
MAX_STEPS = 5000
MOST_OFFERS = 1_000_000  # proposals a legal reply's offers may stand for (a shim's garbage, else)
KINDS = ("extra", "missing", "accepted", "refused", "state", "end")
COST_OF_NO_STATE = ("a start from a state (the engine cannot): each accepted probe replays the game from "
                    "its deck (many more engine calls), and reproducers cannot start near the divergence")


@dataclass(frozen=True)
class GameSpec:
    """One game of a run: a ruleset (a preset and option changes) and seat count, the seed of its
    deck, bots and reshuffles, the bot; or a perft position to start from. ``actions`` replays a
    game (shrinking): each is played where our engine allows it, else our first legal action."""

    index: int
    preset: str
    players: int
    options: tuple[tuple[str, Any], ...] = ()
    seed: int = 0
    bot: str = "random"
    position: str | None = None
    actions: tuple[Action | None, ...] | None = None
    max_steps: int = MAX_STEPS
    follow: bool = False  # go on after a state divergence, to the end (a reproducer's end line)
    state: str | None = None  # a state JSON (text) to start from: a reproducer near its divergence

    def rules(self) -> Ruleset:
        return ruleset(self.preset, dict(self.options))

    def label(self) -> str:
        opts = "".join(f" {k}={json.dumps(v)}" for k, v in self.options)
        where = f" from {self.position}" if self.position else " from a state" if self.state else ""
        return f"game {self.index} ({self.preset} {self.players}p{opts}, {self.bot}, seed {self.seed}{where})"

    def initial(self) -> GameState:
        if self.state is not None:
            return state_from_json(json.loads(self.state))
        if self.position is not None:  # the spec's options over the position's (declared values, shrinking)
            obj = json.loads((PERFT_DIR / f"{self.position}.json").read_text())["state"]
            if self.options:
                obj = {**obj, "options": {**obj["options"], **dict(self.options)}}
            return state_from_json(obj)
        return new_game(self.rules(), self.players, self.seed)


@dataclass
class Divergence:
    """One difference: ``kind`` (``KINDS``), the rule ID, a one-line ``what``, where (the game,
    ``step``: the actions played before it, ``before``: our state there) and the action at issue."""

    kind: str
    rule: str
    what: str
    spec: GameSpec
    step: int
    before: GameState
    action: str | None = None
    played: tuple[Action, ...] = ()
    view: dict[str, Any] | None = None  # the engine's state reply, for a state or end divergence
    result: dict[str, Any] | None = None  # the engine's winners reply
    next_actions: list[str] | None = None  # a state divergence: the engine's legal actions after it
    count: int = 1  # the same cause at the same step (one action set can miss many)
    coin_payment: str = "top"  # the engine's declared payment (F1): its reproducer's header says so
    pattern: str = ""  # the move (``offer``, ``harvest``) or, for a state divergence, the part that differs
    reason: str = ""  # an extra or accepted action: our engine's reason for refusing it (check_record's)

    @property
    def key(self) -> tuple[str, str]:
        return self.kind, self.rule

    def same(self, other: Divergence) -> bool:
        """Whether ``other`` shows the same cause for the same reason (seats and counts aside): what a
        shrunk reproducer must keep, so that check_record.py names the rule and reason reported."""
        return other.cause == self.cause and _template(other.reason) == _template(self.reason)

    @property
    def cause(self) -> tuple[str, str, str]:
        """(rule, kind, pattern): what one bug gives however often it shows (docs/engine-protocol.md)."""
        return self.rule, self.kind, self.pattern

    def line(self) -> str:
        return f"{self.spec.label()}, step {self.step}: {self.what} [{self.rule}]"


@dataclass
class Checks:
    """What to compare: legal sets (with the trading proposals, thousands a state, at every trading
    state of every ``proposals_every``-th turn, from turn 0; 0: never), probes, states, winners."""

    legal: bool = True
    proposals_every: int = 1
    probes: bool = True
    state: bool = True
    winners: bool = True
    protocol: Protocol = Protocol()  # what the engine declares: mapped, never a rule break
    ignore: tuple[tuple[str, ...], ...] = ()  # causes masked (--ignore): a rule, or a rule, kind, pattern
    past: bool = False  # past a state or refused divergence: on from our state, where the engine can start

    def masks(self, cause: tuple[str, str, str]) -> bool:
        """Whether ``cause`` is a known one the run goes past (counted, not reported as found)."""
        return any(cause[:len(x)] == x for x in self.ignore)


@dataclass
class Note:
    """A protocol difference (conformance/live/protocol.py): the ``choice``, whether the engine
    declared it, one line of what was seen, where, and how often at that step."""

    choice: str
    declared: bool
    what: str
    spec: GameSpec
    step: int
    count: int = 1

    def line(self) -> str:
        return f"{self.spec.label()}, step {self.step}: {self.what}"


@dataclass
class GameRun:
    spec: GameSpec
    divergences: list[Divergence] = field(default_factory=list)
    masked: list[Divergence] = field(default_factory=list)  # of causes the run ignores (Checks.ignore)
    notes: list[Note] = field(default_factory=list)  # protocol differences, not rule breaks
    steps: int = 0
    unchecked: set[str] = field(default_factory=set)
    skipped: str | None = None  # the engine refused or could not start this game
    failure: str | None = None  # EngineFailure: one line naming the request


def field_of(part: str) -> str:
    """The state field a difference is in, a state cause's pattern (the phase where it differs, the
    rest following from it): ``hand`` for ``hand`` and ``hand order`` (the same cards in another
    order), ``draw`` for ``draw order``."""
    return part.removesuffix(" order")


def _template(reason: str) -> str:
    return re.sub(r"\d+", "#", reason)


def _names(cards: tuple[int, ...]) -> list[str]:
    return [BEAN_NAMES[c] for c in cards]


def _given(s: GameState, a: Action) -> str:
    """The cards a proposal gives, named (`` (gives 1x Soy)``), or nothing."""
    if not isinstance(a, Propose) or not 0 <= a.player < len(s.players):
        return ""
    pl = s.players[a.player]
    cards = ([pl.hand[h] for h in a.give_hand if h < len(pl.hand)] + [s.face_up[u] for u in a.give_up
             if u < len(s.face_up)] + [pl.aside[k] for k in a.give_aside if k < len(pl.aside)])
    return f" (gives {counted(tuple(_names(tuple(cards))))})" if cards else ""


def _paid(before: GameState, after: GameState) -> str:
    """The coin cards a purchase paid from ``before`` to ``after`` (onto the discard pile), named."""
    return counted(tuple(_names(after.discard[len(before.discard):]))) or "none"


def start_fields(spec: GameSpec, s0: GameState) -> dict[str, Any]:
    if spec.position is not None or spec.state is not None:
        return {"state": state_to_json(s0)}
    return {"ruleset": spec.preset, "options": s0.setup.rules.options(), "players": len(s0.players),
            "deck": _names(initial_deck(s0))}


# ---------------------------------------------------------------- one game


class _Game:
    def __init__(self, engine: Engine, spec: GameSpec, checks: Checks,
                 stop: Callable[[Divergence], bool] | None) -> None:
        self.engine, self.spec, self.checks, self.stop = engine, spec, checks, stop
        self.run = GameRun(spec)
        self.s0 = self.s = spec.initial()
        self.played: list[Action] = []
        self._before = self.s
        self.halt = False
        self._seen: dict[tuple[int, tuple[str, str, str]], Divergence] = {}  # (step, cause) -> the first

    def diverge(self, kind: str, rule: str, what: str, action: str | None = None, back: int = 0,
                count: int = 1, pattern: str | None = None, **more: Any) -> None:
        """Note ``count`` divergences of one cause at this step (``back`` 1: at the step of the last
        action played); the first is kept, the others counted."""
        step = len(self.played) - back
        pattern = pattern_of(action) if pattern is None else pattern
        seen = self._seen.get((step, (rule, kind, pattern)))
        if seen is not None:
            seen.count += count
            return
        before = self._before if back else self.s
        d = Divergence(kind, rule, what, self.spec, step, before, action, tuple(self.played[:step]), **more,
                       count=count, coin_payment=self.checks.protocol.coin_payment, pattern=pattern)
        self._seen[step, d.cause] = d
        if self.checks.masks(d.cause):
            self.run.masked.append(d)
            return
        self.run.divergences.append(d)
        if self.stop is not None and self.stop(d):
            self.halt = True

    def note(self, choice: str, what: str) -> None:
        """Note a protocol difference at this step (once per step and choice, counted)."""
        step = len(self.played)
        for n in self.run.notes:
            if n.step == step and n.choice == choice:
                n.count += 1
                return
        declared = self.checks.protocol.declared(choice)
        self.run.notes.append(Note(choice, declared, what, self.spec, step))

    def protocol_break(self, text: str, how: str) -> bool:
        """Whether ``text``, which our engine refuses here, is a protocol choice (noted) rather than
        a rule break."""
        try:
            action = parse_action(text)
        except NotationError:
            return False
        choice = choice_of(self.s, action, self.checks.protocol)
        if choice is None:
            return False
        self.note(choice, f"the engine {how} {text}, legal under {choice}")
        return True

    def ask(self, cmd: str, what: str, **fields: Any) -> dict[str, Any] | None:
        """The reply, or None (and the part noted unchecked) when the engine does not support it."""
        reply = self.engine.ask(cmd, **fields)
        if "unsupported" in reply:
            self.run.unchecked.add(f"{what} ({reply['unsupported']})")
            return None
        return reply

    def play(self) -> GameRun:
        reply = self.engine.ask("start", **start_fields(self.spec, self.s0))
        if "unsupported" in reply or not reply.get("ok"):
            self.run.skipped = str(reply.get("unsupported") or reply.get("reason") or "refused")
            return self.run
        rng = random.Random(self.spec.seed ^ 0x5EED)
        bot = BOTS[self.spec.bot]
        before: GameState | None = None
        last: Action | None = None
        for _ in range(self.spec.max_steps):
            if self.halt:
                break
            if before is not None and last is not None and self.checks.state:
                if not self._same_state(before, last):
                    break
            if self.s.phase == Phase.OVER:
                if self.checks.winners:
                    self._winners()
                if self.checks.probes:
                    self._probe()
                break
            if self.s.phase == Phase.CHANCE:
                a: Action = self._recorded() or chance_outcome(self.s, rng)
                assert isinstance(a, Reshuffle)
                reply = self.engine.ask("reshuffle", order=_names(a.order))
            else:
                listed = self._legal() if self.checks.legal else set()
                if self.checks.probes:
                    self._probe(listed)
                if self.halt:
                    break
                a = self._recorded() or (bot(self.s, rng) if self.spec.actions is None else self._first())
                if self.checks.protocol.deals == "by-type":
                    a = by_type(self.s, a)  # the same deal, named by type: the cards both engines give
                reply = self.engine.ask("apply", action=format_action(a))
            if "unsupported" in reply:
                self.run.unchecked.add(f"{format_action(a)}: {reply['unsupported']}")
                break
            masked: bool | None = None  # refused: whether of a masked cause
            if not reply["accepted"]:
                rule = allowing(self.s, a)
                self.diverge("refused", rule, f"the engine refuses {a}, which is legal: "
                             f"{reply.get('reason') or 'no reason given'}", format_action(a))
                masked = self.checks.masks((rule, "refused", pattern_of(format_action(a))))
                if not masked and not self.checks.past:
                    break
            before, last = self.s, a
            self.s = apply(self.s, a, self.spec.actions is None and self.spec.bot != "random")
            if isinstance(a, BuyField) and self.checks.protocol.coin_payment == "oldest":
                self.s = oldest(before, self.s, a.player)  # F1 leaves open which coins pay
            self.played.append(a)
            if masked is not None and not (self._resync() if masked else self._from_ours()):
                break  # past a known cause (replayed if need be), else past any from our state only
        self.run.steps = len(self.played)
        return self.run

    # ------------------------------------------------------------ choosing

    def _recorded(self) -> Action | None:
        """The replayed action of this step if our engine allows it here (shrinking)."""
        acts = self.spec.actions
        k = len(self.played)
        if acts is None or k >= len(acts) or acts[k] is None:
            return None
        a = acts[k]
        assert a is not None
        if isinstance(a, Reshuffle) != (self.s.phase == Phase.CHANCE):
            return None
        try:
            apply(self.s, a)
        except (IllegalAction, IndexError, ValueError):
            return None
        return a

    def _first(self) -> Action:
        return legal_actions(self.s, proposals=False)[0]

    # ------------------------------------------------------------ comparing

    def _legal(self) -> set[str]:
        s = self.s
        every = self.checks.proposals_every
        with_props = (s.phase == Phase.TRADE and s.pending is None and s.to_move == s.active
                      and every > 0 and s.turn % every == 0)
        reply = self.ask("legal", "legal actions", proposals=with_props)
        if reply is None:
            self.checks.legal = False
            return set()
        listed = set(reply["actions"])
        groups = reply.get("offers") or []
        if with_props and not reply.get("proposals", True):
            self.run.unchecked.add("proposals in the legal actions (the engine does not list them)")
        props = with_props and bool(reply.get("proposals", True))
        if not props:
            listed, groups = {x for x in listed if " offer " not in x}, []
        listed, groups = self._sized(listed, groups)  # deals of more cards than ours lists: left out
        most = sum(len(g["partners"]) * len(g["give"]) * len(g["ask"]) for g in groups)
        if most > MOST_OFFERS:
            raise EngineFailure("legal with proposals", f"its offers stand for {most} proposals, more than "
                                f"{MOST_OFFERS} (our largest trading state has about 30,000)")
        ours = s
        if props and s.offers >= s.setup.rules.max_offers and (groups or any(" offer " in x for x in listed)):
            ours = evolve(s, offers=0)  # T3 sets no limit: compared with the proposals of a fresh turn
            limit = s.setup.rules.max_offers
            self.note("offer_limit", f"the engine lists proposals after the turn's {limit} (max_offers)")
        typed = self.checks.protocol.deals == "by-type"
        extra, missing, listed, counted, mine = _listed_diff(s, ours, listed, groups, props, typed)
        if not typed and _deals_missing(missing, counted):
            alt = _listed_diff(s, ours, listed, groups, props, True)
            if not _deals_missing(alt[1], alt[3]) and len(alt[0]) <= len(extra):
                self.note("deals", "the engine lists one card of each type where several are alike "
                          f"(it does not list {next(x for x in missing if x not in alt[1])}): deals named "
                          "by bean type")
                extra, missing, listed, counted, mine = alt
        judged: dict[tuple[Any, ...], tuple[str | None, bool]] = {}  # a proposal's shape -> rule, protocol
        for x in extra:
            shape = _shape(x)
            if shape is None or shape not in judged:
                rule, why = refusal(ours, x)
                protocol = rule is not None and self.protocol_break(x, "lists")
                if shape is not None:
                    judged[shape] = rule, protocol
            else:  # the same shape at the same state: counted under the first one's rule, not replayed
                (rule, protocol), why = judged[shape], ""
                if protocol:
                    self.protocol_break(x, "lists")
            if rule is not None and not protocol:
                self.diverge("extra", rule, f"the engine lists {x}, which our engine refuses{why}", x,
                             reason=why[2:])
        offered = [x for x in missing if x not in mine and " offer " in x]
        if offered:  # a proposal is allowed by T3 (rules.allowing): one cause, counted at once
            first = offered[0]
            self.diverge("missing", "T3", f"the engine does not list {first}, which is legal", first,
                         count=len(offered) + counted)
        for x in missing:
            if x in mine or " offer " not in x:
                a = mine[x] if x in mine else parse_action(x)
                self.diverge("missing", allowing(s, a), f"the engine does not list {x}, which is legal", x)
        return listed | set(extra)

    def _sized(self, listed: set[str], groups: list[dict[str, Any]]) -> tuple[set[str], list[dict[str, Any]]]:
        """The listed proposals less those of more than ``max_deal_cards`` cards a side (legal under T3,
        not compared: ours lists none; noted under ``deal_size_limit``)."""
        k = self.s.setup.rules.max_deal_cards
        big = sorted(x for x in listed if oversized(x, k))
        kept = [{**g, "give": [x for x in g["give"] if len(_cards(x)) <= k],
                 "ask": [x for x in g["ask"] if len(_cards(x)) <= k]} for g in groups]
        cut = [f"{g['seat']} offer {g['partners'][0]} give {x}" for g in groups for x in g["give"]
               if len(_cards(x)) > k and g["partners"]]
        cut += [f"{g['seat']} offer {g['partners'][0]} ask {x}" for g in groups for x in g["ask"]
                if len(_cards(x)) > k and g["partners"]]
        if big or cut:
            self.note("deal_size_limit", f"the engine lists {(big + cut)[0]}, more than max_deal_cards {k} "
                      "cards a side")
        return listed - set(big), kept

    def _probe(self, listed: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        for action, rule in probes(self.s):
            text = format_action(action)
            if text in listed:
                continue  # already an extra action
            if isinstance(action, Reshuffle):
                reply = self.engine.ask("reshuffle", order=_names(action.order))
            else:
                reply = self.engine.ask("apply", action=text)
            if "unsupported" in reply or not reply["accepted"]:
                continue
            if not self.protocol_break(text, "accepts"):
                given, why = _given(self.s, action), refusal(self.s, text)[1]
                what = f"the engine accepts {text}{given}, which our engine refuses{why}"
                self.diverge("accepted", rule, what, text, reason=why[2:])
            if self.halt or not self._resync():
                self.halt = True
                return

    def _from_ours(self) -> bool:
        """Start the engine at our state, to compare past a divergence; False if it cannot (the game
        then ends there, as without ``Checks.past``)."""
        reply = self.engine.ask("start", state=state_to_json(self.s))
        return "unsupported" not in reply and bool(reply.get("ok"))

    def _resync(self) -> bool:
        """Put the engine back at our state after it accepted a probe: from the state, or by
        replaying the game so far."""
        reply = self.engine.ask("start", state=state_to_json(self.s))
        if "unsupported" not in reply and reply.get("ok"):
            return True
        self.run.unchecked.add(COST_OF_NO_STATE)
        if "unsupported" in self.engine.ask("start", **start_fields(self.spec, self.s0)):
            return False
        for a in self.played:
            if isinstance(a, Reshuffle):
                reply = self.engine.ask("reshuffle", order=_names(a.order))
            else:
                reply = self.engine.ask("apply", action=format_action(a))
            if "unsupported" in reply or not reply["accepted"]:
                return False
        return True

    def _same_state(self, before: GameState, last: Action) -> bool:
        reply = self.ask("state", "states")
        if reply is None:
            self.checks.state = False
            return True
        view = reply["state"]
        diffs = self._mapped(before, last, view, compare_state(self.s, view))
        if not diffs:
            return True
        diffs.sort(key=lambda d: d.part != "phase")  # the phase first: what else differs follows from it
        keys = [d.part for d in diffs]
        gain = coin_gain(before, self.s, last, view)
        rule = state_rule(before, last, self.s, keys, view.get("phase"), gain)
        part = keys[0]
        more = f" (and {', '.join(sorted(set(keys[1:]) - {part}))})" if set(keys[1:]) - {part} else ""
        if self.spec.follow and any(d.kind == "state" for d in self.run.divergences):
            return True  # following to the end: the first state divergence is noted
        self._before = before
        listed = self.engine.ask("legal", proposals=False)  # what the engine would do next
        self.diverge("state", rule, f"after {last}: {diffs[0].text()}{more}",
                     format_action(last), back=1, pattern=field_of(part), view=view,
                     next_actions=listed.get("actions"))
        if self.checks.masks((rule, "state", field_of(part))):
            return self._resync()  # past a known cause: the engine put at our state, the game goes on
        if self.checks.past and not self.spec.follow:
            return self._from_ours()
        return self.spec.follow

    def _mapped(self, before: GameState, last: Action, view: dict[str, Any], diffs: list[Diff]) -> list[Diff]:
        """``diffs`` less the protocol differences (noted): the seats that may plant in a phase 3
        played at once (T6), the coin cards a purchase paid with (F1; our state takes the engine's)."""
        out = []
        for d in diffs:
            part, theirs = d.part, d.theirs
            seats = phase3_seats(self.s)
            if part == "to_move" and seats and (theirs in seats or theirs == seats):
                self.note("simultaneous_phase3", f"after {last}: the engine lets seats {seats} plant at once")
                continue
            if part == "discard" and isinstance(last, BuyField) and isinstance(view.get("discard"), list):
                paid = explained_payment(before, self.s, last.player, view["discard"])
                if paid is not None:
                    ours_paid, self.s = _paid(before, self.s), paid
                    self.note("coin_payment", f"after {last}: the engine pays with other coin cards "
                              f"({_paid(before, paid)}; ours the top ones: {ours_paid})")
                    continue
            out.append(d)
        return out

    def _winners(self) -> None:
        reply = self.ask("winners", "winners")
        if reply is None:
            return
        coins, best = list(scores(self.s)), list(winners(self.s))
        if not reply["over"]:
            self.diverge("end", "E2", "the game is over, the engine says it goes on", pattern="over",
                         result=reply)
        elif reply.get("coins") is not None and reply["coins"] != coins:
            theirs = list(reply["coins"])
            pairs = enumerate(zip(theirs, coins, strict=True)) if len(theirs) == len(coins) else iter(())
            seats = ", ".join(f"p{p} {c} (ours {o})" for p, (c, o) in pairs if c != o) or f"{theirs}"
            self.diverge("end", "E3", f"final coins differ: {seats}; ours {coins}", pattern="coins",
                         result=reply)
        elif reply.get("winners") is not None and sorted(reply["winners"]) != best:
            self.diverge("end", "E4", f"winners {reply['winners']}, ours {best} (coins {coins})",
                         pattern="winners", result=reply)


def _cards(part: str) -> list[str]:
    return [x for x in part.split(",") if x]


def _listed_diff(s: GameState, ours: GameState, listed: set[str], groups: list[dict[str, Any]], props: bool,
                 typed: bool) -> tuple[list[str], list[str], set[str], int, dict[str, Action]]:
    """(extra, missing, the engine's actions as compared, the missing proposals counted but not
    spelled out, our actions by text): the engine's legal reply against ours at ``s`` (its proposals
    against those of ``ours``); ``typed``: deals compared by type (``deals: by-type``, T3)."""
    mine = {format_action(a): a for a in legal_actions(s, proposals=False)}
    parts = proposal_parts(ours) if props else []
    if typed:
        mine = {by_type_text(s, x): a for x, a in mine.items()}
        listed = {by_type_text(s, x) for x in listed}
        parts, groups = typed_parts(s, parts), typed_groups(s, groups)
    counted = 0
    if not props:
        extra, missing = offers.text_diff(listed, set(mine))
    elif groups and not any(" offer " in x for x in listed):
        extra, missing = offers.text_diff(listed, set(mine))  # the proposals by parts, per partner
        more, fewer, seen, counted = offers.compare(parts, groups)
        extra, missing, listed = extra + more, missing + fewer, listed | seen
    else:  # one by one: ours spelled out from the parts, the sets compared at C speed
        for g in groups:
            listed.update(by_type_text(s, x) if typed else x for x in offers.group_texts(g))
        extra, missing = offers.text_diff(listed, set(mine).union(*map(offers.texts, parts)))
    return extra, missing, listed, counted, mine


def _deals_missing(missing: list[str], counted: int) -> bool:
    """Whether a proposal or an accept is missing (what deals named by type would leave out)."""
    return counted > 0 or any(" offer " in x or " accept" in x for x in missing)


def _shape(text: str) -> tuple[Any, ...] | None:
    """A proposal's shape (seat, partner, how many hand, face-up and set-aside cards it gives, how
    many beans it asks), or None for any other action: extras of one shape at one state are judged
    once (what costs time in proportion to the causes, not to the thousands of proposals)."""
    words = text.split()
    if len(words) < 3 or words[1] != "offer":
        return None
    gives = next((words[k + 1] for k in range(len(words) - 1) if words[k] == "give"), "").split(",")
    asks = next((words[k + 1] for k in range(len(words) - 1) if words[k] == "ask"), "")
    return (words[0], words[2], *(sum(1 for g in gives if g[:1] == c) for c in "hua"),
            len(asks.split(",")) if asks else 0)


def run_game(engine: Engine, spec: GameSpec, checks: Checks | None = None,
             stop: Callable[[Divergence], bool] | None = None) -> GameRun:
    """Play ``spec`` through our engine and ``engine``; an EngineFailure ends the game (noted in
    ``failure``, the engine closed: reopen it for the next game)."""
    try:
        game = _Game(engine, spec, checks or Checks(), stop)
    except BohnanzaError as e:  # a reading or option the preset does not allow at this seat count
        return GameRun(spec, skipped=f"not a game of ours: {e}")
    try:
        return game.play()
    except EngineFailure as e:
        game.run.failure = str(e)
        game.run.steps = len(game.played)
        return game.run


# ---------------------------------------------------------------- the games of a run


def claimed(hello: dict[str, Any]) -> list[tuple[str, int]]:
    """(preset, players) for every preset and player count the engine claims and the preset allows."""
    claims = hello.get("presets")
    out = []
    for name, rules in PRESETS.items():
        counts = range(rules.min_players, rules.max_players + 1)
        if claims is not None:
            counts = [n for n in counts if n in (claims.get(name) or ())]  # type: ignore[assignment]
        out += [(name, n) for n in counts]
    return out


def perft_positions() -> list[tuple[str, str, int]]:
    """(fixture name, preset, players) of the conformance perft positions."""
    out = []
    for path in sorted(PERFT_DIR.glob("*.json")):
        fixture = json.loads(path.read_text())
        out.append((path.stem, fixture["ruleset"], fixture["players"]))
    return out


def plan(pairs: list[tuple[str, int]], games: int, seed: int, positions: bool = True,
         readings: tuple[dict[str, Any], ...] = VARIANTS, bots: tuple[str, ...] = BOT_ORDER,
         claimed_presets: set[str] | None = None, fixed: tuple[tuple[str, Any], ...] = ()) -> list[GameSpec]:
    """``games`` seeded games over ``pairs`` x ``readings`` x ``bots`` (each cycled), then one game
    from each perft position whose preset and player count the engine claims. ``fixed``: the option
    values the engine declares it always plays, forced in every game (over a reading of the same
    option; in a position, over its own)."""
    out: list[GameSpec] = []
    if pairs:
        for i in range(games):
            preset, n = pairs[i % len(pairs)]
            opts = tuple(sorted({**readings[i % len(readings)], **dict(fixed)}.items()))
            out.append(GameSpec(i, preset, n, opts, game_seed(seed, i), bots[i % len(bots)]))
    if positions:
        for k, (name, preset, n) in enumerate(perft_positions()):
            if claimed_presets is None or (preset in claimed_presets and (preset, n) in pairs):
                out.append(GameSpec(games + k, preset, n, tuple(sorted(fixed)), game_seed(seed, games + k),
                                    bots[k % len(bots)], position=name))
    return out


def with_reading(specs: list[GameSpec], reading: dict[str, Any]) -> list[GameSpec]:
    """The same games under one reading (option values forced for every game, positions left out)."""
    return [GameSpec(g.index, g.preset, g.players, tuple(sorted(reading.items())), g.seed, g.bot)
            for g in specs if g.position is None]

