"""Planning's reading of a precondition's answer: whether a check's observation says no, leaves the question open,
or has not answered yet (``planning`` decides with it whether a precondition call counts for a later call).

- ``says_no``: a false answer member (``verified``, ``is_eligible``, ... ``ANSWER_WORDS``, or one named like the
  tool's action), a ``status`` / ``result`` / ``decision`` such as ``denied`` (``NO_STATUSES``), a text that negates
  the action; an object's main answer (``verified``) decides, not the details beside it (``email_verified``);
- ``unclear_answer``: a boolean named only like the check's subject (``on_register`` of
  ``check_priority_register``): what was found, not whether it allows the call;
- ``not_yet``: a check tool's (``_is_check``) ``status`` that still waits (``PENDING_STATUSES``), a main answer
  that is ``null``, or a text saying the check is still pending. A yes or no spelled as text reads as the boolean
  (``truth``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from aem_strands.trace.checks.steps import action_words, names_action, sentences, words
from aem_strands.trace.names import canonical_tool_name
from aem_strands.types import JsonValue

ANSWER_WORDS = frozenset(
    ["verified", "valid", "eligible", "approved", "authorized", "authorised", "authenticated", "allowed", "permitted",
     "success", "successful", "ok", "passed", "match", "matched", "matches", "confirmed", "found", "exists",
     "available"]
)  # fmt: skip
"""Words of an observation member whose ``false`` answers a check with no (``is_eligible: false``)."""

NO_STATUSES = frozenset(
    ["denied", "rejected", "declined", "refused", "ineligible", "not_eligible", "unverified", "not_verified",
     "invalid", "mismatch", "failed", "unauthorized", "unauthorised", "not_found"]
)  # fmt: skip
"""``status`` / ``result`` / ``decision`` values that answer a check with no."""

PENDING_STATUSES = (
    "pending",
    "await",
    "waiting",
    "in_review",
    "under_review",
    "in_progress",
    "requested",
    "submitted",
    "queued",
    "processing",
    "not_yet",
    "escalated",
)
"""Beginnings of the ``status`` values of a check that has not answered yet (``pending_manager``,
``awaiting_approval``): an approval still pending is no approval."""

_ANSWER_MEMBERS = ("status", "result", "decision", "outcome", "verification", "eligibility")
_NEGATIONS = frozenset(["not", "no", "never", "cannot", "unable", "failed", "without"])
_NEGATED_WORD = re.compile(r"^(?:in|un|non)(?:eligib|verif|valid|authori|authent)")
_WINDOW = 3
_FILLERS = frozenset(
    [
        "be",
        "been",
        "being",
        "is",
        "are",
        "was",
        "were",
        "yet",
        "to",
        "fully",
        "successfully",
        "currently",
        "able",
        "get",
        "got",
        "have",
        "has",
        "had",
        "do",
        "does",
        "did",
        "could",
        "can",
        "will",
        "would",
    ]
)
_PREFIX = 5


def observed_objects(value: JsonValue, in_lists: bool = False) -> Iterator[Mapping[str, JsonValue]]:
    """The observation's objects; those inside lists only when ``in_lists`` (an item of a list answers for
    itself, not for the call)."""
    if isinstance(value, Mapping):
        yield value
        for member in value.values():
            if isinstance(member, Mapping) or (in_lists and isinstance(member, list)):
                yield from observed_objects(member, in_lists)
    elif in_lists and isinstance(value, list):
        for item in value:
            yield from observed_objects(item, in_lists)


def _key_words(key: str) -> list[str]:
    return canonical_tool_name(key).split("_")


def answers_check(key: str, tool: str) -> bool:
    wanted = action_words(tool)
    return any(w in ANSWER_WORDS or any(w[:_PREFIX] == a[:_PREFIX] for a in wanted) for w in _key_words(key))


def _negated(before: list[str]) -> bool:
    """Whether the words before an answer word negate it: a negation with only auxiliaries and adverbs after it
    ("could not be verified", "was not yet approved"); in "no mismatch found" the "no" is the mismatch's."""
    for j in range(len(before) - 1, -1, -1):
        token = before[j]
        if token in _NEGATIONS or token.endswith("n't"):
            return True
        if token not in _FILLERS:
            return False
    return False


def _text_says_no(text: str, tool: str) -> bool:
    wanted = action_words(tool)
    for sentence in sentences(text):
        tokens = list(words(sentence))
        for i, token in enumerate(tokens):
            if _NEGATED_WORD.match(token):
                return True
            answer = token in ANSWER_WORDS or any(token[:_PREFIX] == a[:_PREFIX] for a in wanted)
            if answer and _negated(tokens[max(0, i - _WINDOW) : i]):
                return True
    return False


