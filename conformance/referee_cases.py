"""The referee records (``records/referee/``): seeded legal games with deviations planted where
they do not cascade, annotated records, records from a state and records with unknown cards, each
with what was planted (``NAME.expect.json``): every deviation ``check_record.py --all`` must list
(line, status, rule ID), where the replay must stop, and for unknown cards the search's verdict.
The sidecar is written from the plant, never from the referee's output; the referee must then
reproduce it exactly as the record is made (``verify_referee``), else generation fails."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.common import GenerationError
from conformance.games import jsonl, played
from conformance.kinds import Game, in_trade
from conformance.views import annotated, public_view
from model import Action, Harvest, Phase, Plant, PlantAside, Reshuffle
from model.cards import BEAN_NAMES
from model.state import GameState, state_to_json
from records.game import RECORD_FORMAT, RECORD_VERSION
from records.referee import DESYNC, check_record

Line = dict[str, Any]


@dataclass
class Planted:
    """A record being edited: its lines (the base game's line objects, found by identity, so that
    insertions never shift a plant's line number), the deviations planted on given line objects
    (status, rule ID, why, a phrase the referee's reason must hold) and where the replay must stop."""

    game: Game
    lines: list[Line]
    offset: int = 0  # the base game's action index of the record's first action line
    base: list[Line] = field(default_factory=list)  # the line objects as first made
    marks: list[tuple[Line, str, str, str, str]] = field(default_factory=list)
    stop: Line | None = None
    changes: list[str] = field(default_factory=list)
    unknown: bool = False

    @classmethod
    def of(cls, game: Game, lines: list[Line] | None = None, offset: int = 0) -> Planted:
        made = [dict(x) for x in (lines if lines is not None else game.lines)]
        return cls(game, made, offset, list(made))

    def line(self, i: int) -> Line:
        """The line object of the base game's action ``i``."""
        return self.base[i - self.offset + 1]

    def no(self, obj: Line) -> int:
        """The 1-based line number of a line object."""
        return next(k for k, x in enumerate(self.lines) if x is obj) + 1

    def before(self, obj: Line, *new: Line) -> tuple[Line, ...]:
        k = self.no(obj) - 1
        self.lines[k:k] = list(new)
        return new

    def drop(self, obj: Line) -> None:
        del self.lines[self.no(obj) - 1]

    def mark(self, obj: Line, status: str, rule: str, why: str, says: str = "") -> None:
        self.marks.append((obj, status, rule, why, says))

    def end(self) -> Line:
        if "end" not in self.lines[-1]:
            raise GenerationError(f"{self.game.spec.name}: the game is not over")
        return self.lines[-1]


@dataclass(frozen=True)
class Case:
    name: str
    base: str
    about: str
    make: Callable[[Game], Planted]


def _other(s: GameState, *not_these: int) -> int:
    return next(q for q in range(len(s.players)) if q not in not_these)


def _trading(s: GameState) -> bool:
    return in_trade(s) and s.to_move == s.active


def _wrong(s: GameState, bean: int) -> int:
    """A bean in play other than ``bean``."""
    return next(b for b in s.setup.beans if b != bean)


# ---------------------------------------------------------------- plants that do not cascade


def non_active_offer(p: Planted, i: int) -> None:
    """Before action ``i`` (trading, nothing pending): a non-active seat proposes, and is declined (T3)."""
    s = p.game.states[i]
    q, r = _other(s, s.active), _other(s, s.active, _other(s, s.active))
    offer, _ = p.before(p.line(i), {"action": f"p{q} offer p{r} give h0"}, {"action": f"p{r} decline"})
    p.mark(offer, "illegal", "T3", f"p{q} proposes a deal while p{s.active} is the active player",
           "only the active player")
    p.changes.append(f"inserted p{q} offer p{r} give h0, p{r} decline")


def aside_offer(p: Planted, i: int, answer: str = "decline") -> Line:
    """Before action ``i`` (trading, the active seat holds set-aside cards): it offers a0 (T4)."""
    s = p.game.states[i]
    a = s.active
    q = _other(s, a)
    got = BEAN_NAMES[s.players[a].aside[0]]
    offer, reply = p.before(p.line(i), {"action": f"p{a} offer p{q} give a0"}, {"action": f"p{q} {answer}"})
    p.mark(offer, "illegal", "T4", f"p{a} offers the {got} it received this turn (set aside, never traded "
           "again)", f"a0 ({got})")
    p.changes.append(f"inserted p{a} offer p{q} give a0, p{q} {answer}")
    return reply


def wrong_bean(p: Planted, i: int) -> None:
    """Action ``i`` (a planting from the hand or a harvest) annotated with another bean: a desync."""
    s, a = p.game.states[i], p.game.actions[i]
    if isinstance(a, Plant):
        card, what = s.players[a.player].hand[0], f"p{a.player}'s front card"
    elif isinstance(a, Harvest):
        bean = s.players[a.player].fields[a.field].bean
        assert bean is not None
        card, what = bean, f"p{a.player}'s field {a.field}"
    else:
        raise GenerationError(f"{p.game.spec.name}: {a} moves no card a bean annotation names")
    said = BEAN_NAMES[_wrong(s, card)]
    p.line(i)["bean"] = said
    p.mark(p.line(i), DESYNC, "", f"the line says {said}; {what} is {BEAN_NAMES[card]}",
           f"the record says {said}")
    p.changes.append(f"annotated {a} with bean {said}")


def _first(g: Game, pred: Callable[[GameState, Action], bool], after: int = -1) -> int:
    return g.at(lambda s, a: s.turn > after and pred(s, a))


def _plant(s: GameState, a: Action) -> bool:
    return isinstance(a, Plant)


# ---------------------------------------------------------------- the cases


def three_deviations(g: Game) -> Planted:
    p = Planted.of(g)
    i1 = _first(g, lambda s, a: _trading(s), after=1)
    i2 = _first(g, lambda s, a: _trading(s) and bool(s.players[s.active].aside), g.states[i1].turn)
    i3 = _first(g, _plant, g.states[i2].turn)
    non_active_offer(p, i1)
    aside_offer(p, i2)
    wrong_bean(p, i3)
    return p


def reshuffle_and_end(g: Game) -> Planted:
    """The last reshuffle's bottom card changed (the game ends at the exhaustion while that card is
    drawn into a hand, so nothing after depends on it), a harvest annotated wrongly, and an end line
    with wrong coins (E3) and a wrong winner (E4)."""
    if g.final.final:
        raise GenerationError(f"{g.spec.name}: the final exhaustion came while turning up")
    p = Planted.of(g)
    i = max(k for k, a in enumerate(g.actions) if isinstance(a, Reshuffle))
    h = _first(g, lambda s, a: isinstance(a, Harvest) and bool(s.players[a.player].fields[a.field].count), 2)
    wrong_bean(p, h)
    order = list(p.line(i)["order"])
    was = order[-1]
    now = next(BEAN_NAMES[b] for b in g.states[i].setup.beans if BEAN_NAMES[b] != was)
    order[-1] = now
    p.line(i)["order"] = order
    p.mark(p.line(i), "illegal", "E1", f"the reshuffle's bottom card {was} is given as {now}",
           f"the order has +1 {now}, -1 {was} against the discard pile")
    p.changes.append(f"the last reshuffle's bottom card {was} changed to {now}")
    end = p.end()["end"]
    coins, winners = list(end["coins"]), list(end["winners"])
    loser = next(q for q in range(len(coins)) if q not in winners)
    coins[0] += 1
    p.end()["end"] = {"coins": coins, "winners": [loser]}
    p.mark(p.end(), "illegal", "E3", "the end line gives p0 one coin more", "claims coins")
    p.mark(p.end(), "illegal", "E4", f"the end line names p{loser} the winner", "claims winners")
    p.changes.append(f"the end line: p0's coins raised by one, p{loser} named the winner")
    return p


def stop_after_game_over(g: Game) -> Planted:
    p = Planted.of(g)
    wrong_bean(p, _first(g, _plant, 3))
    (extra,) = p.before(p.end(), {"action": "p0 plant 0"})
    p.mark(extra, "illegal", "E2", "p0 plants after the game is over", "the game is over")
    p.stop = extra
    p.changes.append("inserted p0 plant 0 after the last action")
    return p


def stop_reshuffle_missing(g: Game) -> Planted:
    p = Planted.of(g)
    i = min(k for k, a in enumerate(g.actions) if isinstance(a, Reshuffle))
    non_active_offer(p, _first(g, lambda s, a: _trading(s), 1))
    nxt = p.line(i + 1)
    p.drop(p.line(i))
    p.mark(nxt, "illegal", "E1", f"{g.actions[i + 1]} is played where a reshuffle is due")
    p.stop = nxt
    p.changes.append("deleted the first reshuffle line")
    return p


def annotated_off_by_one(g: Game) -> Planted:
    """A converter off by one card: from the 6th turn on, for 8 lines that name a bean, each names
    the bean of the next such line; a desync wherever the two beans differ."""
    lines = [g.lines[0], *annotated(g.states, g.actions), *g.lines[len(g.actions) + 1:]]
    p = Planted.of(g, lines)
    beaned = [i for i, s in enumerate(g.states[:-1]) if s.turn >= 5 and "bean" in p.line(i)][:9]
    true = [p.line(i)["bean"] for i in beaned]
    for k, i in enumerate(beaned[:-1]):
        p.line(i)["bean"] = true[k + 1]
        if true[k + 1] != true[k]:
            p.mark(p.line(i), DESYNC, "", f"the line names the bean of the next planting or harvest "
                   f"({true[k + 1]}, not {true[k]})", f"the record says {true[k + 1]}")
    if not p.marks:
        raise GenerationError(f"{g.spec.name}: the shifted beans are all the same")
    p.changes.append(f"annotated; the bean annotations of lines {p.no(p.line(beaned[0]))}-"
                     f"{p.no(p.line(beaned[-2]))} shifted by one")
    return p


def retrade_accepted(g: Game) -> Planted:
    """The active seat gives a set-aside card away and the partner accepts (T4); --all follows the
    trade (the accept's annotations name the card, so a referee that did not move it would also
    report a desync); the record stops there (a game in progress)."""
    i = _first(g, lambda s, a: _trading(s) and bool(s.players[s.active].aside), 2)
    s = g.states[i]
    p = Planted.of(g)
    reply = aside_offer(p, i, "accept")
    got = BEAN_NAMES[s.players[s.active].aside[0]]
    reply.update(give=[], take=[got])
    p.lines = p.lines[:p.no(reply)]
    p.changes.append(f"annotated the accept (take {got}); the record stops after it")
    return p


def gift_planted(g: Game) -> Planted:
    """A converter that still holds the card the active seat planted: its gift names the planted
    bean (a desync: that seat holds none, having planted it) and then a hand position one past the
    hand (T3); both declined."""
    def fits(s: GameState, a: Action) -> bool:
        if not _trading(s) or s.planted == 0 or s.turn < 2:
            return False
        field_beans = {f.bean for f in s.players[s.active].fields if f.count}
        held = set(s.players[s.active].hand) | set(s.face_up)
        return bool(s.players[s.active].hand) and bool(field_beans - held)
    i = _first(g, fits)
    s = g.states[i]
    a, q = s.active, _other(s, s.active)
    pl = s.players[a]
    bean = next(f.bean for f in pl.fields if f.count and f.bean not in set(pl.hand) | set(s.face_up))
    assert bean is not None
    name, n = BEAN_NAMES[bean], len(pl.hand)
    p = Planted.of(g)
    gift, _, past, _ = p.before(p.line(i), {"action": f"p{a} offer p{q} give h0", "give": [name]},
                                {"action": f"p{q} decline"}, {"action": f"p{a} offer p{q} give h{n}"},
                                {"action": f"p{q} decline"})
    p.mark(gift, DESYNC, "", f"the gift's annotation names the {name} p{a} planted this turn",
           "this turn")
    p.mark(past, "illegal", "T3", f"p{a} names h{n}, one past its {n} hand cards (it planted this turn)",
           f"; it planted {s.planted} this turn")
    p.changes.append(f"inserted p{a} offer p{q} give h0 (give {name}), p{a} offer p{q} give h{n}, "
                     "each declined")
    return p


def _segment(g: Game, k: int) -> Planted:
    """The record of the game from the state before action ``k`` (header.state)."""
    s = g.states[k]
    head = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "ruleset": s.setup.rules.name,
            "options": s.setup.rules.options(), "players": len(s.players), "seats": g.lines[0]["seats"],
            "state": state_to_json(s), "from": f"{g.spec.name}, before action {k}"}
    p = Planted.of(g, [head, *g.lines[k + 1:]], offset=k)
    p.changes.append(f"the game from the state before action {k} (turn {s.turn})")
    return p


def _mid(g: Game) -> int:
    return _first(g, lambda s, a: s.phase == Phase.PLANT and s.planted == 0, 8)


def from_state(g: Game) -> Planted:
    return _segment(g, _mid(g))


def from_state_deviation(g: Game) -> Planted:
    k = _mid(g)
    p = _segment(g, k)
    aside_offer(p, _first(g, lambda s, a: _trading(s) and bool(s.players[s.active].aside), g.states[k].turn))
    return p


def _view(g: Game, seat: int) -> Planted:
    lines = public_view(g.lines[0], g.states, g.actions, seat) + g.lines[len(g.actions) + 1:]
    p = Planted.of(g, lines)
    p.unknown = True
    p.changes.append(f"the record p{seat}'s engine could log: unseen cards null")
    return p


def unknown_legal(g: Game) -> Planted:
    return _view(g, 1)


def unknown_h3(g: Game) -> Planted:
    """p1's view; another seat's planting onto a field that holds one bean annotated with another:
    no assignment replays it (H3)."""
    def fits(s: GameState, a: Action) -> bool:
        return (isinstance(a, Plant) and a.player != 1 and s.turn >= 4
                and s.players[a.player].fields[a.field].count > 0)
    i = _first(g, fits)
    s, a = g.states[i], g.actions[i]
    assert isinstance(a, Plant)
    held = s.players[a.player].fields[a.field].bean
    assert held is not None
    common = max(s.setup.beans, key=lambda b: (s.setup.deck.count(b), -b))  # the pool most likely has one
    said = BEAN_NAMES[common if common != held else _wrong(s, held)]
    p = _view(g, 1)
    p.line(i)["bean"] = said
    p.mark(p.line(i), "illegal", "H3", f"p{a.player} plants a {said} (the annotation) onto field "
           f"{a.field}, which holds {BEAN_NAMES[held]}")
    p.changes.append(f"{a} annotated with bean {said}")
    return p


def unknown_pool(g: Game) -> Planted:
    """p1's view; a phase-3 line of turn 1 shows p2's whole hand (its 5 dealt cards, unseen: p2 has
    not been active yet, and no card of it was revealed) as cocoa, of which the deck holds 4: no
    assignment replays the line (S)."""
    i = _first(g, lambda s, a: s.turn == 1 and isinstance(a, PlantAside), 0)
    if g.states[i].turn != 1:
        raise GenerationError(f"{g.spec.name}: no phase-3 planting in turn 1")
    cocoa = BEAN_NAMES.index("cocoa")
    s = g.states[i]
    if s.setup.deck.count(cocoa) >= len(g.states[i + 1].players[2].hand):
        raise GenerationError(f"{g.spec.name}: the deck has too many cocoa")
    p = _view(g, 1)
    n = len(g.states[i + 1].players[2].hand)
    p.line(i)["hands"] = {**p.line(i).get("hands", {}), "p2": ["cocoa"] * n}
    p.mark(p.line(i), "illegal", "S", f"the line shows p2 holding {n} cocoa; the deck has "
           f"{s.setup.deck.count(cocoa)}", "more than the deck holds")
    p.changes.append(f"{g.actions[i]} annotated with p2's hand as {n} cocoa")
    return p


REFEREE: list[Case] = [
    Case("three-deviations", "rio-grande-4p", "a non-active seat proposes (T3), a set-aside card is offered "
         "(T4), a planting annotated with the wrong bean (desync); none cascades", three_deviations),
    Case("reshuffle-and-end", "amigo-5p", "a reshuffle order that is not the discard pile (adopted, E1), a "
         "harvest annotated wrongly (desync), an end line with wrong coins (E3) and winner (E4)",
         reshuffle_and_end),
    Case("stop-after-game-over", "amigo-1997-4p", "a desync, then an action after the game is over: the "
         "record cannot be followed past it", stop_after_game_over),
    Case("stop-reshuffle-missing", "rio-grande-5p", "a non-active proposal (T3), then a reshuffle line "
         "deleted: the record cannot be followed where the reshuffle is due", stop_reshuffle_missing),
    Case("annotated-off-by-one", "amigo-3p", "an annotated record whose converter is off by one card: bean "
         "annotations shifted by one line", annotated_off_by_one),
    Case("retrade-accepted", "rio-grande-5p", "a set-aside card given away and accepted (T4); --all follows "
         "the trade", retrade_accepted),
    Case("gift-planted", "rio-grande-4p-seat-tie-break", "a gift annotated with the bean its giver planted "
         "this turn (desync), then a hand position past the hand (T3)", gift_planted),
    Case("from-state", "amigo-v1-4p", "a record of a game segment (header.state), legal", from_state),
    Case("from-state-deviation", "amigo-v2-4p", "a record from a state with a set-aside card offered (T4)",
         from_state_deviation),
    Case("unknown-legal", "rio-grande-4p", "p1's public view of a legal game: unseen cards null",
         unknown_legal),
    Case("unknown-duel-legal", "rio-grande-2p-duel", "p1's public view of a bean duel", unknown_legal),
    Case("unknown-h3", "amigo-5p", "p1's public view with a planting annotated with a bean its field does "
         "not hold (H3)", unknown_h3),
    Case("unknown-pool", "rio-grande-5p", "p1's public view showing more cocoa than the deck holds (S)",
         unknown_pool),
]


def expect_of(case: Case, p: Planted) -> dict[str, Any]:
    """The sidecar: what was planted."""
    devs = sorted(((p.no(obj), status, rule, why) for obj, status, rule, why, _ in p.marks),
                  key=lambda d: d[0])
    status = ("illegal" if any(d[1] == "illegal" for d in devs) else DESYNC) if devs else "legal"
    out: dict[str, Any] = {"status": status, "unknown": p.unknown}
    if p.unknown:
        devs = devs[:1]  # the first line no assignment replays
    out["deviations"] = [{"line": n, "status": st, **({"rule": r} if r else {}), "why": why}
                         for n, st, r, why in devs]
    out["stopped"] = p.no(p.stop) if p.stop is not None else None
    if status == "legal":
        end = p.game.final
        out.update(over=end.phase == Phase.OVER, coins=list(end.coins()))
        if end.phase == Phase.OVER:
            out["winners"] = list(p.lines[-1]["end"]["winners"])
    out.update(about=case.about, base=f"legal/{case.base}.jsonl", changes=p.changes)
    return out


def referee_fixture(case: Case) -> tuple[str, dict[str, Any], list[str]]:
    """The record's text, its sidecar, and the phrase each deviation's reason must hold."""
    p = case.make(played(case.base))
    says = [s for _, _, _, _, s in sorted(p.marks, key=lambda m: p.no(m[0]))]
    return jsonl(p.lines), expect_of(case, p), says


def observed(path: str) -> dict[str, Any]:
    """What the referee says of a record with ``every=True``, in the sidecar's terms."""
    v = check_record(path, every=True)
    devs = [{"line": d.line, "status": d.kind, **({"rule": d.rule} if d.rule else {})} for d in v.deviations]
    out: dict[str, Any] = {"status": v.status, "unknown": v.unknown is not None, "deviations": devs,
                           "stopped": v.stopped or None}
    if v.status == "legal":
        out.update(over=v.over, coins=list(v.coins))
        if v.over:
            out["winners"] = list(v.winners)
    out["reasons"] = [d.reason for d in v.deviations]
    out["text"] = "\n".join(v.lines())
    return out


def planted(expect: dict[str, Any]) -> dict[str, Any]:
    """The sidecar's checkable part (without the words)."""
    out = {k: v for k, v in expect.items() if k not in ("about", "base", "changes", "deviations")}
    out["deviations"] = [{k: v for k, v in d.items() if k != "why"} for d in expect["deviations"]]
    return out


def verify_referee(files: dict[str, str], says: dict[str, list[str]]) -> None:
    """Every referee record gets exactly its sidecar from ``check_record(path, every=True)``, each
    deviation's reason holds the phrase planted with it, and without ``every`` the first deviation
    alone is reported; GenerationError otherwise."""
    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in files.items():
            if not rel.endswith(".jsonl"):
                continue
            path = Path(tmp) / Path(rel).name
            path.write_text(text, encoding="utf-8")
            want = planted(json.loads(files[rel.replace(".jsonl", ".expect.json")]))
            seen = observed(str(path))
            got = {k: seen[k] for k in want}
            if got != want:
                raise GenerationError(f"{rel}: the referee says {got}, the fixture {want}: {seen['text']}")
            for phrase, reason in zip(says[rel], seen["reasons"], strict=False):
                if phrase not in reason:
                    raise GenerationError(f"{rel}: the referee's reason {reason!r} lacks {phrase!r}")
            first = check_record(str(path))  # without --all: the first deviation alone
            devs = want["deviations"]
            alone = (devs[0]["line"], devs[0]["status"], 1) if devs else (None, "legal", 0)
            if (first.line, first.status, len(first.deviations)) != alone:
                raise GenerationError(f"{rel}: without --all the referee says {first.text()}")
