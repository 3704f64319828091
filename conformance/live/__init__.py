"""The live harness: another engine driven through the driver protocol beside ours, its first
illegal step named with its rule (``client``: the protocol's client and ``serve``; ``diff``: games
through both engines, compared; ``rules``: the rule ID of a difference; ``probes``: illegal moves
offered; ``offers``: trading proposals compared, T3; ``shrink``: reproducers; ``readings``: the
readings judged by the engine's own answers; ``protocol``: protocol choices told from rule breaks;
``report``: the report). ``scripts/diff_engine.py`` is its command line."""
