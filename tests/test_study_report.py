"""The study report (studies/report.py, figures.py) on a tiny results file written here, every
number of its tables worked by hand below; the figures written (PNG, 300 dpi) or, with no data,
not written and the report saying why; bad results files as one-line StudyErrors naming file,
line and key."""

from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from solvers.contract import BEST, COOP, SOLO
from studies.report import Report, analyse, mean_ci, report, t975, wilson
from studies.spec import StudyError

PNG = b"\x89PNG\r\n\x1a\n"
A = "sim/seats/rio-grande/3p/greedy,greedy,greedy"  # 4 games, 2 rows of 2
B = "sim/seats/amigo/3p/greedy,greedy,greedy"  # 2 games, a tie
E = "end/trading/rio-grande/3p/4cards"  # 3 positions solved, 1 failed


def head(tasks: int = 7, failed: int = 1) -> dict[str, Any]:
    return {"format": "bohnanza-study-results", "version": 1, "study": "hand", "digest": "0123456789abcdef",
            "seed": 0, "tasks": tasks, "finished": tasks, "failed": failed}


def sim(group: str, ruleset: str, games: list[dict[str, Any]]) -> dict[str, Any]:
    numbers = [g["game"] for g in games]
    return {"key": f"{group}/g{numbers[0]}-{numbers[-1]}", "kind": "simulation", "seed": 1, "status": "ok",
            "params": {"study": "seats", "group": group, "ruleset": ruleset, "options": {}, "players": 3,
                       "bots": ["greedy"] * 3, "games": numbers, "seeds": numbers},
            "result": {"games": games}}


def game(g: int, coins: list[int], winners: list[int], deals: list[list[Any]]) -> dict[str, Any]:
    return {"game": g, "seed": g, "coins": coins, "winners": winners, "turns": 40, "deals": deals}


def answer(status: str, value: int | None = None, bound: int | None = None) -> dict[str, Any]:
    if value is not None and bound is None:
        bound = value
    return {"status": status, "value": value, "bound": bound}


def end(i: int, active: int, solo: list[dict[str, Any]], coop: dict[str, Any], best: dict[str, Any],
        expected: dict[str, Any]) -> dict[str, Any]:
    params = {"study": "trading", "group": E, "ruleset": "rio-grande", "options": {}, "players": 3,
              "cards_left": 4, "hand": 2, "draw": 5, "objectives": ["solo", "coop", "best", "expected"],
              "method": "exact", "node_limit": 1000, "time_limit": 5.0}
    return {"key": f"{E}/pos{i}", "kind": "endgame", "seed": i, "status": "ok", "params": params,
            "result": {"game_seed": i, "active": active, "to_move": active, "draw": 3, "hands": [2, 2, 2],
                       "position": {}, "solo": solo, "coop": coop, "best": best, "expected": expected}}


def expected(status: str, value: str = "", open_average: str = "") -> dict[str, Any]:
    if status != "optimal":
        return {"status": status, "player": 0, "error": "too large"}
    return {"status": status, "player": 0, "value": value, "open_average": open_average, "arrangements": 6}


def rows() -> list[dict[str, Any]]:
    """Group A (rio-grande, 3p), games 0-3:
        game  coins        winners  deals (active, partner, active gave, partner gave)
        0     10,  8, 6    p0       p0-p1: blue for red                 (a swap)
        1     10,  9, 5    p0       p1-p2: chili for nothing             (a gift from the active player)
        2     12,  7, 7    p0       none
        3      5, 11, 8    p1       p2-p0: stink, green for blue        (a swap)
    Group B (amigo, 3p), games 0-1: coins 8,6,8 won by p0 and p2 (a tie); 5,9,7 won by p1 with the
    gift p1-p0 wax for nothing.
    Endgames (E, p0 to move in pos0, p1 in pos1, p2 in pos2):
        pos  solo p0, p1, p2             coop               best          expected value, open average
        0    5, 3, 4 (all optimal)       14 optimal         7 optimal     9/2, 5
             (the lines' coins: coop 6, 4, 4; best 7, 3, 4)
        1    2, 6, 1 (all optimal)       9 optimal          timeout       10/3, 7/2
        2    4, 3 feasible (bound 5), 2  10 feasible (13)   2 optimal     too-large
    pos3 failed."""
    o = "optimal"
    return [
        sim(A, "rio-grande", [game(0, [10, 8, 6], [0], [[0, 1, ["blue"], ["red"]]]),
                              game(1, [10, 9, 5], [0], [[1, 2, ["chili"], []]])]),
        sim(A, "rio-grande", [game(2, [12, 7, 7], [0], []),
                              game(3, [5, 11, 8], [1], [[2, 0, ["stink", "green"], ["blue"]]])]),
        sim(B, "amigo", [game(0, [8, 6, 8], [0, 2], []), game(1, [5, 9, 7], [1], [[1, 0, ["wax"], []]])]),
        end(0, 0, [answer(o, 5), answer(o, 3), answer(o, 4)], {**answer(o, 14), "coins": [6, 4, 4]},
            {**answer(o, 7), "coins": [7, 3, 4]}, expected(o, "9/2", "5")),
        end(1, 1, [answer(o, 2), answer(o, 6), answer(o, 1)], answer(o, 9), answer("timeout"),
            expected(o, "10/3", "7/2")),
        end(2, 2, [answer(o, 4), answer("feasible", 3, 5), answer(o, 2)], answer("feasible", 10, 13),
            answer(o, 2), expected("too-large")),
        {"key": f"{E}/pos3", "kind": "endgame", "seed": 3, "status": "failed",
         "params": {"group": E, "players": 3}, "error": "no position after 20 games: the game ended early"},
    ]


