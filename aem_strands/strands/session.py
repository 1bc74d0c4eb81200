"""Strands trace ``Session`` ↔ predicted turns: the one adapter between host trace types and our types.

``offline_session`` goes the other way: it builds a real ``Session`` from the predicted side of an
annotated paired dialog, so offline replay gives every host trace-level evaluator and detector the
same input type as a live run (see its docstring).

Contract of ``session_to_turns`` (it follows the span tree, ``SpanInfo.parent_span_id``):

- every **top-level** ``AgentInvocationSpan`` (no agent invocation among its ancestors) is one user
  turn, ordered by ``span_info.start_time`` (a multi-turn conversation run inside an ``Experiment``
  lands in a single trace, so traces are not used to separate turns);
- a **nested** invocation (an agent used as a tool, ``Agent.as_tool()``, or called inside a tool)
  belongs to the user turn of its top-level ancestor; it is not a user turn and its reply is not
  said to the user (the outer agent receives it as the tool's result);
- each ``ToolExecutionSpan`` belongs to the invocation named by its ``agent_span_id`` (the host sets
  it from the span tree, a nested agent owning its own subtree), else to its nearest invocation
  ancestor; one with neither goes to the top-level invocation whose time window contains its start,
  else to the latest one that started before it;
- ``sub_agents="inline"`` (default here): a nested agent's tool calls are turns of the outer user turn,
  each marked with the sub-agent's name (``PredictedTurn.agent``: the name of the tool call that ran
  it); ``"opaque"``: only the outer agent's calls are turns, a sub-agent is seen as its one call;
  ``"auto"`` (the evaluators' default) needs gold and is settled by ``judged_sub_agents``: a
  sub-agent's calls are turns only when gold names one of them;
- within a user turn, tool calls are ordered by start time (so a call to a sub-agent comes before
  the calls it made); a user turn yields its tool calls (``ActionCall(tool_id=name, action=name,
  args=arguments, observation=result)``, the result decoded from JSON when possible; a failed call's
  observation is ``{"error": <content>}``), then its reply (``Reply(agent_response)`` with the
  trailing newline the mapper keeps removed), unless the reply is empty.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from strands_evals.types.trace import (
    AgentInvocationSpan,
    Session,
    SpanInfo,
    SpanUnion,
    ToolCall,
    ToolConfig,
    ToolExecutionSpan,
    ToolResult,
    Trace,
)

from aem_strands.errors import ConfigError
from aem_strands.types import ActionCall, JsonValue, Reply, TurnContent

SUB_AGENT_CHOICES = ("auto", "inline", "opaque")
"""How nested agents' calls are read: ``auto`` (as gold implies), ``inline`` (always turns), ``opaque`` (never)."""


@dataclass(frozen=True)
class PredictedTurn:
    """One turn the agent produced, with the user turn (1-based) it answered and its span id.

    ``agent`` names the sub-agent that made a tool call (``None``: the agent under test).
    """

    content: TurnContent
    user_turn: int
    span_id: str | None = None
    latency_ms: float | None = None
    agent: str | None = None

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


class _Tree:
    """Parent links between the spans of a session, and which invocation each span belongs to."""

    def __init__(self, spans: list[SpanUnion]) -> None:
        self.by_id = {s.span_info.span_id: s for s in spans if s.span_info.span_id}

    def ancestors(self, span: SpanUnion) -> Iterator[SpanUnion]:
        seen: set[str] = set()
        parent = span.span_info.parent_span_id
        while parent and parent in self.by_id and parent not in seen:
            seen.add(parent)
            found = self.by_id[parent]
            yield found
            parent = found.span_info.parent_span_id

    def owner(self, span: SpanUnion) -> AgentInvocationSpan | None:
        """The invocation a span belongs to: ``agent_span_id`` for a tool, else its nearest invocation ancestor."""
        if isinstance(span, ToolExecutionSpan) and span.agent_span_id:
            named = self.by_id.get(span.agent_span_id)
            if isinstance(named, AgentInvocationSpan):
                return named
        return next((a for a in self.ancestors(span) if isinstance(a, AgentInvocationSpan)), None)

    def top(self, invocation: AgentInvocationSpan) -> AgentInvocationSpan:
        """The top-level invocation above ``invocation`` (itself when it is top-level)."""
        current = invocation
        for ancestor in self.ancestors(invocation):
            if isinstance(ancestor, AgentInvocationSpan):
                current = ancestor
        return current

    def sub_agent_name(self, invocation: AgentInvocationSpan) -> str:
        """A nested agent's name: the tool call that ran it, else its span id."""
        for ancestor in self.ancestors(invocation):
            if isinstance(ancestor, ToolExecutionSpan):
                return str(ancestor.tool_call.name)
            if isinstance(ancestor, AgentInvocationSpan):
                break
        return invocation.span_info.span_id or "sub-agent"


