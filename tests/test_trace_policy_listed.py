"""A precondition check that answers per object in a list (``{"lines": [{"line_id": "L-2", "approved": false},
...]}``) said yes for the call only when the item about the call's object says yes; a list answering for other
objects only is no answer for it. A yes or no spelled as text (``"false"``) is read as the boolean."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.context import ExactValues, TraceContext
from aem_strands.trace.checks.planning import check_planning
from aem_strands.trace.policy import environment_from_json
from aem_strands.trace.types import ActionType, Step, Trace
from aem_strands.types import JsonValue

GRANTS = environment_from_json(
    {
        "tools": [{"name": "check_budget_approval", "annotations": {"readOnlyHint": True}}],
        "rules": {"ordering": [{"tool": "release_funds", "after": ["check_budget_approval"]}]},
    }
)
LINES: JsonValue = {
    "project": "PRJ-77",
    "lines": [{"line_id": "L-2", "approved": False}, {"line_id": "L-3", "approved": True}],
}


def _release(answer: JsonValue, line: str) -> list[tuple[str | None, str]]:
    raw: list[dict[str, Any]] = [
        {"action_type": ActionType.USER, "content": f"Release the funds for budget line {line} of PRJ-77."},
        {"action_type": ActionType.TOOL_CALL, "tool_name": "check_budget_approval",
         "arguments": {"project_id": "PRJ-77"}, "observation": answer},
        {"action_type": ActionType.TOOL_CALL, "tool_name": "release_funds", "arguments": {"line_id": line},
         "observation": {"released": True}},
    ]  # fmt: skip
    t = Trace(trace_id="t", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(raw)))
    return [(f.step_id, f.rule) for f in check_planning(t, GRANTS, TraceContext(ExactValues())).findings]


def test_the_item_about_the_calls_object_decides() -> None:
    assert _release(LINES, "L-2") == [("s3", "planning.precondition_said_no")]
    assert _release(LINES, "L-3") == []


def test_a_list_answering_for_other_objects_only_is_no_answer_for_this_one() -> None:
    assert _release(LINES, "L-9") == [("s3", "planning.precondition_other_object")]


def test_an_answer_outside_the_list_decides_and_the_list_is_its_detail() -> None:
    answer = {"approved": True, "lines": [{"line_id": "L-2", "approved": False}]}
    assert _release(answer, "L-2") == []


def test_a_yes_or_no_spelled_as_text_is_read_as_the_boolean() -> None:
    assert _release({"line_id": "L-2", "approved": "false"}, "L-2") == [("s3", "planning.precondition_said_no")]
    assert _release({"line_id": "L-2", "approved": "true"}, "L-2") == []
