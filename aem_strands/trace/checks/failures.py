"""Whether a tool call failed, read from every shape tools report a failure in.

``failure(step)`` is the reason a call failed, or ``None`` when it answered. A call failed when:

- its ``error`` is set (the runtime's or the tool's error text, a timeout included);
- its observation holds, at any depth, a non-empty ``error`` / ``errors`` / ``exception`` / ``fault`` member
  (``{"result": {"error": {"code": 503}}}``), ``success: false`` or ``ok: false``, MCP's ``isError: true``, an HTTP
  status of 400 to 599 under ``status_code`` / ``statusCode`` / ``http_status`` / ``status`` (``status_code: 500``),
  a non-zero exit code of a command (``exit_code`` / ``returncode``: ``{"exit_code": 1, "stderr": ...}``), or a
  ``status`` word of a failed call (``FAILED_STATUSES``: ``error``, ``timeout``, ``exception``);
- its observation is a text (or a list of content blocks, ``[{"type": "text", "text": ...}]``, read as their
  texts) that is JSON holding any of the above (``'{"error": "not found"}'``), that opens as an error
  (``Error: ...``, ``Exception``, ``Traceback``, ``Failed``, ``Timeout``), that gives an HTTP error status
  (``HTTP 500 Internal Server Error``, ``503 Service Unavailable``), or whose first sentence says the request
  timed out (``Request timed out``).

A domain answer is no failed call: ``status: "denied"``, ``status: "failed"`` for a payment, ``eligible:
false``, an empty result list, or a text that reports an outcome (``The order failed quality control``) are
answers to use. The walk is linear in the observation's size; JSON text is decoded once, to a bounded depth.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from aem_strands.trace.types import Step
from aem_strands.types import JsonValue

FAILED_STATUSES = frozenset(["error", "errored", "timeout", "timed_out", "timedout", "timed out", "exception"])
"""``status`` values of an observation that report a failed call. Domain outcomes (``failed``, ``rejected``,
``denied``: a payment that failed, a refund that was refused) are answers, not failures of the call."""

_ERROR_MEMBERS = frozenset(["error", "errors", "exception", "fault"])
_SUCCESS_MEMBERS = frozenset(["success", "succeeded", "ok"])
_EXIT_MEMBERS = frozenset(["exit_code", "exitcode", "returncode", "return_code", "exit_status"])
_HTTP_MEMBERS = frozenset(["status_code", "statuscode", "http_status", "httpstatus", "http_code", "status"])
_EMPTY: tuple[JsonValue, ...] = (None, False, "", [], {}, 0)
_MAX_DEPTH = 64
"""Deeper members are not read: a failure is reported near the top of a tool's answer."""

_OPENS_AS_ERROR = re.compile(r"\s*(?:\W\s*)?(error|exception|traceback|failed|failure|timeout|timed out)\b", re.I)
_HTTP_ERROR = re.compile(  # a status line or an HTTP reason phrase (the protocol's own words), not "400 Main St"
    r"^\s*(?:HTTP(?:/\d(?:\.\d)?)?\s*:?\s*(?:status\s*)?[45]\d\d\b|[45]\d\d\s+(?:bad request|unauthori[sz]ed"
    r"|forbidden|not found|method not allowed|request timeout|conflict|gone|too many requests|unprocessable entity"
    r"|internal server error|not implemented|bad gateway|service unavailable|gateway time-?out)\b)"
    r"|\b(?:internal server error|service unavailable|bad gateway|gateway time-?out)\b",
    re.I,
)
_TIMED_OUT = re.compile(r"\b(?:timed out|time-?out (?:error|exceeded|expired)|deadline exceeded)\b", re.I)
_FIRST_SENTENCE = re.compile(r"[^.!?\n]*")
_TEXT_SCAN = 2000
"""Characters of a text read for an error opening or status line: an error says so at its start."""


def _member_failure(key: str, value: JsonValue) -> str | None:
    name = key.casefold()
    if name in _ERROR_MEMBERS and value not in _EMPTY and value != "none":
        return f"{key}: {_short(value)}"
    if name in _SUCCESS_MEMBERS and value is False:
        return f"{key}: false"
    if name == "iserror" and value is True:
        return f"{key}: true"
    if name in _EXIT_MEMBERS and isinstance(value, int) and not isinstance(value, bool) and value != 0:
        return f"{key}: {value}"
    if name in _HTTP_MEMBERS and isinstance(value, int) and not isinstance(value, bool) and 400 <= value <= 599:
        return f"{key}: {value}"
    if name in ("status", "state") and isinstance(value, str) and value.strip().casefold() in FAILED_STATUSES:
        return f"{key}: {value}"
    return None


def _short(value: JsonValue) -> str:
    shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= 120 else shown[:117] + "..."


def _text_failure(text: str, depth: int) -> str | None:
    head = text[:_TEXT_SCAN]
    stripped = head.lstrip()
    if stripped[:1] in ("{", "[") and depth < _MAX_DEPTH:
        try:
            decoded = json.loads(text)
        except ValueError:
            decoded = None
        if isinstance(decoded, (dict, list)):
            return _value_failure(decoded, depth + 1)
    if _OPENS_AS_ERROR.match(head) or _HTTP_ERROR.search(head):
        return _short(stripped)
    first = _FIRST_SENTENCE.match(stripped)
    if first is not None and _TIMED_OUT.search(first.group()):
        return _short(stripped)
    return None


def _blocks_text(items: list[JsonValue]) -> str | None:
    """The texts of a list of content blocks (``{"type": "text", "text": ...}``), or ``None`` for another list."""
    texts = [i.get("text") for i in items if isinstance(i, Mapping)]
    if not texts or not all(isinstance(i, Mapping) and set(i) <= {"type", "text"} for i in items):
        return None
    return "\n".join(t for t in texts if isinstance(t, str))


def _value_failure(value: JsonValue, depth: int = 0) -> str | None:
    # An explicit stack: a deep answer costs no recursion, each node is visited once.
    stack: list[tuple[JsonValue, int]] = [(value, depth)]
    while stack:
        node, level = stack.pop()
        if level > _MAX_DEPTH:
            continue
        if isinstance(node, str):
            found = _text_failure(node, level) if level == depth else None
            if found is not None:
                return found
        elif isinstance(node, Mapping):
            for key, item in node.items():
                found = _member_failure(str(key), item)
                if found is not None:
                    return found
                if isinstance(item, (Mapping, list)):
                    stack.append((item, level + 1))
        elif isinstance(node, list):
            text = _blocks_text(node)
            if text is not None:
                found = _text_failure(text, level)
                if found is not None:
                    return found
                continue
            stack.extend((item, level + 1) for item in node if isinstance(item, (Mapping, list)))
    return None


def failure(step: Step) -> str | None:
    """Why a call failed (its ``error``, or what in its observation reports the failure), or ``None`` when it
    answered (see the module docstring)."""
    if step.error is not None:
        return step.error
    if step.observation is None:
        return None
    return _value_failure(step.observation)


__all__ = ["FAILED_STATUSES", "failure"]
