"""Join the host's failure detectors with AEM: do they agree on where a case's failure started?

The host's detectors (``detect_failures``, ``analyze_root_cause``, ``diagnose_session``, or
``Experiment(diagnosis_config=...)``, which stores ``DiagnosisResult.model_dump()`` in
``report.diagnoses``) are reference-free LLM analyses that name spans. AEM names the aligned turn of
its root cause and, for a ``Session`` trajectory, that turn's predicted span (``root_cause_span_id``
and ``turn_spans`` in the session row's metadata).

``detector_agreement(aem, diagnosis, session)`` puts both on the same key:

- the detector's start is the location of its earliest ``PRIMARY_FAILURE`` root cause (earliest by
  span start time), else of any root cause, else its earliest failure span;
- a location is mapped to a **turn span**: a tool span or an agent invocation is itself; an
  inference span is the tool call it requested (matched by tool call id), else the reply of the
  invocation it belongs to; every span also maps to its **user turn** (its top-level invocation,
  counted from 1 in start order, as ``session_to_turns`` counts them);
- ``match`` is ``span`` (same turn span), ``user_turn`` (same user turn, different span),
  ``different``, ``only_aem`` / ``only_detector`` (one side found no failure), or ``neither``;
  ``agree`` is true for ``span`` and ``neither``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from typing import Any

from strands_evals.types.trace import (
    AgentInvocationSpan,
    AssistantMessage,
    InferenceSpan,
    Session,
    SpanUnion,
    ToolCallContent,
    ToolExecutionSpan,
)

from aem_strands.types import JsonValue

PRIMARY = "PRIMARY_FAILURE"


@dataclass(frozen=True)
class DetectorAgreement:
    """Where AEM and the host's detectors say a case's failure started, and whether they agree."""

    match: str
    agree: bool
    aem_turn_no: int | None
    aem_span_id: str | None
    aem_user_turn: int | None
    detector_location: str | None
    detector_span_id: str | None
    detector_user_turn: int | None

    def to_dict(self) -> dict[str, JsonValue]:
        return asdict(self)


def _start(span: SpanUnion) -> datetime:
    moment: datetime = span.span_info.start_time
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


class _Spans:
    def __init__(self, session: Session) -> None:
        spans = [span for trace in session.traces for span in trace.spans]
        self.by_id = {s.span_info.span_id: s for s in spans if s.span_info.span_id}
        self.by_call = {
            s.tool_call.tool_call_id: s for s in spans if isinstance(s, ToolExecutionSpan) and s.tool_call.tool_call_id
        }
        tops = [s for s in spans if isinstance(s, AgentInvocationSpan) and self._invocation_above(s) is None]
        self.user_turn = {id(s): n for n, s in enumerate(sorted(tops, key=_start), start=1)}

    def _ancestors(self, span: SpanUnion) -> list[SpanUnion]:
        out: list[SpanUnion] = []
        parent = span.span_info.parent_span_id
        while parent and parent in self.by_id and all(parent != a.span_info.span_id for a in out):
            out.append(self.by_id[parent])
            parent = out[-1].span_info.parent_span_id
        return out

    def _invocation_above(self, span: SpanUnion) -> AgentInvocationSpan | None:
        return next((a for a in self._ancestors(span) if isinstance(a, AgentInvocationSpan)), None)

    def turn_span(self, span: SpanUnion) -> SpanUnion:
        if isinstance(span, InferenceSpan):
            asked = [
                item.tool_call_id
                for message in span.messages[-1:]
                if isinstance(message, AssistantMessage)
                for item in message.content
                if isinstance(item, ToolCallContent) and item.tool_call_id
            ]
            called = [self.by_call[i] for i in asked if i in self.by_call]
            if called:
                return called[0]
            return self._invocation_above(span) or span
        return span

    def user_turn_of(self, span: SpanUnion) -> int | None:
        chain = [span, *self._ancestors(span)]
        if isinstance(span, ToolExecutionSpan) and span.agent_span_id in self.by_id:
            owner = self.by_id[span.agent_span_id]
            chain = [owner, *self._ancestors(owner)]
        tops = [s for s in chain if id(s) in self.user_turn]
        return self.user_turn[id(tops[-1])] if tops else None


def _field(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)


def _detector_start(diagnosis: Any, spans: _Spans) -> str | None:
    if diagnosis is None:
        return None
    causes = list(_field(diagnosis, "root_causes") or [])
    primary = [c for c in causes if _field(c, "causality") == PRIMARY] or causes
    locations = [str(_field(c, "location")) for c in primary if _field(c, "location")]
    if not locations:
        locations = [str(_field(f, "span_id")) for f in _field(diagnosis, "failures") or [] if _field(f, "span_id")]
    if not locations:
        return None
    known = [loc for loc in locations if loc in spans.by_id]
    return min(known, key=lambda loc: _start(spans.by_id[loc])) if known else locations[0]


def detector_agreement(aem: Mapping[str, Any], diagnosis: Any, session: Session) -> DetectorAgreement:
    """Compare AEM's root cause (a session row's ``metadata``) with a ``DiagnosisResult`` (or its dict)."""
    spans = _Spans(session)
    turn_no = aem.get("root_cause_turn")
    aem_span = aem.get("root_cause_span_id")
    where = (aem.get("turn_spans") or {}).get(str(turn_no), {}) if turn_no is not None else {}
    aem_user_turn = where.get("user_turn")
    location = _detector_start(diagnosis, spans)
    found = spans.by_id.get(location) if location is not None else None
    mapped = spans.turn_span(found) if found is not None else None
    detector_span = mapped.span_info.span_id if mapped is not None else None
    detector_user_turn = spans.user_turn_of(mapped) if mapped is not None else None
    if turn_no is None and location is None:
        match = "neither"
    elif turn_no is None:
        match = "only_detector"
    elif location is None:
        match = "only_aem"
    elif aem_span is not None and aem_span == detector_span:
        match = "span"
    elif aem_user_turn is not None and aem_user_turn == detector_user_turn:
        match = "user_turn"
    else:
        match = "different"
    return DetectorAgreement(
        match, match in ("span", "neither"), turn_no, aem_span, aem_user_turn, location, detector_span,
        detector_user_turn,
    )  # fmt: skip
