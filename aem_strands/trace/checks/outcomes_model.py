"""Result use, read by a model: a reply the success act model reads as reporting an action done with no write call
in its stretch (the outcome rule's last reading, ``outcomes.unsupported``).

Where the outcome rules settle nothing (at most a question of no call), the reply is read whole by the success act
model (``compare.success_acts``: SGD's ``NOTIFY_SUCCESS`` against every other system act, trained on SGD train) as
reporting an action done, with no write call before it, no call whose action the reply's claim verbs name, no
record it names observed done, and not a proposal: a finding from ``success_acts.CONFIDENT`` (``I've booked the
room for you`` with ``ReserveHotel``; ``Your booking is now confirmed!``), a question from ``success_acts.UNSURE``
where the reply names a write tool's action or object (``Okay your reservation was a success``; not ``I'm happy I
was able to assist``). Where the catalog and the policy name no write tool, a confident reading is a question and
an unsure one nothing. After a failed call the reply is recovery's to judge (``recovery.reported_success_after_error``).
Where earlier write calls were made, only the stretch since the user's last request or agreement counts
(``asked_at``). The model is read only for replies with no write call before them, once per text (cached).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from aem_strands.compare.dialog_acts import Speaker, act_probabilities
from aem_strands.compare.success_acts import CONFIDENT, UNSURE, success_probability
from aem_strands.trace.checks.claims import Claim, success_claims
from aem_strands.trace.checks.consent_acts import answer_contexts
from aem_strands.trace.checks.consent_decision import CONFIDENT as ASKED
from aem_strands.trace.checks.steps import call_failed, names_action, sentences
from aem_strands.trace.types import ActionType, Step


@dataclass(frozen=True)
class ModelContext:
    """What the outcome rules know of a reply that the model's reading needs: the rules' own readings, passed in."""

    wrote: bool
    """Whether a write call was made before the reply."""
    writes: tuple[str, ...]
    """The tools that may change something (the catalog's writes, then the policy's destructive tools)."""
    is_write: Callable[[Step], bool]
    """Whether a call may change something."""
    observed_done: Callable[[Claim], bool]
    """Whether a record the claim names has a status saying its action is done."""
    proposing: bool
    """Whether the reply asks to confirm details (the dialog act ``confirm``)."""
    turns: Sequence[Step]
    """The user and agent turns before the reply, in order, where the caller gives them (else every write call before
    the reply counts)."""


@dataclass(frozen=True)
class DoneReading:
    """A reply read as reporting an action done with no write call in its stretch."""

    claim: Claim
    """The claim of the sentence read likeliest as a report of success (a bare one where no claim is in it)."""
    probability: float
    """The success act model's probability that the reply reports an action done."""
    since: Step | None
    """The user's turn (a request or an agreement) the stretch with no write call starts at, where an earlier write
    call was made."""
    sure: bool
    """Whether it settles (a finding), else a question for the judge."""


def read_as_done(text: str, calls: Sequence[Step], context: ModelContext) -> DoneReading | None:
    """The success act model's reading of a reply as reporting an action done with no write call in its stretch (see
    the module docstring); ``calls`` are the calls made before it."""
    wrote, turns = context.wrote, context.turns
    if wrote and (not turns or _wrote_since(calls, context.is_write, _last_user(turns))):
        return None  # a write since the user last spoke: its stretch has one, wherever it starts (no reading)
    probability = success_probability(text)
    if probability < UNSURE:
        return None
    asked = asked_at(turns) if wrote else None
    since = asked.index if asked is not None else None
    if wrote and _wrote_since(calls, context.is_write, since):
        return None
    stretch = [c for c in calls if since is None or c.index > since]
    if any(call_failed(c) for c in stretch):
        return None  # success reported after a failed call: recovery's to judge (``reported_success_after_error``)
    claims = [c for c in success_claims(text) if not c.ongoing]
    if context.proposing and not any(c.reported for c in claims):
        return None  # a reply asking to confirm the details states them as they will be
    verbs = " ".join(v for c in claims for v in c.verbs)
    if any(names_action(verbs, c.tool_name or "") for c in stretch):
        return None  # a call whose action the reply's verb names (``verify_identity`` for ``I've verified you``)
    if any(context.observed_done(c) for c in claims):
        return None  # the reply reports what a tool observed done
    sentence = max(sentences(text), key=success_probability, default=text)
    claim = next((c for c in claims if c.sentence in sentence or sentence in c.sentence), None)
    claim = claim or Claim(sentence, strong=True, verbs=(), whole=sentence)
    if probability < CONFIDENT and not any(names_action(text, name) for name in context.writes):
        # unsure of the reading, and the reply names no write tool's action or object ("I'm happy I was able to
        # assist"): nothing it says was done to ask about
        return None
    sure = bool(context.writes) and probability >= CONFIDENT
    return DoneReading(claim, probability, asked, sure)


def _last_user(turns: Sequence[Step]) -> int | None:
    return next((t.index for t in reversed(turns) if t.action_type is ActionType.USER), None)


def _wrote_since(calls: Sequence[Step], is_write: Callable[[Step], bool], since: int | None) -> bool:
    """Whether a write call was made after the step of index ``since`` (``None``: at all)."""
    return any(is_write(c) for c in calls if since is None or c.index > since)


def asked_at(turns: Sequence[Step]) -> Step | None:
    """The user's last turn among ``turns`` that asks for an action (the dialog act ``request``) or
    agrees to the agent's proposal before it (``agree``, read in the context of a ``confirm``, ``offer`` or
    ``offer_intent``), each from ``consent_decision.CONFIDENT``; ``None`` when there is none. A thanks, a question
    or an answer to something else starts no new stretch: the write that did it may be before it."""
    before = list(turns)
    for step in reversed(before):
        if step.action_type is not ActionType.USER or not step.content:
            continue
        for context in answer_contexts(before, step, None):
            acts = act_probabilities(step.content, Speaker.USER, context)
            if acts["request"] >= ASKED or (context in _PROPOSING and acts["agree"] >= ASKED):
                return step
    return None


_PROPOSING = frozenset(["confirm", "offer", "offer_intent"])


__all__ = ["DoneReading", "ModelContext", "asked_at", "read_as_done"]
