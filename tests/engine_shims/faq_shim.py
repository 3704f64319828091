"""A shim for an engine adapted as docs/engine-protocol.md's questions say, with two of its choices:
``--front-names`` lists only the proposals that give the front-most hand cards of each type (an
engine whose deals name bean types, mapped onto cards: T3 names cards, so the rest are missing), and
``--on-demand-only`` plays only the on-demand reshuffle (E1): it refuses every other game.
``--mutant ID`` (repeatable) swaps in mutants of proofs/mutants.py: an engine with independent bugs.

The engine underneath is ours (docs/examples/engine_shim.py), so every difference the harness
reports comes from these choices.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from conformance.engine_client import serve  # noqa: E402
from docs.examples.engine_shim import ReferenceShim  # noqa: E402


def front_most(hand: list[int], give: str) -> bool:
    """Whether ``give`` (``h0,h3,u1``) names, of each bean type it gives from the hand, the front-most
    cards of that type."""
    picked = sorted(int(x[1:]) for x in give.split(",") if x.startswith("h"))
    for h in picked:
        if h >= len(hand):
            return False
        same = [k for k, b in enumerate(hand) if b == hand[h]]
        if same.index(h) >= sum(1 for k in picked if hand[k] == hand[h]):
            return False
    return True


class FaqShim(ReferenceShim):
    def __init__(self, front_names: bool, on_demand_only: bool) -> None:
        super().__init__("faq-shim")
        self.front_names, self.on_demand_only = front_names, on_demand_only

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        if req.get("cmd") == "start" and self.on_demand_only:
            opts = (req.get("state") or {}).get("options") or req.get("options") or {}
            if opts.get("reshuffle") != "on-demand":
                return {"unsupported": "only the on-demand reshuffle"}
        reply = super().handle(req)
        if req.get("cmd") == "legal" and self.front_names and self.s is not None and reply.get("offers"):
            for g in reply["offers"]:
                hand = list(self.s.players[int(g["seat"][1:])].hand)
                g["give"] = [x for x in g["give"] if front_most(hand, x)]
        return reply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--front-names", action="store_true", help="list front-most gives only")
    parser.add_argument("--on-demand-only", action="store_true", help="play the on-demand reshuffle only")
    parser.add_argument("--mutant", action="append", default=[], metavar="ID", help="swap in a mutant")
    args = parser.parse_args()
    from proofs.mutants import activate

    kept = [activate(m) for m in args.mutant]  # swapped in for the life of the process
    for m in kept:
        m.__enter__()
    serve(FaqShim(args.front_names, args.on_demand_only).handle)


if __name__ == "__main__":
    main()
