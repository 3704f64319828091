"""proofs.runner.merge: the verdicts of a run split by configuration (prove_rules.py --jobs) are
those of the one run: the first refuting case names the counterexample, a situation or a
transition reached in any case counts as reached, and what no case reached is reported."""

from __future__ import annotations

from proofs.runner import Part, Result, merge


def _part(status: str, witnessed: dict[str, bool], fired: dict[str, bool], why: str = "") -> Part:
    spent = Result("transitions-satisfiable", "sat check", "proved", seconds=1.0, rlimit=5)
    found = Result("p", "induction", status, seconds=2.0, per_kind={"plant": 2.0}, counterexample=why,
                   witnessed=dict(witnessed), rlimit=7)
    return Part([found, spent], dict(fired))


def test_a_situation_or_transition_reached_in_any_case_counts_and_times_add_up() -> None:
    parts = [_part("proved", {"a field gains a card": False}, {"plant": False, "draw": True}),
             _part("proved", {"a field gains a card": True}, {"plant": True})]
    out = {r.id: r for r in merge(parts, None)}
    assert out["p"].status == "proved" and out["p"].witnessed == {"a field gains a card": True}
    assert out["p"].seconds == 4.0 and out["p"].per_kind == {"plant": 4.0}
    assert out["transitions-satisfiable"].status == "proved"
    assert out["transitions-satisfiable"].seconds == 2.0


def test_what_no_case_reached_is_vacuous_or_unsatisfiable() -> None:
    parts = [_part("proved", {"a second planting": False}, {"plant-up": False}),
             _part("proved", {"a second planting": False}, {})]
    out = {r.id: r for r in merge(parts, None, premise_rule="T1")}
    assert out["p"].status == "vacuous" and "a second planting" in out["p"].counterexample
    assert out["transitions-satisfiable"].status == "refuted"
    assert out["transitions-satisfiable"].counterexample == "never satisfiable: plant-up"


def test_the_first_refuting_case_names_the_counterexample_and_stops_a_first_refutation_run() -> None:
    parts = [_part("proved", {}, {}), _part("refuted", {}, {}, "case 2"), _part("refuted", {}, {}, "case 3")]
    (r,) = [x for x in merge(parts, None) if x.id == "p"]
    assert r.status == "refuted" and r.counterexample == "case 2"
    first = merge(parts, None, stop_at_first=True)
    assert [x.id for x in first] == ["p"]  # as the one run: it returns at the refuting instance
    assert first[0].seconds == 4.0  # the third case is not counted
