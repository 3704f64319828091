"""Our own engine behind the driver protocol (docs/engine-protocol.md): the worked example of a shim.

A shim reads one JSON request a line on stdin and writes one reply a line on stdout. Everything
engine-specific is in the six ``_cmd`` methods below; a shim for another engine maps the same
requests onto that engine's calls (its hand order, field numbers and bean names onto ours) and
its state back into the ``state`` reply. Run it as the harness does:

  python scripts/diff_engine.py --engine "python docs/examples/engine_shim.py" --games 20
  python scripts/diff_engine.py --engine docs.examples.engine_shim:factory --games 20
  python scripts/diff_engine.py --engine "python docs/examples/engine_shim.py --mutant mix-types"

``--mutant ID`` plays with a mutant of proofs/mutants.py swapped in (``STEPS.replaced``), an engine
with one known bug, which the harness must find with its rule ID.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from conformance.live.client import serve  # noqa: E402
from model import (  # noqa: E402
    BEAN_NAMES,
    PRESETS,
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
from model.actions import Offers, Reshuffle  # noqa: E402
from model.cards import bean  # noqa: E402
from model.engine import proposal_parts  # noqa: E402
from model.errors import InputError  # noqa: E402
from schemas.state_json import state_from_json  # noqa: E402


def _names(cards: tuple[int, ...]) -> list[str]:
    return [BEAN_NAMES[c] for c in cards]


def offers_json(o: Offers) -> dict[str, Any]:
    """Proposals as parts (``offers`` in the legal reply): every partner with every give and ask."""
    return {"seat": f"p{o.player}", "partners": [f"p{q}" for q in o.partners],
            "give": [x.removeprefix(" give ") for x in o.give_parts()],
            "ask": [x.removeprefix(" ask ") for x in o.ask_parts()]}


class ReferenceShim:
    """One game of our engine at a time; ``handle(request)`` is the whole protocol."""

    def __init__(self, name: str = "bohnanza-reference", flat: bool = False) -> None:
        self.name, self.flat = name, flat
        self.s: GameState | None = None
        self.mutant: Any = None

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        cmd = req.get("cmd")
        if cmd == "hello":
            claims = {p: list(range(r.min_players, r.max_players + 1)) for p, r in PRESETS.items()}
            return {"name": self.name, "protocol": 1, "presets": claims}
        if cmd == "start":
            return self._start(req)
        if cmd not in ("legal", "apply", "reshuffle", "state", "winners"):
            return {"unsupported": f"no command {cmd!r}"}
        if self.s is None:
            return {"error": "no game started"}
        if cmd == "legal":
            want = bool(req.get("proposals"))
            acts = [format_action(a) for a in legal_actions(self.s, proposals=False)]
            if not want:
                return {"actions": acts, "proposals": False}
            if self.flat:  # one by one: thousands in a trading state (spelled out from the parts)
                return {"actions": acts + [x for o in proposal_parts(self.s) for x in o.texts()],
                        "proposals": True}
            return {"actions": acts, "proposals": True,  # as parts: a few dozen texts
                    "offers": [offers_json(o) for o in proposal_parts(self.s)]}
        if cmd == "apply":
            return self._apply(str(req.get("action")))
        if cmd == "reshuffle":
            return self._do(Reshuffle(tuple(bean(b) for b in req.get("order") or ())))
        if cmd == "state":
            return {"state": self._view(self.s)}
        if cmd == "winners":
            over = self.s.is_over
            return {"over": over, "coins": list(self.s.coins()),
                    "winners": list(winners(self.s)) if over else []}
        raise AssertionError(cmd)

    def _start(self, req: dict[str, Any]) -> dict[str, Any]:
        try:
            if req.get("state") is not None:
                self.s = state_from_json(req["state"])
            else:
                rules = ruleset(req["ruleset"], req.get("options") or {})
                self.s = new_game(rules, int(req["players"]), deck=[bean(b) for b in req["deck"]])
        except InputError as e:
            return {"ok": False, "reason": str(e)}
        return {"ok": True}

    def _apply(self, text: str) -> dict[str, Any]:
        try:
            action = parse_action(text)
        except NotationError as e:
            return {"accepted": False, "reason": str(e)}
        return self._do(action)

    def _do(self, action: Any) -> dict[str, Any]:
        assert self.s is not None
        try:
            self.s = apply(self.s, action)  # checked: a refusal names the rule
        except IllegalAction as e:
            return {"accepted": False, "reason": str(e)}
        return {"accepted": True}

    @staticmethod
    def _view(s: GameState) -> dict[str, Any]:
        """The state reply: what another engine reads off its own game objects."""
        return {
            "players": [{"hand": _names(p.hand),
                         "fields": [[BEAN_NAMES[f.bean], f.count] if f.count else None for f in p.fields],
                         "coins": len(p.coins), "aside": _names(p.aside)} for p in s.players],
            "face_up": _names(s.face_up),
            "draw": _names(s.draw),
            "discard": len(s.discard),
            "phase": s.phase.name.lower(),
            "to_move": s.to_move,
            "active": s.active,
        }


def factory(mutant: str | None = None, flat: bool = False) -> ReferenceShim:
    """The entry point ``docs.examples.engine_shim:factory`` (no mutant)."""
    if mutant is None:
        return ReferenceShim(flat=flat)
    from proofs.mutants import activate

    shim = ReferenceShim(f"bohnanza-reference with mutant {mutant}", flat)
    shim.mutant = activate(mutant)  # kept: a context manager collected would restore the steps
    shim.mutant.__enter__()  # swapped in for the life of the process
    return shim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mutant", metavar="ID", help="swap in a mutant of proofs/mutants.py")
    parser.add_argument("--flat", action="store_true",
                        help="list the trading proposals one by one in actions, not as parts in offers")
    args = parser.parse_args()
    try:
        shim = factory(args.mutant, args.flat)
    except KeyError as e:
        parser.exit(2, f"engine_shim.py: {e.args[0]}\n")
    serve(shim.handle)


if __name__ == "__main__":
    main()
