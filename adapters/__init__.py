"""Adapters from the rules engine to other frameworks (optional extras; the core never imports them).

- ``adapters.encoding``: a finite action encoding with sub-steps for deals (pure Python,
  shared by every adapter).
- ``adapters.observation``: the observation tensor and text of one seat (H7), shared by both.
- ``adapters.openspiel_game``: the OpenSpiel game ``python_bohnanza`` (needs ``open_spiel``,
  the ``openspiel`` extra). Import it to register the game.
- ``adapters.pettingzoo_env``: the PettingZoo AEC environment ``bohnanza_v0`` (needs
  ``pettingzoo``, the ``pettingzoo`` extra).

See docs/adapters.md.
"""
