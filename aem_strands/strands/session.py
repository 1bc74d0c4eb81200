"""Strands trace ``Session`` → predicted turns: the one adapter from host trace types to our types.

Contract of ``session_to_turns``:

- every ``AgentInvocationSpan`` of every trace is one user turn, ordered by ``span_info.start_time``
  (a multi-turn conversation run inside an ``Experiment`` lands in a single trace, so traces are not
  used to separate turns);
- each ``ToolExecutionSpan`` belongs to the invocation named by its ``agent_span_id`` (set by the
  host from the span's parent chain); one without an owner goes to the invocation whose time window
  contains its start, else to the latest invocation that started before it. Within a user turn, tool
  calls are ordered by start time;
- a user turn yields its tool calls (``ActionCall(tool_id=name, action=name, args=arguments,
  observation=result)``, the result decoded from JSON when possible; a failed call's observation is
  ``{"error": <content>}``), then its reply (``Reply(agent_response)`` with the trailing newline the
  mapper keeps removed), unless the reply is empty.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from strands_evals.types.trace import AgentInvocationSpan, Session, ToolExecutionSpan

from aem_strands.types import ActionCall, JsonValue, Reply, TurnContent


@dataclass(frozen=True)
class PredictedTurn:
    """One turn the agent produced, with the user turn (1-based) it answered and its span id."""

    content: TurnContent
    user_turn: int
    span_id: str | None = None
    latency_ms: float | None = None

    def to_dict(self) -> dict[str, JsonValue]:
        """The unpaired-format JSON of this turn (see ``aem_strands.unpaired``)."""
        out: dict[str, JsonValue]
        if isinstance(self.content, ActionCall):
            out = {"turn": "Tool", "tool_id": self.content.tool_id, "action": self.content.action,
                   "args": self.content.args}  # fmt: skip
            if self.content.observation is not None:
                out["observation"] = self.content.observation
        else:
            out = {"turn": "Agent", "response": self.content.response}
        if self.latency_ms is not None:
            out["latency_ms"] = self.latency_ms
        return out


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _observation(span: ToolExecutionSpan) -> JsonValue:
    content = span.tool_result.content
    try:
        value: JsonValue = json.loads(content)
    except (TypeError, ValueError):
        value = content
    return {"error": value} if span.tool_result.error else value


def _owner(tool: ToolExecutionSpan, invocations: list[AgentInvocationSpan]) -> int:
    ids = [inv.span_info.span_id for inv in invocations]
    if tool.agent_span_id in ids:
        return ids.index(tool.agent_span_id)
    start = _utc(tool.span_info.start_time)
    for index, inv in enumerate(invocations):
        if _utc(inv.span_info.start_time) <= start <= _utc(inv.span_info.end_time):
            return index
    earlier = [i for i, inv in enumerate(invocations) if _utc(inv.span_info.start_time) <= start]
    return earlier[-1] if earlier else 0


def session_to_turns(session: Session) -> list[PredictedTurn]:
    """The predicted turns of a session, in conversation order (see the module contract)."""
    spans = [span for trace in session.traces for span in trace.spans]
    invocations = sorted(
        (s for s in spans if isinstance(s, AgentInvocationSpan)), key=lambda s: _utc(s.span_info.start_time)
    )
    tools = sorted((s for s in spans if isinstance(s, ToolExecutionSpan)), key=lambda s: _utc(s.span_info.start_time))
    if not invocations:
        return [
            PredictedTurn(
                ActionCall(t.tool_call.name, t.tool_call.name, dict(t.tool_call.arguments), _observation(t)),
                1,
                t.span_info.span_id,
            )
            for t in tools
        ]
    owned: dict[int, list[ToolExecutionSpan]] = {}
    for tool in tools:
        owned.setdefault(_owner(tool, invocations), []).append(tool)
    out: list[PredictedTurn] = []
    for index, inv in enumerate(invocations):
        for tool in owned.get(index, []):
            call = ActionCall(
                tool.tool_call.name, tool.tool_call.name, dict(tool.tool_call.arguments), _observation(tool)
            )
            took = (_utc(tool.span_info.end_time) - _utc(tool.span_info.start_time)).total_seconds() * 1000
            out.append(PredictedTurn(call, index + 1, tool.span_info.span_id, round(took, 3)))
        text = inv.agent_response.rstrip("\n")
        if text.strip():
            out.append(PredictedTurn(Reply(text), index + 1, inv.span_info.span_id))
    return out
