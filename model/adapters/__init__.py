"""Adapters from the rules engine to other frameworks (optional extras; the core never imports them).

- ``model.adapters.encoding``: a finite action encoding with sub-steps for deals (pure Python,
  shared by every adapter).
- ``model.adapters.openspiel_game``: the OpenSpiel game ``python_bohnanza`` (needs ``open_spiel``,
  the ``openspiel`` extra). Import it to register the game.

See docs/adapters.md.
"""
