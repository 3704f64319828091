"""La Isla Bohnita, engine vs spec (proofs/isla/spec.py) on states from simulated Isla games: for every
Isla action (and harvest, third field) of the player to move and the next seat, with indices one past
their ranges and perturbations of the legal ones, the engine allows it exactly when the spec's guard
holds, and a legal action's successor (the spec's decision followed by its internal steps) agrees on
the expansion's part of the state. Engine plantings only need to satisfy the spec's abstract
planting guard (an over-approximation). The end of each turn and of the game is compared too: the
spec's steps from the engine's state must reach the engine's successor.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from console.progress import ProgressFn
from model import (
    Action,
    BuyField,
    GameState,
    Harvest,
    IllegalAction,
    Phase,
    Plant,
    PlantAside,
    PlantUp,
    apply,
    legal_actions,
)
from model.cards import BEAN_NAMES
from model.dealing import Deal
from model.isla import isla_of
from model.isla.actions import Attack, BuyShip, HarvestOnto, MoveCargo, PlantCargo, Sail, Sell, Yield
from model.rules import ruleset
from model.steps import STEPS
from play.bots import BOTS
from play.playout import play_game
from proofs.isla.invariants import inv
from proofs.isla.spec import (
    ATTACK,
    BUY_FIELD,
    BUY_PIRATE,
    BUY_SHIP,
    HARVEST,
    HARVEST_ONTO,
    HOME,
    MERCHANTS,
    MOVE,
    PLANT_CARGO,
    PLANT_LAND,
    PORTS,
    ROW,
    SAIL,
    SELL,
    SELL_DEFENCE,
    SHIPS,
    YIELD,
    IAction,
    IPlayer,
    IslaConfig,
    IslaSpec,
    IState,
    SShip,
    Unsupported,
)
from proofs.kernel import ENDTURN, FINISH, NF
from proofs.symbolic import Seq, Val

ISLA_KINDS = (Sail, HarvestOnto, Sell, MoveCargo, Attack, Yield, BuyShip, PlantCargo)
CHECKED_KINDS = ISLA_KINDS + (Harvest, BuyField)  # guards compared both ways
PLANT_KINDS = (Plant, PlantAside, PlantUp)  # the spec over-approximates: engine-legal => spec guard


def _tally(cfg: IslaConfig, cards: Sequence[int]) -> tuple[int, ...]:
    c = Counter(cards)
    return tuple(c[b] for b in cfg.beans)


REFILL_CODES = (Deal.ROW_0, Deal.ROW_1)  # the engine's todo codes of the two rows (I2)


def to_spec_state(s: GameState, cfg: IslaConfig) -> IState:
    """The spec's view of an engine state (concrete values). At a reshuffle (E1) the cards still to
    take: ``refill`` those for each row, ``todo`` the rest (drawn or turned up)."""
    isla = isla_of(s)
    assert isla is not None
    n = len(s.players)
    players = []
    for p, pl in enumerate(s.players):
        fleet = isla.fleets[p]
        ships = []
        for k in SHIPS:
            sh = fleet.ship(k)
            ships.append(SShip(-1, 0, HOME, False) if sh is None else
                         SShip(sh.bean if sh.count else -1, sh.count, sh.at, True))
        land = pl.hand + pl.aside + (s.face_up if p == s.active else ())
        players.append(IPlayer(
            fb=tuple(f.bean if f.count else -1 for f in pl.fields) + (-1,) * (NF - len(pl.fields)),
            fc=tuple(f.count for f in pl.fields) + (0,) * (NF - len(pl.fields)), nf=len(pl.fields),
            land=_tally(cfg, land), coins=_tally(cfg, pl.coins), ships=tuple(ships)))
    attacked = tuple(tuple((q, i) in isla.attacked for i in MERCHANTS) for q in range(n))
    return IState(
        players=tuple(players), rows=tuple(Seq(tuple(row), len(row)) for row in isla.rows),
        draw=Seq(tuple(s.draw), len(s.draw)), discard=_tally(cfg, s.discard), out=_tally(cfg, s.out),
        attacked=attacked, under=tuple(tuple(isla.attack == (q, i) for i in MERCHANTS) for q in range(n)),
        captured=bool(isla.captured), sails=isla.sails,
        hits=tuple(tuple(int(x) for x in row) for row in attacked),
        active=s.active, to_move=s.to_move, phase=int(s.phase), pend=s.pending is not None,
        final=bool(s.final), exh=s.exhaustions, todo=sum(d not in REFILL_CODES for d in s.todo),
        refill=tuple(s.todo.count(code) for code in REFILL_CODES))


def _pay(cfg: IslaConfig, coins: tuple[int, ...], cost: int) -> tuple[int, ...]:
    """Some ``cost`` of these coins (fewer if there are not that many: the guard then refuses)."""
    out, left = [], cost
    for c in coins:
        x = min(c, left)
        out.append(x)
        left -= x
    return tuple(out)


def to_spec_action(s: GameState, a: Action, cfg: IslaConfig,
                   after: GameState | None = None) -> IAction | None:
    """The spec's action for an engine action (None: not an Isla action, harvest, purchase or planting).
    A purchase pays the coins the engine's successor paid, or (no successor) any coins."""
    isla = isla_of(s)
    assert isla is not None
    if isinstance(a, Sail):
        return IAction(SAIL, a.player, a.ship, a.port, take=a.take)
    if isinstance(a, HarvestOnto):
        return IAction(HARVEST_ONTO, a.player, a.ship, field=a.field)
    if isinstance(a, Harvest):
        return IAction(HARVEST, a.player, field=a.field)
    if isinstance(a, Sell):
        return IAction(SELL_DEFENCE if isla.attack == (a.player, a.ship) else SELL, a.player, a.ship)
    if isinstance(a, MoveCargo):
        return IAction(MOVE, a.player, a.source, target=a.target)
    if isinstance(a, Attack):
        return IAction(ATTACK, a.player, a.ship, target=a.target)
    if isinstance(a, Yield):
        return IAction(YIELD, a.player)
    if isinstance(a, (BuyShip, BuyField)):
        kind = BUY_FIELD if isinstance(a, BuyField) else BUY_PIRATE if a.pirate else BUY_SHIP
        cost = {BUY_FIELD: cfg.third_cost or 0, BUY_PIRATE: cfg.pirate_cost, BUY_SHIP: cfg.ship_cost}[kind]
        if not 0 <= a.player < len(s.players):
            return IAction(kind, a.player, pay=(0,) * len(cfg.beans))
        coins = _tally(cfg, s.players[a.player].coins)
        if after is not None:
            left = _tally(cfg, after.players[a.player].coins)
            pay = tuple(x - y for x, y in zip(coins, left, strict=True))
        else:
            pay = _pay(cfg, coins, cost)
        return IAction(kind, a.player, pay=pay)
    if isinstance(a, Plant):
        return IAction(PLANT_LAND, a.player, field=a.field, bean=s.players[a.player].hand[0])
    if isinstance(a, PlantAside):
        return IAction(PLANT_LAND, a.player, field=a.field, bean=a.bean)
    if isinstance(a, PlantUp):
        return IAction(PLANT_LAND, a.player, field=a.field, bean=s.face_up[a.index])
    if isinstance(a, PlantCargo):  # only the mutant plant-cargo has this transition
        return IAction(PLANT_CARGO, a.player, a.ship, field=a.field)
    return None


