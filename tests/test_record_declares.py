"""F1 leaves open which coin cards pay for the third field. An engine that pays with the oldest
declares it (docs/engine-protocol.md, ``coin_payment``); a record it wrote says so in its header
(``"declares": {"coin_payment": "oldest"}``, docs/records.md), and the referee replays the purchase
that way instead of flagging the engine's state as an F1 break."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from conformance.live.diff import Divergence, GameSpec
from conformance.live.shrink import record_of
from model import BEAN_NAMES, Action, BuyField, GameState, Phase, apply, chance_outcome, new_game, ruleset
from model.core import oldest
from play.bots import BOTS
from records.game import action_line, header
from records.referee import check_record


def _purchase() -> tuple[GameState, list[Action], GameState]:
    """(the start, the actions to a purchase whose oldest coins are other beans than its top ones,
    included, the state after it with the oldest coins paid) of a seeded greedy game."""
    for seed in range(1, 20):
        s0 = s = new_game(ruleset("rio-grande"), 4, seed)
        rng, played = random.Random(seed), []
        while s.phase != Phase.OVER:
            a = chance_outcome(s, rng) if s.phase == Phase.CHANCE else BOTS["greedy"](s, rng)
            t = apply(s, a)
            played.append(a)
            if isinstance(a, BuyField):
                paid = oldest(s, t, a.player)
                if sorted(paid.discard) != sorted(t.discard):
                    return s0, played, paid
                break  # the same beans either way: shows nothing
            s = t
    raise AssertionError("no purchase that the oldest coins pay differently")


def _write(path: Path, lines: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return str(path)


def test_F1_a_record_that_declares_the_oldest_coins_pay_is_replayed_so(tmp_path: Path) -> None:
    s0, played, after = _purchase()
    lines: list[dict[str, Any]] = [header(s0)] + [action_line(a) for a in played]
    lines[-1]["claims"] = {"discard": [BEAN_NAMES[c] for c in after.discard],
                           "players": [{"coins": len(p.coins)} for p in after.players]}
    flagged = check_record(_write(tmp_path / "top.jsonl", lines))
    assert flagged.status == "illegal" and flagged.rule == "F1" and flagged.line == len(lines)
    lines[0]["declares"] = {"coin_payment": "oldest"}
    assert check_record(_write(tmp_path / "oldest.jsonl", lines)).status == "legal"
    lines[0]["declares"] = {"coin_payment": "newest"}
    assert check_record(_write(tmp_path / "bad.jsonl", lines)).status == "malformed"


def test_F1_a_reproducer_of_an_engine_that_declared_the_oldest_coins_says_so() -> None:
    s0, played, after = _purchase()
    spec = GameSpec(0, "rio-grande", 4, seed=1)
    d = Divergence("state", "T3", "what", spec, len(played), after, str(played[-1]), tuple(played[:-1]),
                   coin_payment="oldest")
    assert record_of(d)[0][0]["declares"] == {"coin_payment": "oldest"}
    plain = Divergence("state", "T3", "what", spec, len(played), after, str(played[-1]), tuple(played[:-1]))
    assert "declares" not in record_of(plain)[0][0]
