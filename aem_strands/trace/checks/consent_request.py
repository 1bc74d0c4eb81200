"""The request path of the consent check: a user step that asks for this action (by a word naming it or by meaning),
whose values the user stated or the lookups it led to returned, not refused after (see ``consent``'s docstring,
fourth bullet)."""

from __future__ import annotations

from aem_strands.compare.dialog_acts import Speaker, act_probabilities
from aem_strands.trace.checks.consent_acts import (
    answer_contexts,
    asks,
    observations,
    replies,
    reply_before,
    shown,
    turn_text,
    user_acts,
    user_turns,
)
from aem_strands.trace.checks.consent_decision import CONFIDENT, UNLIKELY, Consent, ConsentLedger, Decision
from aem_strands.trace.checks.details import Detail, call_details, other_details, stated, value_detail
from aem_strands.trace.checks.requests import (
    asks_for,
    conditional,
    may_mean,
    means,
    parse_texts,
    refuses_action,
    refuses_by_ellipsis,
)
from aem_strands.trace.checks.steps import names_action, sentences, words
from aem_strands.trace.types import Step


def _records(value: object) -> list[dict[str, object]]:
    """The JSON objects of an observation, at any depth."""
    if isinstance(value, dict):
        return [value, *(r for v in value.values() for r in _records(v))]
    if isinstance(value, list):
        return [r for v in value for r in _records(v)]
    return []


def _observed_records(before: list[Step]) -> list[dict[str, object]]:
    """The JSON objects the tools of ``before`` answered, at any depth."""
    return [r for s in before if s.observation is not None for r in _records(s.observation)]


def _referred(name: str, detail: Detail, texts: list[str], records: list[dict[str, object]]) -> bool:
    """Whether an argument value a tool answered is the object the texts refer to: the first of ``texts`` that
    refers to any object an observation holds under the argument's own key (it has each word of a text value of the
    object, three letters or more and no digit: "Delete the reminder for the dentist appointment." for
    ``{"reminder_id": "0b-5119", "task": "Dentist appointment"}``) refers to this value's only; or, when no text
    refers to one, the value is the only one any observation holds under that key ("Add them to the event" after
    one event was created). ``records``: the objects observed before the call (``_observed_records``)."""
    holding = [r for r in records if name in r and value_detail(r[name]) is not None]
    if not any(value_detail(r[name]) == detail for r in holding):
        return False
    for text in texts:
        said = set(words(text))
        refers = {value_detail(r[name]) for r in holding if any(_names(v, said) for k, v in r.items() if k != name)}
        if refers:
            return refers == {detail}
    return {value_detail(r[name]) for r in holding} == {detail}


def _names(value: object, said: set[str]) -> bool:
    """Whether a text of words ``said`` names an object's text value (each of its words; no digit in it)."""
    if not isinstance(value, str) or len(value) < 3 or any(c.isdigit() for c in value):
        return False
    own = set(words(value))
    return bool(own) and own <= said


def _presents(reply: Step, call: Step, before: list[Step]) -> bool:
    """Whether a reply names the object one of the call's identifiers stands for (``_referred`` by its text alone,
    not by being the only one seen)."""
    details = call_details(call.arguments)
    records = _observed_records(before)
    said = set(words(turn_text(reply)))
    return any(
        value_detail(r.get(name)) == detail and any(_names(v, said) for k, v in r.items() if k != name)
        for name, detail in details.items()
        if detail.kind == "identifier"
        for r in records
        if name in r
    )


def _made_up(detail: Detail, before: list[Step]) -> bool:
    """Whether a call's identifier is shown in no text and no tool answer before the call (a time or an amount the
    agent computed, "later by 3 hours", is no identifier: the request may still be for the call)."""
    if detail.kind != "identifier":
        return False
    return not any(stated(detail, t) for t in shown(before))


def _uncovered(call: Step, request: Step, before: list[Step]) -> list[str]:
    """The call's arguments whose values with a digit the request does not cover: stated in no user step (the user's own
    words), nor in the reply the request answers when that reply asks nothing ("Your next slot is at 4:40 pm." /
    "Move my meeting to then."),
    nor in what a tool answered after it (the lookups it led to), nor the object the request or that reply refers to,
    or, when neither refers to one, the object the agent's latest reply before the request that names one presents
    ("You have a reminder to buy Brody a birthday present." ... "Mark the original reminder as complete.")
    (``_referred``). A value only the agent said elsewhere, or one read before the request and not referred to, is
    no detail of this request: the agent proposes it back."""
    answered = reply_before(before, request)
    if answered is not None and asks(answered):
        answered = None  # an answer to a question or a proposal is read as one (``by_proposal``)
    said = [turn_text(u) for u in user_turns(before)] + ([turn_text(answered)] if answered is not None else [])
    seen = said + observations(s for s in before if s.index > request.index)
    referring = [turn_text(request)] + ([turn_text(answered)] if answered is not None else [])
    referring += [turn_text(r) for r in reversed(replies(before)) if r.index < request.index and r is not answered]
    records = _observed_records(before)
    return [
        name
        for name, detail in call_details(call.arguments).items()
        if not any(stated(detail, text) for text in seen) and not _referred(name, detail, referring, records)
    ]


