"""A shim for an engine with another vocabulary: the mapping an author writes (docs/engine-protocol.md).

``FremdesSpiel`` stands for a third-party engine: German bean names, fields counted from 1, its own
move words (``pflanze SITZ FELD``, ``ernte SITZ FELD``, ``fertig SITZ``, ``kaufe SITZ``,
``beiseite SITZ BOHNE FELD``; trading moves it keeps in the protocol's notation), and no list of
trading proposals. It runs on our rules underneath, so that the test can tell a mapping mistake
from a rule difference. ``--nur-streng`` hard-wires the strict H4 reading whatever the options say
(an engine built on one reading, for the readings test).

The shim part is ``Shim``: protocol requests mapped onto the engine's calls and its state mapped
back, the only code an author writes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from conformance.live.client import serve  # noqa: E402
from model import (  # noqa: E402
    BEAN_NAMES,
    PRESETS,
    IllegalAction,
    apply,
    legal_actions,
    new_game,
    parse_action,
    ruleset,
    winners,
)
from model.actions import Reshuffle  # noqa: E402
from model.cards import bean  # noqa: E402
from model.errors import InputError  # noqa: E402

DEUTSCH = {"coffee": "Kaffeebohne", "wax": "Wachsbohne", "blue": "Blaue Bohne", "chili": "Feuerbohne",
           "stink": "Saubohne", "green": "Grüne Bohne", "soy": "Sojabohne", "blackeyed": "Augenbohne",
           "red": "Rote Bohne", "garden": "Gartenbohne", "cocoa": "Kakaobohne", "field": "Ackerbohne"}
ENGLISCH = {v: k for k, v in DEUTSCH.items()}


class FremdesSpiel:
    """The 'other engine': German names, fields 1..n, its own move words."""

    def __init__(self, regeln: str, optionen: dict[str, Any], spieler: int, stapel: list[str],
                 nur_streng: bool) -> None:
        if nur_streng:
            optionen = {**optionen, "harvest": "strict"}
        self._s = new_game(ruleset(regeln, optionen), spieler, deck=[bean(ENGLISCH[k]) for k in stapel])

    def zuege(self) -> list[str]:
        return [self._wort(str(a)) for a in legal_actions(self._s, proposals=False)]

    def ziehe(self, zug: str) -> str | None:
        """Plays ``zug``; the reason if the engine refuses it."""
        try:
            self._s = apply(self._s, parse_action(self._notation(zug)))
        except (IllegalAction, InputError) as e:
            return f"Zug nicht erlaubt: {e}"
        return None

    def mische(self, karten: list[str]) -> str | None:
        try:
            self._s = apply(self._s, Reshuffle(tuple(bean(ENGLISCH[k]) for k in karten)))
        except IllegalAction as e:
            return f"Mischen nicht erlaubt: {e}"
        return None

    def tisch(self) -> dict[str, Any]:
        s = self._s
        return {"spieler": [{"hand": [DEUTSCH[BEAN_NAMES[c]] for c in p.hand],
                             "felder": {i + 1: (DEUTSCH[BEAN_NAMES[f.bean]], f.count)
                                        for i, f in enumerate(p.fields) if f.count},
                             "anzahl_felder": len(p.fields), "taler": len(p.coins),
                             "beiseite": [DEUTSCH[BEAN_NAMES[c]] for c in p.aside]} for p in s.players],
                "auslage": [DEUTSCH[BEAN_NAMES[c]] for c in s.face_up], "stapel": len(s.draw),
                "ablage": len(s.discard), "phase": s.phase.name.lower(), "am_zug": s.to_move,
                "ende": s.is_over, "sieger": list(winners(s)) if s.is_over else []}

    # the engine's own words <-> the protocol's notation (internal to the stand-in engine)
    @staticmethod
    def _wort(text: str) -> str:
        w = text.split()
        seat = w[0][1:]
        if w[1] == "plant" and len(w) == 3:
            return f"pflanze {seat} {int(w[2]) + 1}"
        if w[1] == "plant" and not w[2].startswith("u"):
            return f"beiseite {seat} {DEUTSCH[w[2]]} {int(w[3]) + 1}"
        if w[1] == "harvest":
            return f"ernte {seat} {int(w[2]) + 1}"
        if w[1] == "end":
            return f"fertig {seat}"
        if w[1] == "buy" and len(w) == 2:
            return f"kaufe {seat}"
        return text

    @staticmethod
    def _notation(zug: str) -> str:
        w = zug.split(" ", 2)
        if w[0] == "pflanze":
            return f"p{w[1]} plant {int(w[2]) - 1}"
        if w[0] == "beiseite":
            name, feld = w[2].rsplit(" ", 1)
            return f"p{w[1]} plant {ENGLISCH[name]} {int(feld) - 1}"
        if w[0] == "ernte":
            return f"p{w[1]} harvest {int(w[2]) - 1}"
        if w[0] == "fertig":
            return f"p{w[1]} end"
        if w[0] == "kaufe":
            return f"p{w[1]} buy"
        return zug


# ---------------------------------------------------------------- the shim: what an author writes


def to_engine(action: str) -> str:
    """Protocol notation -> the engine's move words: 0-based fields become 1-based, beans German."""
    w = action.split()
    seat = w[0][1:]
    if w[1] == "plant" and len(w) == 3 and w[2].isdigit():
        return f"pflanze {seat} {int(w[2]) + 1}"
    if w[1] == "plant" and len(w) == 4 and not w[2].startswith("u"):
        return f"beiseite {seat} {DEUTSCH.get(w[2], w[2])} {int(w[3]) + 1}"
    if w[1] == "harvest" and len(w) == 3:
        return f"ernte {seat} {int(w[2]) + 1}"
    if w[1:] == ["end"]:
        return f"fertig {seat}"
    if w[1:] == ["buy"]:
        return f"kaufe {seat}"
    return action


