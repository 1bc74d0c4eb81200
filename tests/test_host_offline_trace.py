"""Issue 29, host paths: ``offline_case`` keeps the dialog's goal and user messages, and trace rows name steps by
tool and position (``lookup_order#2``), not by span id."""

from __future__ import annotations

from typing import Any

from strands_evals import Experiment

from aem_strands.strands import AemTraceEvaluator, offline_case, offline_task

ORDER = "ORD-7781"


def _dialog(order: str, **metadata: Any) -> dict[str, Any]:
    call = {"tool_id": "lookup_order", "action": "lookup_order", "args": {"order_id": order},
            "observation": {"order_id": order, "status": "shipped"}}  # fmt: skip
    said = {"response": f"Order {order} has shipped."}
    turns = [{"turn_no": 1, "turn": "Tool", "gold_turn": call, "predict_turn": call},
             {"turn_no": 2, "turn": "Agent", "gold_turn": said, "predict_turn": said}]  # fmt: skip
    return {"dialog_id": "d1", "metadata": metadata, "turns": turns}


def _row(dialog: dict[str, Any]) -> Any:
    case = offline_case(dialog, name="d1")
    report = Experiment(cases=[case], evaluators=[AemTraceEvaluator()]).run_evaluations(offline_task)
    return report.detailed_results[0][0], case


def test_the_user_messages_of_the_dialog_ground_its_arguments() -> None:
    row, case = _row(_dialog(ORDER, goal=f"Track order {ORDER}", user_messages=[f"Where is my order {ORDER}?"]))
    assert case.metadata["aem"]["user_messages"] == [f"Where is my order {ORDER}?"]
    assert case.metadata["aem"]["goal"] == f"Track order {ORDER}"
    assert row.test_pass, row.reason  # before: arguments.ungrounded (the user's message was dropped)
    assert row.metadata["dimensions"]["arguments"]["pass"] is True


def test_a_value_nobody_gave_is_still_ungrounded_and_named_by_tool_and_position() -> None:
    row, _ = _row(_dialog("ORD-9999", goal=f"Track order {ORDER}", user_messages=[f"Where is my order {ORDER}?"]))
    assert not row.test_pass
    findings = row.metadata["dimensions"]["arguments"]["findings"]
    assert findings[0]["rule"] == "arguments.ungrounded"
    # steps: user-1 (1), lookup_order (2), reply (3): the call is named by its tool and its position
    assert findings[0]["step_id"] == "lookup_order#2"
    assert row.metadata["first_critical_failure_step"] == "lookup_order#2"
    assert "lookup_order#2" in row.reason
    assert row.metadata["step_spans"]["lookup_order#2"] == "aem-turn-1"  # the span it came from
