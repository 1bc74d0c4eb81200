"""Issue 29, host paths: gold that names no reply leaves the reply free (``expected_trajectory`` only)."""

from __future__ import annotations

from typing import Any

from strands_evals import Case, Experiment

from aem_strands.strands import AemSessionEvaluator, case_dialog


def _run(case: Case[Any, Any], trajectory: list[str], output: str = "done") -> tuple[bool, str]:
    def task(_: Case[Any, Any]) -> dict[str, Any]:
        return {"output": output, "trajectory": trajectory}

    report = Experiment(cases=[case], evaluators=[AemSessionEvaluator(scorer="exact")]).run_evaluations(task)
    return bool(report.test_passes[0]), str(report.reasons[0])


def test_tool_gold_only_leaves_the_final_reply_free() -> None:
    case = Case(name="tools_only", input="refund order 7", expected_trajectory=["lookup_order", "refund"])
    passed, reason = _run(case, ["lookup_order", "refund"])
    assert passed, reason  # before: "extra_turn (turn 'reply' vs None)"
    assert "extra_turn" not in reason
    assert reason == "all 2 judged turns pass"  # two tool turns, the reply is not a turn


def test_tool_gold_only_still_fails_a_wrong_tool() -> None:
    case = Case(name="tools_only", input="refund order 7", expected_trajectory=["lookup_order", "refund"])
    passed, reason = _run(case, ["lookup_order", "cancel_order"])
    assert not passed
    assert "turn 2" in reason


def test_gold_naming_a_reply_still_judges_the_output() -> None:
    case = Case(name="with_reply", input="refund order 7", expected_trajectory=["lookup_order", "refund"],
                expected_output="Your refund is on its way.")  # fmt: skip
    passed, _ = _run(case, ["lookup_order", "refund"], output="Your refund is on its way.")
    assert passed
    passed, reason = _run(case, ["lookup_order", "refund"], output="I could not find your order.")
    assert not passed
    assert "turn 3" in reason


def test_predicted_replies_of_a_list_are_dropped_only_when_gold_names_none() -> None:
    predicted = [{"turn": "Agent", "response": "Let me look."},
                 {"turn": "Tool", "tool_id": "lookup_order", "action": "lookup_order", "args": {}}]  # fmt: skip
    found = case_dialog(None, predicted, name="c", expected_trajectory=["lookup_order"], actual_output="done")
    assert [t.gold is not None for t in found.dialog.turns] == [True]  # one gold tool turn, no reply turns
    found = case_dialog(None, ["lookup_order"], name="c", expected_trajectory=["lookup_order"],
                        expected_output="done", actual_output="done")  # fmt: skip
    assert len(found.dialog.turns) == 2  # tool + the judged reply
