"""A shim for an engine adapted as docs/engine-protocol.md's questions say, with two of its choices:
``--front-names`` lists only the proposals that give the front-most hand cards of each type (an
engine whose deals name bean types, mapped onto cards: declared, the harness compares them by type), and
``--on-demand-only`` plays only the on-demand reshuffle (E1): it refuses every other game.
``--no-offer-limit`` plays every game with as many proposals a turn as our options allow (30, whatever
``max_offers`` says: an engine with no offer limit), ``--any-deal-size`` lists deals of up to 3 cards a
side (our most, whatever ``max_deal_cards`` says: no deal-size limit). ``--one-of-a-type`` lists no
give of two hand cards of one type (a bug under T3 whatever the naming: a count wrong). ``hello``
declares the choices (``"deals": "by-type"`` with ``--front-names``, ``"offer_limit": "none"``,
``"deal_size_limit": "none"``); ``--undeclared`` leaves them out.
``--lenient-only`` plays H4's lenient reading whatever the options say (an engine with one harvest
rule that ignores the option, silently: it allows the harvests ``harvest=strict`` forbids).
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

from conformance.live.client import serve  # noqa: E402
from docs.examples.engine_shim import ReferenceShim  # noqa: E402
from model.rules import OPTION_RANGES  # noqa: E402


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


def one_of_a_type(hand: list[int], give: str) -> bool:
    """Whether ``give`` names at most one hand card of each bean type (an engine that cannot give two
    cards of one type in a deal: a count wrong, whatever the naming)."""
    picked = [hand[int(x[1:])] for x in give.split(",") if x.startswith("h") and int(x[1:]) < len(hand)]
    return len(picked) == len(set(picked))


def _unlimited(req: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    """A start request with the options ``keys`` at the most our options allow (an engine without
    that limit)."""
    most = {k: OPTION_RANGES[k].high for k in keys}
    if req.get("state") is not None:
        state = req["state"]
        return {**req, "state": {**state, "options": {**state.get("options", {}), **most}}}
    return {**req, "options": {**(req.get("options") or {}), **most}}


def _lenient(req: dict[str, Any]) -> dict[str, Any]:
    """A start request with H4's lenient reading, whatever it asked for."""
    if req.get("state") is not None:
        state = req["state"]
        return {**req, "state": {**state, "options": {**(state.get("options") or {}), "harvest": "lenient"}}}
    return {**req, "options": {**(req.get("options") or {}), "harvest": "lenient"}}


class FaqShim(ReferenceShim):
    def __init__(self, front_names: bool = False, on_demand_only: bool = False, no_offer_limit: bool = False,
                 one_of_a_type: bool = False, undeclared: bool = False, any_deal_size: bool = False,
                 lenient_only: bool = False) -> None:
        super().__init__("faq-shim")
        self.front_names, self.on_demand_only = front_names, on_demand_only
        self.no_offer_limit, self.one_of_a_type, self.undeclared = no_offer_limit, one_of_a_type, undeclared
        self.unlimited = ["max_offers"] * no_offer_limit + ["max_deal_cards"] * any_deal_size
        self.lenient_only = lenient_only

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        if req.get("cmd") == "start":
            opts = (req.get("state") or {}).get("options") or req.get("options") or {}
            if self.on_demand_only and opts.get("reshuffle") != "on-demand":
                return {"unsupported": "only the on-demand reshuffle"}
            if self.unlimited:
                req = _unlimited(req, self.unlimited)
            if self.lenient_only:
                req = _lenient(req)
        reply = super().handle(req)
        if req.get("cmd") == "hello" and not self.undeclared:
            declared = {"deals": "by-type"} if self.front_names else {}
            declared |= {"offer_limit": "none"} if "max_offers" in self.unlimited else {}
            declared |= {"deal_size_limit": "none"} if "max_deal_cards" in self.unlimited else {}
            reply["declares"] = declared
        if req.get("cmd") == "legal" and self.s is not None and reply.get("offers"):
            for g in reply["offers"]:
                hand = list(self.s.players[int(g["seat"][1:])].hand)
                g["give"] = [x for x in g["give"] if (not self.front_names or front_most(hand, x))
                             and (not self.one_of_a_type or one_of_a_type(hand, x))]
        return reply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--front-names", action="store_true", help="list front-most gives only")
    parser.add_argument("--on-demand-only", action="store_true", help="play the on-demand reshuffle only")
    parser.add_argument("--one-of-a-type", action="store_true",
                        help="list no give of two hand cards of one type (a count wrong)")
    parser.add_argument("--undeclared", action="store_true", help="declare none of the choices in hello")
    parser.add_argument("--no-offer-limit", action="store_true", help="no limit on proposals a turn")
    parser.add_argument("--any-deal-size", action="store_true",
                        help="list deals of as many cards a side as our options allow (3)")
    parser.add_argument("--lenient-only", action="store_true",
                        help="play H4's lenient reading whatever the options say")
    parser.add_argument("--mutant", action="append", default=[], metavar="ID", help="swap in a mutant")
    args = parser.parse_args()
    from proofs.mutants import activate

    kept = [activate(m) for m in args.mutant]  # swapped in for the life of the process
    for m in kept:
        m.__enter__()
    serve(FaqShim(args.front_names, args.on_demand_only, args.no_offer_limit, args.one_of_a_type,
                  args.undeclared, args.any_deal_size, args.lenient_only).handle)


if __name__ == "__main__":
    main()
