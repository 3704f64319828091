"""Run a study (many seeded games and endgame solves) and turn its results into tables and figures.

  run STUDY|--builtin NAME   expand the study (a .toml or .json file, docs/studies.md) into seeded
                             tasks and run them: in this process (--workers 1), on a local process
                             pool (default: one worker per core), or on Ray (--ray auto: a local
                             instance, or the cluster RAY_ADDRESS names; --ray ADDRESS: that cluster).
                             Each finished task is appended to OUT/journal.jsonl at once; rerunning
                             skips finished tasks (resume after Ctrl-C); OUT/results.jsonl holds the
                             results in task order, byte-identical whatever the executor.
  report RESULTS             tables (Markdown, CSV) and PNG figures from OUT or OUT/results.jsonl,
                             into RESULTS/report (or --out DIR).
  tasks STUDY|--builtin NAME the task list, without running it.

Examples:
  python scripts/study.py run --builtin small
  python scripts/study.py run --builtin small --ray auto --out out/study-small
  python scripts/study.py report out/study-small
  python scripts/study.py run --builtin paper --max-tasks 40 --json   # a slice, with a projection
  python scripts/study.py tasks my-study.toml --json

Exit 0 when every task finished (failed tasks are recorded, and listed: exit 0 all the same), 2 for
a bad study file or command line, 130 on Ctrl-C (the results so far are kept).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from console import cli
from model.errors import UsageError


def _study_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("study", nargs="?", metavar="STUDY", help="a study file (.toml or .json)")
    p.add_argument("--builtin", metavar="NAME", help="a built-in study: small, medium, paper")


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="run|report|tasks")
    run = sub.add_parser("run", help="run a study", formatter_class=cli.HelpFormatter)
    _study_args(run)
    run.add_argument("--out", metavar="DIR", help="the study's directory (default: out/study-NAME)")
    run.add_argument("--workers", type=cli.at_least(1, "--workers"), default=None,
                     help="processes (1: in this process; default: one per core; with --ray: the CPUs "
                          "of a local Ray instance)")
    run.add_argument("--ray", nargs="?", const="auto", default=None, metavar="ADDRESS",
                     help="run on Ray: auto (a local instance, or RAY_ADDRESS) or a cluster's address")
    run.add_argument("--chunk", type=cli.at_least(1, "--chunk"), default=1,
                     help="tasks sent to a worker at a time (batching small tasks)")
    run.add_argument("--max-tasks", type=cli.at_least(1, "--max-tasks"), default=None,
                     help="run only this many tasks, spread over the study (a slice), and project the rest")
    run.add_argument("--retry-failed", action="store_true",
                     help="run the failed tasks of an earlier run again")
    run.add_argument("--json", action="store_true", help="print one JSON summary, no progress bar")
    rep = sub.add_parser("report", help="tables and figures of a study's results",
                         formatter_class=cli.HelpFormatter)
    rep.add_argument("results", metavar="RESULTS", help="a study directory or its results.jsonl")
    rep.add_argument("--out", metavar="DIR", help="where the tables and figures go (default: RESULTS/report)")
    rep.add_argument("--no-figures", action="store_true", help="tables only (no matplotlib needed)")
    rep.add_argument("--json", action="store_true", help="print the tables as one JSON object")
    tasks = sub.add_parser("tasks", help="list a study's tasks", formatter_class=cli.HelpFormatter)
    _study_args(tasks)
    tasks.add_argument("--json", action="store_true", help="print one JSON object")
    for p in (run, rep, tasks):  # the frame's options after the command, too
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        p.add_argument("--progress", action="store_true", help="show progress even off a terminal")
        p.add_argument("--force", action="store_true", help="start the study over / overwrite the report")
    args = parser.parse_args(argv)
    return cli.run("study.py", args, lambda frame: _main(frame, args))


def _main(frame: cli.Frame, args: argparse.Namespace) -> int:
    if args.command == "report":
        return _report(args)
    study = _load(args)
    if args.command == "tasks":
        return _tasks(study, args)
    return _run(frame, study, args)


def _load(args: argparse.Namespace) -> Any:
    from studies.spec import BUILTIN, load

    if (args.study is None) == (args.builtin is None):
        raise UsageError("give a study file or --builtin NAME (one of them)")
    if args.builtin is not None and args.builtin not in BUILTIN:
        raise UsageError(f"--builtin {args.builtin}: the built-in studies are {', '.join(BUILTIN)}")
    if args.study is not None and not Path(args.study).exists():
        raise UsageError(f"{args.study}: no such study file")
    return load(args.builtin or args.study)


def _tasks(study: Any, args: argparse.Namespace) -> int:
    from studies.runner import group_of
    from studies.tasks import expand

    tasks = expand(study)
    groups: dict[str, int] = {}
    for t in tasks:
        groups[group_of(t.key)] = groups.get(group_of(t.key), 0) + 1
    if args.json:
        print(json.dumps({"study": study.name, "digest": study.digest(), "tasks": len(tasks),
                          "groups": groups, "keys": [t.key for t in tasks]}, separators=(",", ":")))
        return 0
    print(f"study {study.name} (digest {study.digest()}, seed {study.seed}): {len(tasks)} tasks in "
          f"{len(groups)} groups")
    for g, n in groups.items():
        print(f"  {g}: {n}")
    return 0


def _run(frame: cli.Frame, study: Any, args: argparse.Namespace) -> int:
    from studies.executors import executor
    from studies.runner import project, run_study
    from studies.tasks import expand

    out = args.out or f"out/study-{study.name}"
    cli.output_dir(out, True)  # writable; an existing study directory is resumed, not refused
    ex = executor(args.workers, args.ray)
    bar = frame.progress(f"study {study.name}", unit="tasks")
    frame.kept = f"the finished tasks are in {out}/journal.jsonl; run again to resume"
    try:
        s = run_study(study, out, ex, chunk=args.chunk, max_tasks=args.max_tasks,
                      retry_failed=args.retry_failed, force=args.force, progress=bar)
    finally:
        ex.close()
    frame.close()
    total = len(expand(study))
    projection = None
    if s.tasks < total:  # in CPU seconds; the tasks' wall clock beside it (more on a busy machine)
        projection = project(study, s.task_cpu, s.tasks)
        projection["wall_hours"] = project(study, s.task_seconds, s.tasks)["cpu_hours"]
    if args.json:
        out_json = s.to_json() | {"study_tasks": total}
        if projection is not None:
            out_json["projection"] = projection
        print(json.dumps(out_json, separators=(",", ":")))
        return 0
    where = "in this process" if s.executor == "in-process" else f"on {s.executor}, {s.workers} workers"
    print(f"study {s.study}: {s.tasks} tasks ({s.skipped} finished before, "
          f"{s.ran} run now {where}) in {s.seconds:.1f} s; {s.failed} failed")
    for line in s.errors[:10]:
        print(f"  failed: {line}")
    if len(s.errors) > 10:
        print(f"  ... and {len(s.errors) - 10} more (see {s.results})")
    if projection is not None:
        print(f"slice of {s.tasks} of {total} tasks: the whole study would take about "
              f"{projection['cpu_hours']:.2f} CPU-hours ({projection['hours_on_2_cores']:.2f} h on 2 cores; "
              f"its tasks' wall clock here projects {projection['wall_hours']:.2f} h)")
    print(f"results: {s.results}")
    print(f"next: python scripts/study.py report {Path(s.results).parent}")
    return 0


def _report(args: argparse.Namespace) -> int:
    src = Path(args.results)
    if not src.exists():
        raise UsageError(f"{args.results}: no such study directory or results file")
    from studies.report import report

    out = Path(args.out) if args.out else (src if src.is_dir() else src.parent) / "report"
    cli.output_dir(str(out), True)
    rep = report(str(src), str(out), figures=not args.no_figures)
    if args.json:
        print(json.dumps(rep.to_json(), separators=(",", ":")))
    else:
        print(rep.text())
    return 0


if __name__ == "__main__":
    cli.exit(main())
