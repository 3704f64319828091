"""A second referee for game records: the independent spec (proofs/spec.py) replays every step.

The initial position is the record's header, dealt by ``model.new_game`` (the deal is data, not a
rule); every step after it is judged by the spec's transition relation alone, evaluated on the
concrete state: the same guard and successor formulas the Z3 proofs reason about. Its verdict is
compared with the engine's replay (scripts/check_record.py --z3).
"""

from __future__ import annotations

from dataclasses import dataclass

from model.actions import format_action
from proofs.bridge import NoSpecAction, face_up_of, spec_action, state_to_spec
from proofs.kernel import CHANCE, OVER, SpecError
from proofs.spec import RESHUFFLE_K, Spec, SpecConfig, SState
from records.game import Record


@dataclass
class SpecVerdict:
    line: int | None  # the first illegal line, None when every step is legal
    action: str = ""
    reason: str = ""
    state: SState | None = None  # the spec's final state when legal

    @property
    def legal(self) -> bool:
        return self.line is None


def spec_replay(rec: Record) -> SpecVerdict:
    """Replay ``rec`` with the spec; stop at the first step whose guard does not hold."""
    s0 = rec.initial_state()
    spec = Spec(SpecConfig.from_setup(s0.setup))
    table = {t.kind: t for t in spec.transitions() if not t.internal}
    k = s0.setup.rules.max_deal_cards
    ss = state_to_spec(s0)
    for line, action in zip(rec.lines, rec.actions, strict=True):
        name = format_action(action)
        if ss.phase == OVER:
            return SpecVerdict(line, name, "the game is over (spec)")
        try:
            sa = spec_action(action, face_up_of(ss), k)
        except NoSpecAction as exc:
            return SpecVerdict(line, name, f"{exc} (spec)")
        t = table[sa.kind]
        if sa.kind != RESHUFFLE_K and spec.decision(ss, sa) is not True:
            # the decision part of every guard first: a seat that does not exist (p9) has no
            # player record for the rest of the guard to read
            return SpecVerdict(line, name, f"the spec's {t.name} guard does not hold (p{sa.player} is "
                               "not to move)")
        if t.guard(ss, sa) is not True:
            return SpecVerdict(line, name, f"the spec's {t.name} guard does not hold")
        try:
            ss = spec.settle(t.after(ss, sa))
        except SpecError as exc:  # a bug in the spec, not in the record
            return SpecVerdict(line, name, f"the spec is stuck: {exc}")
    if rec.end is not None:
        if ss.phase == CHANCE:
            return SpecVerdict(rec.end_line, "end", "the record ends where a reshuffle is due (spec)")
        if ss.phase != OVER:
            return SpecVerdict(rec.end_line, "end", "the record claims an end but the game is not over "
                               "(spec)")
        coins = [p.coins.n for p in ss.players]
        if [int(c) for c in rec.end.get("coins", [])] != coins:
            return SpecVerdict(rec.end_line, "end", f"the spec's coins are {coins}")
        if "winners" in rec.end and [int(w) for w in rec.end["winners"]] != list(spec.winners(ss)):
            return SpecVerdict(rec.end_line, "end", f"the spec's winners are {list(spec.winners(ss))}")
    return SpecVerdict(None, state=ss)
