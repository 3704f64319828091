"""The fast lane (``pytest -m "not slow"``) leaves out exactly the files and tests tests/conftest.py names."""

from __future__ import annotations

from pathlib import Path

from conftest import LONGEST_FIRST, SLOW_FILES, SLOW_TESTS

TESTS = Path(__file__).parent


def test_every_slow_file_exists() -> None:
    """A renamed file would drop out of the slow lane (and out of the longest-first order) unseen."""
    missing = [name for name in LONGEST_FIRST + SLOW_FILES if not (TESTS / name).is_file()]
    assert not missing, f"tests/conftest.py names files that are not in tests/: {missing}"


def test_no_file_is_named_twice() -> None:
    assert len(LONGEST_FIRST) == len(set(LONGEST_FIRST))
    assert len(SLOW_FILES) == len(set(SLOW_FILES))


def test_every_slow_test_exists() -> None:
    """A renamed test would drop out of the slow lane, back into the fast one, unseen."""
    missing = [f"{name}::{test}" for name, tests in SLOW_TESTS.items() for test in tests
               if name in SLOW_FILES or not (TESTS / name).is_file()
               or f"def {test.split('[')[0]}(" not in (TESTS / name).read_text()]
    assert not missing, f"tests/conftest.py names tests not in tests/ (or in a whole slow file): {missing}"
