"""A tool's text result that is one JSON object or array (alone, or as the one text content block MCP tools and
Strands return) is read as that JSON value, so every check sees its members: a ``verified: false`` written as JSON
text is a no. Other text stays text, and JSON text past the input limits stays text too."""

from __future__ import annotations

import json
from typing import Any

import pytest

from aem_strands.trace.evaluate import evaluate_trace
from aem_strands.trace.load import parse_trace
from aem_strands.trace.policy import environment_from_json

POLICY = environment_from_json(
    {
        "tools": [
            {"name": "verify_member", "annotations": {"readOnlyHint": True}},
            {"name": "cancel_booking", "annotations": {"destructiveHint": True}},
        ],
        "rules": {"ordering": [{"tool": "cancel_booking", "after": ["verify_member"]}]},
    }
)


def _trace(answer: Any) -> dict[str, Any]:
    return {
        "trace_id": "gym-1",
        "steps": [
            {"step_id": "u1", "action_type": "user",
             "content": "Please cancel my class booking BK-4410, member card 5512, born 3 May 1990."},
            {"step_id": "s1", "action_type": "tool_call", "tool_name": "verify_member",
             "arguments": {"card": "5512", "dob": "1990-05-03"}, "observation": answer},
            {"step_id": "s2", "action_type": "tool_call", "tool_name": "cancel_booking",
             "arguments": {"booking_id": "BK-4410"}, "observation": {"booking_id": "BK-4410", "status": "cancelled"}},
            {"step_id": "r1", "action_type": "response", "content": "Your booking BK-4410 is cancelled."},
        ],
    }  # fmt: skip


def _rules(answer: Any) -> list[tuple[str | None, str]]:
    result = evaluate_trace(parse_trace(_trace(answer)), policy=POLICY)
    return [(f.step_id, f.rule) for v in result.dimensions.values() for f in v.findings]


@pytest.mark.parametrize("form", ["object", "text", "block"])
def test_a_no_written_as_json_text_is_a_no(form: str) -> None:
    said = {"verified": False, "member_id": "M-5512", "reason": "dob_mismatch"}
    answer: Any = {
        "object": said,
        "text": json.dumps(said),
        "block": [{"type": "text", "text": json.dumps(said)}],
    }[form]
    assert ("s2", "planning.precondition_said_no") in _rules(answer)  # was a pass when written as text


@pytest.mark.parametrize("form", ["object", "text", "block"])
def test_a_yes_written_as_json_text_lets_the_write_go(form: str) -> None:
    said = {"verified": True, "member_id": "M-5512"}
    answer: Any = {"object": said, "text": json.dumps(said), "block": [{"type": "text", "text": json.dumps(said)}]}
    assert [r for r in _rules(answer) if r[1].startswith("planning.")] == []


def test_the_loaded_step_holds_the_json_value_and_other_text_stays_text() -> None:
    steps = parse_trace(_trace('{"verified": true, "member_id": "M-5512"}')).steps
    assert steps[1].observation == {"verified": True, "member_id": "M-5512"}
    for text in ("Member verified.", "{not json", "[1, 2", '"a JSON string"', "42"):
        assert parse_trace(_trace(text)).steps[1].observation == text
    two_blocks = [{"type": "text", "text": "{}"}, {"type": "text", "text": "{}"}]
    assert parse_trace(_trace(two_blocks)).steps[1].observation == two_blocks


def test_json_text_past_the_limits_stays_text() -> None:
    deep = "[" * 5000 + "]" * 5000  # past the depth limit (and Python's recursion)
    huge = '{"n": ' + "9" * 5000 + "}"  # past Python's digit limit
    for text in (deep, huge):
        assert parse_trace(_trace(text)).steps[1].observation == text


def test_every_way_of_building_a_step_reads_the_json_alike() -> None:
    # a Strands session (session_to_trace) and a dialog (trace_from_dialog) build Steps without the file loader
    from aem_strands.trace.types import ActionType, Step, Trace

    text = json.dumps({"verified": False, "member_id": "M-5512"})
    built = Step(step_id="s1", index=0, action_type=ActionType.TOOL_CALL, tool_name="verify_member", observation=text)
    assert built.observation == {"verified": False, "member_id": "M-5512"}
    loaded = parse_trace(_trace(text))
    direct = Trace(trace_id="gym-1", steps=tuple(Step(**{**s.__dict__}) for s in loaded.steps))
    rules = {(f.step_id, f.rule) for v in evaluate_trace(direct, policy=POLICY).dimensions.values() for f in v.findings}
    assert rules == set(_rules(text))
