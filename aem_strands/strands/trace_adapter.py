"""A Strands trace ``Session``, and OpenTelemetry span exports, as traces of the trajectory evaluation
(``aem_strands.trace``).

The turns are read by ``session_to_turns`` (its contract: top-level invocations are user turns in start order,
tool calls belong to their invocation, sub-agents per ``sub_agents``); each user turn becomes the user's
message (``AgentInvocationSpan.user_prompt``), its tool calls (a failed call's ``{"error": ...}`` observation
is the step's ``error``), then the agent's reply. The agent's tool registry, as recorded in the spans, is the
trace's tool catalog: its own ``environment``, which the run's policy is merged with (``merge_environment``), so
the registry adds the tools the policy does not define and never lifts a policy's hint for one it does (a
registry spec carries no annotations: ``transfer_funds`` stays destructive when the policy says so). The agent's
system prompt, as its invocation spans record it, is the trace's ``instructions`` (values it states, a fee or a
time limit, ground arguments).

Span exports (``traces_from_spans``) are read by the host's own mappers (``strands_evals.mappers``: the GenAI
semantic conventions, legacy events included, OpenInference, LangChain, ADK, OpenAI Agents), so no attribute
name is written here. Accepted documents: an OTLP/JSON export (``{"resourceSpans": [...]}``), the console
exporter's span objects (``context.trace_id``, ``parent_id``, ``events``), or span dicts in the host's own shape
(``readable_spans_to_dicts``); a list of any of them, or JSONL. Spans are grouped into one trace per session
(``session.id`` / ``gen_ai.conversation.id``; a span without one joins the session of its OpenTelemetry trace),
else per OpenTelemetry trace.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from strands_evals.mappers import GenericGenAISessionMapper, StrandsInMemorySessionMapper, detect_otel_mapper
from strands_evals.types.trace import Session

from aem_strands.errors import InputError, Location
from aem_strands.strands.session import session_instructions, session_to_turns, session_tools, user_prompts
from aem_strands.tools import tools_from_specs
from aem_strands.trace.convert import trace_error
from aem_strands.trace.types import ActionType, Environment, Step, Trace
from aem_strands.types import ActionCall, JsonValue


def session_to_trace(
    session: Session, *, trace_id: str | None = None, case_id: str | None = None, goal: str | None = None,
    sub_agents: str = "inline",
) -> Trace:  # fmt: skip
    """The trace of a session (see the module docstring); ``goal`` defaults to the first user message."""
    prompts = user_prompts(session)
    steps: list[Step] = []
    seen_user = 0
    for turn in session_to_turns(session, sub_agents=sub_agents):
        while seen_user < turn.user_turn and seen_user < len(prompts):
            if prompts[seen_user].strip():
                steps.append(Step(step_id=f"user-{seen_user + 1}", index=len(steps), action_type=ActionType.USER,
                                  content=prompts[seen_user]))  # fmt: skip
            seen_user += 1
        step_id = turn.span_id or f"s{len(steps) + 1}"
        if isinstance(turn.content, ActionCall):
            call = turn.content
            steps.append(Step(step_id=step_id, index=len(steps), action_type=ActionType.TOOL_CALL,
                              tool_name=call.action, arguments=dict(call.args), observation=call.observation,
                              error=trace_error(call.observation), latency_ms=turn.latency_ms))  # fmt: skip
        else:
            steps.append(Step(step_id=step_id, index=len(steps), action_type=ActionType.RESPONSE,
                              content=turn.content.response, latency_ms=turn.latency_ms))  # fmt: skip
    ids = [s.step_id for s in steps]
    if len(set(ids)) != len(ids):  # span ids repeat only in hand-built sessions: number the steps instead
        steps = [Step(**{**s.__dict__, "step_id": f"s{s.index + 1}"}) for s in steps]
    specs = session_tools(session)
    environment = Environment(tools=tools_from_specs(specs)) if specs else None
    users = [s.content for s in steps if s.action_type is ActionType.USER and s.content]
    replies = [s.content for s in steps if s.action_type is ActionType.RESPONSE]
    name = trace_id or session.session_id
    return Trace(trace_id=name, steps=tuple(steps), case_id=case_id or name, goal=goal or (users[0] if users else None),
                 environment=environment, instructions=session_instructions(session),
                 final_response=replies[-1] if replies else None)  # fmt: skip


_SESSION_KEYS = ("session.id", "gen_ai.conversation.id")
"""Span attributes naming a session: the keys the host's mappers filter on."""


def _hex(value: JsonValue) -> str:
    text = str(value or "")
    return text[2:] if text.startswith("0x") else text


def _otlp_value(value: Mapping[str, Any]) -> JsonValue:
    """An OTLP/JSON ``AnyValue`` as a plain value."""
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in value:
            return value[key]
    if "intValue" in value:
        return int(value["intValue"])
    if "arrayValue" in value:
        return [_otlp_value(v) for v in value["arrayValue"].get("values", [])]
    if "kvlistValue" in value:
        return {kv["key"]: _otlp_value(kv.get("value", {})) for kv in value["kvlistValue"].get("values", [])}
    return None


def _otlp_attributes(items: JsonValue) -> dict[str, JsonValue]:
    return {kv["key"]: _otlp_value(kv.get("value", {})) for kv in items or []}