def write(path: Path, header: dict[str, Any], lines: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(x) for x in [header, *lines]) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Report]:
    base = tmp_path_factory.mktemp("study")
    write(base / "results.jsonl", head(), rows())
    return base / "report", report(base, base / "report")  # a study directory is accepted


def read_csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


# ------------------------------------------------------------------ the statistics, by hand


def test_wilson_interval_of_3_wins_in_4_games() -> None:
    """p = 3/4, n = 4, z = 1.96, z² = 3.8416:
        centre  p + z²/2n = 0.75 + 0.4802 = 1.2302
        half    z·√(p(1−p)/n + z²/4n²) = 1.96·√(0.046875 + 0.060025) = 1.96·0.326956 = 0.640833
        denom   1 + z²/n = 1.9604
        (1.2302 ∓ 0.640833) / 1.9604 = [0.300636, 0.954414]."""
    low, high = wilson(3, 4)
    assert low == pytest.approx(0.300636, abs=1e-6)
    assert high == pytest.approx(0.954414, abs=1e-6)
    assert wilson(0, 5)[0] == 0.0 and wilson(5, 5)[1] == 1.0


def test_mean_ci_uses_t_for_small_samples_and_196_from_30() -> None:
    """Coins 10, 10, 12, 5: mean 37/4 = 9.25; squared deviations 0.5625 + 0.5625 + 7.5625 + 18.0625
    = 26.75, s² = 26.75/3, s = 2.986079; s/√4 = 1.493039; t(0.975, 3) = 3.182: half 4.750851,
    [4.499149, 14.000851]."""
    mean, low, high = mean_ci([10, 10, 12, 5])
    assert mean == 9.25
    assert low == pytest.approx(4.499149, abs=1e-6) and high == pytest.approx(14.000851, abs=1e-6)
    assert mean_ci([7]) == (7.0, None, None)
    assert t975(2) == 12.706 and t975(29) == 2.048 and t975(30) == 1.96
    values = [0, 1] * 15  # n = 30: s = √(7.5/29), half = 1.96·s/√30
    _, low, _ = mean_ci(values)
    assert low == pytest.approx(0.5 - 1.96 * math.sqrt(7.5 / 29) / math.sqrt(30))


# ------------------------------------------------------------------ the tables, by hand