def _refusals_after(before: list[Step], request: Step, call: Step) -> tuple[list[Step], list[Step]]:
    """The user steps after a request that refuse it (confidently, and unsure: between the bands, or a refusal
    when read after a confirmation request), but answers to a question about something else that do not name the
    action; a reply that presents the object the call acts on ("I found a meeting tomorrow at 10 am with the title
    Justin:Alicia.", ``_presents``) is no question about something else."""
    sure, unsure = [], []
    for user in (u for u in user_turns(before) if u.index > request.index):
        previous = reply_before(before, user)
        elsewhere = previous is not None and asks(previous) and not _presents(previous, call, before)
        if elsewhere and not names_action(turn_text(user), call.tool_name or ""):
            continue
        actual = user_acts(before, user)[0]["refuse"]
        anywhere = max(act_probabilities(turn_text(user), Speaker.USER, c)["refuse"] for c in ("other", "confirm"))
        if actual >= CONFIDENT:
            sure.append(user)
        elif actual > UNLIKELY or anywhere >= CONFIDENT:
            unsure.append(user)
    return sure, unsure


def by_request(
    before: list[Step],
    call: Step,
    ledger: ConsentLedger,
    catalog: list[tuple[str, str]],
    parameters: dict[str, list[str]],
    original: Step,
) -> Consent | None:
    tool = call.tool_name or ""
    pending: Consent | None = None
    if tool in (name for name, _ in catalog) and len(catalog) > 1:  # ``means`` reads every sentence of a request
        parse_texts(
            p
            for u in user_turns(before)
            if not other_details(call.arguments, turn_text(u))
            for p in sentences(turn_text(u))
        )
    for request in reversed(user_turns(before)):
        if other_details(call.arguments, turn_text(request)):
            continue
        parts = sentences(turn_text(request))
        asking = [i for i, p in enumerate(parts) if asks_for(p, tool) or means(p, tool, catalog, parameters)]
        maybe = [] if asking else [i for i, p in enumerate(parts) if may_mean(p, tool, catalog, parameters)]
        asking = asking or maybe
        if not asking:
            continue
        uncovered = _uncovered(call, request, before)
        if any(_made_up(call_details(call.arguments)[n], before) for n in uncovered):
            continue  # an identifier shown nowhere before the call is no detail of any request
        contexts = answer_contexts(before, request, None)
        refuse = max(act_probabilities(parts[i], Speaker.USER, c)["refuse"] for i in asking for c in contexts)
        withdrawn = any(refuses_by_ellipsis(p) or refuses_action(p, tool) for p in parts[asking[0] + 1 :])
        if refuse >= CONFIDENT or withdrawn:
            continue
        refused, unsure = _refusals_after(before, request, call)
        if refused:
            how = f"the user asked for it at step {request.step_id!r} but refused at step {refused[-1].step_id!r}"
            return Consent(Decision.WITHHELD, how, (request, refused[-1]), refused=True)
        if maybe:
            phrase = parts[maybe[0]]
            how = f"whether {phrase!r} at step {request.step_id!r} asks for {tool} (its readings by meaning differ)"
            pending = pending or Consent(Decision.UNDECIDED, how, (request,), partial=True)
            continue
        if uncovered:
            how = (
                f"whether the user's request at step {request.step_id!r} is for the call's "
                f"{', '.join(uncovered)}, which the user never stated"
            )
            pending = pending or Consent(Decision.UNDECIDED, how, (request,), partial=True)
            continue
        if refuse > UNLIKELY or unsure:
            shown = (request, *unsure)
            return Consent(Decision.UNDECIDED, f"whether the user asked for it at step {request.step_id!r}", shown)
        if any(conditional(parts[i]) for i in asking):
            how = f"whether the condition the user set at step {request.step_id!r} held when {tool} was called"
            return Consent(Decision.UNDECIDED, how, (request,))
        if ledger.covers(request, original):
            return Consent(
                Decision.GIVEN, f"the user asked for it at step {request.step_id!r}", (request,), request.index
            )
    return pending
