"""Alignment of unpaired gold and predicted turns (issue 3, item 3).

Each scenario states the expected pairing and labels; costs are computed by hand from the module's
cost model: identical match 0, missing 1, extra 1, different tool/action 1.9.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands import ConfigError, evaluate_dialog
from aem_strands.align import AlignOptions, align_turns, match_cost
from aem_strands.types import ActionCall, Reply, Turn, TurnContent, TurnKind


def call(tool: str, **args: Any) -> ActionCall:
    return ActionCall(tool, tool, dict(args))


def gold_turns(
    *contents: TurnContent, tags: dict[int, str] | None = None, optional: tuple[int, ...] = ()
) -> list[Turn]:
    out = []
    for n, content in enumerate(contents, start=1):
        kind = TurnKind.ACTION if isinstance(content, ActionCall) else TurnKind.RESPONSE
        tag = (tags or {}).get(n)
        out.append(Turn(n, kind, content, None, tags=(tag,) if tag else (), optional=n in optional))
    return out


def rows(
    gold: list[Turn], predicted: list[TurnContent], options: AlignOptions | None = None
) -> list[tuple[int | None, int | None]]:
    return [(p.gold_index, p.predicted_index) for p in align_turns(gold, predicted, options).pairs]


def labels(gold: list[Turn], predicted: list[TurnContent], options: AlignOptions | None = None) -> list[str]:
    """Each aligned turn's own verdict (before attribution): its primary reason, or "pass"."""
    dialog = align_turns(gold, predicted, options).dialog
    result = evaluate_dialog(dialog, scorer="exact")
    return [t.verdict.own_reason.value if t.verdict.own_reason else "pass" for t in result.turns]


A, B, C = call("search", q="x"), call("book", id="1"), call("pay", amount=5)
X = call("weather", city="Oslo")


def test_identical_sequences_pair_positionally_at_cost_zero() -> None:
    alignment = align_turns(gold_turns(A, B, C), [A, B, C])
    assert [(p.gold_index, p.predicted_index) for p in alignment.pairs] == [(0, 0), (1, 1), (2, 2)]
    assert alignment.cost == 0.0


def test_inserted_extra_call_is_one_extra_turn_and_nothing_shifts() -> None:
    # A X B C against A B C: skipping X costs 1; pairing X with B (1.9) would shift B and C.
    assert rows(gold_turns(A, B, C), [A, X, B, C]) == [(0, 0), (None, 1), (1, 2), (2, 3)]
    assert labels(gold_turns(A, B, C), [A, X, B, C]) == ["pass", "extra_turn", "pass", "pass"]


def test_skipped_call_is_one_missing_turn() -> None:
    assert rows(gold_turns(A, B, C), [A, C]) == [(0, 0), (1, None), (2, 1)]
    assert labels(gold_turns(A, B, C), [A, C]) == ["pass", "missing_turn", "pass"]


def test_swapped_order_invariant_pair_passes() -> None:
    gold = gold_turns(A, B, C, tags={1: "OrderInvariant_g", 2: "OrderInvariant_g"})
    alignment = align_turns(gold, [B, A, C])
    assert [(p.gold_index, p.predicted_index) for p in alignment.pairs] == [(0, 1), (1, 0), (2, 2)]
    assert alignment.cost == pytest.approx(0.0, abs=1e-5)
    assert labels(gold, [B, A, C]) == ["pass", "pass", "pass"]


def test_swapped_non_invariant_pair_is_missing_plus_extra_not_two_mismatches() -> None:
    # B A against A B: best cost 2 (one missing, one match, one extra) < 3.8 (two 1.9 mismatches).
    alignment = align_turns(gold_turns(A, B), [B, A])
    assert alignment.cost == pytest.approx(2.0)
    assert labels(gold_turns(A, B), [B, A]) == ["missing_turn", "pass", "extra_turn"]