def test_seat_advantage_shares_ties_and_states_seat_0(made: tuple[Path, Report]) -> None:
    """Group A: p0 won games 0, 1, 2 (3 of 4, the Wilson interval above), p1 game 3, p2 none.
    Group B: games 0 (p0 and p2 tied: 1/2 each) and 1 (p1): wins p0 0.5, p1 1, p2 0.5 of 2."""
    out, rep = made
    seats = {(s.group, s.seat): s for s in rep.seats}
    a0 = seats[(A, 0)]
    assert (a0.games, a0.wins, a0.win_rate) == (4, 3.0, 0.75)
    assert (a0.win_low, a0.win_high) == pytest.approx((0.300636, 0.954414), abs=1e-6)
    assert a0.advantage == pytest.approx(0.75 - 1 / 3)
    assert not a0.excludes_fair  # 1/3 = 0.333 lies in [0.301, 0.954]
    assert (a0.coins_mean, a0.coins_low, a0.coins_high) == pytest.approx((9.25, 4.499149, 14.000851),
                                                                         abs=1e-6)
    assert seats[(A, 2)].wins == 0 and seats[(A, 2)].excludes_fair is False  # [0, 0.490] holds 1/3
    assert [seats[(B, q)].wins for q in range(3)] == [0.5, 1.0, 0.5]
    # the fractional count in Wilson: p = 0.5/2 = 0.25, n = 2: (0.25 + 0.9604 − 1.96·√(0.09375 + 0.2401))
    # / 2.9208 = (1.2104 − 1.96·0.577798) / 2.9208 = (1.2104 − 1.132484) / 2.9208 = 0.026677
    low = (0.25 + 0.9604 - 1.96 * math.sqrt(0.09375 + 0.2401)) / 2.9208
    assert seats[(B, 0)].win_low == pytest.approx(low) and low == pytest.approx(0.026677, abs=1e-6)

    table = read_csv(out / "seat_advantage.csv")
    assert len(table) == 6
    row = table[0]
    assert {k: row[k] for k in ("group", "seat", "games", "wins", "win_rate", "win_low", "win_high",
                                "fair_share", "advantage", "ci_excludes_fair", "coins_mean", "coins_low",
                                "coins_high")} == {
        "group": A, "seat": "0", "games": "4", "wins": "3.000", "win_rate": "0.750", "win_low": "0.301",
        "win_high": "0.954", "fair_share": "0.333", "advantage": "0.417", "ci_excludes_fair": "no",
        "coins_mean": "9.250", "coins_low": "4.499", "coins_high": "14.001"}
    assert rep.tables["seat_advantage"].records()[0]["win_rate"] == 0.75
    md = (out / "report.md").read_text(encoding="utf-8")
    assert ("rio-grande, 3 players, greedy: p0 wins 0.750 [0.301, 0.954] of 4 games; the interval does not "
            "exclude the fair share 1/3 = 0.333.") in md
    assert "| rio-grande | 3 | greedy | p0 | 4 | 3 | 0.750 [0.301, 0.954] | 0.417 | no |" in md
    assert "| amigo | 3 | greedy | p0 | 2 | 0.5 | 0.250 [0.027, 0.802] |" in md


def test_value_of_trading_counts_proved_positions_and_brackets_the_rest(made: tuple[Path, Report]) -> None:
    """coop − Σ solo: pos0 14 − (5+3+4) = 2, pos1 9 − (2+6+1) = 0; pos2 not proved (coop feasible,
    gap 13 − 10 = 3; solo p1 feasible): mean 1, max 2, share > 0: 1 of 2.
    best − solo[active]: pos0 7 − 5 = 2 (p0 active), pos1 excluded (best timed out), pos2 2 − 2 = 0
    (p2 active; its solo is proved though p1's is not): mean 1, max 2, share 1/2."""
    out, rep = made
    (t,) = rep.trading
    assert (t.positions, t.proved, t.coop_gains) == (3, 2, (Fraction(2), Fraction(0)))
    assert (t.best_proved, t.best_gains) == (2, (Fraction(2), Fraction(0)))
    assert t.coop_gaps == (Fraction(3),)
    assert t.unproved == {SOLO: {"feasible": 1}, COOP: {"feasible": 1}, BEST: {"timeout": 1}}
    # every position with bounds, as an interval: pos2's coop gain lies in
    # [max(0, 10 − (4 + 5 + 2)), 13 − (4 + 3 + 2)] = [0, 4]; best: pos1 has no bound (timeout)
    F = Fraction
    assert t.coop_ranges == ((F(2), F(2)), (F(0), F(0)), (F(0), F(4)))
    assert t.best_ranges == ((F(2), F(2)), (F(0), F(0)))
    (row,) = read_csv(out / "value_of_trading.csv")
    assert row == {"study": "trading", "group": E, "ruleset": "rio-grande", "players": "3", "cards_left": "4",
                   "positions": "3", "proved": "2", "coop_gain_mean": "1.000", "coop_gain_max": "2.000",
                   "coop_gain_share_positive": "0.500", "best_proved": "2", "best_gain_mean": "1.000",
                   "best_gain_max": "2.000", "best_gain_share_positive": "0.500", "solo_unproved": "1",
                   "coop_unproved": "1", "best_unproved": "1", "coop_feasible": "1", "coop_gap_max": "3.000",
                   "unproved": "solo: 1 feasible; coop: 1 feasible; best: 1 timeout",
                   "coop_ranged": "3", "coop_gain_low": "0.667", "coop_gain_high": "2.000",
                   "coop_ci_low": "0.000", "coop_ci_high": "6.969", "best_ranged": "2",
                   "best_gain_low": "1.000", "best_gain_high": "1.000", "best_ci_low": "0.000",
                   "best_ci_high": "13.706"}
    # the 95 % interval of the mean gain with the unproved positions as intervals: low ends 2, 0, 0
    # (mean 2/3, s = 1.155, t(0.975, 2) = 4.303: 2/3 − 2.869 < 0, so 0); high ends 2, 0, 4 (mean 2,
    # s = 2: 2 + 4.303 * 2 / √3 = 6.969); best: 1 + 12.706 * √2 / √2 = 13.706
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "[0.667, 2.000] (3); 95% CI [0.000, 6.969]" in md
    assert "[1.000, 1.000] (2); 95% CI [0.000, 13.706]" in md