_ERROR_CODES = ("ERROR", "STATUS_CODE_ERROR", 2, "2")


def _status(raw: JsonValue) -> dict[str, JsonValue]:
    code = raw.get("code", raw.get("status_code")) if isinstance(raw, Mapping) else None
    return {"code": "ERROR" if code in _ERROR_CODES else "OK" if code else "UNSET"}


def _host_span(raw: Mapping[str, Any], scope: str) -> dict[str, JsonValue]:
    """One span in the host mappers' dict shape, from OTLP/JSON, the console exporter, or that shape itself."""
    if "spanId" in raw:  # OTLP/JSON
        return {
            "trace_id": _hex(raw.get("traceId")), "span_id": _hex(raw["spanId"]),
            "parent_span_id": _hex(raw.get("parentSpanId")) or None, "name": str(raw.get("name", "")),
            "start_time": int(raw.get("startTimeUnixNano", 0)), "end_time": int(raw.get("endTimeUnixNano", 0)),
            "attributes": _otlp_attributes(raw.get("attributes")), "scope": {"name": scope},
            "status": _status(raw.get("status")),
            "span_events": [{"event_name": e.get("name", ""), "timestamp": int(e.get("timeUnixNano", 0)),
                             "attributes": _otlp_attributes(e.get("attributes"))} for e in raw.get("events") or []],
        }  # fmt: skip
    context = raw.get("context")
    if isinstance(context, Mapping):  # the console exporter (``ReadableSpan.to_json``)
        resource_scope = raw.get("instrumentation_scope") or raw.get("scope") or {}
        return {
            "trace_id": _hex(context.get("trace_id")), "span_id": _hex(context.get("span_id")),
            "parent_span_id": _hex(raw.get("parent_id")) or None, "name": str(raw.get("name", "")),
            "start_time": raw.get("start_time"), "end_time": raw.get("end_time"),
            "attributes": dict(raw.get("attributes") or {}),
            "scope": {"name": str(resource_scope.get("name", "")) if isinstance(resource_scope, Mapping) else ""},
            "status": _status(raw.get("status")),
            "span_events": [{"event_name": e.get("name", ""), "timestamp": e.get("timestamp"),
                             "attributes": dict(e.get("attributes") or {})} for e in raw.get("events") or []],
        }  # fmt: skip
    if "span_id" in raw:
        return dict(raw)
    raise ValueError("not a span: no spanId (OTLP/JSON), context.span_id (console exporter) or span_id")


def _raw_spans(document: JsonValue) -> Iterator[tuple[Mapping[str, Any], str]]:
    if isinstance(document, list):
        for item in document:
            yield from _raw_spans(item)
    elif isinstance(document, Mapping) and "resourceSpans" in document:
        for resource in document["resourceSpans"] or []:
            for scope in resource.get("scopeSpans") or []:
                name = str((scope.get("scope") or {}).get("name", ""))
                for span in scope.get("spans") or []:
                    yield span, name
    elif isinstance(document, Mapping):
        yield document, ""
    else:
        raise ValueError(f"expected span objects, got {type(document).__name__}")


def span_dicts(documents: Iterable[JsonValue], source: str = "spans") -> list[dict[str, JsonValue]]:
    """Every span of decoded export documents in the host mappers' shape; one that cannot be read raises
    ``InputError`` naming the file, the document and the span."""
    out: list[dict[str, JsonValue]] = []
    for doc_no, document in enumerate(documents):
        try:
            for index, (raw, scope) in enumerate(_raw_spans(document)):
                try:
                    out.append(_host_span(raw, scope))
                except (ValueError, TypeError, KeyError, AttributeError) as error:
                    name = raw.get("name") if isinstance(raw, Mapping) else None
                    where = Location(
                        file=source, line=doc_no + 1, index=index, field=f"span {name!r}" if name else None
                    )
                    raise InputError(f"unreadable span: {error}", where) from None
        except ValueError as error:
            raise InputError(str(error), Location(file=source, line=doc_no + 1)) from None
    return out


def _session_of(span: Mapping[str, Any]) -> str | None:
    attributes = span.get("attributes")
    if isinstance(attributes, Mapping):
        for key in _SESSION_KEYS:
            if isinstance(attributes.get(key), str) and attributes[key]:
                return str(attributes[key])
    return None


def traces_from_spans(documents: Iterable[JsonValue], source: str = "spans") -> list[Trace]:
    """One trace per session of span export documents (see the module docstring)."""
    spans = span_dicts(documents, source)
    session_of_trace: dict[str, str] = {}
    for span in spans:
        named = _session_of(span)
        if named is not None:
            session_of_trace.setdefault(str(span["trace_id"]), named)
    groups: dict[str, list[dict[str, JsonValue]]] = {}
    for span in spans:
        key = _session_of(span) or session_of_trace.get(str(span["trace_id"])) or str(span["trace_id"])
        groups.setdefault(key, []).append(span)
    out: list[Trace] = []
    for session_id, group in groups.items():
        mapper = detect_otel_mapper(group)
        if isinstance(mapper, StrandsInMemorySessionMapper):  # that one reads ReadableSpan objects, not dicts
            mapper = GenericGenAISessionMapper()
        out.append(session_to_trace(mapper.map_to_session(group, session_id)))
    return out
