"""A shim for an engine whose phase 3 is played at once: every seat with set-aside cards plants them
(and harvests) in any order, seats interleaved (T6 leaves the order to the players; this project's
protocol goes seat by seat). Its ``state`` gives ``to_move`` as the list of seats that may act.

``Zusammen`` stands for the third-party engine, on our rules underneath. ``--undeclared`` leaves the
choice out of ``hello``; ``--lose-aside`` adds a bug: a seat's last set-aside card vanishes instead of
going onto the field (T6: every set-aside card is planted).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from conformance.live.client import serve  # noqa: E402
from model import (  # noqa: E402
    BEAN_NAMES,
    GameState,
    Harvest,
    IllegalAction,
    NotationError,
    Phase,
    PlantAside,
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
from model.core import evolve, fits  # noqa: E402
from model.errors import InputError  # noqa: E402
from model.state import EMPTY, Field, PlayerState  # noqa: E402
from schemas.state_json import state_from_json  # noqa: E402


def planters(s: GameState) -> list[int]:
    return [p for p, pl in enumerate(s.players) if pl.aside] if s.phase == Phase.PLANT_ASIDE else []


class Zusammen:
    """The 'other engine': phase 3 open to every seat with set-aside cards."""

    def __init__(self, s: GameState, lose: bool) -> None:
        self.s, self.lose = s, lose

    def legal(self) -> list[str]:
        seats = planters(self.s) or [self.s.to_move]
        return [format_action(a) for q in seats
                for a in legal_actions(evolve(self.s, to_move=q) if q >= 0 else self.s, proposals=False)]

    def play(self, a: Any) -> None:
        s = self.s
        seats = planters(s)
        q = getattr(a, "player", -1)
        if not seats or q == s.to_move or q not in seats or not isinstance(a, (PlantAside, Harvest)):
            self.s = apply(s, a)
            if self.lose and isinstance(a, PlantAside) and len(s.players[q].aside) == 1:
                self.s = self._lost(q, a.field)
            return
        if isinstance(a, Harvest):
            self.s = evolve(apply(evolve(s, to_move=q), a), to_move=s.to_move)
            return
        pl = s.players[q]
        if a.bean not in pl.aside or a.field >= len(pl.fields) or not fits(pl.fields[a.field], a.bean):
            raise IllegalAction(f"p{q} cannot plant {BEAN_NAMES[a.bean]} on field {a.field}", "T6")
        k = pl.aside.index(a.bean)
        aside = pl.aside[:k] + pl.aside[k + 1:]
        grown = Field(a.bean, pl.fields[a.field].count + 1)
        fields = pl.fields if self.lose and not aside else (
            pl.fields[:a.field] + (grown,) + pl.fields[a.field + 1:])
        seat = PlayerState(pl.hand, fields, pl.coins, aside)
        self.s = evolve(s, players=s.players[:q] + (seat,) + s.players[q + 1:])


    def _lost(self, q: int, i: int) -> GameState:
        """The bug: the card just planted on field ``i`` of seat ``q`` is gone."""
        pl = self.s.players[q]
        f = pl.fields[i]
        lost = Field(f.bean, f.count - 1) if f.count > 1 else EMPTY
        seat = PlayerState(pl.hand, pl.fields[:i] + (lost,) + pl.fields[i + 1:], pl.coins, pl.aside)
        return evolve(self.s, players=self.s.players[:q] + (seat,) + self.s.players[q + 1:])


class Shim:
    def __init__(self, declared: bool, lose: bool) -> None:
        self.declared, self.lose = declared, lose
        self.game: Zusammen | None = None

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        cmd = req["cmd"]
        if cmd == "hello":
            out: dict[str, Any] = {"name": "zusammen 0.9", "protocol": 1, "presets": {"amigo": [3, 4, 5]}}
            if self.declared:
                out["declares"] = {"simultaneous_phase3": True}
            return out
        if cmd == "start":
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
            self.game = Zusammen(s, self.lose)
            return {"ok": True}
        assert self.game is not None
        s = self.game.s
        if cmd == "legal":
            return {"actions": self.game.legal(), "proposals": False}
        if cmd in ("apply", "reshuffle"):
            try:
                a = (parse_action(req["action"]) if cmd == "apply"
                     else Reshuffle(tuple(bean(b) for b in req["order"])))
                self.game.play(a)
            except (IllegalAction, NotationError) as e:
                return {"accepted": False, "reason": str(e)}
            return {"accepted": True}
        if cmd == "state":
            return {"state": {
                "players": [{"hand": [BEAN_NAMES[c] for c in p.hand],
                             "fields": [[BEAN_NAMES[f.bean], f.count] if f.count else None for f in p.fields],
                             "coins": len(p.coins), "aside": [BEAN_NAMES[c] for c in p.aside]}
                            for p in s.players],
                "draw": len(s.draw), "discard": len(s.discard), "phase": s.phase.name.lower(),
                "to_move": planters(s) or s.to_move}}
        if cmd == "winners":
            over = s.is_over
            return {"over": over, "coins": list(s.coins()), "winners": list(winners(s)) if over else []}
        return {"unsupported": cmd}


if __name__ == "__main__":
    serve(Shim("--undeclared" not in sys.argv, "--lose-aside" in sys.argv).handle)
