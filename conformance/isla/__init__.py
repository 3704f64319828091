"""La Isla Bohnita's conformance cases (I1-I9), listed once in ``conformance/expansions.py``."""

from conformance.isla import games, mutations, perft_cases

__all__ = ["games", "mutations", "perft_cases"]
