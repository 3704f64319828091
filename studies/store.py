"""The results of a study, in its output directory:

- ``study.json``: the study (canonical) and its digest, written first; a later run in the same
  directory must be the same study (else a StudyError, or ``--force`` starts it over);
- ``journal.jsonl``: one line per finished task, appended (and flushed to disk) as each task
  completes, in completion order, with its ``seconds`` and ``worker``: what a resumed run skips;
- ``results.jsonl``: written atomically at the end of every run (a complete or an interrupted
  one): a header, then each finished task in the study's task order, without timings, so equal
  studies give byte-identical files whatever the executor, the worker count and the interruptions.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from records.game import atomic_write_text
from studies.executors import Outcome
from studies.spec import Study, StudyError
from studies.tasks import Task

FORMAT = "bohnanza-study-results"
VERSION = 1
STUDY, JOURNAL, RESULTS = "study.json", "journal.jsonl", "results.jsonl"
SYNC_SECONDS = 1.0  # the journal is forced to disk at most this often (and at the end of a run)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=False)


class Store:
    """A study's output directory (see the module docstring)."""

    def __init__(self, out: str | os.PathLike[str], study: Study, force: bool = False) -> None:
        self.dir = Path(out)
        self.study = study
        if self.dir.exists() and not self.dir.is_dir():
            raise StudyError(f"--out {out}: is a file, not a directory")
        meta = self.dir / STUDY
        if meta.exists():
            try:
                old = json.loads(meta.read_text(encoding="utf-8")).get("digest")
            except (OSError, ValueError, AttributeError):
                old = None
            if old != study.digest() and not force:
                raise StudyError(f"--out {out}: holds the results of another study (digest {old}, this "
                                 f"study {study.digest()}); choose another --out, or --force to start over")
            if old != study.digest() or force:
                for name in (JOURNAL, RESULTS):
                    (self.dir / name).unlink(missing_ok=True)
        self.dir.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = None
        self._synced = time.monotonic()
        about = {"format": "bohnanza-study", "version": VERSION, "name": study.name, "digest": study.digest(),
                 "study": study.model_dump(mode="json")}
        atomic_write_text(meta, json.dumps(about, indent=1) + "\n")

    def finished(self) -> dict[str, Outcome]:
        """Key -> outcome of every task the journal holds (the last line of a key wins; a line cut
        short by a kill is ignored: that task runs again)."""
        path = self.dir / JOURNAL
        out: dict[str, Outcome] = {}
        if not path.exists():
            return out
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):  # cut off by a kill: drop the torn line, so the next
            with open(path, "r+b") as f:      # append starts a line of its own
                f.truncate(data.rfind(b"\n") + 1)
            data = data[:data.rfind(b"\n") + 1]
        for line in data.decode("utf-8", "replace").splitlines():
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if isinstance(o, dict) and isinstance(o.get("key"), str) and o.get("status") in ("ok", "failed"):
                out[o["key"]] = o
        return out

    def append(self, outcomes: Iterable[Outcome]) -> None:
        """Add finished tasks to the journal. The lines are in the operating system's hands when
        this returns (a killed driver loses none of them); they are forced to the disk (fsync) at
        most every SYNC_SECONDS and at the end, so that a study of many small tasks does not wait
        for the disk after each one (a machine crash may lose the last second: those tasks rerun)."""
        text = "".join(_dumps(o) + "\n" for o in outcomes)
        if self._fd is None:
            self._fd = os.open(self.dir / JOURNAL, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        os.write(self._fd, text.encode("utf-8"))
        if time.monotonic() - self._synced >= SYNC_SECONDS:
            self.sync()

    def sync(self) -> None:
        if self._fd is not None:
            os.fsync(self._fd)
        self._synced = time.monotonic()

    def close(self) -> None:
        if self._fd is not None:
            self.sync()
            os.close(self._fd)
            self._fd = None

    def write_results(self, tasks: list[Task], finished: dict[str, Outcome]) -> Path:
        """``results.jsonl`` (atomically): the header, then the finished tasks in task order; the
        journal is closed (synced to disk) first."""
        self.close()
        lines = []
        failed = 0
        for t in tasks:
            o = finished.get(t.key)
            if o is None:
                continue
            row: dict[str, Any] = {"key": t.key, "kind": t.kind, "seed": t.seed, "status": o["status"]}
            if o["status"] == "ok":
                row["params"] = t.params
                row["result"] = o["result"]
            else:
                failed += 1
                row["params"] = t.params
                row["error"] = o["error"]
            lines.append(_dumps(row))
        head = {"format": FORMAT, "version": VERSION, "study": self.study.name, "digest": self.study.digest(),
                "seed": self.study.seed, "tasks": len(tasks), "finished": len(lines), "failed": failed}
        path = self.dir / RESULTS
        atomic_write_text(path, "\n".join([_dumps(head), *lines]) + "\n")
        return path


def read_results(source: str | os.PathLike[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and rows of a results file (or of the ``results.jsonl`` in a study directory);
    StudyError naming the file and line for anything else."""
    path = Path(source)
    if path.is_dir():
        path = path / RESULTS
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise StudyError(f"{path}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise StudyError(f"{path}: not UTF-8 text") from None
    rows: list[dict[str, Any]] = []
    head: dict[str, Any] | None = None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            raise StudyError(f"{path}:{n}: not JSON: {e}") from None
        if not isinstance(obj, dict):
            raise StudyError(f"{path}:{n}: expected an object")
        if head is None:
            if obj.get("format") != FORMAT:
                raise StudyError(f"{path}:{n}: format: expected {FORMAT!r}, got {obj.get('format')!r}")
            if obj.get("version") != VERSION:
                raise StudyError(f"{path}:{n}: version: expected {VERSION}, got {obj.get('version')!r}")
            head = obj
            continue
        for key in ("key", "kind", "status", "params"):
            if key not in obj:
                raise StudyError(f"{path}:{n}: {key}: missing")
        if obj["status"] == "ok" and "result" not in obj:
            raise StudyError(f"{path}:{n}: result: missing (status ok)")
        obj["line"] = n
        rows.append(obj)
    if head is None:
        raise StudyError(f"{path}: empty: no header line")
    return head, rows
