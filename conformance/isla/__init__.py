"""La Isla Bohnita's conformance cases (I1-I9), listed once in ``conformance/expansions.py``."""

from conformance.isla import endgames, fuzz, games, mutations, perft_cases

__all__ = ["endgames", "fuzz", "games", "mutations", "perft_cases"]