def test_value_of_information_is_exact(made: tuple[Path, Report]) -> None:
    """open average − expected: pos0 5 − 9/2 = 1/2, pos1 7/2 − 10/3 = 21/6 − 20/6 = 1/6; pos2
    too-large, not counted. Mean (1/2 + 1/6)/2 = (3/6 + 1/6)/2 = 1/3 = 0.333, max 1/2, share 1."""
    out, rep = made
    (i,) = rep.information
    assert i.gains == (Fraction(1, 2), Fraction(1, 6))
    assert sum(i.gains) / len(i.gains) == Fraction(1, 3)
    assert i.unsolved == {"too-large": 1}
    (row,) = read_csv(out / "value_of_information.csv")
    assert (row["positions"], row["solved"], row["info_mean"], row["info_max"], row["info_share_positive"],
            row["unsolved"]) == ("3", "2", "0.333", "0.500", "1.000", "1 too-large")


def test_trade_network_matrix_and_reciprocity(made: tuple[Path, Report]) -> None:
    """Group A, cards given (giver -> receiver): game 0: p0->p1 blue, p1->p0 red; game 1: p1->p2
    chili; game 3: p2->p0 stink and green, p0->p2 blue. Matrix [[0,1,1],[1,0,1],[2,0,0]]; 6 cards in
    3 deals over 4 games: 0.75 deals and 1.5 cards a game, 1 gift of 3 deals. Weighted reciprocity:
    min(w01, w10) = 1 counted from both sides, min(w02, w20) = min(1, 2) = 1 from both sides,
    min(w12, w21) = 0: (1+1+1+1) / 6 = 2/3."""
    out, rep = made
    a = next(n for n in rep.networks if n.group == A)
    assert a.matrix == ((0, 1, 1), (1, 0, 1), (2, 0, 0))
    assert a.summary["reciprocity"]["weighted"] == pytest.approx(2 / 3)
    assert (a.summary["deals"], a.summary["cards"], a.summary["gifts"], len(a.games)) == (3, 6, 1, 4)
    rows_ = {r["group"]: r for r in read_csv(out / "trade_network.csv")}
    r = rows_[A]
    assert (r["games"], r["deals"], r["cards"], r["deals_per_game"], r["cards_per_game"], r["gifts_share"],
            r["reciprocity_weighted"], r["matrix"]) == ("4", "3", "6", "0.750", "1.500", "0.333", "0.667",
                                                        "0 1 1; 1 0 1; 2 0 0")
    long = [r for r in read_csv(out / "trade_matrix.csv") if r["group"] == A]
    assert {(r["giver"], r["receiver"]): r["cards"] for r in long}["2", "0"] == "2"
    assert rows_[B]["reciprocity_weighted"] == "0.000"  # one gift, nothing back
    assert "| p2 | 2 | 0 | – |" in (out / "report.md").read_text(encoding="utf-8")


def test_failures_table(made: tuple[Path, Report]) -> None:
    out, rep = made
    assert read_csv(out / "failures.csv") == [{"key": f"{E}/pos3", "kind": "endgame", "group": E, "line": "8",
                                                "error": "no position after 20 games: the game ended early"}]
    assert "no position after 20 games" in rep.text()


