"""Result use's readings of a record's status and flags: what an observation says of a reply's claim of an action
done (``outcomes.unsupported`` reads a claim against the records it is about with these before anything else). A
claim is unsupported (an ``Outcome``, the value of one unsupported claim, which the other readings give too) when:

- **another stage**: it is about a record an observation describes (the record its sentence names by an
  identifier or a name, else the only record of the latest successful write call's answer), whose status
  (``status``, ``state``, ``*_status``) names the claimed action but not as done, and names a stage short of it
  (``STAGES``: ``cancel_requested``, ``pending_cancellation``, ``refund_in_progress``) while the reply says
  ``ORDER_500 is cancelled``. A status naming the action done (``cancelled``, ``cancelled_by_user``) supports it.
  A status naming the action in a form the rule cannot place (``cancel``), or naming the claim's object at a
  stage short of done (``The refund has been issued`` against ``refund_pending``: the same process or another
  step of it), is a question for the judge; without one it is recorded as undecided. The latest status naming the
  action stands: an earlier answer about the same object (an identifier in common) is not read (``cancel_requested``,
  then ``cancelled``);
- **a process gone through**: a claim that a process went through without naming its action (``The transfer T1
  has been completed``, ``Your payment went through``) against the latest record it is about that has a status,
  when the claim's other words name the record's object (its tool's action words, an identifier key) and the status
  names a stage short of done and nothing done (``pending_approval``, ``queued``): another stage;
- **a false flag**: the record holds a flag, false, whose key names the claimed action (``scheduled: false``,
  ``is_confirmed: false`` against ``I've scheduled it``, ``It is confirmed``; its other words the claim's too:
  ``notification_sent`` is not about ``I've sent your documents``): another stage. A flag that a process is
  settled (``confirmed``, ``completed``, ``processed``) against a claim of another action (``Your inspection is
  booked`` after ``confirmed: false``) is a question (the booking may stand unconfirmed). A flag of what may or
  must be done (``cancellable``, ``refund_allowed``, ``needs_confirmation``) says nothing of what was done.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from aem_strands.trace.checks.claims import Claim
from aem_strands.trace.checks.observed import Record, name_words
from aem_strands.trace.checks.steps import names_action
from aem_strands.trace.types import Step
from aem_strands.types import JsonValue

STAGES = ("request", "pending", "progress", "processing", "initiat", "await", "queued", "submitted", "review",
          "hold", "draft", "partial", "open", "scheduled")  # fmt: skip
"""Beginnings of status words that name a stage short of an action done (``cancel_requested``,
``refund_pending``): the vocabulary of machine states, read in observations, never in replies."""

_STATUS_KEY = re.compile(r"^(?:status|state)$|_(?:status|state)$")
_TOKENS = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class Outcome:
    """One unsupported claim: the sentence, why, and the record and status it was read against, if any."""

    claim: Claim
    reason: str
    record: Record | None = None
    status: tuple[str, JsonValue] | None = None
    question: bool = False
    """Whether the rule could not settle it: the judge is asked, or it is recorded undecided."""
    probability: float | None = None
    """The success act model's probability that the reply reports an action done, where that reading raised it."""
    since: Step | None = None
    """The user's turn (a request or an agreement) the stretch with no write call starts at, where an earlier write
    call was made."""


def _stem(verb: str) -> str:
    """The beginning of a claim's word of the action (``cancelled`` → ``cance``; ``is complete`` → ``compl``)."""
    words = verb.split()
    word = words[0] if words[-1] == "through" else words[-1]
    base = re.sub(r"(?:ed|d)$", "", word) if word.endswith("d") else word
    return base[: min(len(base), 5)]


def _statuses(claim: Claim, record: Record) -> Iterator[tuple[str, JsonValue, list[str], bool]]:
    """Each status of the record that names the claim's action: (path, value, its words, whether it says done:
    ``cancelled``, ``cancelled_by_user``, ``complete`` for ``is complete``)."""
    for key, (path, value) in record.values.items():
        if not _STATUS_KEY.search(key) or not isinstance(value, str):
            continue
        tokens = _TOKENS.findall(value.casefold())
        for verb in claim.verbs:
            stem = _stem(verb)
            named = [t for t in tokens if len(stem) >= 4 and t.startswith(stem)]
            if named:
                done = any(t.endswith(("ed", "en")) or t == verb or t == verb.split()[-1] for t in named)
                yield path, value, tokens, done
                break


def status_reading(claim: Claim, record: Record) -> Outcome | None:
    for path, value, tokens, done in _statuses(claim, record):
        if done:
            return None
        short = any(t.startswith(STAGES) for t in tokens)
        reason = "another stage" if short else "a status the rule cannot place"
        return Outcome(claim, reason, record, (path, value), question=not short)
    unset = _unset_flag(claim, record)
    if unset is not None:
        return unset
    if claim.done:
        return _staged_object(claim, record)
    return None


_CAPABILITY = re.compile(r"abl|ibl|allow|can|may|need|requir|eligib")
"""Parts of a flag's key that make it say what may or must be done (``cancellable``, ``refund_allowed``,
``needs_confirmation``), not what was done: the polarity rule's and planning's to read."""
_AUXILIARY = frozenset(["is", "was", "has", "been", "be", "successfully"])
"""Words of a flag's key that say nothing of what it is about (``is_confirmed``, ``has_been_sent``)."""
_SETTLED = ("confirmed", "completed", "complete", "done", "finali", "processed")
"""Beginnings of a flag's key that say a process is settled, whatever its action (``confirmed: false``): a claim of
another action done against one (``Your inspection is booked``) is a question, not a finding."""


