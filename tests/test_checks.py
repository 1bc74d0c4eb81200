"""Turn judging: every failure reason, the precedence, recorded problems and sub-scores."""

from __future__ import annotations

from typing import Any

import pytest

from aem_strands import Comparator, FailureReason, SubMetric, TableScorer, Verdict, evaluate_dialog, parse_dialog
from aem_strands.checks import check_turn
from tests.conftest import action, paired, reply


def judge(turn: dict[str, Any], scorer: Any = None) -> Any:
    dialog = parse_dialog([turn])
    comparator = Comparator(scorer or TableScorer({("revenue", "profit"): 0.73}))
    return check_turn(dialog.turns[0], comparator.compare_request)


def test_identical_action_passes_with_perfect_sub_scores() -> None:
    verdict = judge(paired(1, action("t", "A", x=1, y="EU"), action("t", "A", x=1, y="EU")))
    assert verdict.verdict is Verdict.PASS
    assert verdict.problems == ()
    assert verdict.sub_scores == {SubMetric.STRUCTURE: 1.0, SubMetric.COMPLETENESS: 1.0, SubMetric.TRUTHFULNESS: 1.0}


@pytest.mark.parametrize(
    ("gold", "predicted", "reason", "field"),
    [
        (action("reports", "Filter"), action("charts", "Filter"), FailureReason.TOOL_MISMATCH, "tool_id"),
        (action("reports", "Filter"), action("reports", "Sort"), FailureReason.ACTION_MISMATCH, "action"),
        (action("t", "A", metric="revenue"), action("t", "A"), FailureReason.MISSING_PARAMETERS, "args.metric"),
        (
            action("t", "A", metric="revenue"),
            action("t", "A", metric="profit"),
            FailureReason.INCONSISTENT_PARAMETER_VALUES,
            "args.metric",
        ),
        (action("t", "A"), action("t", "A", limit=5), FailureReason.EXTRA_PARAMETERS, "args.limit"),
        (reply("The total is 42 EUR."), reply("The total is 41 EUR."), FailureReason.INCONSISTENT_RESPONSE, "response"),
        (reply("Which region?"), reply("The region is noted."), FailureReason.INCOMPLETE_RESPONSE, "response"),
        (
            reply("Report ready."),
            reply("Completely unrelated words here."),
            FailureReason.INCONSISTENT_RESPONSE,
            "response",
        ),
    ],
)
def test_each_failure_reason(
    gold: dict[str, Any], predicted: dict[str, Any], reason: FailureReason, field: str
) -> None:
    verdict = judge(paired(1, gold, predicted))
    assert verdict.verdict is Verdict.FAIL
    assert verdict.own_reason is reason
    assert verdict.problems[0].field == field


def test_missing_and_extra_turns_from_empty_sides() -> None:
    from aem_strands import ActionCall, Turn, TurnKind

    compare = Comparator(TableScorer()).compare_request
    missing = check_turn(Turn(1, TurnKind.ACTION, ActionCall("t", "A"), None), compare)
    extra = check_turn(Turn(2, TurnKind.ACTION, None, ActionCall("t", "A")), compare)
    assert missing.own_reason is FailureReason.MISSING_TURN
    assert extra.own_reason is FailureReason.EXTRA_TURN


def test_precedence_missing_before_inconsistent_before_extra_and_all_recorded() -> None:
    gold = action("t", "A", metric="revenue", region="EU")
    predicted = action("t", "A", metric="profit", limit=5)
    verdict = judge(paired(1, gold, predicted))
    reasons = [p.reason for p in verdict.problems]
    assert reasons == [
        FailureReason.MISSING_PARAMETERS,
        FailureReason.INCONSISTENT_PARAMETER_VALUES,
        FailureReason.EXTRA_PARAMETERS,
    ]
    # completeness: 1 of 2 gold keys present, over 2 gold keys + 1 extra key = 1/3
    assert verdict.sub_scores[SubMetric.COMPLETENESS] == pytest.approx(1 / 3)
    # truthfulness: 0 of the 1 shared key is equivalent
    assert verdict.sub_scores[SubMetric.TRUTHFULNESS] == 0.0


def test_tool_mismatch_wins_over_argument_problems() -> None:
    verdict = judge(paired(1, action("a", "X", k=1), action("b", "Y", j=2)))
    assert [p.reason for p in verdict.problems] == [FailureReason.TOOL_MISMATCH]


def test_problem_records_sub_metric_field_values_score_and_method() -> None:
    verdict = judge(paired(1, action("t", "A", metric="revenue"), action("t", "A", metric="profit")))
    problem = verdict.problems[0].to_dict()
    assert problem == {
        "reason": "inconsistent_parameter_values",
        "sub_metric": "truthfulness",
        "field": "args.metric",
        "gold": "revenue",
        "predicted": "profit",
        "score": 0.73,
        "method": "test",
        # 0.73 is below the argument threshold 0.75 but above its floor 0.49: the uncertain band,
        # decided "not equivalent" because no escalation scorer is configured.
        "detail": (
            "table 0.730 < 0.75 (uncertain band [0.49, 0.75), no escalation scorer: not equivalent, conservative)"
        ),
    }


def test_reply_where_a_tool_call_was_due_is_a_tool_mismatch() -> None:
    from aem_strands import ActionCall, Reply, Turn, TurnKind

    verdict = check_turn(
        Turn(1, TurnKind.ACTION, ActionCall("t", "A"), Reply("done")), Comparator(TableScorer()).compare_request
    )
    assert verdict.own_reason is FailureReason.TOOL_MISMATCH


def test_response_completeness_counts_gold_facts() -> None:
    # gold facts: 3 and 120 EUR, plus a request for the date = 3; the prediction gives 3 and asks = 2/3
    gold, predicted = "3 rooms left at 120 EUR. Which date?", "3 rooms left. Which date would you like?"
    verdict = judge(paired(1, reply(gold), reply(predicted)), TableScorer({(gold, predicted): 0.9}))
    assert verdict.own_reason is FailureReason.INCOMPLETE_RESPONSE
    assert verdict.sub_scores[SubMetric.COMPLETENESS] == pytest.approx(2 / 3)


def test_undecided_comparison_makes_turn_not_applicable_not_failed() -> None:
    class Unsure:
        name = "unsure"
        method = TableScorer.method

        def similarities(self, pairs: Any, kind: Any) -> list[float | None]:
            return [None for _ in pairs]

    result = evaluate_dialog(
        [paired(1, action("t", "A", city="NYC"), action("t", "A", city="Gotham"))], scorer=Unsure()
    )
    turn = result.to_dict()["turns"][0]
    assert turn["verdict"] == "not_applicable"
    assert "could not score" in turn["note"]
    assert result.score is None
    assert result.test_pass is False
    assert result.to_dict()["not_applicable_count"] == 1
