"""Session → predicted turns, on hand-built Sessions (the multi-turn single-trace pitfall included)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from strands_evals.types.trace import (
    AgentInvocationSpan,
    Session,
    SpanInfo,
    ToolCall,
    ToolExecutionSpan,
    ToolResult,
    Trace,
)

from aem_strands.strands import session_to_turns
from aem_strands.types import ActionCall, Reply

T0 = datetime(2026, 1, 1, 12, 0, 0, tzinfo=timezone.utc)


def info(span_id: str, start: int, end: int, parent: str | None = None) -> SpanInfo:
    return SpanInfo(span_id=span_id, session_id="s", parent_span_id=parent, trace_id="t",
                    start_time=T0 + timedelta(seconds=start), end_time=T0 + timedelta(seconds=end))  # fmt: skip


def invocation(span_id: str, start: int, end: int, prompt: str, response: str) -> AgentInvocationSpan:
    return AgentInvocationSpan(span_info=info(span_id, start, end), user_prompt=prompt, agent_response=response,
                               available_tools=[])  # fmt: skip


def tool_span(
    span_id: str,
    start: int,
    name: str,
    args: dict[str, object],
    content: str,
    *,
    parent: str | None,
    error: str | None = None,
) -> ToolExecutionSpan:
    return ToolExecutionSpan(
        span_info=info(span_id, start, start + 1, parent),
        tool_call=ToolCall(name=name, arguments=args),
        tool_result=ToolResult(content=content, error=error),
    )


def test_one_trace_with_three_user_turns_gives_each_tool_call_to_its_own_turn() -> None:
    # Spans listed out of order, as an exporter may deliver them; all in ONE trace (the Experiment case).
    spans = [
        tool_span("t3", 31, "export_report", {"format": "pdf"}, '{"report": "r.pdf"}', parent="a3"),
        invocation("a3", 30, 40, "Export it", "Your PDF report is ready.\n"),
        tool_span("t2", 22, "create_chart", {"dataset_id": "ds-1"}, '{"chart_id": "ch-1"}', parent="a2"),
        tool_span("t1", 21, "filter_data", {"metric": "profit"}, '{"dataset_id": "ds-1"}', parent="a2"),
        invocation("a2", 20, 29, "EU please", "Done.\n"),
        invocation("a1", 10, 11, "Report please", "Which region?\n"),
    ]
    turns = session_to_turns(Session(traces=[Trace(spans=spans, trace_id="t", session_id="s")], session_id="s"))
    assert [(t.user_turn, t.content) for t in turns] == [
        (1, Reply("Which region?")),
        (2, ActionCall("filter_data", "filter_data", {"metric": "profit"}, {"dataset_id": "ds-1"})),
        (2, ActionCall("create_chart", "create_chart", {"dataset_id": "ds-1"}, {"chart_id": "ch-1"})),
        (2, Reply("Done.")),
        (3, ActionCall("export_report", "export_report", {"format": "pdf"}, {"report": "r.pdf"})),
        (3, Reply("Your PDF report is ready.")),
    ]
    assert [t.span_id for t in turns] == ["a1", "t1", "t2", "a2", "t3", "a3"]
    assert turns[1].latency_ms == 1000.0  # the tool span lasted one second


def test_tool_span_without_owner_goes_to_the_invocation_running_at_its_start() -> None:
    spans = [
        invocation("a1", 0, 5, "first", "one"),
        invocation("a2", 10, 15, "second", "two"),
        # no parent chain to an agent span: ownership by time window (12 is inside a2's 10..15)
        tool_span("t1", 12, "lookup", {}, "plain text result", parent=None),
    ]
    trace = Trace(spans=spans, trace_id="t", session_id="s")
    for span in trace.spans:  # undo the host's fallback (which gives orphans to the root agent span)
        if isinstance(span, ToolExecutionSpan):
            span.agent_span_id = None
    turns = session_to_turns(Session(traces=[trace], session_id="s"))
    assert [(t.user_turn, type(t.content).__name__) for t in turns] == [(1, "Reply"), (2, "ActionCall"), (2, "Reply")]
    assert turns[1].content == ActionCall("lookup", "lookup", {}, "plain text result")


def test_failed_tool_call_observation_records_the_error_and_empty_replies_are_dropped() -> None:
    spans = [
        invocation("a1", 0, 5, "go", "\n"),
        tool_span("t1", 1, "filter_data", {"metric": "x"}, "Error: no data", parent="a1", error="error"),
    ]
    turns = session_to_turns(Session(traces=[Trace(spans=spans, trace_id="t", session_id="s")], session_id="s"))
    assert [t.content for t in turns] == [
        ActionCall("filter_data", "filter_data", {"metric": "x"}, {"error": "Error: no data"})
    ]


def test_session_survives_a_json_round_trip() -> None:
    spans = [invocation("a1", 0, 5, "go", "ok\n"), tool_span("t1", 1, "f", {"a": 1}, "[1, 2]", parent="a1")]
    session = Session(traces=[Trace(spans=spans, trace_id="t", session_id="s")], session_id="s")
    again = Session.model_validate_json(session.model_dump_json())
    assert [t.content for t in session_to_turns(again)] == [ActionCall("f", "f", {"a": 1}, [1, 2]), Reply("ok")]


def test_an_agent_called_inside_a_plain_tool_belongs_to_the_outer_user_turn() -> None:
    # a1 (user turn 1) calls tool t1, whose function runs agent n1 (parent t1), which calls t2 (parent n1).
    nested = AgentInvocationSpan(span_info=info("n1", 2, 4, parent="t1"), user_prompt="inner", agent_response="x\n",
                                 available_tools=[])  # fmt: skip
    spans = [
        invocation("a1", 0, 6, "go", "done\n"),
        tool_span("t1", 1, "research", {"q": "EU"}, "x", parent="a1"),
        nested,
        tool_span("t2", 3, "search", {"q": "EU"}, "hit", parent="n1"),
        invocation("a2", 10, 11, "thanks", "bye\n"),
    ]
    session = Session(traces=[Trace(spans=spans, trace_id="t", session_id="s")], session_id="s")
    inline = session_to_turns(session)
    assert [(t.user_turn, t.span_id, t.agent) for t in inline] == [
        (1, "t1", None), (1, "t2", "research"), (1, "a1", None), (2, "a2", None)
    ]  # fmt: skip
    opaque = session_to_turns(session, sub_agents="opaque")
    assert [t.span_id for t in opaque] == ["t1", "a1", "a2"]