_WHOLE = re.compile(r"(?:through|complete|completed|finished|finali[sz]ed|processed|done|succeeded|successful)$")
"""A claim's words that say a process went through without naming its action (``went through``, ``is complete``,
``has been processed``)."""


def whole_process(claim: Claim, about: Sequence[Record]) -> Outcome | None:
    """A claim that a process went through (``The transfer T1 has been completed``, ``Your payment went through``)
    against the latest record it is about that has a status, when the claim's other words name that record's object
    (its tool's action words, ``transfer``, ``payment``; or an identifier key's, ``transfer_id``) and the status
    names a stage short of done and nothing done (``pending_approval``, ``queued``): another stage. A claim about
    another object (``the payment went through`` after ``place_order`` answered ``status: processing``) is not
    read."""
    if not any(_WHOLE.search(v) for v in claim.verbs):
        return None
    record = next((r for r in about if any(_STATUS_KEY.search(k) for k in r.values)), None)
    if record is None:
        return None
    folded = claim.sentence.casefold()
    for verb in claim.verbs:
        folded = folded.replace(verb, " ")
    said = set(_TOKENS.findall(folded))
    objects = {k.removesuffix("_id") for k in record.values if k.endswith("_id")}
    if not (said & objects or names_action(folded, record.step.tool_name or "")):
        return None
    for key, (path, value) in record.values.items():
        if not _STATUS_KEY.search(key) or not isinstance(value, str):
            continue
        tokens = _TOKENS.findall(value.casefold())
        short = [t for t in tokens if t.startswith(STAGES)]
        if short and not any(t.endswith(("ed", "en")) and t not in short for t in tokens):
            return Outcome(claim, "another stage", record, (path, value))
    return None


def superseded(claim: Claim, record: Record, about: Sequence[Record]) -> bool:
    """Whether a later answer about the same object (an identifier in common) has a status naming the claim's action:
    the latest status stands (``cancel_requested``, then ``cancelled``: the claim ``is cancelled`` holds)."""
    return bool(record.identity) and any(
        other.step.index > record.step.index
        and bool(other.identity & record.identity)
        and next(_statuses(claim, other), None) is not None
        for other in about
    )


def _unset_flag(claim: Claim, record: Record) -> Outcome | None:
    """A flag of the record, false, that says the claim's action was not done (``scheduled: false``,
    ``is_confirmed: false`` against ``I've scheduled it``, ``It is confirmed``; its other words the claim's too:
    ``notification_sent`` is not about ``I've sent your documents``): another stage. A false flag that a
    process is settled (``confirmed: false``) against a claim done of another action (``I've booked it``) is a
    question: the booking may stand unconfirmed."""
    stems = [s for s in (_stem(v) for v in claim.verbs) if len(s) >= 4]
    said = set(name_words(claim.sentence))
    for key, (path, value) in record.values.items():
        if value is not False or _CAPABILITY.search(key):
            continue
        words = _TOKENS.findall(key)
        named = [w for w in words if any(stem in w for stem in stems)]
        # the key's other words must be the claim's too (``email_sent`` for ``I've sent the email``; not
        # ``notification_sent`` for ``I've sent your documents``)
        if named and all(w in named or w in _AUXILIARY or w in said for w in words):
            return Outcome(claim, "another stage", record, (path, value))
        if claim.verbs and any(w.startswith(_SETTLED) for w in words):
            return Outcome(claim, "a flag the rule cannot place", record, (path, value), question=True)
    return None


def _staged_object(claim: Claim, record: Record) -> Outcome | None:
    """A claim done by its grammar whose words name, not the action of a status, but its object at a stage short
    of done (``The refund has been issued`` against ``refund_status: refund_pending``): the same process, or
    another step of it (``Your refund request has been received``), which the rule cannot settle: a question."""
    said = set(name_words(claim.sentence))
    for key, (path, value) in record.values.items():
        if not _STATUS_KEY.search(key) or not isinstance(value, str):
            continue
        tokens = _TOKENS.findall(value.casefold())
        stage = [t for t in tokens if t.startswith(STAGES)]
        if stage and any(len(t) >= 4 and t in said and t not in stage for t in tokens):
            return Outcome(claim, "a status the rule cannot place", record, (path, value), question=True)
    return None


def observed_done(claim: Claim, records: Sequence[Record]) -> bool:
    """Whether a record the claim is about has a status saying its action is done (``Take out the trash is
    complete`` after a read answered ``status: complete`` for it): the claim reports what a tool observed."""
    said = f" {' '.join(name_words(claim.sentence))} "
    return any(
        done and _named_apart_from_status(record, said)
        for record in records
        for _, _, _, done in _statuses(claim, record)
    )


def _named_apart_from_status(record: Record, said: str) -> bool:
    """Whether the words ``said`` hold a name of the record that is not its status (``take out the trash``, not
    ``complete``, which every completed record shares)."""
    return any(
        isinstance(value, str) and not _STATUS_KEY.search(key) and f" {' '.join(name_words(value))} " in said
        for key, (_, value) in record.values.items()
        if name_words(value if isinstance(value, str) else "")
    )


__all__ = ["STAGES", "Outcome", "observed_done", "status_reading", "superseded", "whole_process"]
