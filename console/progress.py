"""Progress of long work, reported by library code and shown by the scripts.

Library functions that run for more than a moment take ``progress: ProgressFn | None`` and call it
with (done, total or None, note) often (cheap: the display throttles). They never print. The
scripts build a ``Progress`` that draws a tqdm bar on a terminal, one line per update on stderr
with ``--progress`` (CI and cluster logs), and nothing with ``--json`` or off a terminal.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

ProgressFn = Callable[[int, int | None, str], None]

LINE_EVERY = 0.5  # seconds between update lines with --progress (at least two a second)


def enabled(json_out: bool = False, force: bool = False, stream: TextIO | None = None) -> str:
    """'bar' on a terminal, 'lines' when forced off one, '' when quiet (``--json`` unless forced)."""
    out = stream or sys.stderr
    if force:
        return "bar" if out.isatty() else "lines"
    if json_out or not out.isatty():
        return ""
    return "bar"


class Progress:
    """A ``ProgressFn`` that draws: a tqdm bar (mode 'bar'), throttled lines ('lines'), or nothing."""

    def __init__(self, desc: str, mode: str, total: int | None = None, unit: str = "it",
                 stream: TextIO | None = None) -> None:
        self.desc, self.mode, self.total, self.unit = desc, mode, total, unit
        self.stream = stream or sys.stderr
        self.done = 0
        self.note = ""
        self._bar: Any = None
        self._last = 0.0
        self._shown = -1
        if mode == "bar":
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, unit=f" {unit}", file=self.stream, leave=False,
                             mininterval=0.25)

    def __call__(self, done: int, total: int | None = None, note: str = "") -> None:
        self.done = done
        if total is not None:
            self.total = total
        if note:
            self.note = note
        if self._bar is not None:
            if total is not None and self._bar.total != total:
                self._bar.total = total
            if note:
                self._bar.set_postfix_str(note, refresh=False)
            self._bar.update(done - self._bar.n)
        elif self.mode == "lines":
            now = time.monotonic()
            if now - self._last >= LINE_EVERY or (self.total is not None and done >= self.total):
                self._last = now
                self._line()

    def advance(self, by: int = 1, note: str = "") -> None:
        self(self.done + by, None, note)

    def _line(self) -> None:
        self._shown = self.done
        of = f"/{self.total}" if self.total is not None else ""
        tail = f" ({self.note})" if self.note else ""
        print(f"{self.desc}: {self.done}{of} {self.unit}{tail}", file=self.stream, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self.mode == "lines" and self.done and self._shown != self.done:
            self._line()
        self.mode = ""

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
