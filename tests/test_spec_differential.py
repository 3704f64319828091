"""Engine vs the independent Z3 spec of the rules (proofs/spec.py) on a sample of states.

The full sweep (1,000+ states) is scripts/check_spec.py; here a deterministic sample, plus checks
that the comparison does fail when the engine breaks a rule, so it cannot pass vacuously.
"""

from __future__ import annotations

import pytest

import model.engine as engine
from model import Harvest, Phase, new_game
from model.steps import STEPS
from proofs.bridge import state_to_spec
from proofs.differential import check_state, check_states, sample_states, spec_legal
from proofs.spec import Spec, SpecConfig


def test_engine_and_spec_agree_on_sampled_states():
    states = list(sample_states(40, seed=3))
    assert len(states) == 40
    assert len({len(s.players) for s in states}) >= 4  # several player counts
    phases = {s.phase for s in states}
    assert Phase.PLANT in phases and Phase.TRADE in phases
    problems = [p for s in states for p in check_state(s)]
    assert not problems, "\n".join(str(p) for p in problems[:3])


def test_check_states_reports_each_state():
    seen = []
    out = check_states(3, seed=3, progress=lambda done, total, note: seen.append((done, total)))
    assert out.states == 3 and not out.bad and sum(out.by_phase.values()) == 3
    assert seen[0] == (0, 3) and seen[-1] == (3, 3)


def test_spec_enumerates_the_same_number_of_actions_as_the_engine():
    s = new_game("amigo", 4, seed=5)
    keys = spec_legal(Spec(SpecConfig.from_setup(s.setup)), state_to_spec(s))
    assert len(keys) == len(engine.legal_actions(s)) > 0


@pytest.mark.rule("C1")
def test_differential_catches_an_engine_that_overpays_a_harvest():
    real = STEPS.harvest

    def overpay(s, p, i):
        out = real(s, p, i)
        pl = out.players[p]
        if out.discard:
            bonus = out.discard[-1:]
            pl = pl._replace(coins=pl.coins + bonus)
            return out._replace(players=out.players[:p] + (pl,) + out.players[p + 1:],
                                discard=out.discard[:-1])
        return out

    found = []
    with STEPS.replaced(harvest=overpay):
        for s in sample_states(60, seed=4):
            if any(isinstance(a, Harvest) for a in engine.legal_actions(s)):
                found += check_state(s)
            if found:
                break
    assert found and "successors differ" in found[0].what


@pytest.mark.rule("H4")
def test_differential_catches_an_engine_that_lists_a_protected_single(monkeypatch):
    real = engine.legal_actions

    def extra(s):
        acts = real(s)
        if s.to_move >= 0 and s.phase != Phase.CHANCE:
            fields = s.players[s.to_move].fields
            for i, f in enumerate(fields):
                if f.count == 1 and Harvest(s.to_move, i) not in acts:
                    return acts + [Harvest(s.to_move, i)]
        return acts

    monkeypatch.setattr(engine, "legal_actions", extra)
    import proofs.differential as differential

    monkeypatch.setattr(differential, "legal_actions", extra)
    found = []
    for s in sample_states(80, seed=5):
        found += [p for p in check_state(s) if "engine allows" in p.what]
        if found:
            break
    assert found and "harvest" in found[0].what
