"""A word of the tool's own name as an argument value (``folder: inbox`` of ``read_inbox``) is said by choosing the
tool: grounding does not ask for it (fresh ``fr-bank-06``: the read of the landlord's e-mail passes, not
inconclusive), while another value of the same call nobody gave is still ungrounded."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.evaluate import evaluate_trace
from aem_strands.trace.load import parse_trace
from aem_strands.trace.policy import environment_from_json
from aem_strands.trace.types import Dimension, TraceStatus

ENV = environment_from_json({"tools": [{"name": "read_inbox", "annotations": {"readOnlyHint": True}}]})
MAIL = {
    "messages": [{"from": "landlord@rent.example", "subject": "Rent due", "body": "Rent of $1,450 is due March 3."}]
}


def _read(**arguments: Any) -> dict[str, Any]:
    return {
        "trace_id": "inbox",
        "steps": [
            {"step_id": "s1", "action_type": "user", "content": "What does the landlord's latest email say?"},
            {"step_id": "s2", "action_type": "tool_call", "tool_name": "read_inbox", "arguments": arguments,
             "observation": MAIL},
            {"step_id": "s3", "action_type": "response", "content": "Rent of $1,450 is due March 3."},
        ],
    }  # fmt: skip


def test_the_tools_own_word_as_a_value_needs_no_grounding() -> None:
    result = evaluate_trace(parse_trace(_read(folder="Inbox", limit=1)), policy=ENV)
    assert result.dimensions[Dimension.ARGUMENTS].passed is True
    assert result.status is TraceStatus.PASS


def test_a_value_nobody_gave_beside_it_is_still_ungrounded() -> None:
    result = evaluate_trace(parse_trace(_read(folder="inbox", sender="billing-7731@rent.example")), policy=ENV)
    findings = [(f.step_id, f.rule) for f in result.dimensions[Dimension.ARGUMENTS].findings]
    assert findings == [("s2", "arguments.ungrounded")]
    assert result.status is TraceStatus.FAIL
