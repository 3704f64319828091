"""The study runner (studies/): the same results whatever the executor, resume, failures
recorded, seeds independent of scheduling and batching, and one-line errors for bad study files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from studies import executors
from studies.executors import Chunk, Inline, Outcome, Pool, execute
from studies.runner import run_study
from studies.spec import StudyError, load, parse
from studies.store import JOURNAL, RESULTS, read_results
from studies.tasks import derive, expand

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "study.py"

TINY = """
name = "tiny"
seed = 7

[[simulations]]
name = "seats"
rulesets = ["rio-grande", "amigo"]
players = [3, 4]
games = 12
batch = {batch}

[[endgames]]
name = "info"
rulesets = ["rio-grande"]
players = [3]
cards_left = [3]
positions = 2
objectives = ["solo", "expected"]
"""


def tiny(batch: int = 6) -> Any:
    return parse(TINY.format(batch=batch), "tiny.toml")


def results_text(out: Path) -> str:
    return (out / RESULTS).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def inline_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("inline")
    s = run_study(tiny(), out, Inline())
    assert s.complete and s.failed == 0 and s.ran == 10
    return out


def test_results_hold_every_task_in_order(inline_run: Path) -> None:
    head, rows = read_results(inline_run)
    keys = [t.key for t in expand(tiny())]
    assert head["tasks"] == head["finished"] == len(keys) == 10 and head["failed"] == 0
    assert [r["key"] for r in rows] == keys
    games = [g for r in rows if r["kind"] == "simulation" for g in r["result"]["games"]]
    assert len(games) == 4 * 12
    for r in rows:
        if r["kind"] == "simulation":
            for g in r["result"]["games"]:
                assert len(g["coins"]) == r["params"]["players"] and g["winners"]
        else:
            res = r["result"]
            assert len(res["solo"]) == 3 and all(x["status"] == "optimal" for x in res["solo"])
            assert res["expected"]["status"] == "optimal"
    assert "seconds" not in results_text(inline_run)  # timings stay in the journal


def test_a_pool_of_two_gives_byte_identical_results(inline_run: Path, tmp_path: Path) -> None:
    s = run_study(tiny(), tmp_path, Pool(2), chunk=2)
    assert s.complete and s.ran == 10 and s.executor == "pool"
    assert results_text(tmp_path) == results_text(inline_run)
    workers = {json.loads(line)["worker"] for line in (tmp_path / JOURNAL).read_text().splitlines()}
    assert os.getpid() not in workers  # the tasks really ran in the pool's processes


def test_local_ray_gives_byte_identical_results(inline_run: Path, tmp_path: Path) -> None:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        ex = executors.Ray("auto")
        assert ex.local and ex.workers == 2
        s = run_study(tiny(), tmp_path, ex, chunk=3)
        ex.close()  # started outside: left running
        assert ray.is_initialized()
    finally:
        ray.shutdown()
    assert s.complete and s.ran == 10 and s.executor == "ray"
    assert results_text(tmp_path) == results_text(inline_run)


def test_batching_does_not_change_the_games(inline_run: Path, tmp_path: Path) -> None:
    run_study(tiny(batch=5), tmp_path, Inline())
    def games(out: Path) -> list[Any]:
        return [g for r in read_results(out)[1] if r["kind"] == "simulation" for g in r["result"]["games"]]
    assert games(tmp_path) == games(inline_run)
    assert len(expand(tiny(batch=5))) != len(expand(tiny()))


def test_seeds_derive_from_the_key_alone() -> None:
    t = {x.key: x for x in expand(tiny())}
    key = "end/info/rio-grande/3p/3cards/pos1"
    assert t[key].seed == derive(7, key)
    assert derive(7, key) != derive(8, key) and derive(7, key) != derive(7, key[:-1] + "0")
    assert 0 <= derive(7, key) < 2**48


class Stop(Exception):
    pass


def test_an_interrupted_study_resumes_to_the_same_results(inline_run: Path, tmp_path: Path) -> None:
    seen: list[str] = []

    def stop_after_four(o: dict[str, Any]) -> None:
        seen.append(o["key"])
        if len(seen) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_study(tiny(), tmp_path, Inline(), on_outcome=stop_after_four)
    head, rows = read_results(tmp_path)  # the results so far were written at the interrupt
    assert head["finished"] == 4 and len(rows) == 4
    with open(tmp_path / JOURNAL, "a") as f:  # a kill in the middle of a line: ignored, rerun
        f.write('{"key": "sim/seats/amigo/4p/greedy,greedy,greedy,greedy/g6-11", "sta')
    s = run_study(tiny(), tmp_path, Pool(2))
    assert s.skipped == 4 and s.ran == 6 and s.complete
    assert results_text(tmp_path) == results_text(inline_run)
    again = run_study(tiny(), tmp_path, Inline())
    assert again.ran == 0 and again.skipped == 10


def _fail_one(real: Any, bad: str, how: str) -> Any:
    def run(params: dict[str, Any], *rest: Any) -> Any:
        if params["group"] in bad and 6 in params["games"]:
            if how == "die":
                os._exit(3)
            raise RuntimeError("planted failure\nover two lines")
        return real(params, *rest)
    return run


@pytest.mark.parametrize("how", ["raise", "die"])
def test_a_failing_task_is_recorded_and_the_study_goes_on(how: str, inline_run: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from studies import simulations

    bad = "sim/seats/amigo/3p/greedy,greedy,greedy"
    monkeypatch.setattr(simulations, "run_simulation", _fail_one(simulations.run_simulation, bad, how))
    s = run_study(tiny(), tmp_path, Pool(2) if how == "die" else Inline())  # forked workers see the patch
    assert s.complete and s.ran == 10 and s.failed == 1
    head, rows = read_results(tmp_path)
    failed = [r for r in rows if r["status"] == "failed"]
    assert [r["key"] for r in failed] == [f"{bad}/g6-11"] and head["failed"] == 1
    want = "RuntimeError: planted failure over two lines" if how == "raise" else executors.DIED
    assert failed[0]["error"] == want
    ok = {r["key"]: r for r in read_results(inline_run)[1]}
    assert all(r == ok[r["key"]] for r in rows if r["status"] == "ok")  # the rest as without the failure
    monkeypatch.undo()
    fixed = run_study(tiny(), tmp_path, Inline(), retry_failed=True)
    assert fixed.ran == 1 and fixed.failed == 0
    assert results_text(tmp_path) == results_text(inline_run)


def test_an_unknown_task_kind_fails_as_an_outcome() -> None:
    o = execute({"key": "x", "kind": "mystery", "seed": 1, "params": {}})
    assert o["status"] == "failed" and o["error"] == "ValueError: unknown task kind 'mystery'"


def test_another_study_in_the_same_directory_is_refused(inline_run: Path, tmp_path: Path) -> None:
    run_study(tiny(), tmp_path, Inline(), max_tasks=2)
    other = parse(TINY.format(batch=6).replace("seed = 7", "seed = 8"), "other.toml")
    with pytest.raises(StudyError, match=r"holds the results of another study .*--force"):
        run_study(other, tmp_path, Inline())
    s = run_study(other, tmp_path, Inline(), max_tasks=1, force=True)
    assert s.skipped == 0 and s.ran == 1


def test_the_run_sums_cpu_seconds_apart_from_the_wall_clock(tmp_path: Path) -> None:
    """On a shared machine a task's wall clock counts the other jobs' time too: the summary keeps
    the tasks' CPU seconds by group (what ``project`` is given) apart from their wall seconds."""

    class Busy(Inline):  # every task took 10 s of wall clock and 1 s of CPU
        def run(self, chunks: Sequence[Chunk]) -> Iterator[list[Outcome]]:
            for outcomes in super().run(chunks):
                yield [o | {"seconds": 10.0, "cpu": 1.0} for o in outcomes]

    s = run_study(tiny(), tmp_path, Busy(), max_tasks=3)
    assert sum(s.task_seconds.values()) == 30.0 and sum(s.task_cpu.values()) == 3.0


