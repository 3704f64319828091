"""A shim for an engine with open offers: several proposals may be open at once (a protocol choice,
T3 allows it), and one real bug: two non-active players may trade with each other (T3 forbids it).

``Basar`` stands for the third-party engine; it runs on our rules underneath, so that the test can
tell the protocol choice from the bug. ``--undeclared`` leaves the choice out of ``hello``
(the harness must still report it as protocol, with a hint); ``--fixed`` removes the bug;
``--on-demand`` hard-wires the on-demand reshuffle reading (E1) whatever the options say (and
``--declare-on-demand`` declares it as a fixed option value);
``--no-state``: the engine cannot start from a state (only from a deck); ``--any-time``: any seat
may harvest (H6) or buy its third field (F1) at any time, also while another is to move.
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
    Harvest,
    IllegalAction,
    NotationError,
    Propose,
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
from schemas.state_json import state_from_json  # noqa: E402


class Basar:
    """The 'other engine': a list of open offers, answered in the order made."""

    def __init__(self, s: GameState, buggy: bool, any_time: bool = False) -> None:
        self.s, self.buggy, self.any_time = s, buggy, any_time
        self.open: list[Propose] = []  # offers waiting behind the one being answered

    def play(self, a: Any) -> None:
        s = self.s
        if isinstance(a, Propose) and s.pending is not None:
            apply(evolve(s, pending=None, to_move=s.active), a)  # checked as if none were open
            self.open.append(a)
            return
        if isinstance(a, Propose) and self.buggy and a.player != s.active and a.partner != s.active:
            # the bug: the check 'one side is the active player' only looks at the proposer's turn
            self.s = evolve(s, pending=a, to_move=a.partner, offers=s.offers + 1)
            return
        if self.any_time and isinstance(a, (Harvest, BuyField)) and a.player != s.to_move and s.to_move >= 0:
            self.s = evolve(apply(evolve(s, to_move=a.player), a), to_move=s.to_move)
            return
        self.s = apply(s, a)
        while self.s.pending is None and self.open:
            try:
                self.s = apply(self.s, self.open.pop(0))
            except IllegalAction:
                continue


class Shim:
    def __init__(self, declared: bool, buggy: bool, on_demand: bool = False, no_state: bool = False,
                 any_time: bool = False) -> None:
        self.declared, self.buggy, self.on_demand, self.no_state = declared, buggy, on_demand, no_state
        self.any_time = any_time
        self.declare_on_demand = False
        self.game: Basar | None = None

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        cmd = req["cmd"]
        if cmd == "hello":
            out: dict[str, Any] = {"name": "basar 1.0", "protocol": 1, "presets": {"amigo": [3, 4]}}
            if self.declared:
                out["declares"] = {"concurrent_offers": True}
            if self.declare_on_demand:
                out["declares"] = {**out.get("declares", {}), "options": {"reshuffle": "on-demand"}}
            return out
        if cmd == "start":
            if self.no_state and req.get("state") is not None:
                return {"unsupported": "a game starts from a deck only"}
            try:
                if req.get("state") is not None:
                    state = req["state"]
                    if self.on_demand:
                        state = {**state, "options": {**state["options"], "reshuffle": "on-demand"}}
                    s = state_from_json(state)
                else:
                    wired = {"reshuffle": "on-demand"} if self.on_demand else {}
                    options = {**(req.get("options") or {}), **wired}
                    s = new_game(ruleset(req["ruleset"], options), req["players"],
                                 deck=[bean(b) for b in req["deck"]])
            except InputError as e:
                return {"ok": False, "reason": str(e)}
            self.game = Basar(s, self.buggy, self.any_time)
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
            return {"state": {"players": [{"hand": [BEAN_NAMES[c] for c in p.hand], "coins": len(p.coins),
                                           "aside": [BEAN_NAMES[c] for c in p.aside]} for p in s.players],
                              "draw": len(s.draw), "discard": len(s.discard),
                              "phase": s.phase.name.lower(), "to_move": s.to_move}}
        if cmd == "winners":
            over = s.is_over
            return {"over": over, "coins": list(s.coins()), "winners": list(winners(s)) if over else []}
        return {"unsupported": cmd}


if __name__ == "__main__":
    flags = set(sys.argv[1:])
    shim = Shim(declared="--undeclared" not in flags, buggy="--fixed" not in flags,
                on_demand="--on-demand" in flags, no_state="--no-state" in flags,
                any_time="--any-time" in flags)
    shim.declare_on_demand = "--declare-on-demand" in flags
    serve(shim.handle)
