"""Studies at scale: a declarative study file expanded into seeded tasks, run in-process, on a
process pool or on Ray with the same results, stored as they finish, and turned into tables and
figures (docs/studies.md).

``spec`` (the study file), ``tasks`` (expansion and seeds), ``simulations`` and ``endgames`` (the
work of one task), ``executors``, ``store`` (journal, resume, results), ``runner``; the report:
``rows`` (the results read and checked into groups), ``stats`` (the intervals), ``analyses`` (what
each table holds), ``tables``, ``report`` (report.md, the CSVs) and ``figures``.
"""
