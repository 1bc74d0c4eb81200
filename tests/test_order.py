"""Order-invariant groups: best assignment, not greedy, not positional."""

from __future__ import annotations

import itertools
import random

from aem_strands import evaluate_dialog
from aem_strands.order import assign
from tests.conftest import action, paired

OI = ["OrderInvariant_lookup"]


def test_swapped_pair_in_a_group_passes() -> None:
    cal, flights = action("cal", "Check", day="mon"), action("air", "Search", to="NYC")
    dialog = [paired(1, cal, flights, tags=OI), paired(2, flights, cal, tags=OI)]
    result = evaluate_dialog(dialog, scorer="exact").to_dict()
    assert result["test_pass"] is True
    assert [t["matched_predicted_turn_no"] for t in result["turns"]] == [2, 1]


def test_swapped_pair_without_tags_fails() -> None:
    cal, flights = action("cal", "Check", day="mon"), action("air", "Search", to="NYC")
    result = evaluate_dialog([paired(1, cal, flights), paired(2, flights, cal)], scorer="exact").to_dict()
    assert [t["failure_reason"] for t in result["turns"]] == ["tool_mismatch", "prior_action_failed"]


def test_wrong_step_inside_a_group_still_fails_after_best_assignment() -> None:
    cal, flights = action("cal", "Check", day="mon"), action("air", "Search", to="NYC")
    wrong_flights = action("air", "Search", to="LAX")
    dialog = [paired(1, cal, wrong_flights, tags=OI), paired(2, flights, cal, tags=OI)]
    result = evaluate_dialog(dialog, scorer="exact").to_dict()
    turns = result["turns"]
    # Turn 1 gold (calendar) gets the predicted calendar call from turn 2 and passes; turn 2 gold
    # (flights to NYC) gets the predicted flights call to LAX and fails on the value, not the tool.
    assert (turns[0]["success"], turns[1]["own_reason"]) == (True, "inconsistent_parameter_values")


def test_three_way_rotation_inside_a_group_passes() -> None:
    # Every gold step is performed, each at another position; positional pairing would fail all three.
    a1, a2 = action("t", "A", x=1, y=2), action("t", "A", x=1, y=3)
    b = action("u", "B", z=1)
    dialog = [
        paired(1, a1, a2, tags=OI),
        paired(2, b, a1, tags=OI),
        paired(3, a2, b, tags=OI),
    ]
    result = evaluate_dialog(dialog, scorer="exact").to_dict()
    assert result["test_pass"] is True


def test_hungarian_matches_brute_force_on_random_matrices() -> None:
    rng = random.Random(7)
    for size in range(1, 6):
        for _ in range(30):
            cost = [[rng.choice([0.0, 1.0, 2.5, 10.0, 11.3]) for _ in range(size)] for _ in range(size)]
            found = assign(cost)
            best = min(sum(cost[r][p[r]] for r in range(size)) for p in itertools.permutations(range(size)))
            assert sorted(found) == list(range(size))
            assert abs(sum(cost[r][found[r]] for r in range(size)) - best) < 1e-9
