"""La Isla Bohnita's part of the state JSON (``GameState.ext``, under the key "isla"): ships, rows
and the turn's counts."""

from __future__ import annotations

from typing import Any

from model.cards import BEAN_INDEX, BEAN_NAMES
from model.errors import InputError
from model.isla.actions import PORT_NAMES, SHIP_NAMES
from model.isla.state import Fleet, Isla, Ship


def _ship_json(ship: Ship) -> dict[str, Any]:
    return {"bean": BEAN_NAMES[ship.bean] if ship.count else None, "count": ship.count,
            "at": PORT_NAMES[ship.at]}


def isla_to_json(isla: Isla) -> dict[str, Any]:
    return {
        "fleets": [
            {"merchants": [_ship_json(m) for m in f.merchants],
             "pirate": _ship_json(f.pirate) if f.pirate is not None else None}
            for f in isla.fleets
        ],
        "rows": {PORT_NAMES[1 + r]: [BEAN_NAMES[c] for c in row] for r, row in enumerate(isla.rows)},
        "attacked": [[seat, SHIP_NAMES[ship]] for seat, ship in isla.attacked],
        "attack": [isla.attack[0], SHIP_NAMES[isla.attack[1]]] if isla.attack is not None else None,
        "captured": isla.captured,
        "sails": isla.sails,
        "discarded": isla.discarded,
    }


class IslaFormatError(InputError):
    """A malformed ``isla`` part of a state JSON; the message names the field (a JSON path)."""


def _ship_from(obj: dict[str, Any], where: str) -> Ship:
    at = PORT_NAMES.index(obj.get("at", "home"))
    if obj["count"] == 0:
        return Ship(-1, 0, at)
    if obj.get("bean") is None:
        raise IslaFormatError(f"{where}.bean: a cargo of {obj['count']} cards needs its bean name (I4)")
    return Ship(BEAN_INDEX[obj["bean"]], obj["count"], at)


def _ship_ref(value: list[Any]) -> tuple[int, int]:
    return value[0], SHIP_NAMES.index(value[1])


def isla_from_json(obj: Any) -> Isla:
    """Read the ``isla`` part of a state, of the published shape (``schemas.isla.STATE``, checked with
    the whole state by ``schemas.state_json.state_from_json``); IslaFormatError names the first bad
    field the shape allows and the rules do not."""
    fleets = []
    for i, f in enumerate(obj.get("fleets", ())):
        merchants = tuple(_ship_from(m, f"isla.fleets[{i}].merchants[{j}]")
                          for j, m in enumerate(f["merchants"]))
        pirate = _ship_from(f["pirate"], f"isla.fleets[{i}].pirate") if f.get("pirate") is not None else None
        fleets.append(Fleet(merchants, pirate))
    rows = obj["rows"]
    return Isla(
        fleets=tuple(fleets),
        rows=(tuple(BEAN_INDEX[x] for x in rows.get("bohnbay", ())),
              tuple(BEAN_INDEX[x] for x in rows.get("bohnaco", ()))),
        attacked=tuple(sorted(_ship_ref(x) for x in obj.get("attacked", ()))),
        attack=_ship_ref(obj["attack"]) if obj.get("attack") is not None else None,
        captured=obj.get("captured", False), sails=obj.get("sails", 0), discarded=obj.get("discarded", False))