def test_every_figure_is_written_and_the_report_lists_the_files(made: tuple[Path, Report]) -> None:
    out, rep = made
    assert set(rep.figures) == {"seat_advantage", "seat_coins", "value_of_trading", "value_of_information",
                                "trade_network", "trade_matrix"}  # two simulation groups: small multiples
    assert rep.skipped == {}
    for name, path in rep.figures.items():
        data = Path(path).read_bytes()
        assert data[:8] == PNG, name
        assert len(data) > 10_000, name
        assert f"![{name}]({name}.png)" in (out / "report.md").read_text(encoding="utf-8")
    names = {Path(p).name for p in rep.paths}
    assert {"report.md", "seat_advantage.csv", "value_of_trading.csv", "value_of_information.csv",
            "trade_network.csv", "failures.csv"} <= names
    assert json.loads(json.dumps(rep.to_json()))["tables"]["value_of_trading"]["rows"][0][6] == 2
    assert not list(out.glob(".*"))  # no temporary file left behind


def test_an_empty_category_writes_no_figure_and_says_why(tmp_path: Path) -> None:
    """Only the simulations of group A: no endgame table, figure or CSV row; the report says why.
    One simulation group: its network and matrix side by side in trade_network.png, no trade_matrix.png."""
    src = write(tmp_path / "results.jsonl", head(2, 0), rows()[:2])
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "value_of_trading.png").write_bytes(PNG)  # an earlier report's: removed
    rep = report(src, tmp_path / "out")
    assert set(rep.figures) == {"seat_advantage", "seat_coins", "trade_network"}
    assert rep.skipped == {
        "value_of_trading": "no finished endgame task asked for solo, coop or best",
        "value_of_information": "no finished endgame task asked for the expected objective",
        "trade_matrix": "one simulation group: its matrix is drawn beside its network in trade_network.png"}
    assert not (tmp_path / "out" / "value_of_trading.png").exists()
    md = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "`value_of_trading.png` not written: no finished endgame task asked for solo, coop or best." in md
    assert "None: no task failed." in md
    assert read_csv(tmp_path / "out" / "value_of_trading.csv") == []
    assert "value_of_information: not written" in rep.text()


def test_unproved_only_endgames_write_no_trading_figure(tmp_path: Path) -> None:
    """pos2 alone has no position with coop and all solo proved; its best − solo is proved (0), so the
    trading figure is still drawn; with best timed out too there is nothing to draw."""
    lines = rows()[5:6]
    lines[0]["result"]["best"] = answer("timeout")
    rep = report(write(tmp_path / "r.jsonl", head(1, 0), lines), tmp_path / "out", figures=True)
    assert "value_of_trading" in rep.skipped and "proved" in rep.skipped["value_of_trading"]
    assert rep.skipped["value_of_information"] == "no position's expected objective was solved"
    assert rep.skipped["seat_advantage"] == "no simulation task finished"
    assert not list((tmp_path / "out").glob("*.png"))


# ------------------------------------------------------------------ bad input


def test_bad_header_or_line_is_one_line_naming_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "other", "version": 1}\n', encoding="utf-8")
    with pytest.raises(StudyError, match=r"^.*bad\.jsonl:1: format: expected 'bohnanza-study-results'"):
        analyse(bad)
    bad.write_text(json.dumps(head()) + "\n" + json.dumps(rows()[0]) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(StudyError, match=r"bad\.jsonl:3: not JSON") as e:
        analyse(bad)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda r: r["result"]["games"][1].pop("coins"), r":2: result\.games\[1\]\.coins: missing$"),
    (lambda r: r["result"]["games"][0].update(winners=[3]),
     r":2: result\.games\[0\]\.winners\[0\]: seat 3 with 3 players$"),
    (lambda r: r["result"]["games"][0]["deals"][0][2].append("gold"),
     r":2: result\.games\[0\]\.deals\[0\]\[2\]\[1\]: unknown bean 'gold'$"),
    (lambda r: r["params"].pop("bots"), r":2: params\.bots: missing$"),
    (lambda r: r["result"].pop("games"), r":2: result\.games: missing$"),
    (lambda r: r.update(result=[]), r":2: result: expected an object, got \[\]$"),
    (lambda r: r["result"]["games"][1].update(game=0),
     r":2: result\.games\[1\]\.game: game 0 of .* also on line 2$"),
])
def test_a_simulation_row_without_what_the_report_needs(tmp_path: Path, edit: Any, message: str) -> None:
    lines = rows()
    edit(lines[0])
    with pytest.raises(StudyError, match=message) as e:
        analyse(write(tmp_path / "results.jsonl", head(), lines))
    assert str(e.value).startswith(str(tmp_path / "results.jsonl")) and "\n" not in str(e.value)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda r: r["result"].pop("coop"), r":5: result\.coop: missing$"),
    (lambda r: r["result"]["solo"][1].pop("value"), r":5: result\.solo\[1\]\.value: missing$"),
    (lambda r: r["result"]["best"].update(status="done"),
     r":5: result\.best\.status: expected one of optimal, .*, got 'done'$"),
    (lambda r: r["result"]["expected"].update(value="nine halves"),
     r":5: result\.expected\.value: expected a number or a fraction 'a/b', got 'nine halves'$"),
    (lambda r: r["result"]["solo"].pop(), r":5: result\.solo: 2 seats with 3 players$"),
    (lambda r: r["params"].pop("objectives"), r":5: params\.objectives: missing$"),
    (lambda r: r["params"]["objectives"].insert(0, "fastest"),
     r":5: params\.objectives\[0\]: expected one of solo, coop, best, duel, expected, got 'fastest'$"),
    (lambda r: r["result"].update(coop="optimal"), r":5: result\.coop: expected an object, got 'optimal'$"),
    (lambda r: r["result"].update(active=True), r":5: result\.active: expected a seat number, got True$"),
])
def test_an_endgame_row_without_what_the_report_needs(tmp_path: Path, edit: Any, message: str) -> None:
    lines = rows()
    edit(lines[3])
    with pytest.raises(StudyError, match=message):
        analyse(write(tmp_path / "results.jsonl", head(), lines))


