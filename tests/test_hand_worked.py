"""Hand-worked endgames (solvers/positions.py, "hand-made"): the optimum is derived here by hand,
and both solvers must find it.

All four are rio-grande with 4 players on the last turn: exhaustion 2 of 3, the draw pile holds
just the two cards p0 turns up, so after p0's phase 3 the pile is exhausted and the game ends
(E2) with the final harvest (E3). p0 has two fields and no coins unless stated; a third field
costs 3 (F1). Beanometer (C1): red 2/3/4/5 cards -> 1/2/3/4 coins; soy 2/4/6/7; blue 4/6/8/10;
chili 3/6/8/9; stink 3/5/7/8; wax 4/7/9/11; garden 2/3 -> 2/3.
"""

from __future__ import annotations

import pytest

from solvers.contract import BEST, COOP, Limits
from solvers.cpsat import solve_solo_cpsat
from solvers.exact import solve_open, solve_solo
from solvers.positions import LIBRARY


def both_solo(name: str, player: int = 0) -> int:
    s = LIBRARY[name].position()
    a, b = solve_solo(s, player), solve_solo_cpsat(s, player, Limits(workers=1))
    assert a.value == b.value and b.status == "optimal"
    return a.value


def test_forced_harvest():
    # p0: hand [blue], fields [3 red, 2 soy]; turned up: wax, wax.
    # T1: the blue must be planted and fits neither field (H3), so one field goes first:
    #   red (3 -> 2 coins) or soy (2 -> 1 coin). In phase 3 the two waxes need a field too, and
    #   the single blue is protected while the other field holds more (H4), so the other field
    #   goes then. Either order harvests both: 2 + 1 = 3. Blue 1 and wax 2 pay nothing at the end.
    #   Buying a third field (3 coins after both harvests) leaves 0: worse.
    assert both_solo("forced-harvest") == 3


def test_protected_single():
    # p0: hand [soy, soy], fields [1 chili, 5 blue]; turned up: blue, blue.
    # The soy fits no field; the single chili is protected by the 5 blues (H4), so the blues go
    #   now: 5 blue -> 1 coin (2 more blues would have made 7 -> 2, but they come too late).
    # Best: plant both soys (soy 2); in phase 3 the blues need a field and the chili is still
    #   protected (soy holds 2), so the soys go: 2 soy -> 1 coin; blues 2 -> 0 at the end.
    #   Total 2. Planting one soy only leaves two singles: 1 + 0 = 1.
    assert both_solo("protected-single") == 2


def test_six_reds():
    # p0: hand [red], fields [3 red, 3 soy], 2 coins; turned up: red, red.
    # p0 holds 6 reds in all (3 + 1 + 2). Red pays 1/2/3/4 for 2/3/4/5, so 6 reds pay at most 4
    #   in any grouping (6: 4; 5+1: 4; 4+2: 3+1; 3+3: 2+2). Soy 3 -> 1. Total 2 + 4 + 1 = 7;
    #   the third field (3 coins) cannot pay for itself with no card left to gain from it.
    assert both_solo("six-reds") == 7


def test_split_gardens():
    # p0: hand [chili, red], fields [2 chili, 2 garden]; turned up: garden, garden.
    # Upper bound: p0's chilis (3 after the forced planting) pay at most 1; the 4 gardens pay
    #   at most 2 + 2 = 4 (garden: 2 -> 2, 3 or 4 -> 3); the red alone pays 0. So at most 5.
    # Reached: plant the chili (chili 3), skip the red; in phase 3 harvest the chilis (1) and put
    #   one garden on the emptied field and one on the gardens, or plant the red after
    #   harvesting the 2 gardens (2): either way the gardens are harvested as 2 + 2. Total 5;
    #   keeping the 4 gardens together pays 1 + 3 = 4.
    assert both_solo("split-gardens") == 5


@pytest.mark.parametrize(("objective", "value"), [(COOP, 6), (BEST, 2)], ids=str)
def test_deal_helps_both(objective, value):
    # p0: hand [stink], fields [2 chili, 2 stink]; p1: hand [chili], fields [3 soy, 2 red];
    #   turned up: soy, red. p2 and p3 hold nothing.
    # Without deals (solo): p0 plants the stink (3 -> 1 coin at the end), then must plant soy and
    #   red on fields of other types, harvesting chili 2 (0) and stink 3 (1): p0 ends with 1.
    #   p1 never moves again: soy 3 -> 1, red 2 -> 1: p1 ends with 2. Floors: [1, 2, 0, 0].
    # With deals: p1 gives its chili (worth nothing in hand) and receives soy and red: p0 chili 3
    #   -> 1 and stink 3 -> 1 = 2; p1 soy 4 -> 2 and red 3 -> 2 = 4. coop = 6 (no seat can do
    #   better: p0's 5 beans and p1's 8 beans cannot pay more), best p0 = 2.
    s = LIBRARY["deal-helps-both"].position()
    assert solve_solo(s, 0).value == 1 and solve_solo(s, 1).value == 2
    sol = solve_open(s, objective, 0)
    assert sol.value == value
    if objective == COOP:
        assert sol.per_player[:2] == [2, 4]
    else:
        assert sol.stats.floors == [1, 2, 0, 0] and sol.per_player[0] == 2
