"""The tables scripts/bench.py prints: one function per suite of ``benchmarks.suites``, reading the
result object that ``--json`` prints as it is (medians, ratios, side by side)."""

from __future__ import annotations

import statistics
from typing import Any


def print_engine(res: dict[str, Any]) -> None:
    cases = {(c["ruleset"], c["players"], c["bot"]): c for c in res["cases"] if not c["isla"]}
    print("engine: full games per second, median of runs (random = ends trading at once)")
    print(f"{'ruleset':<11}{'players':>8}{'random g/s':>12}{'us/action':>11}{'actions/g':>11}"
          f"{'trader g/s':>12}{'us/action':>11}{'actions/g':>11}{'ratio':>8}")
    for (r, n, b), c in cases.items():
        if b != "random":
            continue
        t = cases.get((r, n, "random-trader"))  # None: interrupted before it
        trader = (f"{t['games_per_s']:>12.0f}{t['us_per_action']:>11.2f}{t['actions_per_game']:>11.0f}"
                  f"{c['games_per_s'] / t['games_per_s']:>7.2f}x" if t
                  else f"{'-':>12}{'-':>11}{'-':>11}{'-':>8}")
        print(f"{r:<11}{n:>8}{c['games_per_s']:>12.0f}{c['us_per_action']:>11.2f}"
              f"{c['actions_per_game']:>11.0f}{trader}")
    isla = {(c["players"], c["bot"]): c for c in res["cases"] if c["isla"]}
    print("\nLa Isla Bohnita (isla=true) next to the base game, rio-grande, same seeds")
    print(f"{'players':>7} {'bot':<8}{'base g/s':>10}{'us/action':>11}{'isla g/s':>10}{'us/action':>11}"
          f"{'actions/g':>11}{'us/action ratio':>17}")
    for (n, b), c in isla.items():
        base = next(x for x in res["cases"] if not x["isla"] and x["ruleset"] == "rio-grande"
                    and x["players"] == n and x["bot"] == b)
        print(f"{n:>7} {b:<8}{base['games_per_s']:>10.0f}{base['us_per_action']:>11.2f}"
              f"{c['games_per_s']:>10.0f}{c['us_per_action']:>11.2f}{c['actions_per_game']:>11.0f}"
              f"{c['us_per_action'] / base['us_per_action']:>16.2f}x")
    a = res.get("acceptance")
    if a is None:  # interrupted before it
        return
    print(f"\nacceptance: {a['command']}\n  {a['seconds']:.3f} s for 600 games, start-up included "
          f"= {a['games_per_s']:.0f} games/s (target >= 300), median of {a['runs']} runs")


def print_adapters(res: dict[str, Any]) -> None:
    print(f"adapters: uniformly random ids, {res['ruleset']}, medians of {res['runs']} runs of "
          f"{res['games']} games; a step is one id (deals take several; OpenSpiel's chance nodes "
          "count), an engine step one action of the random bot")
    print(f"{'players':>7}{'engine us':>11}{'steps/g':>9}{'OpenSpiel us':>14}{'steps/g':>9}{'x engine':>10}"
          f"{'PettingZoo us':>15}{'steps/g':>9}{'x engine':>10}")
    for r in res["rows"]:
        e, o, z = r["engine"], r["openspiel"], r["pettingzoo"]
        xo, xz = o["us_per_step"] / e["us_per_step"], z["us_per_step"] / e["us_per_step"]
        print(f"{r['players']:>7}{e['us_per_step']:>11.2f}{e['steps_per_game']:>9.0f}"
              f"{o['us_per_step']:>14.2f}{o['steps_per_game']:>9.0f}{xo:>9.1f}x"
              f"{z['us_per_step']:>15.2f}{z['steps_per_game']:>9.0f}{xz:>9.1f}x")


def print_solvers(res: dict[str, Any]) -> None:
    print("solvers: solo, seconds per position (median / worst), both solvers on the same positions;\n"
          "positions cut at the first turn start with at most 'cut at' cards left ('left': median)")
    print(f"{'cut at':>6}{'left':>6}{'players':>8}{'exact med':>11}{'worst':>9}{'nodes/s':>10}"
          f"{'cp-sat med':>12}{'worst':>9}{'proved':>8}{'exact/cp-sat':>14}")
    for r in res["rows"]:
        print(f"{r['cards_left']:>6}{r['median_cards_left']:>6g}{r['players']:>8}{r['exact_median_s']:>11.4f}{r['exact_worst_s']:>9.3f}"
              f"{r['exact_nodes_per_s']:>10.0f}{r['cpsat_median_s']:>12.3f}{r['cpsat_worst_s']:>9.3f}"
              f"{r['cpsat_proved']:>5}/{r['positions']:<2}{r['ratio']:>13.3f}x")
    big = res.get("largest_within_10s")
    if big is None:  # interrupted: not every size measured
        return
    print(f"largest size proved optimal within 10 s (every position): exact {big['exact']} cards left, "
          f"CP-SAT {big['cpsat']} cards left")


