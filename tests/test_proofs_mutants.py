"""Z3 proofs, continued: the mutants each proof or check must catch, the bounded check of T1,
the ghost lemmas, the command-line tools and the --z3 referee. (tests/test_proofs.py holds the
proofs of every property on the configurations that cover the spec, one module fixture; apart, the
two files run on the two workers of the suite at once.) Each proof that must fail runs on a small
configuration where the broken rule is in play; ``scripts/prove_rules.py --mutants`` runs them all.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import model
from model.isla import isla_of
from model.steps import STEPS
from proofs import ghost, invariants
from proofs.differential import check_state
from proofs.invariants import bmc_two_plantings, prove
from proofs.mutants import MUTANTS, activate, ends, judge, sample
from proofs.spec import Spec
from proofs.symbolic import Seq, count_if

ROOT = Path(__file__).resolve().parent.parent
RIO4 = [("rio-grande", 4, {})]
DUEL = [("rio-grande", 2, {})]  # the smallest configuration: about half rio-grande 4p's time
AMIGO3 = [("amigo", 3, {})]  # the smallest with trading


# Each mutant on a small configuration where its rule is in play (the duel; amigo 3p for the
# trading phase's T4-T6, which the duel has not): a run stops at the first refutation, after every
# earlier instance, and rio-grande 4p took 42 s for the ten (these, about 24 s). The whole catalog
# on every configuration: scripts/prove_rules.py --mutants.
@pytest.mark.parametrize(("mutant", "prop", "config"), [
    ("harvest-protected-single", "single-bean-harvest-H4", DUEL),
    ("plant-from-back", "hand-order-H1", RIO4),
    ("draw-to-front", "hand-order-H1", DUEL),
    ("third-planting", "at-most-two-plantings-T1", RIO4),
    ("retrade-received", "traded-never-retraded-T4", AMIGO3),
    ("beanometer-off-by-one", "coins-by-harvest-or-purchase-C1-F1", DUEL),
    ("skip-final-harvest", "final-harvest-E3", DUEL),
    ("skip-aside", "set-aside-planted-T6", AMIGO3),
    ("lose-face-up", "card-conservation", AMIGO3),
    ("reshuffle-forever", "exhaustions-bounded-E2", DUEL),
], ids=lambda v: f"{v[0][0]}-{v[0][1]}p" if isinstance(v, list) else v)
def test_a_proof_fails_on_a_spec_with_the_rule_broken(mutant, prop, config):
    (r,) = prove(config, mutant=mutant, only={prop}, stop_at_first=True)
    assert r.id == prop and r.status == "refuted"
    assert "state:" in r.counterexample and "action:" in r.counterexample and "next:" in r.counterexample


def test_a_property_whose_situation_is_never_reached_is_vacuous(monkeypatch):
    # e.g. a trigger that names a planting where planting never happens: the proof says nothing
    monkeypatch.setitem(invariants.TRIGGERS, "plantings-counted-T1",
                        [("a fourth planting", lambda cfg, s, a, t, s2: s2.planted == 4)])
    # one property over every transition of the smallest configuration, the duel: the two runs take
    # about 7 s here (amigo 3p 10 s, rio-grande 4p twice that)
    (r,) = prove(DUEL, only={"plantings-counted-T1"})
    assert r.status == "vacuous" and r.counterexample == "never reached: a fourth planting"
    (r,) = prove(DUEL, only={"plantings-counted-T1"}, vacuity=False)
    assert r.status == "proved"


def test_strict_reading_proof_fails_on_the_lenient_rule():
    # the lenient spec allows harvesting a single while the others hold one or none: not strict
    cfg = [("rio-grande", 4, {"harvest": "strict"})]
    (r,) = prove(cfg, mutant="harvest-protected-single", only={"single-bean-harvest-H4-strict"},
                 stop_at_first=True)
    assert r.status == "refuted"


def test_bounded_model_check_finds_a_third_planting_when_allowed():
    # on the clean spec it proves two-plantings-per-turn-T1: tests/test_proofs.py, in its proof run
    assert bmc_two_plantings("third-planting").status == "refuted"


def test_ghost_lemma_fails_for_a_wrong_tally_formula(monkeypatch):
    assert ghost.prove_lemma("push_back", 5).status == "proved"

    def push_back_twice(self, x):  # counts the pushed card twice
        slots = tuple(engine_ite(self.n == i, x, s) for i, s in enumerate(self.slots))
        return self._next("push_back", slots, self.n + 1, lambda b: 2 * count_if([x == b]), True)

    from proofs.symbolic import ite as engine_ite

    monkeypatch.setattr(Seq, "push_back", push_back_twice)
    assert ghost.prove_lemma("push_back", 5).status == "refuted"


def test_catalog_has_at_least_twelve_mutants_with_rule_ids():
    assert len(MUTANTS) >= 12
    assert all(m.rule and m.what for m in MUTANTS.values())
    assert sum(m.spec for m in MUTANTS.values()) >= 12


def test_activate_replaces_and_restores_the_steps():
    before = dataclasses.replace(STEPS)
    s = model.new_game("rio-grande", 3, seed=0)  # no coins yet: a tie that p0's longer hand breaks (E4)
    tie = s._replace(players=(s.players[0]._replace(hand=s.players[0].hand + (0,)),) + s.players[1:])
    with activate("mix-types"):
        assert STEPS.fits(model.Field(1, 3), 2)
    with activate("wrong-tie-break"):
        assert STEPS.winners is not before.winners and model.winners(tie) == (0, 1, 2)
    assert STEPS == before and model.winners(tie) == (0,)
    with pytest.raises(KeyError, match="unknown mutant"):
        with activate("no-such-mutant"):
            pass


@pytest.mark.parametrize("mutant", ["harvest-protected-single", "plant-from-back", "mix-types",
                                    "third-planting", "retrade-received", "draw-to-front"])
def test_engine_mutant_is_caught_by_the_engine_vs_spec_check(mutant):
    v = judge(MUTANTS[mutant], sample(40), proofs=False)
    assert v.status == "caught"
    assert "engine-vs-spec" in v.caught_by
    assert "engine-vs-spec (spec side)" in v.caught_by


def test_each_mutant_names_spec_transitions_to_prove_first():
    names = {t.name for t in Spec(invariants.spec_config("rio-grande", 4, {"reshuffle": "on-demand"}))
             .transitions()}
    assert all(set(m.steps) <= names and bool(m.steps) == m.spec for m in MUTANTS.values())


def test_E1_E3_mutants_are_caught_at_the_exhaustions_and_ends_where_the_clean_engine_agrees():
    at_end = ends()
    assert at_end and not any(check_state(s, random.Random(i)) for i, s in enumerate(at_end))
    for mid in ("skip-final-harvest", "reshuffle-forever", "on-demand-at-last-card"):
        v = judge(MUTANTS[mid], [], proofs=False, at_end=at_end)
        assert v.caught_by[-1] == "engine-vs-spec at exhaustions and ends", (mid, v.caught_by)


def test_test_suite_catches_the_wrong_tie_break_through_the_conftest_hook():
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
           "tests/test_rules_E.py", "-k", "E4"]
    clean = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                           env={**os.environ, "BOHNANZA_MUTANT": ""})
    assert clean.returncode == 0, clean.stdout[-500:]
    broken = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, "BOHNANZA_MUTANT": "wrong-tie-break"})
    assert broken.returncode == 1
    assert "FAILED tests/test_rules_E.py::test_E4" in broken.stdout


def test_prove_rules_rejects_an_unknown_ruleset_in_one_line():
    run = subprocess.run([sys.executable, "scripts/prove_rules.py", "--ruleset", "nope"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "unknown preset 'nope'" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One seeded game record, made once for the tests below (each only reads it)."""
    out = tmp_path_factory.mktemp("record") / "games"
    subprocess.run([sys.executable, "scripts/simulate.py", "--players", "3", "--games", "1", "--seed", "4",
                    "--bots", "random-trader", "--record", str(out)], cwd=ROOT, check=True,
                   capture_output=True)
    (path,) = sorted(out.glob("*.jsonl"))
    return path


