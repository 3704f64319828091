"""La Isla Bohnita's conformance cases (I1-I9), listed once in ``conformance/expansions.py``."""

from conformance.isla import endgames, games, mutations, perft_cases

__all__ = ["endgames", "games", "mutations", "perft_cases"]