def print_real(res: dict[str, Any]) -> None:
    print(f"{res['objective']} on real hands, one worker, {res['time_limit']:g} s a position: the flow "
          "solver (--solver cpsat) beside the card-by-card model (--solver cpsat-cards)")
    print(f"{'group':<26}{'n':>3} | {'proved':>7}{'med s':>7}{'worst':>7}{'gap':>5}{'value':>7} | "
          f"{'proved':>7}{'med s':>7}{'worst':>7}{'gap':>5}{'value':>7}")
    for r in res["rows"]:
        cells = []
        for m in ("flow", "cards"):
            x = r[m]
            gap = "-" if x["median_gap"] is None else format(x["median_gap"], "g")
            val = "-" if x["median_value"] is None else format(x["median_value"], "g")
            cells.append(f"{x['proved']:>4}/{r['positions']:<2}{x['median_s']:>7.2f}{x['worst_s']:>7.2f}"
                         f"{gap:>5}{val:>7}")
        print(f"{r['group']:<26}{r['positions']:>3} | {cells[0]} | {cells[1]}")


def print_growth(res: dict[str, Any]) -> None:
    print(f"{res['objective']}: the flow solver on rio-grande cuts with real hands, one worker, "
          f"{res['time_limit']:g} s a position")
    if res.get("work_limit") is not None:
        print(f"work limit {res['work_limit']:g} (CP-SAT deterministic seconds a position)")
    print("master above: of the proved positions, how many had the counts master's own bound (before "
          "any cut) above the optimum, and by at most how much")
    print(f"{'players':>7}{'cut at':>7}{'left':>6}{'proved':>8}{'med s':>8}{'worst':>8}{'gap med':>8}"
          f"{'worst':>6}{'no plan':>8}{'master above':>14}")
    for r in res["rows"]:
        g = "-" if r["median_gap"] is None else format(r["median_gap"], "g")
        w = "-" if r["worst_gap"] is None else format(r["worst_gap"], "g")
        m = (f"{r['master_above']}/{r['master_compared']}"
             + (f" (+{r['master_worst_excess']})" if r["master_above"] else ""))
        print(f"{r['players']:>7}{r['cut_at']:>7}{r['median_left']:>6g}{r['proved']:>5}/{r['positions']:<2}"
              f"{r['median_s']:>8.2f}{r['worst_s']:>8.2f}{g:>8}{w:>6}{r['no_plan']:>8}{m:>14}")


def print_open(res: dict[str, Any]) -> None:
    print(f"{res['objective']}: CP-SAT ({res['workers']} worker(s), time limit) and exact search (node "
          f"limit) on the same positions, hands cut to {res['hand']} cards; seconds per position")
    print(f"{'cut at':>6}{'left':>6}{'players':>8}{'cp-sat med':>12}{'worst':>9}{'proved':>8}{'gap':>5}"
          f"{'exact solved':>14}{'exact med':>11}{'nodes/s':>10}{'exact/cp-sat':>14}")
    for r in res["rows"]:
        gap = "-" if r["cpsat_median_gap"] is None else format(r["cpsat_median_gap"], "g")
        ex = f"{r['exact_median_s']:>11.3f}{r['exact_nodes_per_s']:>10.0f}{r['ratio']:>13.3f}x" \
            if r["exact_median_s"] is not None else f"{'-':>11}{'-':>10}{'-':>14}"
        print(f"{r['cards_left']:>6}{r['median_cards_left']:>6g}{r['players']:>8}{r['cpsat_median_s']:>12.3f}"
              f"{r['cpsat_worst_s']:>9.3f}{r['cpsat_proved']:>5}/{r['positions']:<2}{gap:>5}"
              f"{r['exact_solved']:>11}/{r['positions']:<2}{ex}")
    if "largest_within_10s" in res:  # not when interrupted
        print(f"largest size CP-SAT proved optimal within 10 s (every position): "
              f"{res['largest_within_10s']['cpsat']} cards left")


def print_duel(res: dict[str, Any]) -> None:
    print(f"duel: alpha-beta, seconds per position (node limit {res['node_limit']})")
    print(f"{'cut at':>6}{'left':>6}{'solved':>8}{'median':>9}{'worst':>9}{'nodes/s':>10}")
    for r in res["rows"]:
        if r["median_s"] is None:
            print(f"{r['cards_left']:>6}{'-':>6}{0:>5}/{r['positions']:<2}")
            continue
        print(f"{r['cards_left']:>6}{r['median_cards_left']:>6g}{r['solved']:>5}/{r['positions']:<2}"
              f"{r['median_s']:>9.3f}{r['worst_s']:>9.3f}{r['nodes_per_s']:>10.0f}")
    if "largest_within_10s" in res:  # not when interrupted
        print(f"largest size solved within 10 s (every position): {res['largest_within_10s']['exact']} "
              "cards left")