def test_a_slice_spreads_over_the_groups() -> None:
    from studies.runner import group_of, sliced

    tasks = expand(tiny())
    assert {group_of(t.key) for t in sliced(tasks, 5)} == {group_of(t.key) for t in tasks}


def test_the_builtin_studies_load_and_expand() -> None:
    small, paper = load("small"), load("paper")
    assert len(expand(small)) < len(expand(paper))
    kinds = {t.kind for t in expand(small)}
    assert kinds == {"simulation", "endgame"}
    objectives = {o for e in small.endgames for o in e.objectives}
    assert objectives == {"solo", "coop", "best", "expected"}  # every table of the report


def test_the_medium_study_solves_real_hands_under_a_work_limit() -> None:
    """medium: real hands (no cut), 3-5 players, both editions, at least 20 positions a group, and
    every coop and best answer under a work limit, so a pool and Ray give the same file."""
    medium = load("medium")
    tasks = [t for t in expand(medium) if t.kind == "endgame"]
    trading = [t for t in tasks if "coop" in t.params["objectives"]]
    assert trading and all(t.params["hand"] is None and t.params["draw"] is None for t in tasks)
    assert all(t.params["work_limit"] for t in trading)
    assert {t.params["players"] for t in tasks} == {3, 4, 5}
    assert {t.params["ruleset"] for t in tasks} == {"rio-grande", "amigo"}
    groups = Counter(t.params["group"] for t in tasks)
    assert min(groups.values()) >= 20 and len({t.params["cards_left"] for t in trading}) >= 3
    assert len(expand(load("small"))) < len(expand(medium)) < len(expand(load("paper")))


