"""Hypothesis profiles and the order of the files for the whole test suite.

- ``ci``: deterministic (``derandomize=True``, no example database), few examples: the suite runs
  on every commit (``.ci/run`` sets ``CI``).
- ``dev``: the default on a workstation; random examples, still few enough to run on every commit.
- ``long``: many examples, for manual sweeps:
  ``HYPOTHESIS_PROFILE=long python -m pytest tests/test_state_machine.py tests/test_roundtrips.py``.

``HYPOTHESIS_PROFILE`` overrides the choice; otherwise ``ci`` when ``CI`` is set, else ``dev``.
Tests that size themselves (the state machine) read the loaded profile's ``max_examples`` at import
time, so they scale with the profile.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from console.cli import GC_THRESHOLDS

# Game steps take variable time (a trading phase lists thousands of proposals); no deadline, and
# the "too slow" health check would only flag the state machine's deliberate long games.
_COMMON = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)

# ci: no shrinking. A failing state-machine run replays hundreds of game steps per attempt, and
# shrinking one can take minutes; the unshrunk report (with its notes: ruleset, seed, steps) replays
# exactly under this profile, and the dev profile shrinks it.
settings.register_profile(
    "ci", _COMMON, derandomize=True, database=None, max_examples=25,
    phases=[Phase.explicit, Phase.reuse, Phase.generate])
settings.register_profile("dev", _COMMON, max_examples=25)
settings.register_profile("long", _COMMON, max_examples=1000)

# The mutant runner (proofs/mutants.py) runs tests with BOHNANZA_MUTANT=<id>: the engine is patched
# before any test module imports it, so the suite checks the broken rule.
if os.environ.get("BOHNANZA_MUTANT"):
    from proofs.mutants import activate

    _MUTANT = activate(os.environ["BOHNANZA_MUTANT"])  # kept: collecting it would undo the patch
    _MUTANT.__enter__()

_profile = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
settings.load_profile(_profile)

# The cyclic garbage collector less often, as in the scripts (console.cli.GC_THRESHOLDS): with the
# default thresholds (700, 10, 10) the collections of a worker that has run for minutes took about
# a sixth of a search test's CPU (tests/test_isla_open.py's reference sweep after the file's other
# tests: 12.0 s, 10.3 s with these, 9.8 s with no collector). It still runs; no test depends on when.
gc.set_threshold(*GC_THRESHOLDS)


# The longest files first, of either lane: ``--dist loadfile`` hands the files to the two workers
# in collection order (``pytest_configure``), and a long file handed out last keeps one worker busy
# after the other has finished. Seconds a file in the suite's --durations (2 workers on 2 cores
# shared with other jobs: about 3.5 times the idle figures, in the same ratio); the rest follow in
# collection order.
LONGEST_FIRST = ("test_engine_diff.py", "test_state_machine.py", "test_study.py", "test_openspiel.py",
                 "test_isla_exact.py", "test_flow.py", "test_open_exact.py", "test_engine_protocol.py",
                 "test_isla_positions.py", "test_proofs_mutants.py", "test_show.py", "test_open_cpsat.py",
                 "test_duel.py", "test_flow_bound.py", "test_sigint.py", "test_proofs.py",
                 "test_conformance.py", "test_proofs_reshuffle.py", "test_isla_mutants.py",
                 "test_isla_proofs.py", "test_docs.py", "test_isla_referee.py", "test_roundtrips.py",
                 "test_trade_graph.py", "test_proofs_second_half.py", "test_isla_cli.py",
                 "test_seat_plan.py", "test_cli_frame.py", "test_empty_hand.py", "test_solo_exact.py",
                 "test_referee.py", "test_expected.py", "test_viewer_browser.py", "test_schemas.py",
                 "test_reshuffle_readings.py")
# The slow lane (marker ``slow``): these files and the tests SLOW_TESTS names.
# ``pytest -m "not slow"`` is the fast lane for iterating; the whole suite (CI) runs both.
SLOW_FILES = ("test_proofs.py", "test_proofs_second_half.py", "test_isla_proofs.py",
              "test_isla_mutants.py", "test_engine_diff.py", "test_flow.py", "test_conformance.py",
              "test_openspiel.py", "test_proofs_mutants.py", "test_state_machine.py", "test_roundtrips.py",
              "test_open_cpsat.py", "test_seat_plan.py", "test_proofs_reshuffle.py", "test_study.py",
              "test_sigint.py", "test_trade_graph.py", "test_duel.py", "test_open_exact.py",
              "test_seat_dp.py", "test_seat_batch.py", "test_empty_hand.py", "test_expected.py",
              "test_show.py", "test_reshuffle_readings.py", "test_spec_differential.py",
              "test_flow_bound.py", "test_master_mip.py", "test_isla_cli.py", "test_engine_protocol.py",
              "test_viewer_browser.py")
# Single tests of fast-lane files that took 3 s or more (most start the command-line tools in a
# subprocess, or run a solver): slow lane too, by name (every parametrization) or by test id.
SLOW_TESTS = {
    "test_docs.py": ("test_every_command_the_readme_shows_prints_what_it_shows",
                     "test_the_guide_s_worked_example_gives_the_verdicts_it_shows",
                     "test_every_python_example_prints_what_the_page_shows",
                     "test_every_cited_rule_id_is_explained_in_docs_rules_md"),
    "test_schemas.py": ("test_the_endgame_solver_refuses_hostile_files_in_one_line",
                        "test_the_published_files_accept_the_suite_and_refuse_a_bad_flag"),
    "test_cli_frame.py": ("test_require_proved_exits_1_when_a_limit_stops_the_solve_unproved",
                          "test_make_conformance_refuses_before_building"),
    "test_isla_open.py": ("test_the_search_agrees_with_a_reference_without_deal_order_or_bound",),
    "test_isla_cpsat.py": ("test_a_turn_of_P_s_is_never_valued_above_exact_search",
                           "test_I4_I5_the_caps_fall_short_where_the_sound_bound_is_exact"),
    "test_isla_exact.py": ("test_the_bound_is_above_the_optimum_and_keeps_it_on_seeded_positions",
                           "test_the_key_agrees_with_the_whole_state_on_seeded_positions"),
    "test_isla_referee.py": ("test_hand_made_illegal_lines_are_named_by_both",
                             "test_check_record_z3_on_the_conformance_isla_records",
                             "test_a_ruleset_the_spec_does_not_model_is_refused_in_one_line"),
    "test_solo_exact.py": ("test_solo_table_search_equals_brute_force[rio-grande-5-3-5]",),
    "test_referee.py": ("test_a_search_cut_by_the_time_limit_is_undecided_exit_4",),
    "test_tools_doc.py": ("test_every_short_command_of_docs_tools_md_runs_and_writes_its_files",),
}


# Per-test CPU, to measure the suite (docs/performance.md): with BOHNANZA_TEST_CPU=DIR each process
# (each xdist worker) writes DIR/cpu-<worker>.json, a list of [test id, CPU seconds of the process
# and of the children it reaped, wall seconds], setup and teardown included.
_CPU_DIR = os.environ.get("BOHNANZA_TEST_CPU")
_cpu_rows: list[tuple[str, float, float]] = []


def _cpu_seconds() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    cpu, wall = _cpu_seconds(), time.perf_counter()
    yield
    if _CPU_DIR:
        _cpu_rows.append((item.nodeid, _cpu_seconds() - cpu, time.perf_counter() - wall))


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _CPU_DIR and _cpu_rows:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        (Path(_CPU_DIR) / f"cpu-{worker}.json").write_text(json.dumps(_cpu_rows), encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    """pytest-xdist (3.6 and later) hands ``--dist loadfile``'s files out by their number of tests,
    most first, unless ``--no-loadscope-reorder``: the proof files, with few tests and the longest
    fixtures, went last and kept one worker busy for a minute and more after the other had finished.
    The order is LONGEST_FIRST's (``pytest_collection_modifyitems``)."""
    if getattr(config.option, "loadscopereorder", None):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    slow = set(SLOW_FILES)
    for item in items:
        named = SLOW_TESTS.get(item.path.name, ())
        if item.path.name in slow or item.name in named or getattr(item, "originalname", "") in named:
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: a file keeps its order