def print_trades(res: dict[str, Any]) -> None:
    print("trade graph: 2 cards a side, rio-grande trading phases 10 cards from the end, median of "
          f"{res['runs']} runs per position")
    print(f"{'players':>7}{'hand':>6}{'pos':>5}{'deals (median)':>16}{'map s':>8}{'worst s':>9}{'deal s':>8}"
          f"{'deals/s':>9}{'hit rate':>9}{'no memo s':>10}{'memo gain':>10}  matching")
    for r in res["rows"]:
        cs = r["cases"]
        if not cs:
            continue
        med = statistics.median
        hits = sum(c["cache_hits"] for c in cs) / max(1, sum(c["cache_hits"] + c["solves"] for c in cs))
        off = [c["no_memo_seconds"] for c in cs if c["no_memo_seconds"] is not None]
        ratio = (f"{med(off) / med([c['seconds'] for c in cs]):>9.1f}x" if off else f"{'-':>10}")
        methods = ", ".join(f"{m} {sum(c['method'] == m for c in cs)}"
                            for m in ("max_weight_clique", "cp-sat") if any(c["method"] == m for c in cs))
        unsolved = sum(not c["re_solved"] for c in cs)
        print(f"{r['players']:>7}{(r['hand'] or 'all'):>6}{len(cs):>5}{med([c['deals'] for c in cs]):>16,.0f}"
              f"{med([c['seconds'] for c in cs]):>8.2f}{max(c['seconds'] for c in cs):>9.2f}"
              f"{med([c['deal_seconds'] for c in cs]):>8.2f}"
              f"{med([c['deals'] / c['deal_seconds'] for c in cs]):>9,.0f}{hits:>9.1%}"
              f"{(f'{med(off):>10.2f}' if off else f'{chr(45):>10}')}{ratio}  {methods}"
              + (f"; {unsolved} not re-solved (budget)" if unsolved else ""))


def _consequences(cause: dict[str, Any]) -> str:
    """``; with T1 refused plant, H3 accepted plant``: what a cause counts as its consequences."""
    return f"; with {', '.join(cause['consequences'])}" if cause.get("consequences") else ""


def print_mutants(res: dict[str, Any]) -> None:
    rows = res["rows"]
    print(f"the live harness on the {len(rows)} mutants of proofs/mutants.py (example shim, {res['games']} "
          "seeded games each, no perft positions, no shrinking)")
    print(f"{'mutant':<26}{'rule':<6}{'seconds':>8}  causes (count, games)")
    for r in rows:
        causes = "; ".join(f"{c['name']} ({c['count']}, {c['games']}{_consequences(c)})"
                           for c in r["causes"]) or "none found"
        mark = "one cause" if r["one_cause"] else "found" if r["found"] else "NOT FOUND"
        more = f" (in {r['games']} games)" if r.get("games", res["games"]) != res["games"] else ""
        print(f"{r['mutant']:<26}{r['rule']:<6}{r['seconds']:>8.1f}  {mark}{more}: {causes}")
    if "one_cause" not in res:  # interrupted
        return
    print(f"{res['one_cause']} of {len(rows)} found as one cause under their own rule, {res['found']} found "
          f"under it; {res['seconds']:.0f} s in all")


def print_seats(res: dict[str, Any]) -> None:
    print(f"seat problems of the first master round, one worker: the batch search, the card-level DP "
          f"(state limit {res['state_limit']:,}), the CP-SAT seat model ({res['seat_seconds']:g} s limit)")
    print(f"{'position':<16}{'obj':<6}{'seats':>6}{'batch med s':>12}{'batch max s':>12}{'DP ok':>6}"
          f"{'DP med s':>10}{'DP max s':>10}{'SAT ok':>7}{'SAT med s':>11}{'SAT max s':>11}")
    for r in res["rows"]:
        if not r["problems"]:
            print(f"{r['position']:<16}{r['objective']:<6}{0:>6}  (the master found no schedule in 30 s)")
            continue
        print(f"{r['position']:<16}{r['objective']:<6}{r['problems']:>6}{r['batch_median_s']:>12.4f}"
              f"{r['batch_worst_s']:>12.4f}{r['dp_proved']:>6}{r['dp_median_s']:>10.4f}{r['dp_worst_s']:>10.4f}"
              f"{r['cpsat_proved']:>7}{r['cpsat_median_s']:>11.3f}{r['cpsat_worst_s']:>11.3f}")
    c = res.get("compare")
    if c:
        ratio = "-" if c["ratio"] is None else f"{c['ratio']:.1f}x"
        asked = c.get("problems_asked", c["problems"])
        of = f" of {asked:,} asked" if asked != c["problems"] else ""
        print(f"\n{c['problems']:,}{of} random seat problems (seed {c['seed']}, {c['strict']:,} with H4 "
              f"strict, batches up to {c['largest_batch']} cards): every value equal")
        ms = {k: c[k] * 1000 for k in ("batch_median_s", "batch_worst_s", "dp_median_s", "dp_worst_s")}
        print(f"batch search median {ms['batch_median_s']:.2f} ms, worst {ms['batch_worst_s']:.1f} ms; "
              f"card-level DP median {ms['dp_median_s']:.2f} ms, worst {ms['dp_worst_s']:.1f} ms; "
              f"ratio of medians {ratio}")


