"""The benchmark suites behind scripts/bench.py (``suites``): they measure the engine, the solvers and
the study runner, so they sit above every layer they time and below ``scripts`` only
(docs/architecture.md)."""
