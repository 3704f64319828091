"""The trading proposals of a ``legal`` reply, compared with ours (T3, docs/engine-protocol.md).

A trading state has thousands of proposals (every give of at most ``max_deal_cards`` cards with
every ask, to every partner). An engine lists them one by one in ``actions``, or as parts in
``offers`` (``{"seat": "p0", "partners": ["p1", "p2"], "give": ["", "h0", ...], "ask": ["", "red",
...]}``: every combination but the empty one). Ours are parts too (``model.engine.proposal_parts``).
Parts are compared per seat and partner: where both sides give one product, equal sets of gives and
of asks mean equal proposals, without spelling them out, and an engine's gives that are some of ours
(its asks ours) leave out exactly our other gives with every ask: one example is spelled out, the rest
counted (a restriction on what an engine names costs time per seat and partner, not per proposal);
anywhere else both sides are spelled out and compared text by text, so a missing or extra proposal
is found whatever the form.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from conformance.live.rules import canonical
from model.actions import Offers

Product = tuple[frozenset[str], frozenset[str]]  # gives, asks: " give h0,u1" / " ask red" / ""


def text_diff(theirs: set[str], ours: set[str]) -> tuple[list[str], list[str]]:
    """(extra, missing), sorted: the engine's texts that are not ours (read in our notation:
    indices and beans in any order, ``canonical``), and ours it does not list."""
    extra: set[str] = set()
    missing = ours - theirs
    for x in theirs - ours:
        c = canonical(x)
        if c in ours:
            missing.discard(c)
        else:
            extra.add(c)
    return sorted(extra), sorted(missing)


@lru_cache(maxsize=16)
def texts(o: Offers) -> frozenset[str]:
    """The proposals of ``o`` in the notation (a turn's trading states often repeat them)."""
    return frozenset(o.texts())


def group_texts(g: dict[str, Any]) -> list[str]:
    """The proposals of an engine's ``offers`` group, spelled out as it wrote them."""
    gives = [f" give {x}" if x else "" for x in g["give"]]
    asks = [f" ask {x}" if x else "" for x in g["ask"]]
    out: list[str] = []
    for q in g["partners"]:
        head = f"{g['seat']} offer {q}"
        out += [head + x + y for x in gives for y in asks if x or y]
    return out


@lru_cache(maxsize=4096)
def _part(word: str, text: str) -> str:
    """One give or ask part as ``format_action`` writes it (``" give h0,h1"``); unreadable: as it is."""
    if not text:
        return ""
    raw = f" {word} {text}"
    full = canonical(f"p0 offer p1{raw}")
    return full[len("p0 offer p1"):] if full.startswith("p0 offer p1 ") else raw


def _ours(parts: Iterable[Offers]) -> dict[tuple[str, str], list[Offers]]:
    out: dict[tuple[str, str], list[Offers]] = defaultdict(list)
    for o in parts:
        for q in o.partners:
            out[f"p{o.player}", f"p{q}"].append(Offers(o.player, (q,), o.gives, o.asks))
    return out


def _theirs(groups: Iterable[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    out: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for g in groups:
        for q in g["partners"]:
            out[g["seat"], q].append({**g, "partners": [q]})
    return out


def _product(o: Offers) -> Product:
    return frozenset(o.give_parts()), frozenset(o.ask_parts())


def compare(parts: list[Offers], groups: list[dict[str, Any]]
            ) -> tuple[list[str], list[str], set[str], int]:
    """Our proposals ``parts`` against an engine's ``offers`` groups: (extra, missing, the engine's
    proposals spelled out where they were compared text by text, the missing ones counted but not
    spelled out)."""
    ours, theirs = _ours(parts), _theirs(groups)
    extra: list[str] = []
    missing: list[str] = []
    seen: set[str] = set()
    counted = 0
    for key in sorted(set(ours) | set(theirs)):
        mine, yours = ours.get(key, []), theirs.get(key, [])
        if len(mine) == 1 and len(yours) == 1:
            gives, asks = _product(mine[0])
            their_gives = frozenset(_part("give", x) for x in yours[0]["give"])
            if asks == frozenset(_part("ask", x) for x in yours[0]["ask"]) and their_gives <= gives:
                lost = sorted(gives - their_gives)
                n = sum(len(asks) - (not g and "" in asks) for g in lost)
                if n:  # our other gives with every ask: one spelled out, the rest counted
                    head = f"{key[0]} offer {key[1]}"
                    missing.append(next(head + g + a for g in lost for a in sorted(asks) if g or a))
                    counted += n - 1
                continue
        listed = {x for g in yours for x in group_texts(g)}
        more, fewer = text_diff(listed, {x for o in mine for x in o.texts()})
        extra += more
        missing += fewer
        seen |= listed | set(more)
    return extra, missing, seen, counted
