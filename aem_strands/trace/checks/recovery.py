"""Recovery: after a tool error or timeout (``steps.call_failed``) the agent retries, degrades, explains or hands
off; it never reports success, and it does not retry the same failing call without end.

- ``recovery.reported_success_after_error``: a later reply (a response step, or ``final_response`` when no
  step carries it) has a sentence claiming success, read by the reply fact reading (``claims.success_claims``:
  the dialog act ``notify_success``, an action reported done, ``went through``; not a denied, conditional or
  promised one), about the failed call's action (it names an action word of the tool, or it is a plain report
  of success in the first reply after the error, saying nothing failed, and no call succeeded in between; a
  first reply that closes the exchange, the dialog act ``goodbye``, with no word of the failure, ``Enjoy your
  music!``, reports it as done),
  while no call of that tool (or of one sharing an action word: a fallback) succeeded between the error and the
  reply (a success later, in another task, does not make the earlier claim true). One finding per failed tool, at
  the first such reply. A call failed as ``failures.failure`` reads it (every shape tools report an error in).
- ``recovery.error_not_reported``: the reply right after a failed write (``outcomes.is_write``) says nothing of the
  failure (no sentence denies, no question, no word of failure or of the tool's own error: ``The ticket is $10 and
  the venue is at 1881 Post Street.`` after the purchase timed out) and no call follows it (a retry, a fallback, a
  check of what happened): it goes on as if the write went through.
  One finding per failed tool, and none for a tool a success claim was found for.
- ``recovery.endless_retry``: the same call (tool and arguments) made again after it failed more than
  ``budgets.max_retries`` times in a row; at the first retry beyond the budget.
- ``recovery.unhandled_error``: the trace's last failed call is followed by no reply, call or hand-off, and
  the trace has no ``final_response``.
- Not applicable when no call failed.
"""

from __future__ import annotations

import re

from aem_strands.compare.acts import ActKind, dialog_act
from aem_strands.trace.checks.claims import denies, success_claims
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.failures import failure
from aem_strands.trace.checks.outcomes import is_write
from aem_strands.trace.checks.steps import action_words, call_failed, call_key, names_action, sentences, step_fragment
from aem_strands.trace.types import (
    ActionType,
    Dimension,
    DimensionVerdict,
    Environment,
    Finding,
    Step,
    Trace,
    not_applicable,
    verdict_from,
)
from aem_strands.types import JsonValue

_HANDLING = frozenset([ActionType.RESPONSE, ActionType.TOOL_CALL, ActionType.HANDOFF])


def _claim(text: str, failed: Step, first_after: bool) -> str | None:
    """The first sentence of ``text`` that claims the ``failed`` call went through (``claims``): a claim
    naming its action, or, in the first reply after the error with nothing succeeding between, a plain report
    of success (``Done!``, ``the money went through``), or a close of the exchange that says nothing of the
    failure (the dialog act ``goodbye`` and no denial: ``Enjoy your music!``)."""
    # a reply that denies something of the failed call (its action, or what it was given: "Your old password no
    # longer works") reports the failure: its plain reports of success are about the calls that went through
    name = failed.tool_name or ""
    words = [name, *failed.arguments]
    plain = first_after and not any(denies(s) and any(names_action(s, w) for w in words) for s in sentences(text))
    for claim in success_claims(text):
        if claim.ongoing:
            if names_action(" ".join(claim.verbs), name):  # "is playing" for PlayMovie; not "is shipping"
                return claim.sentence
        elif names_action(claim.sentence, name) or (claim.strong and plain):
            return claim.sentence
    if plain and "?" not in text:
        kinds = dialog_act(text).kinds
        if ActKind.GOODBYE in kinds and ActKind.NOTIFY_FAILURE not in kinds:
            return text
    return None


def _same_action(other: str, name: str) -> bool:
    """Whether a call of ``other`` does what ``name`` does: the same tool, or one sharing an action word
    (``cancel_order_v2`` for ``cancel_order``): a fallback that succeeded."""
    return other == name or bool(action_words(other) & action_words(name))


def _succeeded_between(trace: Trace, failed: Step, reply: Step | None) -> bool:
    """Whether a call succeeded after ``failed`` and before ``reply`` (the end, for the final response): a
    fallback the reply may be about."""
    end = reply.index if reply is not None else len(trace.steps)
    return any(failed.index < s.index < end and not call_failed(s) for s in trace.tool_calls())


def _replies(trace: Trace, after: int) -> list[tuple[Step | None, str]]:
    """The replies after step ``after``: response steps, then ``final_response`` when no step carries it."""
    replies: list[tuple[Step | None, str]] = [
        (s, s.content) for s in trace.steps[after + 1 :] if s.action_type is ActionType.RESPONSE and s.content
    ]
    final = trace.final_response
    if final and not any(s.content == final for s in trace.steps if s.action_type is ActionType.RESPONSE):
        replies.append((None, final))
    return replies