@pytest.mark.parametrize(("row", "edit", "message"), [
    (3, lambda r: r["result"]["coop"].update(value=11, bound=11, coins=[5, 3, 3]),
     r":5: result\.coop\.value: position .*/pos0: proved 11, below the sum of the solo values 12 "),
    (5, lambda r: r["result"]["coop"].update(value=7, bound=8),
     r":7: result\.coop\.bound: position .*/pos2: bound 8, below the sum of the solo values 9 "),
    (3, lambda r: r["result"]["best"].update(value=4, bound=4, coins=[4, 3, 4]),
     r":5: result\.best\.value: position .*/pos0: proved 4, below p0's solo value 5 "),
    (3, lambda r: r["result"]["best"].update(coins=[7, 2, 4]),
     r":5: result\.best\.coins\[1\]: position .*/pos0: the best line leaves p1 2 coins, below its solo "
     r"value 3 \(its floor\)$"),
    (3, lambda r: r["result"]["coop"].update(coins=[6, 4, 5]),
     r":5: result\.coop\.coins: position .*/pos0: the line's coins \[6, 4, 5\] add up to 15, "
     r"not its value 14$"),
    (3, lambda r: r["result"]["best"].update(coins=[6, 3, 4]),
     r":5: result\.best\.coins: position .*/pos0: p0's coins 6 are not the line's value 7$"),
])
def test_answers_that_break_what_the_objectives_guarantee_stop_the_report(
        tmp_path: Path, row: int, edit: Any, message: str) -> None:
    """coop >= sum of solo, best >= solo, a best line's other seats at their floors: the first row
    that breaks one is named, and nothing is reported."""
    lines = rows()
    edit(lines[row])
    with pytest.raises(StudyError, match=message) as e:
        report(write(tmp_path / "results.jsonl", head(), lines), tmp_path / "report")
    assert "\n" not in str(e.value) and not (tmp_path / "report").exists()


def test_the_trading_figure_draws_each_unproved_position_as_its_interval(made: tuple[Path, Report]) -> None:
    """pos2's coop is unproved: its gain lies in [0, 4], drawn as a bar over it; the proved
    positions are dots; the counts above a column of equal n are written once."""
    from matplotlib.collections import PathCollection

    from studies.figures import trading_figure

    _, rep = made
    fig = trading_figure(rep.trading)
    table, active = fig.axes[:2]
    def bars(ax: Any) -> list[tuple[float, float]]:  # vertical segments (the zero line is flat)
        return [(float(y[0]), float(y[1])) for y in (line.get_ydata() for line in ax.get_lines())
                if len(y) == 2 and y[0] != y[1]]

    assert bars(table) == [(0.0, 4.0)] and bars(active) == []  # best has no unproved interval
    dots = [c for c in table.collections if isinstance(c, PathCollection)]
    assert sorted(float(y) for c in dots[:1] for _, y in c.get_offsets()) == [0.0, 2.0]
    assert [t.get_text() for t in table.texts] == ["n=2"]