def print_study(res: dict[str, Any]) -> None:
    print(f"study runner: {res['empty_tasks']} empty tasks for the overhead; real tasks of "
          f"{res['games_per_task']} games ({res['task_seconds']:.3f} s each in this process)")
    print(f"{'executor':<11}{'workers':>8}{'start s':>9}{'ms/task':>9}{'chunk 20':>9}{'tasks':>7}"
          f"{'wall s':>8}{'tasks/s':>9}{'speed-up':>9}")
    for r in res["rows"]:
        print(f"{r['executor']:<11}{r['workers']:>8}{r['startup_s']:>9.2f}{r['overhead_ms_chunk1']:>9.2f}"
              f"{r['overhead_ms_chunk20']:>9.2f}{r['real_tasks']:>7}{r['real_s']:>8.2f}{r['tasks_per_s']:>9.2f}"
              f"{r['speedup']:>8.2f}x")
    print("\nprojection (on paper): W workers, c = the task's seconds, d = the driver's serial ms per task;"
          "\nrate = min(W / (c + d), 1 / d); linear while W < c / d")
    print(f"{'executor':<11}{'chunk':>6}{'d ms':>8}{'linear to W':>12}"
          + "".join(f"{f'W={w} t/s':>13}{'eff':>6}" for w in (10, 100, 1000)))
    for r in res["projection"]:
        lin = "-" if r["linear_up_to"] is None else f"{r['linear_up_to']:,.0f}"
        cells = "".join(f"{c['tasks_per_s']:>13,.1f}{c['efficiency']:>6.0%}" for c in r["cells"])
        print(f"{r['executor']:<11}{r['chunk']:>6}{r['driver_ms_per_task']:>8.2f}{lin:>12}{cells}")


def print_master(res: dict[str, Any]) -> None:
    print(f"the counts master's first solve (before any cut), one thread, {res['seconds']:g} s each: "
          "status, value / bound, seconds")
    names = [g["solver"] for g in res["rows"][0]["runs"]] if res["rows"] else []
    print(f"{'position':<17}{'obj':<5}" + "".join(f"{n:>26}" for n in names))
    for r in res["rows"]:
        cells = []
        for g in r["runs"]:
            value = "-" if g["value"] is None else f"{g['value']:.0f}"
            bound = "-" if g["bound"] is None else f"{g['bound']:.1f}"
            cells.append(f"{g['status'][:4]} {value}/{bound} {g['seconds']:.2f}s")
        print(f"{r['position']:<17}{r['objective']:<5}" + "".join(f"{c:>26}" for c in cells))
    ratios = ", ".join(f"{k} {'-' if v is None else f'{v:.2f}x'}"
                       for k, v in res["median_ratio_cpsat_over"].items())
    wins = ", ".join(f"{k} {v}" for k, v in sorted(res["fastest"].items()))
    print(f"fastest proof: {wins}; median of CP-SAT's time / the MIP's (both proved): {ratios}")


def print_docs(res: dict[str, Any]) -> None:
    """docs/tools.md's commands with the seconds and exit code of each (``bench.py docs``)."""
    rows = res["commands"]
    head = "partial (interrupted): " if res.get("partial") else ""
    print(f"{head}docs/tools.md: {len(rows)} commands run once each, cap {res['cap_s']:g} s a command, in "
          f"{res['scratch']} (the stdout of the i-th: stdout-NN.txt)")
    print(f"{'seconds':>9} {'exit':>5}  command")
    for r in rows:
        note = "  (stopped at the cap)" if r["stopped"] else "  (setup)" if r["role"] == "setup" else ""
        print(f"{r['seconds']:>9.1f} {r['code']:>5}  {r['command']}{note}")
        if r["code"] != 0 and not r["stopped"] and r["last"]:
            print(f"{'':>17}{r['last']}")