def _user_turns(spans: list[SpanUnion], tree: _Tree) -> list[AgentInvocationSpan]:
    """The top-level invocations (one per user turn) in start order."""
    invocations = [s for s in spans if isinstance(s, AgentInvocationSpan)]
    return sorted((s for s in invocations if tree.top(s) is s), key=lambda s: _utc(s.span_info.start_time))


def user_prompts(session: Session) -> list[str]:
    """The user's message of each user turn, in the order ``session_to_turns`` numbers them."""
    spans = [span for trace in session.traces for span in trace.spans]
    return [s.user_prompt for s in _user_turns(spans, _Tree(spans))]


def _by_time(tool: ToolExecutionSpan, turns: list[AgentInvocationSpan]) -> int:
    start = _utc(tool.span_info.start_time)
    for index, inv in enumerate(turns):
        if _utc(inv.span_info.start_time) <= start <= _utc(inv.span_info.end_time):
            return index
    earlier = [i for i, inv in enumerate(turns) if _utc(inv.span_info.start_time) <= start]
    return earlier[-1] if earlier else 0


def _call(tool: ToolExecutionSpan, user_turn: int, agent: str | None) -> PredictedTurn:
    call = ActionCall(tool.tool_call.name, tool.tool_call.name, dict(tool.tool_call.arguments), _observation(tool))
    took = (_utc(tool.span_info.end_time) - _utc(tool.span_info.start_time)).total_seconds() * 1000
    return PredictedTurn(call, user_turn, tool.span_info.span_id, round(took, 3), agent)


def session_to_turns(
    session: Session, *, sub_agents: str = "inline", gold: Sequence[Mapping[str, object]] = ()
) -> list[PredictedTurn]:
    """The predicted turns of a session, in conversation order (see the module contract).

    ``gold`` (unpaired-format gold turns) is read only by ``sub_agents="auto"`` (see ``judged_sub_agents``).
    """
    if sub_agents not in SUB_AGENT_CHOICES:
        raise ConfigError(f"sub_agents must be one of {', '.join(SUB_AGENT_CHOICES)}, got {sub_agents!r}")
    if sub_agents == "auto":
        inline = session_to_turns(session, sub_agents="inline")
        keep = judged_sub_agents(inline, gold)
        return [t for t in inline if t.agent is None or t.agent in keep]
    spans = [span for trace in session.traces for span in trace.spans]
    tree = _Tree(spans)
    turns = _user_turns(spans, tree)
    tools = sorted((s for s in spans if isinstance(s, ToolExecutionSpan)), key=lambda s: _utc(s.span_info.start_time))
    if not turns:
        return [_call(t, 1, None) for t in tools]
    index_of = {id(inv): i for i, inv in enumerate(turns)}
    owned: dict[int, list[tuple[ToolExecutionSpan, str | None]]] = {}
    for tool in tools:
        owner = tree.owner(tool)
        if owner is None:
            owned.setdefault(_by_time(tool, turns), []).append((tool, None))
            continue
        top = tree.top(owner)
        agent = None if top is owner else tree.sub_agent_name(owner)
        if agent is not None and sub_agents == "opaque":
            continue
        owned.setdefault(index_of[id(top)], []).append((tool, agent))
    out: list[PredictedTurn] = []
    for index, inv in enumerate(turns):
        out.extend(_call(tool, index + 1, agent) for tool, agent in owned.get(index, []))
        text = inv.agent_response.rstrip("\n")
        if text.strip():
            out.append(PredictedTurn(Reply(text), index + 1, inv.span_info.span_id))
    return out


