"""A shim for an engine that pays for the third field with its oldest coin cards (F1 does not say
which coin cards pay; this project's protocol takes the top ones), gives its discard pile as its
cards, and plays one tie-break only, declared as a fixed option value (E4: most cards in hand).

``AlteTaler`` stands for the third-party engine, on our rules underneath. ``--undeclared`` leaves
the coin payment out of ``hello`` (the harness must see it in the discard pile); ``--lose-coins``
adds a bug: the paid coin cards leave the game instead of going onto the discard pile (F1).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from conformance.live.client import serve  # noqa: E402
from model import (  # noqa: E402
    BEAN_NAMES,
    BuyField,
    GameState,
    IllegalAction,
    NotationError,
    apply,
    format_action,
    legal_actions,
    new_game,
    parse_action,
    ruleset,
    winners,
)
from model.actions import Reshuffle  # noqa: E402
from model.cards import bean  # noqa: E402
from model.core import evolve  # noqa: E402
from model.errors import InputError  # noqa: E402
from model.state import PlayerState  # noqa: E402
from schemas.state_json import state_from_json  # noqa: E402


class AlteTaler:
    """The 'other engine': a field is paid with the bottom (oldest) cards of the coin stack."""

    def __init__(self, s: GameState, lose: bool) -> None:
        self.s, self.lose = s, lose

    def play(self, a: Any) -> None:
        s = self.s
        after = apply(s, a)
        if isinstance(a, BuyField):
            p = a.player
            cost = len(s.players[p].coins) - len(after.players[p].coins)
            old, pl = s.players[p].coins, after.players[p]
            seat = PlayerState(pl.hand, pl.fields, old[cost:], pl.aside)
            paid = () if self.lose else old[:cost]
            after = evolve(after, players=after.players[:p] + (seat,) + after.players[p + 1:],
                           discard=s.discard + paid)
        self.s = after


class Shim:
    def __init__(self, declared: bool, lose: bool) -> None:
        self.declared, self.lose = declared, lose
        self.game: AlteTaler | None = None

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        cmd = req["cmd"]
        if cmd == "hello":
            declares: dict[str, Any] = {"options": {"tie_break": "hand"}}
            if self.declared:
                declares["coin_payment"] = "oldest"
            return {"name": "alte-taler 2", "protocol": 1, "presets": {"rio-grande": [4, 5]},
                    "declares": declares}
        if cmd == "start":
            if (req.get("options") or {}).get("tie_break", "hand") != "hand":
                return {"ok": False, "reason": "only the hand-size tie-break"}
            if ((req.get("state") or req).get("options") or {}).get("isla"):
                return {"ok": False, "reason": "no La Isla Bohnita"}
            try:
                if req.get("state") is not None:
                    s = state_from_json(req["state"])
                else:
                    s = new_game(ruleset(req["ruleset"], req.get("options") or {}), req["players"],
                                 deck=[bean(b) for b in req["deck"]])
            except InputError as e:
                return {"ok": False, "reason": str(e)}
            self.game = AlteTaler(s, self.lose)
            return {"ok": True}
        assert self.game is not None
        s = self.game.s
        if cmd == "legal":
            acts = legal_actions(s, proposals=False)
            return {"actions": [format_action(a) for a in acts], "proposals": False}
        if cmd in ("apply", "reshuffle"):
            try:
                a = (parse_action(req["action"]) if cmd == "apply"
                     else Reshuffle(tuple(bean(b) for b in req["order"])))
                self.game.play(a)
            except (IllegalAction, NotationError) as e:
                return {"accepted": False, "reason": str(e)}
            return {"accepted": True}
        if cmd == "state":
            return {"state": {"players": [{"hand": [BEAN_NAMES[c] for c in p.hand], "coins": len(p.coins)}
                                          for p in s.players],
                              "draw": len(s.draw), "discard": [BEAN_NAMES[c] for c in s.discard],
                              "phase": s.phase.name.lower(), "to_move": s.to_move}}
        if cmd == "winners":
            over = s.is_over
            return {"over": over, "coins": list(s.coins()), "winners": list(winners(s)) if over else []}
        return {"unsupported": cmd}


if __name__ == "__main__":
    serve(Shim("--undeclared" not in sys.argv, "--lose-coins" in sys.argv).handle)
