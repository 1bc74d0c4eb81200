"""Result use: a reply that reports an outcome no observation says (``result_use.unsupported_outcome``).

A reply's success claims are read by ``claims.success_claims`` (the reply fact reading: dialog acts, polarity;
not a word list). A claim is unsupported when:

- **another stage**, **a process gone through**, **a false flag**: what the status or a flag of a record the claim
  is about says of it (``outcome_status``: ``ORDER_500 is cancelled`` after ``status: cancel_requested``; ``I've
  scheduled it`` after ``scheduled: false``); a status or flag the rule cannot place is a question for the judge,
  undecided without one;
- **no call**: no call that could have done it was made before the reply: no write call at all (a tool the
  catalog does not mark read-only, or, outside the catalog, one whose name does not start with a read verb:
  ``READ_VERBS``), and no call whose action the claim's verb names (``verify_identity`` for ``I've verified you``;
  ``find_ride`` for ``your ride has been booked`` names the object, not the action). Only claims that report the
  action done by their grammar count (``claims.Claim.done``: ``I've booked it``, ``It has been sent``, ``the money
  went through``): a dialog act of success or a passive (``is scheduled to leave``, ``is located``) also describes
  things; with a catalog, the claim's verb must name the action of one of its write tools (``has been booked`` and
  ``BookAppointment``; ``it has been rated 4.4`` names none), or, for a verb that names no action, the sentence the
  action word a write tool's name opens with (``Your reservation has been made`` and ``ReserveRestaurant``; not
  ``ride`` of ``GetRide``, its object). With no write call at all, a report of success in a state passive whose verb
  names a write tool's action (``Your table is reserved``) is a question for the judge, undecided without one. An
  action done in other words than the tools' (``Your room has been booked`` with ``ReserveHotel``) is not read: asked
  as a question, it turned traces a reviewer passes into inconclusive ones on sets never tuned on (2 of the 60 of
  fresh v3, 1 of fresh v1's held-out half, 2 of SGD's; by their figures, the cases unread). A failed call that could
  have done it is recovery's to judge (``recovery.reported_success_after_error``), not this rule's;
- **read as done, no call**: where the rules above settle nothing (at most a question of no call), the reply read
  whole by the success act model (``outcomes_model``, which says when a reading is a finding, a question or
  nothing). After a failed call the reply is recovery's to judge, as above.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from aem_strands.compare.acts import dialog_act
from aem_strands.trace.checks.claims import Claim, success_claims
from aem_strands.trace.checks.context import TraceJudge
from aem_strands.trace.checks.observed import Record
from aem_strands.trace.checks.outcome_status import (
    STAGES,
    Outcome,
    observed_done,
    status_reading,
    superseded,
    whole_process,
)
from aem_strands.trace.checks.outcomes_model import ModelContext, read_as_done
from aem_strands.trace.checks.requests import action_verb, names_verb
from aem_strands.trace.checks.rulings import Ruling, ask, cite, clip, result_finding
from aem_strands.trace.checks.steps import names_action
from aem_strands.trace.types import Environment, Step
from aem_strands.types import JsonValue

READ_VERBS = frozenset(["get", "find", "search", "list", "lookup", "look", "check", "fetch", "query", "read", "show",
                        "view", "retrieve", "describe", "count", "calculate", "compute", "estimate", "validate",
                        "browse", "suggest", "recommend"])  # fmt: skip
"""First words of a tool's name that make a tool the catalog does not define a read (``get_order``)."""

_TOKENS = re.compile(r"[a-z]+")
_FIRST_WORD = re.compile(r"[A-Za-z][a-z]*")
_BARE_WORDS = 3
"""Words of a bare report of success (``You're all set``): more make a sentence that describes something."""


def is_write(step: Step, env: Environment) -> bool:
    """Whether a call may change something (see the module docstring)."""
    name = step.tool_name or ""
    if name in env.destructive_tools:
        return True
    definition = next((d for d in env.tools.definitions if d.name == name), None)
    if definition is not None:
        return definition.destructive is True or not definition.read_only
    first = _FIRST_WORD.match(name)
    return first is None or first.group().casefold() not in READ_VERBS