def observable(spec: IslaSpec, s: IState) -> dict[str, Any]:
    """The expansion's part of a concrete spec state, beans by name, for comparison."""
    beans = spec.cfg.beans

    def tally(xs: tuple[Val, ...]) -> dict[str, int]:
        return {BEAN_NAMES[b]: x for b, x in zip(beans, xs, strict=True) if x}

    out: dict[str, Any] = {}
    for p, pl in enumerate(s.players):
        out[f"p{p} fields"] = tuple((BEAN_NAMES[pl.fb[f]] if pl.fc[f] else None, pl.fc[f])
                                    for f in range(pl.nf))
        out[f"p{p} land"] = tally(pl.land)
        out[f"p{p} coins"] = tally(pl.coins)
        out[f"p{p} ships"] = tuple((BEAN_NAMES[sh.bean] if sh.count else None, sh.count, sh.at)
                                   for sh in pl.ships if sh.owned)
    out["rows"] = tuple(tuple(BEAN_NAMES[c] for c in row.items()) for row in s.rows)
    out["draw"] = tuple(BEAN_NAMES[c] for c in s.draw.items())
    out["discard"] = tally(s.discard)
    out["out"] = tally(s.out)
    out["attacked"] = tuple((q, i) for q, row in enumerate(s.attacked) for i, x in enumerate(row) if x)
    out["attack"] = tuple((q, i) for q, row in enumerate(s.under) for i, x in enumerate(row) if x)
    out["captured"] = s.captured
    out["sails"] = s.sails
    out["active"] = s.active
    out["to_move"] = s.to_move
    out["phase"] = s.phase
    out["exhaustions"] = s.exh
    return out