def _check_record_module():
    from builders import load_script

    return load_script("check_record")


def _z3(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "scripts/check_record.py", "--z3", *map(str, paths)], cwd=ROOT,
                          capture_output=True, text=True)


def test_z3_referee_agrees_on_a_legal_record(record):
    run = _z3(record)
    assert run.returncode == 0, run.stderr
    assert "legal" in run.stdout and "(the spec agrees)" in run.stdout


def test_z3_referee_names_the_same_first_illegal_line(record, tmp_path):
    lines = record.read_text().splitlines()
    # line 3 of the file (the second action) becomes a plant by a seat that is not to move
    lines[2] = json.dumps({"action": "p2 plant 0"})
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    run = _z3(bad)
    assert run.returncode == 1
    assert run.stderr.startswith(f"{bad}:3: illegal p2 plant 0:")
    assert "(the spec agrees)" in run.stderr


def test_z3_referee_reports_a_disagreement_with_a_broken_engine(record):
    path = record
    check = _check_record_module().check
    assert check(str(path), True)[0] == 0
    with activate("beanometer-off-by-one"):  # the engine's replay pays other coins
        code, line, info = check(str(path), True)
    assert code == 3
    assert "the referees disagree" in line and info["agree"] is False
    assert info["z3"]["status"] == "legal"  # type: ignore[index]


