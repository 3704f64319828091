"""Playing whole games: bots (``play.bots``), and the seeded game loop every generator of games and
positions uses (``play.playout``). Above the rules engine (``model``), below ``solvers``, ``proofs``,
``adapters`` and the scripts."""