PLANT_KEYS = ("fields", "ships", "coins")  # compared when a planting ends a phase (base steps follow)
END_KEYS = ("fields", "ships", "coins", "discard", "out", "phase")  # compared at the end of the game


def _diff(mine: dict[str, Any], theirs: dict[str, Any], keys: Callable[[str], bool]) -> str:
    bad = [k for k in sorted(set(mine) | set(theirs)) if keys(k) and mine.get(k) != theirs.get(k)]
    return "; ".join(f"{k}: engine {theirs.get(k)} spec {mine.get(k)}" for k in bad)


@dataclass
class DiffReport:
    games: int = 0
    states: int = 0  # states met while replaying
    mapped: int = 0  # mapped to the spec and checked
    skipped: Counter[str] = field(default_factory=Counter)  # reason -> states not mapped
    legal: Counter[str] = field(default_factory=Counter)  # engine-legal actions checked, by kind
    perturbed: int = 0  # illegal actions made by perturbing a legal one
    others: int = 0  # further actions of the per-state universe, legal or not
    successors: int = 0  # successors compared in full
    partial: int = 0  # plantings that ended a phase: compared on fields, ships, coins, discard
    ending: int = 0  # plantings that ended the game: compared as game ends
    turn_ends: int = 0
    turn_ends_skipped: Counter[str] = field(default_factory=Counter)
    game_ends: int = 0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        skipped = ", ".join(f"{k}: {v}" for k, v in sorted(self.skipped.items())) or "none"
        tskip = ", ".join(f"{k}: {v}" for k, v in sorted(self.turn_ends_skipped.items())) or "none"
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.legal.items()))
        return (f"differential: {self.games} games, {self.states} states, {self.mapped} mapped, "
                f"{sum(self.skipped.values())} skipped ({skipped})\n"
                f"  legal actions checked: {sum(self.legal.values())} ({kinds})\n"
                f"  illegal by perturbation: {self.perturbed}; other actions of the universe: {self.others}\n"
                f"  successors compared: {self.successors} in full, {self.partial} plantings in part, "
                f"{self.ending} ending the game (as game ends)\n"
                f"  turn ends compared: {self.turn_ends} (skipped: {tskip}); game ends compared: "
                f"{self.game_ends}\n  disagreements: {len(self.problems)}")


def _universe(s: GameState) -> list[Action]:
    """Every Isla action (and harvest, third field) of the player to move and the next seat, with
    indices one past their ranges."""
    n = len(s.players)
    me = s.to_move if s.to_move >= 0 else 0
    out: list[Action] = []
    for p in sorted({me, (me + 1) % n}):
        out += [Sail(p, i, port, k) for i in SHIPS for port in PORTS for k in range(ROW + 2)]
        out += [HarvestOnto(p, f, i) for f in range(NF + 1) for i in SHIPS]
        out += [Harvest(p, f) for f in range(NF + 1)]
        out += [Sell(p, i) for i in SHIPS]
        out += [MoveCargo(p, i, j) for i in SHIPS for j in SHIPS]
        out += [Attack(p, q, i) for q in range(n) for i in SHIPS]
        out += [Yield(p), BuyShip(p, False), BuyShip(p, True), BuyField(p)]
        out += [PlantCargo(p, k, f) for k in SHIPS for f in range(NF)]
    return out


def _perturb(a: Action, n: int) -> list[Action]:
    """Actions one step away from ``a``: each number changed by one, another seat or ship."""
    out: list[Action] = []
    slots: tuple[str, ...] = a.__slots__
    for name in slots:
        if name == "pirate":
            continue
        value = getattr(a, name)
        for v in (value - 1, value + 1):
            out.append(type(a)(**{**{x: getattr(a, x) for x in slots}, name: v}))
    if isinstance(a, BuyShip):
        out.append(BuyShip(a.player, not a.pirate))
    return out