def test_a_disagreement_is_minimized_to_a_small_state_that_still_disagrees():
    from proofs.differential import check_state, minimize

    states = sample(30)  # drawn with the clean engine
    with activate("plant-from-back"):
        problems = next(p for s in states if (p := check_state(s)))
        small = minimize(problems[0])
        assert check_state(small.state)  # still a disagreement
    cards = lambda s: len(s.draw) + len(s.discard) + sum(len(p.hand) + len(p.coins) for p in s.players)  # noqa: E731
    assert cards(small.state) < cards(problems[0].state)
    assert small.action == problems[0].action
    assert "action: p" in str(small) and "hand" in str(small)


def test_a_test_suite_that_cannot_run_is_an_error_not_a_catch():
    import dataclasses

    from proofs.mutants import _tests

    broken = dataclasses.replace(MUTANTS["wrong-tie-break"], tests=("tests/no_such_file.py",))
    with pytest.raises(RuntimeError, match="did not run"):
        _tests(broken)
    assert _tests(MUTANTS["wrong-tie-break"]).startswith("tests/test_rules_E.py::test_E4")


@pytest.mark.rule("H5")
def test_the_split_mutant_breaks_a_cargo_sale_too():
    """I6 sells cargo by the same H5 split as a harvest (``STEPS.cash_in``): one mutant reaches both."""
    from model import Sell, apply, legal_actions, new_game, ruleset
    from play.bots import greedy_bot
    from play.playout import playout

    s0 = new_game(ruleset("rio-grande", {"isla": True}), 4, seed=3)
    sales = []
    for s, _ in playout(s0, greedy_bot, random.Random(3)):
        for a in legal_actions(s, proposals=False):
            if isinstance(a, Sell):
                ship = isla_of(s).fleets[a.player].ship(a.ship)
                k = s.setup.payout[ship.bean][ship.count]
                if 0 < k < ship.count and 2 * k != ship.count:  # coins and discards, unequal shares
                    sales.append((s, a))
        if len(sales) >= 3:
            break
    assert sales, "no cargo sale with coins and discards in the sample game"
    for s, a in sales:
        clean = apply(s, a)
        with activate("split-swapped"):
            broken = apply(s, a)
        assert len(broken.players[a.player].coins) != len(clean.players[a.player].coins)
        assert len(broken.discard) != len(clean.discard)
