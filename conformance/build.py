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
from model.records import atomic_write_text

# ---------------------------------------------------------------- the whole suite


README = """# Bohnanza conformance suite

Made by `python scripts/make_conformance.py` from fixed seeds (do not edit by hand: regenerate).
The formats, the perft granularity and how to run the suite against another engine are in
`docs/conformance.md`.

- `perft/NAME.json`: a position (state JSON) and its perft counts at depths 1, 2 and 3.
- `records/legal/NAME.jsonl`: legal game records; `NAME.expect.json` holds the result.
- `records/illegal/NAME.jsonl`: records with one step changed; `NAME.expect.json` holds the first
  illegal line, the rule ID a referee must name, and why.
- `endgames/NAME.json`: a position and its proved optimal values per objective.
"""


def build(parts: tuple[str, ...] = PARTS, log: Callable[[str], None] | None = None) -> dict[str, str]:
    """Every fixture file: relative path -> text (deterministic: the same bytes on every run)."""
    files: dict[str, str] = {"README.md": README}
    say = log or (lambda _: None)
    if "perft" in parts:
        t0 = time.perf_counter()
        for ps in PERFT:
            files[f"perft/{ps.name}.json"] = dumps(perft_fixture(ps)) + "\n"
        say(f"perft: {len(PERFT)} positions in {time.perf_counter() - t0:.1f} s")
    if "records/legal" in parts or "records/illegal" in parts:
        t0 = time.perf_counter()
        for gs in LEGAL:
            game = played(gs.name)
            files[f"records/legal/{gs.name}.jsonl"] = jsonl(game.lines)
            files[f"records/legal/{gs.name}.expect.json"] = dumps(legal_expect(game)) + "\n"
        for ill in ILLEGAL:
            text, expect = illegal_fixture(ill)
            files[f"records/illegal/{ill.name}.jsonl"] = text
            files[f"records/illegal/{ill.name}.expect.json"] = dumps(expect) + "\n"
        verify_records({k: v for k, v in files.items() if k.startswith("records/")})
        say(f"records: {len(LEGAL)} legal, {len(ILLEGAL)} illegal, checked by the referee, in "
            f"{time.perf_counter() - t0:.1f} s")
    if "endgames" in parts:
        t0 = time.perf_counter()
        for eg in ENDGAMES:
            files[f"endgames/{eg.name}.json"] = dumps(endgame_fixture(eg)) + "\n"
        say(f"endgames: {len(ENDGAMES)} positions solved in {time.perf_counter() - t0:.1f} s")
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
