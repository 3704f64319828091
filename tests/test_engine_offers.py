"""Trading proposals as parts (T3, docs/engine-protocol.md ``offers``): the move generator's parts
spell out exactly the proposals legal_actions lists, in its order; the harness compares an engine's
parts with ours per partner, and finds a missing or extra proposal whatever the form."""

from __future__ import annotations

import json
import random

from conformance.live.diff import GameSpec, run_game
from conformance.live.offers import compare, group_texts, text_diff
from model import Phase, Propose, apply, chance_outcome, format_action, legal_actions, new_game, ruleset
from model.actions import Offers
from model.engine import proposal_parts
from model.state import GameState, state_to_json
from play.bots import BOTS


def _trading_states(preset: str, players: int, seed: int) -> list[GameState]:
    s, rng, out = new_game(ruleset(preset), players, seed), random.Random(seed), []
    while s.phase != Phase.OVER and len(out) < 6:
        if s.phase == Phase.CHANCE:
            s = apply(s, chance_outcome(s, rng))
            continue
        if s.phase == Phase.TRADE and s.pending is None:
            out.append(s)
        s = apply(s, BOTS["random-trader"](s, rng))
    return out


def _json(o: Offers) -> dict[str, object]:
    return {"seat": f"p{o.player}", "partners": [f"p{q}" for q in o.partners],
            "give": [x.removeprefix(" give ") for x in o.give_parts()],
            "ask": [x.removeprefix(" ask ") for x in o.ask_parts()]}


def test_T3_the_parts_spell_out_the_listed_proposals_in_order() -> None:
    for preset, n, seed in (("amigo", 3, 1), ("rio-grande", 5, 2)):
        for s in _trading_states(preset, n, seed):
            listed = [a for a in legal_actions(s) if isinstance(a, Propose)]
            parts = proposal_parts(s)
            assert [a for o in parts for a in o.actions()] == listed
            assert [x for o in parts for x in o.texts()] == [format_action(a) for a in listed]
            assert sum(o.count() for o in parts) == len(listed)
            assert sorted(x for o in parts for g in [_json(o)] for x in group_texts(g)) == \
                sorted(map(format_action, listed))


def test_T3_equal_parts_agree_and_indices_in_any_order_are_read() -> None:
    s = _trading_states("amigo", 3, 1)[0]
    parts = proposal_parts(s)
    groups = [_json(o) for o in parts]
    assert compare(parts, groups) == ([], [], set(), 0)
    reordered = [{**g, "give": [",".join(reversed(x.split(","))) for x in g["give"]]} for g in groups]
    assert compare(parts, reordered)[:2] == ([], [])
    per_partner = [{**g, "partners": [q]} for g in groups for q in g["partners"]]
    assert compare(parts, per_partner) == ([], [], set(), 0)


def test_T3_a_missing_or_extra_proposal_is_found_in_parts_and_one_by_one() -> None:
    s = _trading_states("amigo", 3, 1)[0]
    parts = proposal_parts(s)
    ours = {x for o in parts for x in o.texts()}
    g = _json(parts[0])
    no_red = {**g, "ask": [x for x in g["ask"] if "red" not in x]}
    extra, missing, seen, _ = compare(parts, [no_red])
    assert not extra and missing and all(" ask " in x and "red" in x for x in missing)
    assert missing == sorted(ours - set(group_texts(no_red)))
    hand = len(s.players[s.active].hand)
    too_far = {**g, "give": [*g["give"], f"h{hand}"]}
    extra, missing, seen, _ = compare(parts, [too_far])
    assert not missing and extra and all(f"give h{hand}" in x for x in extra) and set(extra) <= seen
    theirs = set(group_texts(too_far))
    assert text_diff(theirs, ours) == (extra, [])


def test_offers_that_stand_for_more_proposals_than_any_state_has_are_a_shim_failure() -> None:
    class Huge:
        def ask(self, cmd: str, **fields: object) -> dict[str, object]:
            if cmd == "start":
                return {"ok": True}
            words = [f"h{i}" for i in range(1000)]
            return {"actions": [], "proposals": True,
                    "offers": [{"seat": "p0", "partners": ["p1", "p2"], "give": words, "ask": words}]}

    s = _trading_states("amigo", 3, 1)[0]
    spec = GameSpec(0, "amigo", 3, state=json.dumps(state_to_json(s)))
    run = run_game(Huge(), spec)  # type: ignore[arg-type]
    assert run.failure is not None and "2000000 proposals, more than 1000000" in run.failure


def test_T3_gives_left_out_are_counted_with_one_example_not_spelled_out() -> None:
    # an engine that names fewer gives (deals by bean type: tests/engine_shims/faq_shim.py): the
    # missing proposals are our other gives with every ask, counted, one a partner spelled out
    s = _trading_states("amigo", 3, 1)[0]
    parts = proposal_parts(s)
    g = _json(parts[0])
    fewer = {**g, "give": [x for x in g["give"] if "h0" not in x.split(",")]}
    expected = {x for o in parts[:1] for x in o.texts()} - set(group_texts(fewer))
    extra, missing, seen, counted = compare(parts[:1], [fewer])
    assert not extra and not seen and len(missing) == len(g["partners"]) and set(missing) <= expected
    assert len(missing) + counted == len(expected) > 1
