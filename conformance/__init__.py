"""The conformance cases and their builders (the fixtures live in tests/conformance/, described in
docs/conformance.md): ``perft_cases``, ``games`` (legal records), ``mutations`` (illegal records),
``endgames`` (proved values), ``build`` (the whole suite)."""
