"""A shim for an engine with a bug in its trading proposals (T3) that only a later trading state of
a turn shows: it works out what the active player can give once, at the turn's first trading state,
and lists those gives all turn, also after a trade took some of the cards (hand positions and
face-up cards that are gone). At the first trading state of every turn it agrees with ours.

Our engine underneath (``docs/examples/engine_shim.py``); ``--flat`` lists the proposals one by one
in ``actions``, else as parts in ``offers``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from conformance.live.client import serve  # noqa: E402
from docs.examples.engine_shim import ReferenceShim, offers_json  # noqa: E402
from model import Phase, format_action, legal_actions  # noqa: E402
from model.core import evolve  # noqa: E402
from model.engine import proposal_parts  # noqa: E402
from model.state import GameState  # noqa: E402


class StaleShim(ReferenceShim):
    def __init__(self, flat: bool) -> None:
        super().__init__("stale-gives 0.1", flat)
        self.first: GameState | None = None  # the turn's first trading state

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        s = self.s
        if req.get("cmd") != "legal" or s is None or s.phase != Phase.TRADE or s.pending is not None:
            return super().handle(req)
        if self.first is None or (self.first.turn, self.first.active) != (s.turn, s.active):
            self.first = s
        stale = evolve(s, players=self.first.players, face_up=self.first.face_up)  # the bug
        acts = [format_action(a) for a in legal_actions(s, proposals=False)]
        if not req.get("proposals"):
            return {"actions": acts, "proposals": False}
        parts = proposal_parts(stale)
        if self.flat:
            return {"actions": acts + [x for o in parts for x in o.texts()], "proposals": True}
        return {"actions": acts, "proposals": True, "offers": [offers_json(o) for o in parts]}


if __name__ == "__main__":
    serve(StaleShim("--flat" in sys.argv).handle)
