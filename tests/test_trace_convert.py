"""Traces from other inputs: our dialogs, a live Strands agent's Session, and span exports in the three shapes
(console exporter, OTLP/JSON, the host's span dicts), GenAI and OpenInference conventions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from openinference.semconv.trace import OpenInferenceSpanKindValues, SpanAttributes
from opentelemetry import baggage, context
from strands import Agent, tool
from strands_evals.mappers import readable_spans_to_dicts

from aem_strands.errors import InputError
from aem_strands.load import parse_dialog
from aem_strands.strands.tasks import telemetry
from aem_strands.strands.trace_adapter import session_to_trace, span_dicts, traces_from_spans
from aem_strands.testing import ScriptedModel, ToolUse
from aem_strands.trace.convert import trace_from_dialog
from aem_strands.trace.types import ActionType


@tool
def get_refund_status(order_id: str) -> dict[str, Any]:
    """Look up the refund status of an order."""
    return {"order_id": order_id, "status": "approved", "days": 5}


@tool
def lookup_customer(email: str) -> str:
    """Find a customer by e-mail."""
    raise TimeoutError("customer service timed out")


def _run_agent(session_id: str) -> list[Any]:
    """A real Agent on a scripted model, traced in memory: a failing call, a lookup, a reply, a second user turn."""
    spans = telemetry()
    token = context.attach(baggage.set_baggage("session.id", session_id))
    try:
        script = [
            ToolUse("lookup_customer", {"email": "ana@example.com"}),
            ToolUse("get_refund_status", {"order_id": "A-17"}),
            "Your refund for A-17 is approved; it arrives in 5 days.",
            "You're welcome.",
        ]
        agent = Agent(model=ScriptedModel(script), tools=[get_refund_status, lookup_customer], callback_handler=None)
        agent("Where is my refund for order A-17? My e-mail is ana@example.com")
        agent("Thanks!")
    finally:
        context.detach(token)
    return [
        s for s in spans.in_memory_exporter.get_finished_spans() if (s.attributes or {}).get("session.id") == session_id
    ]


def _shape(trace: Any) -> list[tuple[str, str | None, str | None]]:
    return [(s.action_type.value, s.tool_name, s.content) for s in trace.steps]


EXPECTED_SHAPE = [
    ("user", None, "Where is my refund for order A-17? My e-mail is ana@example.com"),
    ("tool_call", "lookup_customer", None),
    ("tool_call", "get_refund_status", None),
    ("response", None, "Your refund for A-17 is approved; it arrives in 5 days."),
    ("user", None, "Thanks!"),
    ("response", None, "You're welcome."),
]


def _check_live_trace(trace: Any) -> None:
    assert _shape(trace) == EXPECTED_SHAPE
    failed, lookup = trace.steps[1], trace.steps[2]
    assert failed.error is not None
    assert "timed out" in failed.error
    assert lookup.error is None
    assert lookup.arguments == {"order_id": "A-17"}
    assert lookup.observation == {"order_id": "A-17", "status": "approved", "days": 5}
    assert trace.goal == EXPECTED_SHAPE[0][2]
    assert trace.final_response == "You're welcome."
    assert [s.index for s in trace.steps] == list(range(6))
    assert len({s.step_id for s in trace.steps}) == 6


def test_session_of_a_live_agent_is_a_trace() -> None:
    from strands_evals.mappers import StrandsInMemorySessionMapper

    spans = _run_agent("trace-convert-session")
    session = StrandsInMemorySessionMapper().map_to_session(spans, "trace-convert-session")
    _check_live_trace(session_to_trace(session, case_id="case-1"))


def test_console_exporter_json_of_a_live_agent_is_a_trace() -> None:
    spans = _run_agent("trace-convert-console")
    documents = json.loads(json.dumps([json.loads(s.to_json()) for s in spans]))  # as read back from a file
    (trace,) = traces_from_spans(documents)
    assert trace.trace_id == "trace-convert-console"
    _check_live_trace(trace)


def test_host_span_dicts_are_read_as_they_are() -> None:
    spans = _run_agent("trace-convert-dicts")
    (trace,) = traces_from_spans([readable_spans_to_dicts(spans)])
    _check_live_trace(trace)


def _otlp(attributes: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for key, value in attributes.items():
        if isinstance(value, bool):
            out.append({"key": key, "value": {"boolValue": value}})
        elif isinstance(value, int):
            out.append({"key": key, "value": {"intValue": str(value)}})
        else:
            out.append({"key": key, "value": {"stringValue": value}})
    return out


def _openinference_export() -> dict[str, Any]:
    kind = SpanAttributes.OPENINFERENCE_SPAN_KIND
    agent = {"traceId": "ab" * 16, "spanId": "01" * 8, "name": "Agent", "startTimeUnixNano": "1000",
             "endTimeUnixNano": "9000", "status": {"code": 1},
             "attributes": _otlp({kind: OpenInferenceSpanKindValues.AGENT.value, SpanAttributes.SESSION_ID: "oi-1",
                                  SpanAttributes.INPUT_VALUE: "Cancel order 123 please",
                                  SpanAttributes.OUTPUT_VALUE: "Order 123 is cancelled."})}  # fmt: skip
    call = {"traceId": "ab" * 16, "spanId": "02" * 8, "parentSpanId": "01" * 8, "name": "cancel_order",
            "startTimeUnixNano": "2000", "endTimeUnixNano": "3000", "status": {"code": 1},
            "attributes": _otlp({kind: OpenInferenceSpanKindValues.TOOL.value, SpanAttributes.TOOL_NAME: "cancel_order",
                                 SpanAttributes.INPUT_VALUE: json.dumps({"order_id": "123"}),
                                 SpanAttributes.OUTPUT_VALUE: json.dumps({"status": "cancelled"})})}  # fmt: skip
    scope = {"scope": {"name": "openinference.instrumentation.smolagents"}, "spans": [agent, call]}
    return {"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [scope]}]}


def test_otlp_json_with_openinference_conventions_is_a_trace() -> None:
    (trace,) = traces_from_spans([_openinference_export()], "export.json")
    assert trace.trace_id == "oi-1"
    kinds = [(s.action_type, s.tool_name) for s in trace.steps]
    assert (ActionType.TOOL_CALL, "cancel_order") in kinds
    call = next(s for s in trace.steps if s.action_type is ActionType.TOOL_CALL)
    assert call.arguments == {"order_id": "123"}
    assert trace.final_response == "Order 123 is cancelled."


def test_an_unreadable_span_names_the_file_and_span() -> None:
    with pytest.raises(InputError) as caught:
        span_dicts([[{"name": "broken", "context": {"trace_id": "0x1", "span_id": "0x2"}, "events": 5}]], "x.json")
    text = str(caught.value)
    assert "x.json" in text
    assert "broken" in text
    with pytest.raises(InputError, match="not a span"):
        span_dicts([[{"name": "no ids"}]], "y.json")
    with pytest.raises(InputError, match="expected span objects"):
        span_dicts([7], "z.json")


def test_dialog_becomes_a_trace_with_its_gold() -> None:
    raw = {
        "dialog_id": "refund-1",
        "metadata": {"goal": "refund order A-17", "user_messages": ["Please refund A-17", "thanks"]},
        "turns": [
            {"turn_no": 1, "turn": "Tool",
             "gold_turn": {"tool_id": "billing", "action": "refund", "args": {"order": "A-17"}},
             "predict_turn": {"tool_id": "billing", "action": "refund", "args": {"order": "A-17"},
                              "observation": {"error": "timeout"}}},
            {"turn_no": 2, "turn": "Agent", "gold_turn": {"response": "The refund could not be made yet."},
             "predict_turn": {"response": "Your refund is done."}},
            {"turn_no": 3, "turn": "Agent", "gold_turn": {"response": "Bye."}, "predict_turn": {"response": "Bye!"}},
        ],
    }  # fmt: skip
    trace = trace_from_dialog(parse_dialog(raw))
    assert _shape(trace) == [
        ("user", None, "Please refund A-17"),
        ("tool_call", "refund", None),
        ("response", None, "Your refund is done."),
        ("user", None, "thanks"),
        ("response", None, "Bye!"),
    ]
    assert trace.steps[1].error == "timeout"
    assert trace.goal == "refund order A-17"
    assert trace.final_response == "Bye!"
    assert trace.gold is not None
    assert trace.gold.expected_tools == ("refund",)
    assert trace.gold.expected_arguments == ({"order": "A-17"},)
    assert trace.gold.expected_final_response == "Bye."
