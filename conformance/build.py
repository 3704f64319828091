"""The whole suite: every fixture file as text (deterministic), written atomically."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from conformance.common import PARTS, dumps
from conformance.endgames import ENDGAMES, endgame_fixture
from conformance.games import LEGAL, jsonl, legal_expect, played
from conformance.mutations import ILLEGAL, illegal_fixture, verify_records
from conformance.perft_cases import PERFT, perft_fixture
from conformance.referee_cases import REFEREE, referee_fixture, verify_referee
from console.progress import ProgressFn
from records.game import atomic_write_text

# ---------------------------------------------------------------- the whole suite


README = """# Bohnanza conformance suite

Made by `python scripts/make_conformance.py` from fixed seeds (do not edit by hand: regenerate).
The formats, the perft granularity and how to run the suite against another engine are in
`docs/conformance.md`.

- `perft/NAME.json`: a position (state JSON) and its perft counts at depths 1, 2 and 3.
- `records/legal/NAME.jsonl`: legal game records; `NAME.expect.json` holds the result.
- `records/illegal/NAME.jsonl`: records with one step changed; `NAME.expect.json` holds the first
  illegal line, the rule ID a referee must name, and why.
- `records/referee/NAME.jsonl`: records with several planted deviations (illegal steps, desynchronised
  bean annotations), records from a state (`header.state`) and records with unknown cards (`null`);
  `NAME.expect.json` lists every deviation `check_record.py --all` must report (line, status, rule
  ID), where the replay must stop, and for unknown cards the search's verdict.
- `endgames/NAME.json`: a position and its proved optimal values per objective.
"""


def build(parts: tuple[str, ...] = PARTS, log: Callable[[str], None] | None = None,
          progress: ProgressFn | None = None) -> dict[str, str]:
    """Every fixture file: relative path -> text (deterministic: the same bytes on every run).
    ``progress(fixtures made, fixtures, note)`` as each starts, and the solvers' own reports while
    an endgame is solved."""
    files: dict[str, str] = {"README.md": README}
    say = log or (lambda _: None)
    records = "records/legal" in parts or "records/illegal" in parts
    referee = "records/referee" in parts
    total = ((len(PERFT) if "perft" in parts else 0) + (len(LEGAL) + len(ILLEGAL) + 1 if records else 0)
             + (len(REFEREE) + 1 if referee else 0) + (len(ENDGAMES) if "endgames" in parts else 0))
    done = 0

    def start(what: str) -> None:
        if progress is not None:
            progress(done, total, what)

    def solving(_done: int, _total: int | None, note: str) -> None:  # the solvers' reports
        if progress is not None:
            progress(done, total, note)

    if "perft" in parts:
        t0 = time.perf_counter()
        for ps in PERFT:
            start(f"perft {ps.name}")
            files[f"perft/{ps.name}.json"] = dumps(perft_fixture(ps)) + "\n"
            done += 1
        say(f"perft: {len(PERFT)} positions in {time.perf_counter() - t0:.1f} s")
    if records:
        t0 = time.perf_counter()
        for gs in LEGAL:
            start(f"record {gs.name}")
            game = played(gs.name)
            files[f"records/legal/{gs.name}.jsonl"] = jsonl(game.lines)
            files[f"records/legal/{gs.name}.expect.json"] = dumps(legal_expect(game)) + "\n"
            done += 1
        for ill in ILLEGAL:
            start(f"record {ill.name}")
            text, expect = illegal_fixture(ill)
            files[f"records/illegal/{ill.name}.jsonl"] = text
            files[f"records/illegal/{ill.name}.expect.json"] = dumps(expect) + "\n"
            done += 1
        start("the referee checks the records")
        verify_records({k: v for k, v in files.items() if k.startswith(("records/legal/", "records/illegal/"))
                        })
        done += 1
        say(f"records: {len(LEGAL)} legal, {len(ILLEGAL)} illegal, checked by the referee, in "
            f"{time.perf_counter() - t0:.1f} s")
    if referee:
        t0 = time.perf_counter()
        says: dict[str, list[str]] = {}
        for case in REFEREE:
            start(f"record {case.name}")
            text, expect, phrases = referee_fixture(case)
            rel = f"records/referee/{case.name}.jsonl"
            files[rel], says[rel] = text, phrases
            files[rel.replace(".jsonl", ".expect.json")] = dumps(expect) + "\n"
            done += 1
        start("the referee checks every deviation")
        verify_referee({k: v for k, v in files.items() if k.startswith("records/referee/")}, says)
        done += 1
        say(f"records: {len(REFEREE)} referee records, each deviation checked, in "
            f"{time.perf_counter() - t0:.1f} s")
    if "endgames" in parts:
        t0 = time.perf_counter()
        for eg in ENDGAMES:
            start(f"endgame {eg.name}")
            fixture = endgame_fixture(eg, solving if progress is not None else None)
            files[f"endgames/{eg.name}.json"] = dumps(fixture) + "\n"
            done += 1
        say(f"endgames: {len(ENDGAMES)} positions solved in {time.perf_counter() - t0:.1f} s")
    if progress is not None:
        progress(done, total, "done")
    return files


def write(out: Path, files: dict[str, str]) -> list[Path]:
    """Write every file atomically; remove fixture files of the suite's folders that are not made
    any more. Returns the removed paths."""
    for rel, text in sorted(files.items()):
        atomic_write_text(out / rel, text)
    removed = []
    for part in PARTS:
        folder = out / part
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                rel = path.relative_to(out).as_posix()
                if path.is_file() and path.suffix in (".json", ".jsonl") and rel not in files:
                    path.unlink()
                    removed.append(path)
    return removed
