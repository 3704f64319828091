"""La Isla Bohnita's bots (I1-I9): how they sail, sell, load and raid (``bots.py``), and the
bots' hook that plugs them in (``ISLA_BOTS``, listed in ``play/expansions.py``)."""

from play.isla.bots import ISLA_BOTS

__all__ = ["ISLA_BOTS"]
