"""La Isla Bohnita's part of the state JSON (``GameState.isla``): ships, rows and the turn's counts."""

from __future__ import annotations

from typing import Any

from model.actions import PORT_NAMES, SHIP_NAMES
from model.cards import BEAN_NAMES, UnknownBean, bean
from model.errors import InputError
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
    """A malformed ``isla`` part of a state JSON; the message names the field."""


def _fail(where: str, why: str) -> IslaFormatError:
    return IslaFormatError(f"state field isla.{where}: {why}")


def _ship_from(obj: Any, where: str) -> Ship:
    if not isinstance(obj, dict):
        raise _fail(where, "expected an object with bean, count and at")
    count = obj.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise _fail(f"{where}.count", f"expected a whole number >= 0, got {count!r}")
    at = obj.get("at", "home")
    if at not in PORT_NAMES:
        raise _fail(f"{where}.at", f"{at!r} is not one of {', '.join(PORT_NAMES)}")
    if count == 0:
        return Ship(-1, 0, PORT_NAMES.index(at))
    name = obj.get("bean")
    try:
        b = int(bean(name if isinstance(name, str) else -1))
    except UnknownBean:
        raise _fail(f"{where}.bean", f"{obj.get('bean')!r} is not a bean") from None
    return Ship(b, count, PORT_NAMES.index(at))


def _ship_ref(value: Any, where: str) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], int)
            and value[1] in SHIP_NAMES):
        raise _fail(where, f"expected [seat, ship name], got {value!r}")
    return value[0], SHIP_NAMES.index(value[1])


def _flag(obj: dict[str, Any], key: str) -> bool:
    v = obj.get(key, False)
    if not isinstance(v, bool):
        raise _fail(key, f"expected true or false, got {v!r}")
    return v


def isla_from_json(obj: Any) -> Isla:
    if not isinstance(obj, dict):
        raise _fail("", "expected an object")
    fleets = []
    for i, f in enumerate(obj.get("fleets") or []):
        if not isinstance(f, dict) or not isinstance(f.get("merchants"), list):
            raise _fail(f"fleets[{i}]", "expected an object with a merchants list")
        merchants = tuple(_ship_from(m, f"fleets[{i}].merchants[{j}]") for j, m in enumerate(f["merchants"]))
        pirate = _ship_from(f["pirate"], f"fleets[{i}].pirate") if f.get("pirate") is not None else None
        fleets.append(Fleet(merchants, pirate))
    rows_json = obj.get("rows")
    if not isinstance(rows_json, dict):
        raise _fail("rows", "expected an object with bohnbay and bohnaco lists")
    rows = []
    for name in PORT_NAMES[1:]:
        row = rows_json.get(name, [])
        try:
            if not isinstance(row, list):
                raise UnknownBean(f"{row!r} is not a list")
            rows.append(tuple(int(bean(x)) for x in row))
        except UnknownBean:
            raise _fail(f"rows.{name}", f"expected a list of bean names, got {row!r}") from None
    attacked = tuple(sorted(_ship_ref(x, f"attacked[{k}]") for k, x in enumerate(obj.get("attacked") or [])))
    attack = _ship_ref(obj["attack"], "attack") if obj.get("attack") is not None else None
    sails = obj.get("sails", 0)
    if not isinstance(sails, int) or isinstance(sails, bool) or sails < 0:
        raise _fail("sails", f"expected a whole number >= 0, got {sails!r}")
    return Isla(fleets=tuple(fleets), rows=(rows[0], rows[1]), attacked=attacked, attack=attack,
                captured=_flag(obj, "captured"), sails=sails, discarded=_flag(obj, "discarded"))