def _names_a_write(claim: Claim, env: Environment) -> bool:
    """Whether a claim is about an action a tool could take: with a catalog, its words name a write tool's action
    (``has been booked`` and ``BookAppointment``; ``has been rated`` names none); without one, any claim of an
    action done."""
    writes = _write_names(env)
    if not writes:
        return True
    said = " ".join(claim.verbs) or claim.sentence
    # the verb (``has been booked``), or, for a verb that names no action (``has been made``), the sentence's word
    # of a write tool's action itself (``Your reservation has been made``: ``ReserveRestaurant``), not its object
    return any(names_action(said, name) or _names_its_verb(claim.sentence, name) for name in writes)


def _has_writes(env: Environment) -> bool:
    """Whether the catalog or the policy names a tool that may change something."""
    return bool(_write_names(env))


def _write_names(env: Environment) -> list[str]:
    """The tools that may change something: the catalog's writes, then the policy's destructive tools."""
    writes = [d.name for d in env.tools.definitions if d.destructive is True or not d.read_only]
    return writes + sorted(env.destructive_tools)


def _names_its_verb(sentence: str, name: str) -> bool:
    """Whether ``sentence`` names the tool's action word when that word is the verb its name opens with
    (``reservation`` for ``ReserveRestaurant``; not ``ride`` for ``GetRide``, whose opening verb says nothing)."""
    verb = action_verb(name)
    first = _FIRST_WORD.match(name.rsplit(".", 1)[-1].rsplit("__", 1)[-1])
    return first is not None and first.group().casefold() == verb and names_verb(sentence, name)


def _bare(claim: Claim) -> bool:
    """Whether a claim is a bare report of success: a clause of its sentence that is nothing else, read as
    ``notify_success`` by the dialog act reading (``Done``, ``All set``), with no verb or object of its own."""
    return (
        claim.strong
        and not claim.verbs
        and claim.sentence != claim.whole
        and len(_TOKENS.findall(claim.sentence.casefold())) <= _BARE_WORDS
    )


def _names_a_catalog_write(claim: Claim, env: Environment) -> bool:
    """Whether a bare report of success (the dialog act ``notify_success`` with no verb of its own: ``Done —
    you're now in seat 14C``) is in a sentence naming the action or the object of a write tool of the catalog
    (``assign_seat``): what it says was done. A claim with a verb of state (``Alarm is set at 7 am``) may describe
    what a read returned."""
    return any(names_action(claim.whole or claim.sentence, name) for name in _write_names(env))


def unsupported(
    text: str,
    calls: Sequence[Step],
    env: Environment,
    named: Callable[[str], Sequence[Record]],
    last_write: Sequence[Record],
    turns: Sequence[Step] = (),
) -> list[Outcome]:
    """The unsupported claims of one reply (see the module docstring). ``calls`` are the calls made before it,
    ``named`` gives the records a sentence names, ``last_write`` the records of the latest successful write
    call's answer; ``turns``, the user and agent turns before it in order, where the caller gives them: the success
    act model's reading then counts only the write calls since the user's last request or agreement
    (``asked_at``), else every write call before the reply."""
    found: list[Outcome] = []
    wrote: list[bool] = []
    """Whether a write call was made, read once when a claim first needs it (most replies claim nothing: a scan of
    every call per reply made a long trace's cost quadratic)."""
    # a reply asking to confirm details states them as they will be ("Please check and confirm the following
    # details. Visit has been scheduled to ..."): a proposal, not an outcome; a report frame's complement ("I can
    # confirm that it has been booked") is stated, though the frame reads as ``confirm``
    proposing = dialog_act(text).confirms
    for claim in (c for c in success_claims(text) if not c.ongoing):
        # the records the sentence names, and the answer of the latest write (``cancel_reservation`` answering
        # ``status: cancel_requested`` for the reservation the reply names by its code)
        about = list(named(claim.sentence))
        about += [r for r in (last_write if len(last_write) == 1 else ()) if all(r is not a for a in about)]
        current = [r for r in about if not superseded(claim, r, about)]
        reading = next((o for o in (status_reading(claim, r) for r in current) if o is not None), None)
        reading = reading or whole_process(claim, about)
        if reading is not None:
            found.append(reading)
            continue
        verbs = " ".join(claim.verbs)
        if not wrote:
            wrote.append(any(is_write(c, env) for c in calls))
        if (
            wrote[0]
            or (proposing and not claim.reported)
            or observed_done(claim, about)
            or any(names_action(verbs, c.tool_name or "") for c in calls)
        ):
            continue
        if (claim.done and _names_a_write(claim, env)) or (_bare(claim) and _names_a_catalog_write(claim, env)):
            found.append(Outcome(claim, "no call"))
        elif claim.strong and claim.verbs and _has_writes(env) and _names_a_write(claim, env):
            # no write call at all, and a report of success in a state passive whose verb names a write tool's
            # action (``Your table is reserved``): maybe a state nobody here brought about, so the judge's
            found.append(Outcome(claim, "no call", question=True))
    if all(o.question and o.record is None for o in found):
        # nothing settled by the rules above (at most a question of no call): the success act model's reading; a
        # confident one settles what the words of the tools left a question (``Your table is reserved``)
        read = _read_as_done(text, calls, env, named, wrote, proposing, turns)
        if read is not None and (not found or not read.question):
            return [read]
    return found


