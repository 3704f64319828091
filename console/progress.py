"""Progress of long work, reported by library code and shown by the scripts.

Library functions that run for more than a moment take ``progress: ProgressFn | None`` and call it
with (done, total or None, note) often (cheap: the display throttles). They never print. The
scripts build a ``Progress`` that draws a tqdm bar on a terminal, one line per update on stderr
with ``--progress`` (CI and cluster logs), and otherwise (off a terminal, or with ``--json``) keeps
its count for the ``Heartbeat``: one status line on stderr every ``STATUS_EVERY`` seconds (the
environment variable ``BOHNANZA_STATUS_EVERY`` overrides it); ``--quiet`` silences it.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

ProgressFn = Callable[[int, int | None, str], None]

LINE_EVERY = 0.5  # seconds between update lines with --progress (at least two a second)
STATUS_EVERY = 30.0  # seconds between status lines off a terminal (the heartbeat)
STATUS_ENV = "BOHNANZA_STATUS_EVERY"  # overrides STATUS_EVERY (seconds), e.g. for a test


def enabled(json_out: bool = False, force: bool = False, stream: TextIO | None = None,
            quiet: bool = False) -> str:
    """'bar' on a terminal, 'lines' when forced off one, '' with ``--quiet``, else 'status' (off a
    terminal or with ``--json``: a status line every ``status_every()`` seconds)."""
    out = stream or sys.stderr
    if quiet:
        return ""
    if force:
        return "bar" if out.isatty() else "lines"
    if json_out or not out.isatty():
        return "status"
    return "bar"


def status_every() -> float:
    """Seconds between status lines: ``$BOHNANZA_STATUS_EVERY`` when set to a number > 0, else
    ``STATUS_EVERY``."""
    try:
        every = float(os.environ.get(STATUS_ENV, ""))
    except ValueError:
        return STATUS_EVERY
    return every if every > 0 else STATUS_EVERY


class Heartbeat:
    """One status line on stderr every ``every`` seconds, from a daemon thread, until ``stop``:
    ``NAME: WHAT, N s elapsed``, WHAT from ``what()`` (the work and its count)."""

    def __init__(self, name: str, what: Callable[[], str], every: float | None = None,
                 stream: TextIO | None = None) -> None:
        self.name, self.what = name, what
        self.every = status_every() if every is None else every
        self.stream = stream or sys.stderr
        self.start_time = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="status", daemon=True)

    def start(self) -> Heartbeat:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=1)

    def line(self) -> str:
        elapsed = time.monotonic() - self.start_time
        return f"{self.name}: {self.what()}, {elapsed:.0f} s elapsed"

    def _beat(self) -> None:
        while not self._stop.wait(self.every):
            try:
                print(self.line(), file=self.stream, flush=True)
            except (OSError, ValueError):  # the stream went away (a closed pipe): stop quietly
                return


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
        self.closed = False
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

    def status(self) -> str:
        """The work and its count, e.g. ``states 120/1000 states``."""
        of = f"/{self.total}" if self.total is not None else ""
        tail = f" ({self.note})" if self.note else ""
        return f"{self.desc} {self.done}{of} {self.unit}{tail}"

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
        self.closed = True

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