def _engine_ok(s: GameState, a: Action) -> tuple[bool, GameState | None, str]:
    try:
        return True, apply(s, a), ""
    except IllegalAction as exc:
        return False, None, str(exc)


def check_state(s: GameState, spec: IslaSpec, report: DiffReport, limit: int = 20) -> None:
    """Compare engine and spec on ``s``: each action of the universe and each perturbation of a legal
    action is legal for the engine exactly when the spec's guard holds; each legal action's
    successor agrees on the expansion's part. Engine-legal plantings must satisfy the spec's
    abstract planting guard."""
    cfg = spec.cfg
    ss = to_spec_state(s, cfg)
    where = f"turn {s.turn}, {s.phase.name}, p{s.to_move} to move"
    problems: list[str] = []
    wf = inv(spec, ss)
    if wf is not True:
        problems.append(f"{where}: the engine's state breaks the spec's invariant (the proofs' premise)")
    listed = legal_actions(s)
    legal = set(listed)
    if len(legal) != len(listed):
        problems.append(f"{where}: the engine lists an action twice")
    table = {t.kind: t for t in spec.transitions()}
    universe = _universe(s)
    seen = set(universe)
    extra: list[Action] = []
    for a in listed:
        if isinstance(a, CHECKED_KINDS):
            for b in _perturb(a, len(s.players)):
                if b not in legal and b not in seen:
                    seen.add(b)
                    extra.append(b)
    rest = [a for a in listed if isinstance(a, CHECKED_KINDS + PLANT_KINDS) and a not in seen]
    for a in [*universe, *extra, *rest]:
        is_listed = a in legal
        try:
            ok, after, why = _engine_ok(s, a)
        except Exception as exc:  # an engine crash is a finding
            problems.append(f"{where}: {a}: the engine crashed: {type(exc).__name__}: {exc}")
            continue
        if ok != is_listed and not isinstance(a, PLANT_KINDS):
            problems.append(f"{where}: {a}: legal_actions {'lists' if is_listed else 'omits'} it but apply "
                            f"{'refuses' if not ok else 'accepts'} it {why}")
        sa = to_spec_action(s, a, cfg, after if ok else None)
        guard = table[sa.kind].guard(ss, sa) if sa is not None and sa.kind in table else False
        if not isinstance(guard, bool):
            raise TypeError(f"the spec's guard is not concrete for {a}")
        if isinstance(a, PLANT_KINDS):
            if is_listed and not guard:
                problems.append(f"{where}: {a}: the engine allows this planting; the spec's guard refuses it")
        elif guard != is_listed:
            problems.append(f"{where}: {a}: the engine {'allows' if is_listed else 'refuses'} it, the spec "
                            f"{'allows' if guard else 'refuses'} it" + (f" ({why})" if why else ""))
        if a in extra:
            report.perturbed += 1
        elif not is_listed:
            report.others += 1
        if not (is_listed and ok and guard and sa is not None and after is not None):
            continue
        report.legal[type(a).__name__ + (" (attacked)" if sa.kind == SELL_DEFENCE else "")] += 1
        mine = observable(spec, spec.settle(table[sa.kind].after(ss, sa)))
        theirs = observable(spec, to_spec_state(after, cfg))
        if isinstance(a, PLANT_KINDS):
            if after.turn == s.turn and after.draw == s.draw and after.phase == s.phase:
                report.successors += 1
                text = _diff(mine, theirs, lambda k: k not in ("to_move",))
            elif after.phase == Phase.OVER:
                report.ending += 1  # its end of the game is compared by check_boundary
                text = ""
            else:
                report.partial += 1
                text = _diff(mine, theirs, lambda k: k.split()[-1] in PLANT_KEYS)
        else:
            report.successors += 1
            text = _diff(mine, theirs, lambda k: True)
        if text:
            problems.append(f"{where}: {a}: successors differ: {text}")
    report.problems += problems[:limit]


@contextmanager
def _spy(log: list[tuple[str, GameState, GameState]]) -> Iterator[None]:
    """Record the engine's end of a turn and of the game (``STEPS.traced``): input and output states."""
    with STEPS.traced("end_turn", "finish") as steps:
        yield
    log += [(name.replace("_", "-"), args[0], out) for name, args, out in steps]