def test_repeated_identical_call_pairs_earliest_and_leaves_the_repeat_extra() -> None:
    assert rows(gold_turns(A, B), [A, A, B]) == [(0, 0), (None, 1), (1, 2)]
    assert rows(gold_turns(A, A), [A, A, A]) == [(0, 0), (1, 1), (None, 2)]
    assert labels(gold_turns(A, A), [A, A, A]) == ["pass", "pass", "extra_turn"]


def test_empty_prediction_makes_every_gold_turn_missing() -> None:
    alignment = align_turns(gold_turns(A, B), [])
    assert alignment.cost == 2.0
    assert labels(gold_turns(A, B), []) == ["missing_turn", "missing_turn"]


def test_empty_gold_makes_every_prediction_extra() -> None:
    assert rows([], [A, B]) == [(None, 0), (None, 1)]
    assert labels([], [A, B]) == ["extra_turn", "extra_turn"]


def test_both_empty_is_an_empty_dialog() -> None:
    alignment = align_turns([], [])
    assert alignment.dialog.turns == ()
    assert alignment.cost == 0.0


def test_wrong_argument_pairs_with_its_gold_call() -> None:
    # Same tool, 1 of 1 argument differs: 0.8 < 2 (missing + extra), so they pair and the turn
    # fails on the value, not as a missing turn.
    wrong = call("search", q="y")
    assert match_cost(A, wrong) == pytest.approx(0.8)
    assert labels(gold_turns(A, B), [wrong, B]) == ["inconsistent_parameter_values", "pass"]


def test_wrong_tool_at_the_gold_position_is_a_tool_mismatch() -> None:
    assert match_cost(A, X) == 1.9
    assert labels(gold_turns(A, B), [X, B]) == ["tool_mismatch", "pass"]


def test_allow_extra_all_drops_unmatched_predictions() -> None:
    alignment = align_turns(gold_turns(A, B), [X, A, X, B], AlignOptions("all"))
    assert alignment.ignored == (0, 2)
    assert [(p.gold_index, p.predicted_index) for p in alignment.pairs] == [(0, 1), (1, 3)]
    assert alignment.cost == 0.0


def test_allow_extra_read_only_tolerates_only_the_named_tools() -> None:
    options = AlignOptions("read_only", frozenset({"weather"}))
    other = call("delete_account", id="7")
    alignment = align_turns(gold_turns(A), [X, A, other], options)
    assert alignment.ignored == (0,)
    assert labels(gold_turns(A), [X, A, other], options) == ["pass", "extra_turn"]


def test_optional_gold_turn_may_be_skipped_without_failing() -> None:
    gold = gold_turns(A, B, C, optional=(2,))
    alignment = align_turns(gold, [A, C])
    assert alignment.skipped_optional == (1,)
    assert alignment.cost == 0.0
    assert labels(gold, [A, C]) == ["pass", "pass"]
    # performed anyway, it is judged like any other turn
    assert labels(gold, [A, B, C]) == ["pass", "pass", "pass"]


def test_depends_on_is_renumbered_to_aligned_turns() -> None:
    gold = [
        Turn(1, TurnKind.ACTION, A, None),
        Turn(2, TurnKind.ACTION, B, None, depends_on=(1,)),
    ]
    dialog = align_turns(gold, [X, A, B]).dialog
    assert [t.turn_no for t in dialog.turns] == [1, 2, 3]
    assert dialog.turns[0].gold is None
    assert dialog.turns[2].depends_on == (2,)


def test_replies_pair_with_replies_by_word_overlap() -> None:
    gold = gold_turns(Reply("Which region should the report cover?"), A)
    alignment = align_turns(gold, [Reply("Which region should the sales report cover?"), A])
    # Jaccard 6/7 of the word sets -> cost 0.5 * 1/7
    assert alignment.cost == pytest.approx(0.5 / 7)


def test_read_only_without_tools_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="read_only_tools"):
        AlignOptions("read_only")
    with pytest.raises(ConfigError, match="allow_extra"):
        AlignOptions("some")  # type: ignore[arg-type]