def judged_sub_agents(turns: Sequence[PredictedTurn], gold: Sequence[Mapping[str, object]]) -> frozenset[str]:
    """The sub-agents whose own tool calls gold judges: those that called a tool gold names more often
    than the outer agent calls it.

    Gold that names only the outer call to a sub-agent (``researcher``) judges that call alone; gold
    that also names a call the sub-agent made (``search``) judges the sub-agent's calls as turns. A
    tool both agents call counts for the sub-agent only beyond the outer agent's own calls of it.
    """
    named: Counter[str] = Counter()
    for turn in gold:
        if turn.get("turn") == "Tool":
            named.update({str(turn[key]) for key in ("tool_id", "action") if isinstance(turn.get(key), str)})
    calls = [(t.agent, t.content.action) for t in turns if isinstance(t.content, ActionCall)]
    outer = Counter(name for agent, name in calls if agent is None)
    return frozenset(agent for agent, name in calls if agent is not None and named[name] > outer[name])


OFFLINE_KEY = "aem"
"""Span metadata key of an offline span: ``{"turn_no": n, "predict_turn": {...}}``, the exact predicted turn."""
_EPOCH = datetime(2000, 1, 1, tzinfo=timezone.utc)


def _offline_info(session_id: str, trace_id: str, span_id: str, start: int, end: int, parent: str | None) -> SpanInfo:
    return SpanInfo(trace_id=trace_id, span_id=span_id, session_id=session_id, parent_span_id=parent,
                    start_time=_EPOCH + timedelta(seconds=start), end_time=_EPOCH + timedelta(seconds=end))  # fmt: skip


def _result_text(observation: JsonValue) -> str:
    if observation is None:
        return ""
    return observation if isinstance(observation, str) else json.dumps(observation, ensure_ascii=False)


def _offline_tool(turn: Mapping[str, JsonValue], info: SpanInfo) -> ToolExecutionSpan:
    predicted = turn["predict_turn"]
    name = str(predicted.get("action") or predicted.get("tool_id") or "tool")
    return ToolExecutionSpan(
        span_info=info,
        tool_call=ToolCall(
            name=name, arguments=dict(predicted.get("args") or {}), tool_call_id=f"call-{turn['turn_no']}"
        ),
        tool_result=ToolResult(content=_result_text(predicted.get("observation"))),
        agent_span_id=info.parent_span_id,
        metadata={OFFLINE_KEY: {"turn_no": turn["turn_no"], "predict_turn": predicted}},
    )


def offline_session(
    turns: Sequence[Mapping[str, JsonValue]], session_id: str, user_messages: Sequence[str] = ()
) -> Session:
    """A ``Session`` from the predicted side of paired turns (``{"turn_no", "turn", "predict_turn"}``).

    Each predicted reply ends a user turn: one trace per user turn, with an ``AgentInvocationSpan``
    (``user_prompt`` = ``user_messages[k]``, else ``""``; ``agent_response`` = the reply) and a
    ``ToolExecutionSpan`` per predicted call before it (named by its ``action``; the result is the
    predicted ``observation``, JSON-encoded), in dialog order, with synthetic, deterministic times and
    span ids. Calls after the last reply form a last user turn with an empty reply. Turns without a
    predicted side are skipped. Every span carries the exact predicted turn in ``metadata["aem"]``, so
    ``offline_turns`` reads the dialog back unchanged (also after a JSON round trip).
    """
    groups: list[list[Mapping[str, JsonValue]]] = [[]]
    for turn in turns:
        if not isinstance(turn.get("predict_turn"), dict) or not isinstance(turn.get("turn_no"), int):
            continue
        groups[-1].append(turn)
        if turn.get("turn") == "Agent":
            groups.append([])
    if not groups[-1]:
        groups.pop()
    traces: list[Trace] = []
    clock = 0
    for k, group in enumerate(groups):
        trace_id, invocation_id = f"aem-trace-{k + 1}", f"aem-invocation-{k + 1}"
        start, spans, tools, response = clock, [], [], ""
        reply_turn: Mapping[str, JsonValue] | None = None
        for turn in group:
            predicted = turn["predict_turn"]
            if turn.get("turn") == "Agent":
                reply_turn, response = turn, str(predicted.get("response", ""))
                continue
            clock += 1
            span = _offline_tool(turn, _offline_info(session_id, trace_id, f"aem-turn-{turn['turn_no']}", clock,
                                                     clock, invocation_id))  # fmt: skip
            tools.append(ToolConfig(name=span.tool_call.name))
            spans.append(span)
        clock += 1
        meta = (
            {}
            if reply_turn is None
            else {OFFLINE_KEY: {"turn_no": reply_turn["turn_no"], "predict_turn": reply_turn["predict_turn"]}}
        )
        prompt = user_messages[k] if k < len(user_messages) else ""
        spans.append(
            AgentInvocationSpan(
                span_info=_offline_info(session_id, trace_id, invocation_id, start, clock, None),
                user_prompt=prompt, agent_response=response, available_tools=tools, metadata=meta,
            )
        )  # fmt: skip
        traces.append(Trace(spans=spans, trace_id=trace_id, session_id=session_id))
    return Session(traces=traces, session_id=session_id)