BAD = [
    ("colour = 1\n", "x.toml: colour: unknown key"),
    ("[[simulations]]\nname='s'\nrulesets=['rio-grande']\nplayers=[8]\ngames=1\n",
     "x.toml: simulations[0].players[0]: expected a whole number <= 7, got 8"),
    ("[[simulations]]\nname='s'\nrulesets=['rio-grande']\nplayers=[4]\n",
     "x.toml: simulations[0].games: missing"),
    ("[[simulations]]\nname='s'\nrulesets=['rio-grande']\nplayers=[4]\ngames=0\n",
     "x.toml: simulations[0].games: expected a whole number >= 1, got 0"),
    ("[[simulations]]\nname='s'\nrulesets=['rio']\nplayers=[4]\ngames=1\n",
     "x.toml: simulations[0].rulesets[0]: unknown ruleset 'rio'; rulesets are"),
    ("[[simulations]]\nname='s'\nrulesets=['amigo']\nplayers=[3]\ngames=1\nbots=['greedy,random']\n",
     "x.toml: simulations[0].bots[0]: 'greedy,random' names 2 bots for the 3 players of players[0]"),
    ("[[simulations]]\nname='s'\nrulesets=['amigo']\nplayers=[3]\ngames=1\nbots=['clever']\n",
     "x.toml: simulations[0].bots[0]: unknown bot 'clever'; bots are"),
    ("[[simulations]]\nname='s'\nrulesets=['amigo']\nplayers=[3]\ngames=1\noptions={colour='red'}\n",
     "x.toml: simulations[0].options: unknown option 'colour'; options are"),
    ("[[endgames]]\nname='e'\nrulesets=['rio-grande']\nplayers=[2]\ncards_left=[3]\npositions=1\n",
     "x.toml: endgames[0].players[0]: the bean duel has no trading (D1)"),
    ("[[endgames]]\nname='e'\nrulesets=['amigo']\nplayers=[3]\ncards_left=[3]\npositions=1\n"
     "objectives=['expected']\nmethod='cpsat'\n", "x.toml: endgames[0].objectives: expected is solved by"),
    ("[[endgames]]\nname='e'\nrulesets=['amigo']\nplayers=[3]\ncards_left=[3]\npositions=1\n"
     "objectives=['solo','psychic']\n", "x.toml: endgames[0].objectives[1]: expected \"solo\", \"coop\""),
    ("[[endgames]]\nname='e'\nrulesets=['amigo']\nplayers=[3]\ncards_left=[3]\npositions=1\n"
     "[[endgames]]\nname='e'\nrulesets=['amigo']\nplayers=[4]\ncards_left=[3]\npositions=1\n",
     "x.toml: endgames[1].name: 'e' is used twice"),
    ("", "x.toml: the study has no simulations and no endgames"),
    ("[[simulations]\n", "x.toml: not TOML: "),
    ("name = 'Big Study'\n[[endgames]]\n", "x.toml: name: \"Big Study\" is not"),
]


@pytest.mark.parametrize(("body", "message"), BAD)
def test_bad_study_files_are_one_line_errors_naming_the_key(body: str, message: str) -> None:
    text = body if body.startswith("name") else "name = 'x'\n" + body
    with pytest.raises(StudyError) as e:
        parse(text, "x.toml")
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def run_script(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=cwd, text=True, capture_output=True,
                          timeout=300)


