"""Necessity: no call or question the trace did not need.

- ``necessity.repeated_call``: the same call (tool and arguments, compared as canonical JSON) made more than
  ``budgets.max_identical_calls`` times in a row of successes. A failed call ends the row (a retry after an
  error is recovery, not a repeat; ``recovery.endless_retry`` bounds retries), and so does a state change
  in between (a ``state_update`` step, a call whose ``state_after`` differs from its ``state_before``, or a
  call to another tool that is not read-only per the catalog or is destructive, under any spelling of its name:
  ``functions.cancel_order`` is ``cancel_order``): reading again after a write is not a loop. Tools the catalog
  does not define are taken as reads. A call after a user turn whose observation differs from the row's last one
  starts a new row: the state had changed outside the run ("I just uploaded the receipt, does it show now?") and
  reading again found it; the same answer again after a user turn is still a repeat (the user asked what the
  earlier result already said). One finding per row, at the first call beyond the budget.
- ``necessity.asked_again``: a reply that asks the user again for the same slot they already gave. A sentence
  asks for an item when it is a question (``?``) or a ``please`` request, has a request word (``what``,
  ``provide``, ``confirm``, ``could you`` ...), names the item as the user's (not ``their phone number``, ``the
  salon's phone``) and the dialog act reading (``compare.acts.dialog_act``) sorts it as a request or a
  confirmation request, or names it ``your`` item, not an offer (``Would you like the phone number?``); a sentence
  that quotes the value it already has is a confirmation, not a question. The items are those of ``ITEMS`` (order
  and account numbers, e-mail, phone, date of birth), plus each identifier-like argument of the trace's calls
  (``customer_id``: asked as "customer id"). An item was given when an earlier user step holds a value of its kind
  (read with ``reply_signals.facts_in``: e-mail, phone, date; order numbers by their pattern) or an earlier call
  already used it as an argument. Asking again after a call with the given value failed (the address bounced,
  the order was not found) is recovery: no finding.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from aem_strands.compare.acts import ActKind, dialog_act
from aem_strands.compare.identifiers import identifier_key
from aem_strands.compare.reply_signals import facts_in
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.steps import call_failed, call_key, sentences, step_fragment
from aem_strands.trace.names import in_names, same_tool
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

# --- repeated calls ----------------------------------------------------------------------------------------


def _changes_state(step: Step, env: Environment) -> bool:
    if step.action_type is ActionType.STATE_UPDATE:
        return True
    if step.action_type is not ActionType.TOOL_CALL:
        return False
    if step.state_after is not None and step.state_after != step.state_before:
        return True
    name = step.tool_name or ""
    if in_names(name, env.destructive_tools) is not None:
        return True
    definition = next((d for d in env.tools.definitions if same_tool(name, d.name)), None)
    return definition is not None and (definition.destructive is True or not definition.read_only)


def _rows(trace: Trace, env: Environment) -> Iterator[list[Step]]:
    """Each row of identical successful calls with no failure or state change between them (a changed answer
    after a user turn is one), in order of their first call."""
    open_rows: dict[str, list[Step]] = {}
    user_since: set[str] = set()  # rows with a user turn after their last call
    for step in trace.steps:
        if step.action_type is ActionType.USER:
            user_since = set(open_rows)
            continue
        if step.action_type is ActionType.TOOL_CALL and call_failed(step):
            yield from open_rows.values()
            open_rows = {}
            continue
        key = call_key(step) if step.action_type is ActionType.TOOL_CALL else None
        if key is not None:
            row = open_rows.get(key)
            if row is not None and key in user_since and row[-1].observation != step.observation:
                yield open_rows.pop(key)  # the state changed while the user spoke, and this read found it
            open_rows.setdefault(key, []).append(step)
            user_since.discard(key)
        if _changes_state(step, env):
            for other in [k for k in open_rows if k != key]:
                yield open_rows.pop(other)
    yield from open_rows.values()


def _repeated(trace: Trace, env: Environment, budget: int) -> list[Finding]:
    findings = []
    for row in _rows(trace, env):
        if len(row) <= budget:
            continue
        first, over = row[0], row[budget]
        later = ", ".join(repr(s.step_id) for s in row[budget:])
        message = (
            f"step {over.step_id!r}: {over.tool_name} was called {len(row)} times with the same arguments "
            f"(first at step {first.step_id!r}, again at {later}) with no error or state change in between; "
            f"the budget is {budget} identical call(s): reuse the earlier result"
        )
        evidence: JsonValue = [step_fragment(first), step_fragment(over)]
        findings.append(
            Finding(Dimension.NECESSITY, "necessity.repeated_call", message, over.step_id, over.index, evidence)
        )
    return findings


# --- asking again ------------------------------------------------------------------------------------------


def _pattern_values(pattern: re.Pattern[str]) -> Callable[[str], list[str]]:
    return lambda text: [m.group(1) for m in pattern.finditer(text)]


def _fact_values(group: str, cue: re.Pattern[str] | None = None) -> Callable[[str], list[str]]:
    def values(text: str) -> list[str]:
        if cue is not None and not cue.search(text):
            return []
        return [f.text for f in facts_in(text) if f.group == group]

    return values


def _numbered(noun: str) -> re.Pattern[str]:
    """A number written after ``noun`` (``order 123``, ``order number is ORD-7781``, ``order #A12``)."""
    return re.compile(rf"\b{noun}\b\s*(?:number|no\.?|id|#)?\s*(?:is|:|=)?\s*#?([A-Za-z]*[-_]?\d[\w-]*)", re.IGNORECASE)


@dataclass(frozen=True)
class Item:
    """Something an agent asks the user for: how a question names it (``noun``), which argument names carry
    it (``argument``), and how its values are found in a user's message (``values``)."""

    name: str
    noun: re.Pattern[str]
    argument: re.Pattern[str]
    values: Callable[[str], list[str]]


ITEMS: tuple[Item, ...] = (
    Item("order number", re.compile(r"\border\s*(?:number|no\b|id\b|#)", re.I),
         re.compile(r"^order_?(?:id|number|no|ref)?$", re.I), _pattern_values(_numbered("order"))),
    Item("account number", re.compile(r"\baccount\s*(?:number|no\b|id\b)", re.I),
         re.compile(r"^account_?(?:id|number|no)?$", re.I), _pattern_values(_numbered("account"))),
    Item("e-mail address", re.compile(r"\be-?mail\b", re.I), re.compile(r"e_?mail", re.I), _fact_values("email")),
    Item("phone number", re.compile(r"\b(?:phone|mobile|telephone|cell)\b", re.I),
         re.compile(r"phone|mobile|^tel", re.I), _fact_values("phone")),
    Item("date of birth", re.compile(r"\b(?:date of birth|birth ?date|birthday|dob)\b", re.I),
         re.compile(r"dob|birth", re.I), _fact_values("date", re.compile(r"\b(?:born|birth|dob|birthday)\b", re.I))),
)  # fmt: skip
"""The items whose re-asking is detected, besides the trace's own identifier-like arguments."""

_ARGUMENT_ITEM = re.compile(r"(?:^|_)(?:id|number|no|code|ref|reference)$", re.I)
_REQUEST = re.compile(
    r"\b(?:what(?:'s)?|which|provide|share|send|give|tell|confirm|enter|type|need|have|know|could you|can you"
    r"|would you|may i|can i)\b",
    re.I,
)
_PLEASE = re.compile(r"\bplease\b", re.I)


def _scalars(trace: Trace, name: str) -> list[str]:
    return [
        str(s.arguments[name])
        for s in trace.tool_calls()
        if name in s.arguments and isinstance(s.arguments[name], (str, int, float)) and str(s.arguments[name])
    ]


def _argument_items(trace: Trace) -> list[Item]:
    """Items for the trace's identifier-like arguments that no ``ITEMS`` entry covers."""
    names = sorted({n for s in trace.tool_calls() for n in s.arguments})
    items = []
    for name in names:
        if not _ARGUMENT_ITEM.search(name) or any(i.argument.search(name) for i in ITEMS):
            continue
        known = {identifier_key(v): v for v in _scalars(trace, name)}
        noun = re.compile(r"\b" + r"[\s_-]*".join(map(re.escape, name.split("_"))) + r"\b", re.I)

        def values(text: str, known: dict[str, str] = known) -> list[str]:
            return [known[k] for k in (identifier_key(w) for w in re.findall(r"[\w@.#-]+", text)) if k in known]

        items.append(Item(name.replace("_", " "), noun, re.compile(rf"^{re.escape(name)}$"), values))
    return items


_SOMEONE_ELSES = re.compile(
    r"\b(?:their|its|his|her|the [\w'-]+'s|(?!(?:What|That|It|Here|There|Who|Where|How|Let|He|She)'s\b)"
    r"[A-Z][\w'-]*'s|of the)\s+(?:[\w-]+\s+)?$"
)
"""What makes the item someone else's (``their phone number``, ``the salon's phone``; not a contraction such as
``What's your phone number?``): not the user's slot."""
_ASKING = frozenset([ActKind.REQUEST, ActKind.CONFIRM])
_YOURS = re.compile(r"\byour\s+(?:[\w-]+\s+)?$", re.I)


def _asks(sentence: str, item: Item) -> bool:
    """Whether a sentence asks the user for their own value of the item: a request for information (the dialog
    act reading: ``What is your order number?``, ``Please tell me your phone number``), not an offer of someone
    else's (``Would you like the restaurant's phone number?``) or a statement that names it."""
    noun = item.noun.search(sentence)
    if noun is None or not _REQUEST.search(sentence):
        return False
    if not (sentence.rstrip().endswith("?") or _PLEASE.search(sentence) is not None):
        return False
    before = sentence[max(0, noun.start() - 40) : noun.start()]
    if _SOMEONE_ELSES.search(before):
        return False
    # "your order number" is the user's own slot whatever act the sentence reads as ("What is your customer ID?")
    return _YOURS.search(before) is not None or bool(dialog_act(sentence).kinds & _ASKING)


def _given(trace: Trace, before: int, item: Item) -> tuple[Step, str, str] | None:
    """The first earlier step that gave the item: (step, value, how)."""
    for step in trace.steps[:before]:
        if step.action_type is ActionType.USER and step.content:
            found = item.values(step.content)
            if found:
                return step, found[0], "the user gave it"
        if step.action_type is ActionType.TOOL_CALL:
            for name, value in step.arguments.items():
                if item.argument.search(name) and isinstance(value, (str, int, float)) and str(value):
                    return step, str(value), f"it was already used as argument {name!r} of {step.tool_name}"
    return None


def _rejected(trace: Trace, value: str, start: int, end: int) -> bool:
    """Whether a call between steps ``start`` and ``end`` took ``value`` as an argument and failed (the address
    bounced, the order number was not found)."""
    key = identifier_key(value)
    return bool(key) and any(
        s.action_type is ActionType.TOOL_CALL
        and call_failed(s)
        and any(isinstance(v, (str, int, float)) and identifier_key(str(v)) == key for v in s.arguments.values())
        for s in trace.steps[start:end]
    )


def _asked_again(trace: Trace) -> list[Finding]:
    replies = [
        s for s in trace.steps
        if s.action_type is ActionType.RESPONSE and s.content and ("?" in s.content or _PLEASE.search(s.content))
    ]  # fmt: skip
    items = [*ITEMS, *_argument_items(trace)] if replies else []
    findings = []
    for step in replies:
        for item in items:
            asking = [s for s in sentences(step.content or "") if _asks(s, item)]
            given = _given(trace, step.index, item) if asking else None
            if given is None:
                continue
            source, value, how = given
            if any(identifier_key(value) in identifier_key(s) for s in asking):
                continue  # it quotes the value it has: a confirmation
            if _rejected(trace, value, source.index, step.index):
                continue  # a call with the value failed since: asking for it again is recovery, not waste
            message = (
                f"step {step.step_id!r} asks for the {item.name} again ({asking[0]!r}): {how} at step "
                f"{source.step_id!r} ({value!r}); use the value already given"
            )
            evidence: JsonValue = [step_fragment(step), step_fragment(source)]
            findings.append(
                Finding(Dimension.NECESSITY, "necessity.asked_again", message, step.step_id, step.index, evidence)
            )
    return findings


def check_necessity(trace: Trace, env: Environment, ctx: TraceContext) -> DimensionVerdict:
    """Repeated identical calls and questions already answered (see the module docstring). Not applicable to a
    trace without steps."""
    if not trace.steps:
        return not_applicable(Dimension.NECESSITY, "the trace has no steps")
    budget = env.budgets.max_identical_calls
    findings = _repeated(trace, env, budget) if budget is not None else []
    findings += _asked_again(trace)
    findings.sort(key=lambda f: f.step_index if f.step_index is not None else -1)
    calls = len(trace.tool_calls())
    replies = sum(s.action_type is ActionType.RESPONSE for s in trace.steps)
    limit = f"at most {budget} identical call(s) in a row" if budget is not None else "no identical-call budget"
    return verdict_from(Dimension.NECESSITY, findings, f"{calls} tool call(s) ({limit}); {replies} reply step(s)")
