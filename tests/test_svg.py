"""drawing/svg.py: the picture of a state. For every conformance position and states sampled from
seeded games of every preset, 2-7 players and La Isla Bohnita: the SVG parses as XML, holds every
card of the state exactly once (the card elements counted by zone and bean against the state), a
bean name on every card whose face is shown, and no two text boxes overlap (boxes from each text's
position, font size and length in the monospace font, with the group translations applied)."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from drawing.svg import svg
from model import GameState, new_game
from model.isla import isla_of
from model.rules import PRESETS, ruleset, setup
from play.bots import random_bot
from play.playout import playout
from records.game import parse_record
from schemas.position_io import state_of

ROOT = Path(__file__).resolve().parent.parent
CONF = ROOT / "tests" / "conformance"
NS = "{http://www.w3.org/2000/svg}"
ADVANCE = 0.602  # DejaVu Sans Mono's advance per font size: a real font, not the layout's own constant


def conformance_states() -> list[tuple[str, GameState]]:
    out = [(p.name, state_of(json.loads(p.read_text()), p.name))
           for p in sorted((CONF / "perft").glob("*.json")) + sorted((CONF / "endgames").glob("*.json"))]
    for p in sorted((CONF / "records").glob("*/*.jsonl")):  # records that start from a state
        head = json.loads(p.read_text().splitlines()[0])
        if "state" in head:
            rec = parse_record(p.read_text())
            out.append((p.name, rec.initial_state()))
    return out


def game_configs() -> list[tuple[str, int, bool]]:
    out = []
    for name, r in PRESETS.items():
        out += [(name, n, False) for n in range(r.min_players, r.max_players + 1)]
    out += [("rio-grande", n, True) for n in (2, 3, 4, 5, 6, 7)] + [("amigo", n, True) for n in (3, 5)]
    return out


def sampled(name: str, n: int, isla: bool, every: int = 37, most: int = 8) -> list[GameState]:
    """States of one seeded random game, one every ``every`` steps (the last one too)."""
    rules = ruleset(name, {"isla": True} if isla else {})
    seed = 1000 + n + 10 * isla
    picks: list[GameState] = []
    last = None
    for k, (s, _) in enumerate(playout(new_game(rules, n, seed), random_bot, random.Random(seed))):
        last = s
        if k % every == 0 and len(picks) < most:
            picks.append(s)
        if k > every * most:
            break
    assert last is not None
    return picks + [last]


def expected_cards(s: GameState) -> dict[str, Counter[str]]:
    """zone -> bean multiset ('' for cards whose face the picture does not show), from the state."""
    from model.cards import BEAN_NAMES as N

    z: dict[str, Counter[str]] = {}
    z["draw"] = Counter({"": len(s.draw)})
    z["discard"] = Counter({N[s.discard[-1]]: len(s.discard)} if s.discard else {})
    z["out"] = Counter({"": len(s.out)})
    z["face_up"] = Counter(N[c] for c in s.face_up)
    for i, p in enumerate(s.players):
        z[f"p{i}.hand"] = Counter(N[c] for c in p.hand)
        z[f"p{i}.coins"] = Counter({"": len(p.coins)})
        z[f"p{i}.aside"] = Counter(N[c] for c in p.aside)
        for j, f in enumerate(p.fields):
            z[f"p{i}.fields.{j}"] = Counter({N[f.bean]: f.count} if f.count else {})
        if s.ext is not None:
            for k, ship in isla_of(s).fleets[i].ships():
                z[f"p{i}.ship.{k}"] = Counter({N[ship.bean]: ship.count} if ship.count else {})
    if s.ext is not None:
        for r, row in enumerate(isla_of(s).rows):
            z[f"row.{r}"] = Counter(N[c] for c in row)
    return {k: +v for k, v in z.items() if +v}


def _translate(el: ET.Element) -> tuple[float, float]:
    m = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", el.get("transform", "translate(0,0)"))
    assert m, el.get("transform")
    return float(m.group(1)), float(m.group(2))


def walk(el: ET.Element, dx: float = 0, dy: float = 0, card: ET.Element | None = None):
    """(element, its offset, the card element it is in) for every element under ``el``."""
    for child in el:
        tx, ty = _translate(child)
        inner = child if "card" in child.get("class", "").split() else card
        yield child, dx + tx, dy + ty, inner
        yield from walk(child, dx + tx, dy + ty, inner)


def text_box(t: ET.Element, dx: float, dy: float) -> tuple[float, float, float, float]:
    size = float(t.get("font-size", "11"))
    w = len(t.text or "") * ADVANCE * size
    x = float(t.get("x", "0")) + dx
    if t.get("text-anchor") == "middle":
        x -= w / 2
    y = float(t.get("y", "0")) + dy
    return x, y - 0.76 * size, x + w, y + 0.24 * size


def overlaps(boxes: list[tuple[tuple[float, float, float, float], str]]) -> list[tuple[str, str]]:
    out = []
    boxes = sorted(boxes)
    for a in range(len(boxes)):
        (x0, y0, x1, y1), s = boxes[a]
        for b in range(a + 1, len(boxes)):
            (u0, v0, u1, v1), t = boxes[b]
            if u0 >= x1:
                break
            if v0 < y1 and y0 < v1:
                out.append((s, t))
    return out


def check_picture(s: GameState, seat: int | None = None, whole: bool = False) -> ET.Element:
    """``whole``: a state of a whole game (not a hand-made endgame), so every card of the deck is in it."""
    text = svg(s, seat)
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    got: dict[str, Counter[str]] = {}
    boxes = []
    for el, dx, dy, card in walk(root):
        cls = el.get("class", "").split()
        if "card" in cls and el.get("data-n") is not None:
            zone = got.setdefault(el.get("data-zone", ""), Counter())
            zone[el.get("data-bean", "")] += int(el.get("data-n", "0"))
            if el.get("data-bean"):  # a face shown: its name is written on it
                assert el.get("data-bean") in [t.text for t in el.iter(NS + "text")], el.attrib
        if el.tag == NS + "text":
            box = text_box(el, dx, dy)
            assert 0 <= box[0] and box[2] <= width and 0 <= box[1] and box[3] <= height, (el.text, box)
            if card is not None:  # a card's text stays on the card
                r = card.find(NS + "rect")
                assert r is not None
                cx = float(r.get("x", "0")) + dx
                assert cx <= box[0] and box[2] <= cx + float(r.get("width", "0")), (el.text, box)
            boxes.append((box, el.text or ""))
    assert overlaps(boxes) == []
    if seat is None:
        got = {k: +v for k, v in got.items() if +v}
        assert got == expected_cards(s)
        if whole:
            assert sum(sum(c.values()) for c in got.values()) == len(s.setup.deck)
    return root


CONFORMANCE = conformance_states()


@pytest.mark.parametrize("name,s", CONFORMANCE, ids=[n for n, _ in CONFORMANCE])
def test_svg_of_every_conformance_position(name: str, s: GameState) -> None:
    check_picture(s)


@pytest.mark.parametrize("name,n,isla", game_configs(),
                         ids=[f"{a}-{n}p" + ("-isla" if i else "") for a, n, i in game_configs()])
def test_svg_of_states_from_seeded_games(name: str, n: int, isla: bool) -> None:
    for s in sampled(name, n, isla):
        check_picture(s, whole=True)
        check_picture(s, seat=s.active)


@pytest.mark.rule("H7")
def test_H7_a_seat_view_shows_other_hands_as_backs_and_hides_their_coins() -> None:
    s = sampled("rio-grande", 4, False)[3]
    root = check_picture(s, seat=1)
    cards = [el for el, *_ in walk(root) if "card" in el.get("class", "")]
    for i, p in enumerate(s.players):
        hand = [el for el in cards if el.get("data-zone") == f"p{i}.hand"]
        assert len(hand) == len(p.hand)
        assert all(("back" in el.get("class", "")) == (i != 1) for el in hand)
        assert all(el.get("data-bean") is None for el in hand if i != 1)
        coins = [el for el in cards if el.get("data-zone") == f"p{i}.coins"]
        assert len(coins) == 1
        assert (coins[0].get("data-n") is None) == (i != 1)  # H7: not even the count
        texts = [t.text for t in coins[0].iter(NS + "text")]
        assert texts == (["coins", str(len(p.coins))] if i == 1 else ["coins", "hidden"])


@pytest.mark.rule("H4")
@pytest.mark.parametrize("name", ["protected-single", "rio4-last-turn"])
def test_H4_a_protected_single_is_marked_where_it_explains_a_choice_and_the_front_card_H1(name: str) -> None:
    """H4 is marked on the seat to move's protected singles only (it explains which harvest that
    seat may make); "H4 kept" on every one-card field of the table explained nothing. Fields and
    hand cards carry the numbers the actions use (``harvest 0``, ``accept h11,h15``)."""
    from model.core import harvestable
    from solvers.positions import BUILTINS

    s = BUILTINS[name].position()
    root = check_picture(s)
    cards = [el for el, *_ in walk(root) if "card" in el.get("class", "")]
    kept = [el for el in cards if "h4" in el.get("class", "").split()]
    protected = [(i, j) for i, p in enumerate(s.players) for j, f in enumerate(p.fields)
                 if f.count == 1 and not harvestable(p.fields, j, s.setup.strict_harvest)]
    want = [(i, j) for i, j in protected if i == s.to_move]
    assert protected != want or name == "protected-single"  # rio4-last-turn: the others' too, unmarked
    assert [el.get("data-zone") for el in kept] == [f"p{i}.fields.{j}" for i, j in want]
    assert want or name != "protected-single"
    texts = [[t.text for t in el.iter(NS + "text")] for el in cards]
    assert sum("H4 kept" in x for x in texts) == len(want)
    fronts = [el for el in cards
              if "front" in el.get("class", "").split() and ".hand" in el.get("data-zone", "")]
    assert [el.get("data-zone") for el in fronts] == [f"p{i}.hand" for i, p in enumerate(s.players) if p.hand]
    for i, p in enumerate(s.players):
        hand = [x for el, x in zip(cards, texts, strict=True) if el.get("data-zone") == f"p{i}.hand"]
        assert [x[1].split()[0] for x in hand] == [f"h{k}" for k in range(len(p.hand))]
        fields = {el.get("data-zone"): x for el, x in zip(cards, texts, strict=True)
                  if el.get("data-zone", "").startswith(f"p{i}.fields.")}
        assert all(fields[f"p{i}.fields.{j}"][0] == f"field {j}" for j, f in enumerate(p.fields) if f.count)


def test_the_coins_a_field_pays_now_follow_the_beanometer() -> None:
    s = state_of(json.loads((CONF / "endgames" / "six-reds.json").read_text()), "six-reds")
    root = check_picture(s)
    for el, *_ in walk(root):
        z = el.get("data-zone", "")
        if ".fields." in z and el.get("data-n"):
            i, j = int(z[1:z.index(".")]), int(z.rsplit(".", 1)[1])
            f = s.players[i].fields[j]
            texts = [t.text for t in el.iter(NS + "text")]
            assert f"pays {s.setup.payout[f.bean][f.count]}" in texts


def test_repr_svg_is_the_picture_and_str_stays_the_text() -> None:
    s = new_game(ruleset("rio-grande"), 3, 5)
    assert s._repr_svg_() == svg(s)
    assert not str(s).startswith("<")
    assert setup(s.setup.rules, 3).fields == len(s.players[0].fields)