def check_boundary(kind: str, x: GameState, y: GameState, spec: IslaSpec, report: DiffReport) -> None:
    """The spec's end of a turn (draw, row refill, turn change: from phase ENDTURN) or end of the
    game (E3: from phase FINISH), run from the engine's state ``x``, must reach the engine's ``y``."""
    cfg = spec.cfg
    if kind == "end-turn" and y.turn != x.turn and y.phase != Phase.PLANT:
        report.turn_ends_skipped["the new turn went on (empty hand: turn-up)"] += 1
        return
    start = to_spec_state(x, cfg).replace(phase=ENDTURN if kind == "end-turn" else FINISH)
    mine = observable(spec, spec.settle(start))
    theirs = observable(spec, to_spec_state(y, cfg))
    resting = y.phase not in (Phase.CHANCE, Phase.OVER)

    def keys(k: str) -> bool:
        if kind == "end-turn":
            return k != "to_move" or resting
        return k.split()[-1] in END_KEYS

    if kind == "end-turn":
        report.turn_ends += 1
    else:
        report.game_ends += 1
    text = _diff(mine, theirs, keys)
    if text:
        report.problems.append(f"turn {x.turn}, {kind}: the spec's steps reach another state: {text}")


# (ruleset, players, options, bot), every game with isla=true: the greedy bots raid, buy and trade;
# the random ones sail and sell in unusual ways; 2 players is the Isla duel (I9).
Plan = list[tuple[str, int, dict[str, Any], str]]
DIFF_PLAN: Plan = [
    ("rio-grande", 3, {}, "greedy"), ("rio-grande", 4, {}, "greedy"), ("rio-grande", 3, {}, "random"),
    ("rio-grande", 5, {}, "greedy"), ("rio-grande", 2, {}, "greedy"), ("rio-grande", 3, {}, "random-trader"),
    ("rio-grande", 6, {}, "greedy"), ("rio-grande", 4, {}, "random"), ("rio-grande", 7, {}, "random-trader"),
    ("amigo", 4, {"harvest": "strict"}, "greedy"), ("amigo-v2", 4, {}, "greedy"),  # skipped: V5
    ("rio-grande", 3, {"reshuffle": "on-demand"}, "greedy"),  # E1 on-demand: exhausted at the need
    ("rio-grande", 2, {"reshuffle": "on-demand"}, "greedy"),  # ... and the duel's coins back then (I9)
    ("rio-grande", 4, {"reshuffle": "on-demand"}, "random-trader"),
]


def differential(games: int = 10, seed: int = 0, max_states: int | None = None,
                 plan: Plan | None = None, mutant: str | None = None,
                 progress: ProgressFn | None = None) -> DiffReport:
    """Replay ``games`` simulated Isla games (rulesets, players and bots from ``plan`` in turn) and
    check every state, turn end and game end; at most ``max_states`` states per game (a seeded
    sample). ``mutant`` breaks the spec (the check must then find disagreements). States of a
    ruleset the spec does not model are counted as skipped, with the reason. ``progress(games
    done, games, note)`` at every step of a game."""
    report = DiffReport()
    plan = plan or DIFF_PLAN
    for g in range(games):
        name, players, options, bot = plan[g % len(plan)]
        rules = ruleset(name, {**options, "isla": True})
        _, s, _, actions = play_game(rules, players, seed * 1000 + g, [BOTS[bot]] * players)
        report.games += 1
        why = ""
        try:
            cfg: IslaConfig | None = IslaConfig.from_setup(s.setup)
        except Unsupported as exc:
            cfg, why = None, str(exc)
        spec = IslaSpec(cfg, mutant) if cfg is not None else None
        rng = random.Random(seed * 1000 + g)
        picks = set(range(len(actions)))
        if max_states is not None and len(actions) > max_states:
            picks = set(rng.sample(range(len(actions)), max_states))
        for step, a in enumerate(actions):
            if progress is not None:
                progress(g, games, f"game {g + 1}: step {step} of {len(actions)}")
            if step in picks:
                report.states += 1
                if spec is None:
                    report.skipped[why] += 1
                else:
                    report.mapped += 1
                    check_state(s, spec, report)
            log: list[tuple[str, GameState, GameState]] = []
            with _spy(log):
                s = apply(s, a)
            if spec is not None:
                for kind, x, y in log:
                    check_boundary(kind, x, y, spec, report)
    if progress is not None:
        progress(games, games, "done")
    return report