def offline_turns(session: Session) -> list[dict[str, JsonValue]] | None:
    """The ``[{"turn_no", "predict_turn", "span_id", "user_turn"}]`` an ``offline_session`` carries.

    ``None`` for a Session that carries none (not built by ``offline_session``).
    """
    out: list[dict[str, JsonValue]] = []
    for user_turn, trace in enumerate(session.traces, start=1):
        for span in trace.spans:
            entry = (span.metadata or {}).get(OFFLINE_KEY)
            if isinstance(entry, dict) and isinstance(entry.get("turn_no"), int) and "predict_turn" in entry:
                out.append({"turn_no": entry["turn_no"], "predict_turn": entry["predict_turn"],
                            "span_id": span.span_info.span_id, "user_turn": user_turn})  # fmt: skip
    return out if out or not session.traces else None


def session_instructions(session: Session) -> str | None:
    """The system prompt a session's agent ran under (the first invocation span that records one), or ``None``.

    The host records it on each ``AgentInvocationSpan`` (``system_prompt``) for a live run; a session mapped from
    other traces may not."""
    for trace in session.traces:
        for span in trace.spans:
            prompt = span.system_prompt if isinstance(span, AgentInvocationSpan) else None
            if isinstance(prompt, str) and prompt.strip():
                return prompt
    return None


def session_tools(session: Session) -> list[dict[str, JsonValue]]:
    """The tool definitions a session's agents had, as Strands tool specs (first definition of each name).

    A live run (``run_live``) records the agent's tool registry in its invocation spans' ``available_tools``
    (name, description and JSON schema); a session mapped from other traces may carry names only.
    """
    seen: dict[str, dict[str, JsonValue]] = {}
    for trace in session.traces:
        for span in trace.spans:
            if isinstance(span, AgentInvocationSpan):
                for tool in span.available_tools:
                    if tool.name not in seen:
                        schema: JsonValue = dict(tool.parameters) if tool.parameters else {"type": "object"}
                        seen[tool.name] = {
                            "name": tool.name, "description": tool.description or "", "inputSchema": {"json": schema},
                        }  # fmt: skip
    return list(seen.values())


def with_tool_registry(session: Session, specs: Sequence[Mapping[str, object]]) -> Session:
    """``session`` with every agent invocation's ``available_tools`` replaced by full tool specs
    (``agent.tool_registry.get_all_tool_specs()``: name, description and input schema)."""
    tools = []
    for spec in specs:
        schema = spec.get("inputSchema")
        parameters = schema.get("json") if isinstance(schema, Mapping) else None
        description = spec.get("description")
        tools.append(
            ToolConfig(
                name=str(spec.get("name")),
                description=description if isinstance(description, str) else None,
                parameters=dict(parameters) if isinstance(parameters, Mapping) else None,
            )
        )

    def enrich(span: SpanUnion) -> SpanUnion:
        return span.model_copy(update={"available_tools": tools}) if isinstance(span, AgentInvocationSpan) else span

    traces = [trace.model_copy(update={"spans": [enrich(span) for span in trace.spans]}) for trace in session.traces]
    return session.model_copy(update={"traces": traces})