def _read_as_done(
    text: str,
    calls: Sequence[Step],
    env: Environment,
    named: Callable[[str], Sequence[Record]],
    wrote: list[bool],
    proposing: bool,
    turns: Sequence[Step],
) -> Outcome | None:
    """The success act model's reading of a reply (``outcomes_model.read_as_done``) as an unsupported claim of no
    call. ``wrote`` is the reply's lazily read "a write call was made"."""
    if not wrote:
        wrote.append(any(is_write(c, env) for c in calls))
    reading = read_as_done(
        text,
        calls,
        ModelContext(
            wrote=wrote[0],
            writes=tuple(_write_names(env)),
            is_write=lambda step: is_write(step, env),
            observed_done=lambda claim: observed_done(claim, named(claim.sentence)),
            proposing=proposing,
            turns=turns,
        ),
    )
    if reading is None:
        return None
    return Outcome(
        reading.claim, "no call", question=not reading.sure, probability=reading.probability, since=reading.since
    )


def outcome_ruling(
    step: Step | None, where: str, outcome: Outcome, calls: Sequence[Step], judge: TraceJudge | None, rule: str
) -> Ruling:
    """The finding (by ``rule``: the check names its rules) of one unsupported claim, citing the status it was read
    against or the last of the ``calls`` made before it; a claim the rule could not settle goes to the judge, and
    stays undecided without one."""
    claim = clip(outcome.claim.sentence)
    evidence: dict[str, JsonValue] = {"reply": claim}
    if outcome.record is not None and outcome.status is not None:
        path, value = outcome.status
        evidence |= {"observation": cite(outcome.record.step, path), "observed": {path: value}}
        said = f"step {outcome.record.step.step_id} ({outcome.record.step.tool_name}) reported {path}: {value!r}"
    else:
        evidence["calls"] = [cite(c) for c in calls[-5:]]
        said = "no call before it could have done it" + (
            f" (calls: {', '.join(dict.fromkeys(c.tool_name or '?' for c in calls))})" if calls else ""
        )
        if outcome.since is not None:
            said = f"no write call since the user's request or agreement at step {outcome.since.step_id}"
            evidence["since"] = cite(outcome.since)
        if outcome.probability is not None:
            evidence["success_act"] = round(outcome.probability, 3)
            said += f"; read as a report of an action done, probability {outcome.probability:.2f}"
    if not outcome.question:
        return Ruling((result_finding(step, rule, f"{where} says {claim!r}, but {said}", evidence),))
    at = f"step {str(step.step_id)!r}: " if step is not None else ""
    question = f"{at}the reply says {claim!r}; {said}. Does the reply report an outcome the tool did not report?"
    return ask(judge, question, evidence, step, rule, f"{where} says {claim!r}, but {said}, as the judge reads it")


__all__ = ["READ_VERBS", "STAGES", "Outcome", "is_write", "outcome_ruling", "unsupported"]