def to_notation(zug: str) -> str:
    """The engine's move words -> protocol notation (fields back to 0-based, beans English)."""
    w = zug.split(" ")
    if w[0] == "pflanze":
        return f"p{w[1]} plant {int(w[2]) - 1}"
    if w[0] == "beiseite":
        return f"p{w[1]} plant {ENGLISCH[' '.join(w[2:-1])]} {int(w[-1]) - 1}"
    if w[0] == "ernte":
        return f"p{w[1]} harvest {int(w[2]) - 1}"
    if w[0] == "fertig":
        return f"p{w[1]} end"
    if w[0] == "kaufe":
        return f"p{w[1]} buy"
    return zug


def _feld(feld: tuple[str, int] | None) -> list[Any] | None:
    """A field of the engine (German bean, count) as the protocol's [bean, count] or null."""
    return [ENGLISCH[feld[0]], feld[1]] if feld else None


class Shim:
    def __init__(self, nur_streng: bool = False) -> None:
        self.nur_streng = nur_streng
        self.spiel: FremdesSpiel | None = None

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        cmd = req["cmd"]
        if cmd == "hello":
            return {"name": "fremdes-spiel", "protocol": 1,
                    "presets": {p: list(range(r.min_players, r.max_players + 1)) for p, r in PRESETS.items()}}
        if cmd == "start":
            if req.get("state") is not None:
                return {"unsupported": "das Spiel beginnt nur mit einem Stapel"}
            if (req.get("options") or {}).get("isla"):
                return {"ok": False, "reason": "keine Insel"}
            try:
                self.spiel = FremdesSpiel(req["ruleset"], req.get("options") or {}, req["players"],
                                          [DEUTSCH[b] for b in req["deck"]], self.nur_streng)
            except InputError as e:
                return {"ok": False, "reason": str(e)}
            return {"ok": True}
        assert self.spiel is not None
        if cmd == "legal":
            return {"actions": [to_notation(z) for z in self.spiel.zuege()], "proposals": False}
        if cmd == "apply":
            why = self.spiel.ziehe(to_engine(req["action"]))
            return {"accepted": why is None, **({"reason": why} if why else {})}
        if cmd == "reshuffle":
            why = self.spiel.mische([DEUTSCH[b] for b in req["order"]])
            return {"accepted": why is None, **({"reason": why} if why else {})}
        t = self.spiel.tisch()
        if cmd == "state":
            return {"state": {
                "players": [{"hand": [ENGLISCH[k] for k in p["hand"]],
                             "fields": [_feld(p["felder"].get(i)) for i in range(1, p["anzahl_felder"] + 1)],
                             "coins": p["taler"], "aside": [ENGLISCH[k] for k in p["beiseite"]]}
                            for p in t["spieler"]],
                "face_up": [ENGLISCH[k] for k in t["auslage"]], "draw": t["stapel"], "discard": t["ablage"],
                "phase": t["phase"], "to_move": t["am_zug"]}}
        if cmd == "winners":
            return {"over": t["ende"], "coins": [p["taler"] for p in t["spieler"]], "winners": t["sieger"]}
        return {"unsupported": cmd}


if __name__ == "__main__":
    serve(Shim("--nur-streng" in sys.argv).handle)