def _success_claims(trace: Trace, failed: list[Step], reported: set[str]) -> list[Finding]:
    """``recovery.reported_success_after_error``, one per failed tool (``reported``: the tools told of so far)."""
    findings = []
    for step in failed:
        name = step.tool_name or ""
        if name in reported:
            continue
        for position, (reply, text) in enumerate(_replies(trace, step.index)):
            end = reply.index if reply is not None else len(trace.steps)
            if any(
                step.index < s.index < end and _same_action(s.tool_name or "", name) and not call_failed(s)
                for s in trace.tool_calls()
            ):
                break  # retried or replaced by a fallback that succeeded before this reply: recovered
            sentence = _claim(text, step, position == 0 and not _succeeded_between(trace, step, reply))
            if sentence is None:
                continue
            where = f"step {reply.step_id!r}" if reply is not None else "the final response"
            message = (
                f"{where} reports success ({sentence!r}) after {name} failed at step {step.step_id!r} "
                f"({failure(step)}) and no {name} call succeeded before it: say it did not go "
                f"through, retry, or hand off"
            )
            evidence: JsonValue = [step_fragment(step), step_fragment(reply) if reply else {"final_response": text}]
            findings.append(
                Finding(Dimension.RECOVERY, "recovery.reported_success_after_error", message,
                        reply.step_id if reply else None, reply.index if reply else None, evidence)
            )  # fmt: skip
            reported.add(name)
            break
    return findings


_TROUBLE = re.compile(
    r"\b(?:errors?|exceptions?|fail\w*|timed? ?out|timeout|problems?|issues?|trouble|glitch|outage|unavailable|down"
    r"|wrong|retry\w*|try(?:ing)? (?:again|once more)|(?:an)?other|instead|alternatives?)\b",
    re.I,
)
"""Words that tell of a failure, of trying again or of another way (``The booking timed out; trying once more.``,
``I was able to locate one other property.``): a reply with one is no silence about the failure."""
_WORD = re.compile(r"[a-z]{4,}")


def _says_failure(text: str, failed: Step) -> bool:
    """Whether a reply tells of a failure or offers what to do about it: a sentence that denies (``claims.denies``:
    a negation, a denying word, the dialog act ``notify_failure``), a question (``Shall I try again?``), a word of
    failure (``_TROUBLE``), or a word of the tool's own error (``the mailbox is full``)."""
    if "?" in text or _TROUBLE.search(text) or any(denies(s) for s in sentences(text)):
        return True
    reason = set(_WORD.findall((failure(failed) or "").casefold()))
    return bool(reason & set(_WORD.findall(text.casefold())))


def _silent(trace: Trace, failed: list[Step], env: Environment, told: set[str]) -> list[Finding]:
    """The reply right after a failed write that says nothing of the failure and is followed by no call
    (``recovery.error_not_reported``)."""
    findings = []
    for step in failed:
        name = step.tool_name or ""
        if name in told or not is_write(step, env) or step.index + 1 >= len(trace.steps):
            continue
        reply = trace.steps[step.index + 1]
        if reply.action_type is not ActionType.RESPONSE or not reply.content or _says_failure(reply.content, step):
            continue
        later = trace.steps[step.index + 2] if step.index + 2 < len(trace.steps) else None
        if later is not None and later.action_type is ActionType.TOOL_CALL:
            continue  # a retry, a fallback or a check of what happened: the reply announces it
        message = (
            f"step {reply.step_id!r} goes on after {name} failed at step {step.step_id!r} ({failure(step)}) "
            "without a word of the failure: say it did not go through, retry, or hand off"
        )
        evidence: JsonValue = [step_fragment(step), step_fragment(reply)]
        findings.append(
            Finding(Dimension.RECOVERY, "recovery.error_not_reported", message, reply.step_id, reply.index, evidence)
        )
        told.add(name)
    return findings


def _endless_retries(trace: Trace, budget: int) -> list[Finding]:
    findings = []
    failures: dict[str, list[Step]] = {}
    for step in trace.tool_calls():
        key = call_key(step)
        row = failures.get(key, [])
        if len(row) == budget + 1:  # this is retry number budget + 1
            message = (
                f"step {step.step_id!r}: {step.tool_name} retried {len(row)} times after it failed at step "
                f"{row[0].step_id!r} (budget: {budget} retries): stop and explain, degrade or hand off"
            )
            evidence: JsonValue = [step_fragment(row[0]), step_fragment(step)]
            findings.append(
                Finding(Dimension.RECOVERY, "recovery.endless_retry", message, step.step_id, step.index, evidence)
            )
        failures[key] = [*row, step] if call_failed(step) else []
    return findings


def _unhandled(trace: Trace, last: Step) -> list[Finding]:
    if trace.final_response or any(s.action_type in _HANDLING for s in trace.steps[last.index + 1 :]):
        return []
    message = (
        f"step {last.step_id!r}: {last.tool_name} failed ({failure(last)}) and the trace ends "
        f"with no retry, explanation or hand-off: tell the user what happened"
    )
    return [
        Finding(
            Dimension.RECOVERY, "recovery.unhandled_error", message, last.step_id, last.index, [step_fragment(last)]
        )
    ]


def check_recovery(trace: Trace, env: Environment, ctx: TraceContext) -> DimensionVerdict:
    """Success reported after an error, endless retries, an error left unhandled (see the module docstring)."""
    failed = [s for s in trace.tool_calls() if call_failed(s)]
    if not failed:
        return not_applicable(Dimension.RECOVERY, "no tool call failed")
    budget = env.budgets.max_retries
    told: set[str] = set()
    findings = _success_claims(trace, failed, told)
    findings += _silent(trace, failed, env, told)
    findings += _endless_retries(trace, budget) if budget is not None else []
    findings += _unhandled(trace, failed[-1])
    findings.sort(key=lambda f: (f.step_index is None, f.step_index or 0))
    limit = f"at most {budget} retries" if budget is not None else "no retry budget"
    checked = f"{len(failed)} failed call(s) at {', '.join(repr(s.step_id) for s in failed)} ({limit})"
    return verdict_from(Dimension.RECOVERY, findings, checked)
