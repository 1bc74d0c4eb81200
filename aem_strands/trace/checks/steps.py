"""Reading steps, shared by the process checks: the evidence fragment of a step, the canonical key of a
call, whether a call failed, and whether a text names a tool's action.

A call *failed* when ``failures.failure`` finds why: its ``error`` is set, or its observation reports a failure
in any of the shapes tools use (an ``error`` member at any depth, ``success: false``, an HTTP status >= 400, an
error or timeout text, JSON text or content blocks holding one); a domain answer (``status: denied``) is none.

A tool's *action words* are the words of its name (``cancel_order``, ``issueRefund``) that say what it
does: generic verbs (``get``, ``issue``, ``run``) and common object nouns (``order``, ``account``) are left
out, so ``cancel_order`` is named by ``cancel``/``cancelled`` and ``issue_refund`` by ``refund``. A word of
the text names an action word when they share a prefix of five letters, or all of a shorter word
(``verify``/``verified``, ``book``/``booked``).
"""

from __future__ import annotations

import re

from aem_strands.compare.walk import json_key
from aem_strands.trace.checks.failures import FAILED_STATUSES, failure
from aem_strands.trace.types import Step
from aem_strands.types import JsonValue

GENERIC_TOOL_WORDS = frozenset(
    ["get", "set", "do", "make", "run", "issue", "perform", "execute", "call", "check", "lookup", "look", "search",
     "find", "fetch", "list", "query", "read", "tool", "api", "info", "details", "detail", "data", "for", "and",
     "with", "from", "the", "by", "to", "of", "order", "orders", "account", "user", "customer", "item", "record",
     "v1", "v2", "v3"]
)  # fmt: skip
"""Words of a tool name that do not say which action it takes."""

_NAME_PARTS = re.compile(r"[A-Za-z][a-z]*|[0-9]+")
_WORDS = re.compile(r"[A-Za-z][A-Za-z']*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_PREFIX = 5


def step_fragment(step: Step) -> dict[str, JsonValue]:
    """The step as the minimal JSON a finding cites: its id, index, kind and the fields it has."""
    fragment: dict[str, JsonValue] = {
        "step_id": step.step_id,
        "index": step.index,
        "action_type": step.action_type.value,
    }
    if step.tool_name is not None:
        fragment["tool_name"] = step.tool_name
    if step.arguments:
        fragment["arguments"] = dict(step.arguments)
    if step.observation is not None:
        fragment["observation"] = step.observation
    if step.content is not None:
        fragment["content"] = step.content
    if step.error is not None:
        fragment["error"] = step.error
    return fragment


def call_key(step: Step) -> str:
    """The same string for two calls of one tool with the same arguments (canonical JSON, keys sorted)."""
    return json_key({"tool": step.tool_name, "arguments": dict(step.arguments)})


def call_failed(step: Step) -> bool:
    """Whether a call failed (``failures.failure``: its error, or an observation that reports one)."""
    return failure(step) is not None


def action_words(tool_name: str) -> frozenset[str]:
    """The words of a tool's name that say what it does (see the module docstring), case-folded."""
    words = {w.casefold() for w in _NAME_PARTS.findall(tool_name)}
    return frozenset(w for w in words if len(w) >= 3 and w not in GENERIC_TOOL_WORDS)


def _same_word(word: str, action_word: str) -> bool:
    shared = min(len(action_word), _PREFIX)
    return len(word) >= shared and word[:shared] == action_word[:shared]


def names_action(text: str, tool_name: str) -> bool:
    """Whether ``text`` has a word naming one of the tool's action words (``cancelled`` for ``cancel_order``)."""
    wanted = action_words(tool_name)
    return any(_same_word(w.casefold(), a) for w in _WORDS.findall(text) for a in wanted)


def words(text: str) -> tuple[str, ...]:
    """The words of a text, case-folded (``don't`` stays one word)."""
    return tuple(w.casefold() for w in _WORDS.findall(text.replace("\u2019", "'")))


def sentences(text: str) -> tuple[str, ...]:
    """The sentences of a text (split after ``.``, ``!``, ``?`` and at line breaks), without empty ones."""
    return tuple(s.strip() for s in _SENTENCE_END.split(text) if s.strip())


__all__ = [
    "FAILED_STATUSES",
    "GENERIC_TOOL_WORDS",
    "action_words",
    "call_failed",
    "call_key",
    "names_action",
    "sentences",
    "step_fragment",
    "words",
]