_contents = st.lists(st.sampled_from([A, B, C, X, call("search", q="y")]), max_size=5)


@settings(max_examples=60, deadline=None)
@given(gold=_contents, predicted=_contents)
def test_alignment_covers_every_turn_once_in_order(gold: list[ActionCall], predicted: list[ActionCall]) -> None:
    alignment = align_turns(gold_turns(*gold), list(predicted))
    g = [p.gold_index for p in alignment.pairs if p.gold_index is not None]
    p = [p.predicted_index for p in alignment.pairs if p.predicted_index is not None]
    assert g == list(range(len(gold)))
    assert p == list(range(len(predicted)))
    # never worse than calling everything missing and extra
    assert alignment.cost <= len(gold) + len(predicted) + 1e-9


@settings(max_examples=40, deadline=None)
@given(gold=_contents)
def test_gold_against_itself_is_a_perfect_positional_alignment(gold: list[ActionCall]) -> None:
    alignment = align_turns(gold_turns(*gold), list(gold))
    assert alignment.cost == 0.0
    assert all(p.gold_index == p.predicted_index for p in alignment.pairs)


def test_order_invariant_block_with_an_extra_call_inside() -> None:
    # gold A B (one group) then C; predicted B X A C: A and B match across the group, X is extra.
    gold = gold_turns(A, B, C, tags={1: "OrderInvariant_g", 2: "OrderInvariant_g"})
    assert rows(gold, [B, X, A, C]) == [(0, 2), (1, 0), (None, 1), (2, 3)]
    assert labels(gold, [B, X, A, C]) == ["pass", "pass", "extra_turn", "pass"]


def test_wrong_step_inside_an_order_invariant_block_still_fails() -> None:
    gold = gold_turns(A, B, tags={1: "OrderInvariant_g", 2: "OrderInvariant_g"})
    wrong_b = call("book", id="2")
    assert labels(gold, [wrong_b, A]) == ["pass", "inconsistent_parameter_values"]


def test_block_member_the_agent_skipped_is_missing() -> None:
    gold = gold_turns(A, B, C, tags={1: "OrderInvariant_g", 2: "OrderInvariant_g", 3: "OrderInvariant_g"})
    assert rows(gold, [C, A]) == [(0, 1), (1, None), (2, 0)]
    assert labels(gold, [C, A]) == ["pass", "missing_turn", "pass"]


def brute_force_cost(gold: list[ActionCall], predicted: list[ActionCall]) -> float:
    """Minimum cost over every order-respecting matching, enumerated (independent of the DP)."""
    best = float(len(gold) + len(predicted))
    for k in range(1, min(len(gold), len(predicted)) + 1):
        for gs in itertools.combinations(range(len(gold)), k):
            for ps in itertools.combinations(range(len(predicted)), k):
                matched = sum(match_cost(gold[g], predicted[p]) for g, p in zip(gs, ps, strict=True))
                best = min(best, matched + (len(gold) - k) + (len(predicted) - k))
    return best


@settings(max_examples=80, deadline=None)
@given(gold=_contents, predicted=_contents)
def test_alignment_cost_is_the_brute_force_optimum(gold: list[ActionCall], predicted: list[ActionCall]) -> None:
    assert align_turns(gold_turns(*gold), list(predicted)).cost == pytest.approx(brute_force_cost(gold, predicted))


def test_long_dialog_with_a_group_aligns_quickly() -> None:
    # 120 gold turns with a 4-turn group; one call inserted and one dropped: cost 1 + 1.
    contents = [call(f"t{i % 12}", x=i) for i in range(120)]
    gold = gold_turns(*contents, tags=dict.fromkeys(range(6, 10), "OrderInvariant_g"))
    predicted = [*contents[:40], X, *contents[40:80], *contents[81:]]
    started = time.perf_counter()
    alignment = align_turns(gold, predicted)
    assert alignment.cost == pytest.approx(2.0)
    assert time.perf_counter() - started < 5.0  # about 0.2 s on one core
