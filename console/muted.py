"""Native libraries that write to a file descriptor themselves (Ray's C++ core on 2, HiGHS's
banner on 1), silenced without touching Python's own stream objects."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def muted(fd: int) -> Iterator[None]:
    """File descriptor ``fd`` (1 or 2) sent to /dev/null meanwhile."""
    (sys.stdout if fd == 1 else sys.stderr).flush()
    saved = os.dup(fd)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
        yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)
        os.close(null)