def _main_answer(key: str) -> bool:
    """Whether a member is the check's answer itself (``verified``, ``is_eligible``), not a detail of it
    (``email_verified``)."""
    words = _key_words(key)
    if words[:1] == ["is"]:
        words = words[1:]
    return len(words) == 1 and words[0] in ANSWER_WORDS


def truth(value: JsonValue) -> bool | None:
    """A yes/no answer: a boolean, or its spelling as text (``"false"``, ``"no"``); ``None`` for anything else."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return {"true": True, "yes": True, "false": False, "no": False}.get(value.strip().casefold())
    return None


def _worded(key: str) -> bool:
    """Whether a member's name holds an answer word (``is_eligible``, ``identity_verified``): its ``true`` is the
    check's yes. A member named only like the check's subject (``on_register`` of ``check_priority_register``,
    ``in_stock`` of ``check_stock``) says what was found, not whether that allows the action."""
    return any(w in ANSWER_WORDS for w in _key_words(key))


def unclear_answer(observation: JsonValue, tool: str) -> str | None:
    """The member that alone answers the check when its name holds no answer word (``on_register: false``), or
    ``None``: whether its value allows the action the rule guards is not in the trace (no on the register may be
    the good answer; no in stock is not)."""
    for obj in observed_objects(observation):
        answers = {k: t for k, v in obj.items() if (t := truth(v)) is not None and answers_check(k, tool)}
        if any(_worded(k) for k in answers):
            return None
        if answers:
            key, value = next(iter(answers.items()))
            return f"{key}: {str(value).lower()}"
    return None


def says_no(observation: JsonValue, tool: str) -> str | None:
    """How the observation answers the check with no (``verified: false``), or ``None`` when it does not. Where
    an object has a main answer (``_main_answer``), that decides, not the details beside it; a member named only
    like the check's subject decides nothing (``unclear_answer``)."""
    if observation is False:
        return "it returned false"
    if isinstance(observation, str):
        return "its answer negates it" if _text_says_no(observation, tool) else None
    for obj in observed_objects(observation):
        answers = {
            k: t for k, v in obj.items() if (t := truth(v)) is not None and answers_check(k, tool) and _worded(k)
        }
        main = {k: v for k, v in answers.items() if _main_answer(k)}
        no = next((k for k, v in (main or answers).items() if v is False), None)
        if no is not None:
            return f"{no}: {obj[no]!r}" if isinstance(obj[no], str) else f"{no}: false"
        for key, value in obj.items():
            said = value.strip().casefold().replace(" ", "_") if isinstance(value, str) else None
            if key.casefold() in _ANSWER_MEMBERS and said in NO_STATUSES:
                return f"{key}: {value}"
    return None


def _is_check(tool: str) -> bool:
    """Whether a tool answers a yes/no question (``check_manager_approval``, ``verify_identity``): a word of its
    name begins like an answer word; a lookup (``get_order``) is no check, and its ``status`` is the object's."""
    return any(w[:_PREFIX] == a[:_PREFIX] for w in action_words(tool) for a in ANSWER_WORDS)


def _waiting(value: JsonValue) -> bool:
    said = value.strip().casefold().replace(" ", "_").replace("-", "_") if isinstance(value, str) else ""
    return bool(said) and said.startswith(PENDING_STATUSES)


def not_yet(observation: JsonValue, tool: str) -> str | None:
    """How a check's observation says it has not answered yet (``status: pending``), or ``None``; a lookup's
    observation never does (see ``_is_check``)."""
    if not _is_check(tool):
        return None
    if isinstance(observation, str):
        told = words(observation)
        return (
            "its answer is still pending"
            if any(_waiting(w) for w in told) and names_action(observation, tool)
            else None
        )
    objects = list(observed_objects(observation))
    if any(v is True and _main_answer(k) for obj in objects for k, v in obj.items()):
        return None  # the check's own yes decides, whatever a detail beside it still waits for
    for obj in objects:
        for key, value in obj.items():
            member = key.casefold() in (*_ANSWER_MEMBERS, "state") or answers_check(key, tool)
            if member and _waiting(value):
                return f"{key}: {value}"
            if value is None and _main_answer(key):
                return f"{key}: null"
    return None


__all__ = [
    "ANSWER_WORDS",
    "NO_STATUSES",
    "PENDING_STATUSES",
    "answers_check",
    "not_yet",
    "observed_objects",
    "says_no",
    "truth",
    "unclear_answer",
]
