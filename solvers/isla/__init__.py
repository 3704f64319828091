"""La Isla Bohnita's endgame solvers (I1-I9), one package: ``exact`` (``solo`` by exact search, the
others on ``isla_policy``), ``open_search`` (``coop`` and ``best`` by exact search over every
seat's choices and the partners' windows), ``reach`` (which cards may still reach whom: the raw
material of the open search's bound), ``duel`` (minimax on the Isla duel's margin) and ``cpsat``
(``solo`` by CP-SAT, with a relaxation that proves its lines). ``solvers/api.py`` registers them in
``EXPANSION_REGISTRY``."""
