"""Round trips: action notation, state JSON, ruleset options, game records (docs/records.md,
docs/state-format.md).

- ``parse_action(format_action(a)) == a`` for generated actions of every kind, and for every action
  ``legal_actions`` lists in random positions; malformed notation raises ``NotationError``;
- ``state_from_json(state_to_json(s)) == s`` for states of random games (chance nodes, pending offers,
  the end of the game included);
- ``ruleset(name, rules.options()) == rules`` (also through JSON);
- a game played by ``play.playout.play_game``, written with ``write_record`` and read back with
  ``read_record``, replays to the same final state with the same actions; a record cut short replays as
  a game in progress.
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import model
from model import (
    Accept,
    Action,
    BuyField,
    Decline,
    Discard,
    DiscardUp,
    EndPhase,
    GameState,
    Harvest,
    IllegalAction,
    NotationError,
    Phase,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    Reshuffle,
    apply,
    chance_outcome,
    format_action,
    legal_actions,
    new_game,
    parse_action,
    state_to_json,
)
from model.cards import BEAN_NAMES, Bean
from model.rules import OPTION_NAMES
from play.bots import random_bot, random_trader_bot
from play.playout import play_game
from records.game import (
    IllegalStep,
    Record,
    header,
    initial_deck,
    parse_record,
    read_record,
    record_lines,
    replay,
    replay_steps,
    write_record,
)
from schemas.state_json import state_from_json

ALL_BEANS = tuple(int(b) for b in Bean)
CONFIGS = [(name, n) for name, r in model.PRESETS.items() for n in range(r.min_players, r.max_players + 1)]

# ------------------------------------------------------------------ actions of every kind

seats = st.integers(0, 9)
index = st.integers(0, 30)
beans = st.sampled_from(ALL_BEANS)
positions = st.lists(st.integers(0, 30), max_size=5).map(tuple)  # any order, as written

ACTIONS: dict[type, st.SearchStrategy[Any]] = {
    Plant: st.builds(Plant, seats, index),
    PlantAside: st.builds(PlantAside, seats, beans, index),
    PlantUp: st.builds(PlantUp, seats, index, index),
    Harvest: st.builds(Harvest, seats, index),
    BuyField: st.builds(BuyField, seats),
    EndPhase: st.builds(EndPhase, seats),
    # The ask is a multiset of bean types; legal_actions lists it sorted, but any order is written
    # and read back as it is.
    Propose: st.builds(Propose, seats, seats, positions, positions, st.lists(beans, max_size=5).map(tuple)),
    Accept: st.builds(Accept, seats, positions),
    Decline: st.builds(Decline, seats),
    Discard: st.builds(Discard, seats, index),
    DiscardUp: st.builds(DiscardUp, seats, index),
    Reshuffle: st.builds(Reshuffle, st.lists(beans, max_size=40).map(tuple)),
}
any_action = st.one_of(*ACTIONS.values())


@pytest.mark.parametrize("kind", list(ACTIONS), ids=lambda k: k.__name__)
@given(data=st.data())
def test_notation_round_trip_every_kind(kind: type, data: st.DataObject) -> None:
    a = data.draw(ACTIONS[kind])
    text = format_action(a)
    assert text == str(a)
    assert "\n" not in text
    back = parse_action(text)
    assert type(back) is kind
    assert back == a
    assert format_action(back) == text


@given(any_action)
def test_notation_survives_extra_whitespace(a: Action) -> None:
    text = format_action(a)
    assert parse_action("  " + text.replace(" ", "   ") + "\t") == a


def test_notation_examples_from_the_docs() -> None:
    """The examples of docs/records.md and the actions module, read and written back."""
    cases = {
        "p0 plant 1": Plant(0, 1),
        "p1 plant red 0": PlantAside(1, int(Bean.RED), 0),
        "p0 plant u1 0": PlantUp(0, 1, 0),
        "p1 harvest 1": Harvest(1, 1),
        "p0 buy": BuyField(0),
        "p0 end": EndPhase(0),
        "p0 offer p2 give h3,u1 ask red,red": Propose(0, 2, (3,), (1,), (int(Bean.RED),) * 2),
        "p0 offer p2 ask blue": Propose(0, 2, (), (), (int(Bean.BLUE),)),
        "p0 offer p2 give u0": Propose(0, 2, (), (0,), ()),
        "p0 offer p2 give a0": Propose(0, 2, (), (), (), (0,)),  # T4: only records name it
        "p2 accept h4,h0": Accept(2, (4, 0)),
        "p2 accept": Accept(2, ()),
        "p2 decline": Decline(2),
        "p0 discard h3": Discard(0, 3),
        "p0 discard u1": DiscardUp(0, 1),
        "chance reshuffle blue,red": Reshuffle((int(Bean.BLUE), int(Bean.RED))),
    }
    for text, action in cases.items():
        assert parse_action(text) == action, text
        assert format_action(action) == text


def random_state(name: str, n: int, options: dict[str, Any], seed: int, depth: int) -> GameState:
    """A position of a random game (random proposals and answers included) after ``depth`` steps."""
    s = new_game(model.ruleset(name, options), n, seed)
    rng = random.Random(seed)
    for _ in range(depth):
        if s.phase == Phase.OVER:
            break
        if s.phase == Phase.CHANCE:
            a: Action = chance_outcome(s, rng)
        elif s.phase == Phase.TRADE and s.pending is None:
            # A random proposal half of the time (random_trader_bot), else a move of the phase's
            # others (end, harvest): listing the thousands of proposals of an open trading phase
            # only to pick one took most of the generator's time.
            a = (random_trader_bot(s, rng) if rng.random() < 0.5
                 else rng.choice(legal_actions(s, proposals=False)))
        else:
            acts = legal_actions(s)
            accepts = [x for x in acts if isinstance(x, Accept)]
            a = rng.choice(accepts) if accepts and rng.random() < 0.5 else rng.choice(acts)
        s = apply(s, a)
    return s


states = st.builds(
    lambda cfg, options, seed, depth: random_state(cfg[0], cfg[1], options, seed, depth),
    st.sampled_from(CONFIGS),
    st.fixed_dictionaries({}, optional={
        "harvest": st.sampled_from(["lenient", "strict"]),
        "quick": st.booleans(),
        "distinct_fields": st.booleans(),
        "tie_break": st.sampled_from(["hand", "seat", "none"]),
        "max_deal_cards": st.integers(0, 2),
    }),
    st.integers(0, 2**32 - 1),
    st.integers(0, 700),
)


@given(states, st.randoms(use_true_random=False))
def test_every_legal_action_round_trips(s: GameState, rnd: random.Random) -> None:
    acts = legal_actions(s)
    if len(acts) > 200:
        acts = rnd.sample(acts, 200)
    for a in acts:
        assert parse_action(format_action(a)) == a


# Malformed notation: each must raise NotationError (a ValueError naming what is wrong).
MALFORMED = [
    "", "   ", "p0", "plant 1", "x0 plant 1", "p plant 1", "P0 plant 1", "p-1 plant 1", "pp0 plant 1",
    "p0 plant", "p0 plant x", "p0 plant -1", "p0 plant 1 2 3", "p0 plant red,blue 0",
    "p0 plant nosuchbean 0", "p0 plant u 0", "p0 plant u1", "p0 plant red x",
    "p0 harvest", "p0 harvest a", "p0 harvest 1 2", "p0 buy 1", "p0 end now", "p0 decline h1",
    "p0 accept h1 h2", "p0 accept 1", "p0 accept h", "p0 accept h1,", "p0 accept u1",
    "p0 discard", "p0 discard 1", "p0 discard x1", "p0 discard h1 h2",
    "p0 discard h1,h2", "p0 discard u1,u2",
    "p0 offer", "p0 offer 1", "p0 offer p1 give", "p0 offer p1 give h1 ask", "p0 offer p1 give x1",
    "p0 offer p1 give h1,,u0", "p0 offer p1 ask nosuch", "p0 offer p1 ask red give h0",
    "p0 offer p1 give h0 extra", "p0 offer px", "p0 fly 1", "chance", "chance shuffle red",
    "chance reshuffle red,nosuch", "chance reshuffle red blue", "chance reshuffle red,,blue",
    "p\u00b2 plant 1", "p0 plant \u00b2", "p0 accept h\u00b2", "p0 offer p1 give u\u00b2",
]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_notation_raises_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert str(info.value)


NOTATION_TOKENS = list("p0123 ,hu-x") + ["plant", "harvest", "offer", "give", "ask", "accept", "decline",
                                         "discard", "buy", "end", "red", "chance", "reshuffle", "\u00b2"]


@given(st.lists(st.sampled_from(NOTATION_TOKENS), max_size=12).map("".join) | st.text(max_size=30))
@example("p\u00b2 plant 1")
def test_parse_action_either_reads_or_raises_notation_error(text: str) -> None:
    """Any text: an action whose notation reads back the same, or NotationError (nothing else)."""
    try:
        a = parse_action(text)
    except NotationError:
        return
    assert parse_action(format_action(a)) == a


# ------------------------------------------------------------------ state JSON


@given(states)
def test_state_json_round_trip(s: GameState) -> None:
    obj = state_to_json(s)
    text = json.dumps(obj)
    back = state_from_json(json.loads(text))
    assert back == s
    assert json.dumps(state_to_json(back)) == text
    assert legal_actions(back) == legal_actions(s)


def test_state_json_round_trip_special_positions() -> None:
    """A chance node, a pending offer and a finished game, found deterministically."""
    seen: set[str] = set()
    for seed in range(40):
        s = new_game("rio-grande", 4, seed)
        rng = random.Random(seed)
        while s.phase != Phase.OVER and len(seen) < 3:
            for kind, hit in (("chance", s.phase == Phase.CHANCE), ("pending", s.pending is not None)):
                if hit:
                    seen.add(kind)
                    assert state_from_json(json.loads(json.dumps(state_to_json(s)))) == s
            s = apply(s, chance_outcome(s, rng) if s.phase == Phase.CHANCE else random_trader_bot(s, rng))
        if s.phase == Phase.OVER:
            seen.add("over")
            assert state_from_json(json.loads(json.dumps(state_to_json(s)))) == s
        if len(seen) == 3:
            break
    assert seen == {"chance", "pending", "over"}


def test_pending_offer_with_unsorted_ask_round_trips() -> None:
    """apply either rejects a proposal whose asked types are not in sorted order, or stores it so
    that the state still round-trips exactly through JSON (docs/state-format.md)."""
    s = new_game("rio-grande", 4, 3)
    rng = random.Random(0)
    while s.phase != Phase.TRADE:
        s = apply(s, chance_outcome(s, rng) if s.phase == Phase.CHANCE else random_bot(s, rng))
    offer = Propose(s.active, (s.active + 1) % 4, (0,), (), (int(Bean.RED), int(Bean.BLUE)))
    try:
        s2 = apply(s, offer)
    except IllegalAction:
        return
    assert state_from_json(json.loads(json.dumps(state_to_json(s2)))) == s2


# ------------------------------------------------------------------ ruleset options


@st.composite
def meters(draw: st.DrawFn) -> str:
    """A beanometer in the C3 text form: four values, increasing where present, '-' for none."""
    present = draw(st.lists(st.booleans(), min_size=4, max_size=4))
    present[draw(st.integers(0, 3))] = True  # at least one value
    values = sorted(draw(st.sets(st.integers(1, 25), min_size=sum(present), max_size=sum(present))))
    it = iter(values)
    return "/".join(str(next(it)) if p else "-" for p in present)


bean_names = st.sampled_from(BEAN_NAMES)
optional_int = st.one_of(st.none(), st.integers(0, 9))


@st.composite
def rulesets(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    name = draw(st.sampled_from(list(model.PRESETS)))
    options = draw(st.fixed_dictionaries({}, optional={
        "beans": st.lists(bean_names, min_size=1, max_size=12, unique=True),
        "removed": st.one_of(st.none(), st.lists(bean_names, max_size=4, unique=True)),
        "fields": st.one_of(st.none(), st.integers(1, 3)),  # the third field is the maximum (F1)
        "third_field": st.one_of(st.none(), st.booleans()),
        "third_field_cost": optional_int,
        "hand": optional_int,
        "face_up": optional_int,
        "draw": st.one_of(st.none(), st.integers(1, 9)),  # face_up and draw both 0 never ends (E1)
        "exhaustions": st.one_of(st.none(), st.integers(1, 9)),  # the game ends at one (E2)
        "tie_break": st.sampled_from(["hand", "seat", "none"]),
        "harvest": st.sampled_from(["lenient", "strict"]),
        "quick": st.booleans(),
        "distinct_fields": st.booleans(),
        "draw_each": st.booleans(),
        "field_beans": st.booleans(),
        "meters": st.dictionaries(bean_names, meters(), max_size=3),
        "max_offers": st.integers(0, 30),
        "max_deal_cards": st.integers(0, 3),  # OPTION_RANGES: more lists too many proposals
    }))
    if draw(st.booleans()):
        low = draw(st.integers(2, 5))
        options["min_players"] = low
        options["max_players"] = draw(st.integers(low, 7))
    return name, options


@given(rulesets())
def test_ruleset_options_round_trip(spec: tuple[str, dict[str, Any]]) -> None:
    name, options = spec
    rules = model.ruleset(name, options)
    opts = rules.options()
    assert set(opts) == set(OPTION_NAMES)
    assert model.ruleset(name, opts) == rules
    assert model.ruleset(name, json.loads(json.dumps(opts))) == rules  # as in a record header
    assert model.ruleset(rules.name, opts).name == name


@pytest.mark.parametrize("name", list(model.PRESETS))
def test_preset_options_round_trip(name: str) -> None:
    rules = model.PRESETS[name]
    assert model.ruleset(name, rules.options()) == rules
    assert model.ruleset(name) == rules


def test_ruleset_options_from_command_line_strings() -> None:
    """--option KEY=VALUE gives strings; they read as the same options as JSON values."""
    from model.rules import parse_option_args

    args = ["tie_break=none", "harvest=strict", "quick=true", "distinct_fields=yes", "fields=3",
            "third_field=false", "max_offers=4", "beans=blue,red,coffee", "removed=red",
            "meters=cocoa:1/3/4/-", "exhaustions=table"]
    rules = model.ruleset("amigo", parse_option_args(args))
    assert rules.tie_break == "none" and rules.harvest == "strict" and rules.quick and rules.distinct_fields
    assert rules.fields == 3 and rules.third_field is False and rules.max_offers == 4
    assert rules.beans == (Bean.COFFEE, Bean.BLUE, Bean.RED) and rules.removed == (Bean.RED,)
    assert rules.exhaustions is None
    assert model.ruleset("amigo", rules.options()) == rules


# ------------------------------------------------------------------ records


def _replayed_states(rec: Record) -> list[GameState]:
    return [step[2] for step in replay_steps(rec)]


def check_record_round_trip(rules: model.Ruleset, n: int, seed: int, bots: list[Any], folder: Path) -> None:
    result, s0, final, actions = play_game(rules, n, seed, bots)
    assert final.phase == Phase.OVER
    head = header(s0, [b.__name__ for b in bots[:n]], seed=seed)
    path = folder / f"game-{seed}.jsonl"
    write_record(path, head, actions, final)
    text = path.read_text(encoding="utf-8")
    assert all(json.loads(line) for line in text.splitlines())
    assert text == record_lines(head, actions, final)
    rec = read_record(path)
    assert rec.rules == rules and rec.players == n
    assert rec.deck == initial_deck(s0)
    assert rec.initial_state() == s0
    assert rec.actions == actions
    assert rec.lines == list(range(2, len(actions) + 2))
    assert rec.extra.get("seed") == seed
    assert rec.end == {"coins": list(result.coins), "winners": list(result.winners)}
    assert replay(rec) == final
    # Writing what was read gives the same text.
    assert record_lines(header(rec.initial_state(), rec.seats, **rec.extra), rec.actions, replay(rec)) == text


@pytest.mark.parametrize(("preset", "players"), CONFIGS, ids=[f"{p}-{n}" for p, n in CONFIGS])
def test_record_write_read_replay_every_preset(preset: str, players: int, tmp_path: Path) -> None:
    rules = model.ruleset(preset)
    check_record_round_trip(rules, players, seed=17 + players, bots=[random_trader_bot] * players,
                            folder=tmp_path)


@given(st.sampled_from(CONFIGS), st.integers(0, 2**31), st.sampled_from([{}, {"quick": True},
       {"harvest": "strict", "tie_break": "none"}, {"distinct_fields": True, "tie_break": "seat"}]))
def test_record_round_trip_property(config: tuple[str, int], seed: int, options: dict[str, Any]) -> None:
    name, n = config
    with tempfile.TemporaryDirectory() as tmp:
        check_record_round_trip(model.ruleset(name, options), n, seed,
                                [random_trader_bot, random_bot] * n, Path(tmp))


@given(st.sampled_from(CONFIGS), st.integers(0, 2**31), st.floats(0, 1))
def test_record_cut_short_replays_as_a_game_in_progress(config: tuple[str, int], seed: int,
                                                        frac: float) -> None:
    name, n = config
    rules = model.ruleset(name)
    _, s0, final, actions = play_game(rules, n, seed, [random_trader_bot] * n)
    k = int(frac * (len(actions) - 1))  # at least the last action is cut
    text = record_lines(header(s0), actions[:k])
    assert '"end"' not in text
    rec = parse_record(text)
    assert rec.end is None and len(rec.actions) == k
    s = s0
    for a in actions[:k]:
        s = apply(s, a)
    assert replay(rec) == s
    assert s.phase != Phase.OVER
    # The same cut record with the end line claims an end the replay does not reach (E2 / E1).
    full = record_lines(header(s0), actions, final).splitlines()
    cut = "\n".join(full[: k + 1] + full[-1:]) + "\n"
    with pytest.raises(IllegalStep) as info:
        replay(parse_record(cut))
    assert info.value.rule in ("E1", "E2") and info.value.line == k + 2


def test_record_cut_at_a_chance_node_replays() -> None:
    """A record may stop where a reshuffle is due (the referee reports a game in progress)."""
    for seed in range(30):
        _, s0, final, actions = play_game(model.ruleset("rio-grande"), 4, seed, [random_trader_bot] * 4)
        cuts = [i for i, a in enumerate(actions) if isinstance(a, Reshuffle)]
        if cuts:
            k = cuts[0]
            rec = parse_record(record_lines(header(s0), actions[:k]))
            s = replay(rec)
            assert s.phase == Phase.CHANCE
            assert _replayed_states(rec)[-1] == s
            return
    pytest.fail("no game with a reshuffle")


def test_a_phase_prints_its_name_and_the_json_keeps_it() -> None:
    """Issue 43: ``str(s.phase)`` printed ``2``; it prints the name the state JSON gives it."""
    s = new_game("rio-grande", 4, 1)
    assert str(s.phase) == "plant" and f"{Phase.TRADE}" == "trade" and int(Phase.TRADE) == 2
    assert all(str(p) == p.name.lower() for p in Phase)
    assert state_from_json(json.loads(json.dumps(state_to_json(s)))) == s