def test_the_script_refuses_a_bad_study_file_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 'bad'\n[[simulations]]\nname='s'\nrulesets=['amigo']\nplayers=[9]\ngames=1\n")
    r = run_script("run", str(bad), "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"study.py: {bad}: simulations[0].players[0]: expected a whole number <= 7, "
                        "got 9\n")
    for args, message in [(["run"], "give a study file or --builtin NAME"),
                          (["run", "--builtin", "huge"],
                           "--builtin huge: the built-in studies are small, medium, paper"),
                          (["run", str(tmp_path / "none.toml")], "no such study file"),
                          (["report", str(tmp_path / "none")], "no such study directory or results file")]:
        r = run_script(*args)
        assert r.returncode == 2 and message in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_the_script_runs_lists_and_resumes(tmp_path: Path) -> None:
    study = tmp_path / "tiny.toml"
    study.write_text(TINY.format(batch=6))
    listed = json.loads(run_script("tasks", str(study), "--json").stdout)
    assert listed["tasks"] == 10 and listed["keys"] == [t.key for t in expand(tiny())]
    r = run_script("run", str(study), "--out", str(tmp_path / "o"), "--workers", "2", "--max-tasks", "3",
                   "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["ran"] == 3 and out["study_tasks"] == 10 and out["projection"]["groups"] == 5
    # each task's CPU seconds (its worker's own) are in the journal and summed by group
    cpu, wall = out["task_cpu_seconds"], out["task_seconds"]
    assert cpu.keys() == wall.keys() and all(v > 0 for v in cpu.values())
    journal = [json.loads(x) for x in (tmp_path / "o" / "journal.jsonl").read_text().splitlines()]
    assert all(o["cpu"] > 0 and o["seconds"] > 0 for o in journal)
    assert "wall_hours" in out["projection"]
    r = run_script("run", str(study), "--out", str(tmp_path / "o"), "--workers", "1")
    assert r.returncode == 0, r.stderr
    assert "10 tasks (3 finished before, 7 run now in this process)" in r.stdout


def test_a_slice_projects_the_whole_study() -> None:
    """Worked by hand: the tiny study's 10 tasks are rio 3p, rio 4p, amigo 3p, amigo 4p (2 tasks
    each) and 2 endgames. A slice of 2 runs tasks 0 and 5 (rio 3p, amigo 3p): 1 s and 3 s. The
    other two simulation groups take the simulations' mean, 2 s; the endgames, measured nowhere in
    their entry, the mean of all, 2 s: 2*1 + 2*2 + 2*3 + 2*2 + 2*2 = 20 s."""
    from studies.runner import project

    sim = "sim/seats/{}/greedy," + "greedy,greedy"
    seconds = {sim.format("rio-grande/3p"): 1.0, sim.format("amigo/3p"): 3.0}
    p = project(tiny(), seconds, 2)
    assert p["cpu_seconds"] == 20.0 and p["groups_measured"] == 2 and p["groups"] == 5


def test_a_work_limit_reaches_the_flow_solver_and_reproduces(monkeypatch: pytest.MonkeyPatch) -> None:
    """``work_limit`` goes into the endgame tasks (and only when given: older studies keep their
    tasks) and into the flow solver's limits, so the same task gives the same answer twice."""
    from studies import endgames
    from studies.endgames import run_endgame

    seen: list[float | None] = []
    real = endgames.solve

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(args[4].work)
        return real(*args, **kwargs)

    monkeypatch.setattr(endgames, "solve", spy)

    text = TINY.format(batch=6).replace('objectives = ["solo", "expected"]',
                                        'objectives = ["coop", "best"]\nmethod = "cpsat"\nwork_limit = 0.5')
    tasks = [t for t in expand(parse(text, "w.toml")) if t.kind == "endgame"]
    assert tasks and all(t.params["work_limit"] == 0.5 for t in tasks)
    assert all("work_limit" not in t.params for t in expand(tiny()) if t.kind == "endgame")
    first, again = (run_endgame(tasks[0].params, tasks[0].seed) for _ in range(2))
    assert first == again
    assert {first["coop"]["status"], first["best"]["status"]} <= {"optimal", "feasible"}
    assert seen and set(seen) == {0.5}
    # every seat's coins after each line, which the report checks (studies/rows.py)
    assert sum(first["coop"]["coins"]) == first["coop"]["value"]
    assert first["best"]["coins"][first["active"]] == first["best"]["value"]
