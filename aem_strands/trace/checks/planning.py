"""Planning: the ordering and hand-off rules of the environment (``types.OrderingRule``, ``types.HandoffRule``).

Tool names compare as the policy engine sees them (``trace.names.same_tool``: ``IssueRefund`` and
``functions.issue_refund`` are ``issue_refund``). A precondition call *counts* for a later call when it

1. succeeded (``steps.call_failed`` says no),
2. said yes: no answer of its observation is no (``says_no``: a false ``verified`` / ``eligible`` / ``valid`` ... or
   a member named like the tool's action, a ``status`` such as ``denied``, a text that negates the action), and had
   answered: no ``status`` (or a member named like the check, ``approval_status``) of a check tool (a name such as
   ``check_manager_approval``, ``verify_identity``: a word like an answer word) that still waits for its answer
   (``pending``, ``awaiting_manager``, ``in_review``: ``precondition_answers.PENDING_STATUSES``), no main answer that
   is ``null``, no text that says the check is still pending. A boolean named only like the check's subject, with no
   answer word beside it (``on_register`` of ``check_priority_register``), says what was found, not whether the call
   may go ahead (no on the register is the good answer, no in stock is not): the judge is asked whether it allows the
   call (its no is ``planning.precondition_said_no``, method ``judge``), else the question is ``undecided`` (the
   trace inconclusive, never a pass). A check that answers per object in a list (``{"lines": [{"line_id": "L-2",
   "approved": false}, ...]}``, with no answer outside its lists) answers for the call by the item about the call's
   object; a list about other objects only is no answer for it (``planning.precondition_other_object``). A yes or no
   spelled as text (``"false"``) reads as the boolean;
3. was for the same object (``call_objects.same_object``: the ``per`` argument of the rule, else every identifying
   argument both calls have, agree; where the earlier call's arguments lack one, the identifying member of the object
   its observation answers about stands for it: ``{"order_id": "O-2", "eligible": true}`` is about ``O-2``), and
4. for an identity check (a tool named ``verify...`` / ``authenticate...`` / ``...identity``: ``identity_sources``),
   took its factors (a name, a zip, a date of birth: every argument not named as an id) from the user (a user step or
   the goal), not from what a tool returned: an identity "verified" with a zip read off the order proves nothing,
   even beside the name the user gave. An id (``user_id``) may come from a lookup; a check with ids only needs one of
   them from the user.

Findings, each at the call that breaks the rule:

- ``planning.order``: a precondition of ``after`` (or every one of ``after_any``) was never called, or failed;
- ``planning.precondition_said_no``, ``planning.precondition_pending``, ``planning.precondition_other_object``,
  ``planning.identity_not_from_user``: it was called, but for the reason named (the latest such call decides
  which); the latest answer for the object decides too: a yes that a later no or "pending" for the same object
  took back does not count (a failed call answers nothing);
- ``planning.required_value``: the object's last observed value of a ``require`` key is none of the allowed
  ones, or the object was never observed with that key;
- ``planning.at_most``: ``tool`` already succeeded ``at_most`` times for the object;
- ``planning.not_after``: a tool of ``not_after`` succeeded earlier for the object;
- ``planning.handoff_due``: a hand-off rule's condition held, and the next tool action was no hand-off (a
  ``handoff`` step or a call to one of ``to``), or the run ended without one.

How a precondition's answer is read is ``precondition_answers``'s, what a call is about ``call_objects``'s, where an
identity check's values came from ``identity_sources``'s; this module holds the rules. Not applicable when no rule
names a called tool.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from aem_strands.trace.checks.call_objects import (
    IDENTIFYING_NAME,
    argument_of,
    identifying,
    object_of,
    same_object,
    same_value,
)
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.identity_sources import is_identity_check, read_off
from aem_strands.trace.checks.precondition_answers import (
    answers_check,
    not_yet,
    observed_objects,
    says_no,
    truth,
    unclear_answer,
)
from aem_strands.trace.checks.steps import call_failed, step_fragment
from aem_strands.trace.names import canonical_tool_name, same_tool, tool_key
from aem_strands.trace.types import (
    ActionType,
    Dimension,
    DimensionVerdict,
    Environment,
    Finding,
    FindingMethod,
    HandoffRule,
    OrderingRule,
    Scalar,
    Step,
    Trace,
    not_applicable,
    verdict_from,
)
from aem_strands.types import JsonValue

_TAKEN_BACK = ("planning.precondition_said_no", "planning.precondition_pending")
UNCLEAR = "(undecided)"
"""Not a finding: the question a precondition's answer leaves open (``precondition_answers.unclear_answer``), for the
judge, else undecided."""
JUDGED_NO = "planning.precondition_said_no#judge"
"""``planning.precondition_said_no`` as the judge answered it (the finding's method is ``judge``)."""


# --- ordering rules ---------------------------------------------------------------------------------------------------


def _listed_answers(observation: JsonValue, tool: str, call: Step, per: str | None) -> list[JsonValue] | None:
    """The answers a check gave per object in a list (``{"orders": [{"order_id": "R-10", "eligible": false},
    ...]}``) that are about the object ``call`` acts on; ``None`` when the observation lists no such answers (an
    item with an answer member and an identifying member)."""

    def answering(obj: Mapping[str, JsonValue]) -> bool:
        return any(truth(v) is not None and answers_check(k, tool) for k, v in obj.items())

    if any(answering(obj) for obj in observed_objects(observation)):
        return None  # the check answers outside its lists: that answer decides, a list holds its details
    items = [
        obj
        for obj in observed_objects(observation, in_lists=True)
        if answering(obj) and any(IDENTIFYING_NAME.search(canonical_tool_name(k)) for k in obj)
    ]
    if not items:
        return None
    target = argument_of(call, per) if per is not None else None
    wanted = [target] if target is not None else list(identifying(call).values())
    if not wanted:
        return None  # which item the call is about cannot be told: as before, the lists decide nothing
    return [
        dict(obj)
        for obj in items
        if any(
            isinstance(v, (str, int)) and not isinstance(v, bool) and same_value(v, w)
            for k, v in obj.items()
            if IDENTIFYING_NAME.search(canonical_tool_name(k))
            for w in wanted
        )
    ]


def _why_not(trace: Trace, pre: Step, call: Step, rule: OrderingRule, ctx: TraceContext) -> tuple[str, str] | None:
    """(rule name, reason) why a precondition call does not count for ``call``; ``None`` when it counts."""
    if call_failed(pre):
        return "planning.order", f"{pre.tool_name} failed at step {pre.step_id!r}"
    tool = pre.tool_name or ""
    answers: list[JsonValue] = [pre.observation]
    listed = _listed_answers(pre.observation, tool, call, rule.per)
    if listed is not None and not listed:
        return "planning.precondition_other_object", (
            f"{pre.tool_name} at step {pre.step_id!r} answered for other objects than this call's"
        )
    answers = listed or answers
    no = next((n for a in answers if (n := says_no(a, tool)) is not None), None)
    if no is not None:
        return "planning.precondition_said_no", f"{pre.tool_name} said no at step {pre.step_id!r} ({no})"
    waiting = next((w for a in answers if (w := not_yet(a, tool)) is not None), None)
    if waiting is not None:
        return "planning.precondition_pending", (
            f"{pre.tool_name} had not said yes yet at step {pre.step_id!r} ({waiting})"
        )
    if not same_object(pre, call, rule.per):
        return "planning.precondition_other_object", f"{pre.tool_name} at step {pre.step_id!r} was for another object"
    if is_identity_check(pre.tool_name or ""):
        source = read_off(trace, pre, ctx)
        if source is not None:
            return "planning.identity_not_from_user", (
                f"{pre.tool_name} at step {pre.step_id!r} used values read off step {source!r}, none from the user"
            )
    member = next((m for a in answers if (m := unclear_answer(a, tool)) is not None), None)
    if member is None:
        return None
    question = (f"{pre.tool_name} answered {member} at step {pre.step_id!r}: does that answer allow {call.tool_name} "
                f"at step {call.step_id!r}?")  # fmt: skip
    answer = ctx.judge.decide(question, [step_fragment(pre), step_fragment(call)]) if ctx.judge else None
    if answer is None:
        return UNCLEAR, question
    return None if answer else (JUDGED_NO, f"{pre.tool_name} said no at step {pre.step_id!r} ({member}, by the judge)")


def _precondition(trace: Trace, earlier: list[Step], call: Step, rule: OrderingRule, names: tuple[str, ...],
                  ctx: TraceContext) -> tuple[str, list[str], list[Step]] | None:  # fmt: skip
    """``None`` when one of ``names`` counts for ``call``; else the rule name, the reasons and the calls."""
    reasons: list[str] = []
    shown: list[Step] = []
    open_questions: list[str] = []
    open_calls: list[Step] = []
    rule_name = "planning.order"
    for name in names:
        tried = [s for s in earlier if same_tool(s.tool_name or "", name)]
        verdicts = [_why_not(trace, s, call, rule, ctx) for s in tried]
        answered = [
            (s, v)
            for s, v in zip(tried, verdicts, strict=True)
            if not call_failed(s) and same_object(s, call, rule.per)
        ]
        last = answered[-1] if answered else None
        if last is not None and last[1] is not None and last[1][0] in _TAKEN_BACK:
            # the latest answer for the object decides: a later no (or "pending") takes an earlier yes back
            reasons.append(last[1][1])
            shown.append(last[0])
            rule_name = last[1][0]
            continue
        if any(v is None for v in verdicts):
            return None
        unclear = [(s, v[1]) for s, v in zip(tried, verdicts, strict=True) if v is not None and v[0] == UNCLEAR]
        if unclear:  # this object's answer is open; the other calls' reasons settle nothing for it
            open_questions.extend(q for _, q in unclear)
            open_calls.extend(s for s, _ in unclear)
            continue
        if not tried:
            reasons.append(f"{name} was never called")
            continue
        rule_name = verdicts[-1][0] if verdicts[-1] is not None else rule_name
        reasons.extend(v[1] for v in verdicts if v is not None)
        shown.extend(tried)
    if open_questions:
        return UNCLEAR, open_questions, open_calls
    return rule_name, reasons, shown


def _observed(earlier: list[Step], key: str, target: tuple[str, JsonValue] | None) -> tuple[Step, JsonValue] | None:
    """The last successful observation of the object showing ``key``, and its value there."""
    wanted = canonical_tool_name(key)
    for step in reversed(earlier):
        if call_failed(step):
            continue
        about = target is not None and argument_of(step, target[0]) is not None
        about = about and target is not None and same_value(argument_of(step, target[0]), target[1])
        for obj in observed_objects(step.observation, in_lists=True):
            value = next((v for k, v in obj.items() if canonical_tool_name(k) == wanted), None)
            if value is None:
                continue
            names_it = target is not None and any(
                isinstance(v, (str, int)) and same_value(v, target[1]) for v in obj.values()
            )
            if about or names_it or target is None:
                return step, value
    return None


def _allowed(value: JsonValue, allowed: tuple[Scalar, ...]) -> bool:
    if isinstance(value, str):
        return any(isinstance(a, str) and a.strip().casefold() == value.strip().casefold() for a in allowed)
    return any(value == a and type(value) is type(a) for a in allowed)


def _finding(call: Step, rule: str, message: str, shown: list[Step]) -> Finding:
    evidence: JsonValue = [step_fragment(call), *(step_fragment(s) for s in shown)]
    if rule == JUDGED_NO:
        return Finding(Dimension.PLANNING, rule.split("#")[0], message, call.step_id, call.index, evidence,
                       FindingMethod.JUDGE)  # fmt: skip
    return Finding(Dimension.PLANNING, rule, message, call.step_id, call.index, evidence)


def _rule_findings(
    trace: Trace, rule: OrderingRule, call: Step, earlier: list[Step], ctx: TraceContext
) -> list[Finding]:
    tool = call.tool_name
    found: list[Finding] = []
    missing: list[str] = []
    tried: list[str] = []
    shown: list[Step] = []
    for name in rule.after:
        unmet = _precondition(trace, earlier, call, rule, (name,), ctx)
        if unmet is None:
            continue
        if unmet[0] == "planning.order":
            missing.append(name)
            tried.extend(r for r in unmet[1] if not r.endswith("never called"))
            shown.extend(unmet[2])
        elif unmet[0] == UNCLEAR:
            found.append(_finding(call, UNCLEAR, "; ".join(unmet[1]), unmet[2]))
        else:
            message = (f"step {call.step_id!r}: {tool} was called before {name} said yes for it: "
                       f"{'; '.join(unmet[1])}; the policy allows {tool} only after "
                       f"{', '.join(rule.after)}")  # fmt: skip
            found.append(_finding(call, unmet[0], message, unmet[2]))
    if missing:
        message = (
            f"step {call.step_id!r}: {tool} was called before {', '.join(missing)} succeeded"
            f"{' (' + '; '.join(tried) + ')' if tried else ''}; the policy allows {tool} only after "
            f"{', '.join(rule.after)}: verify those first"
        )
        found.insert(0, _finding(call, "planning.order", message, shown))
    if rule.after_any:
        unmet_any = _precondition(trace, earlier, call, rule, rule.after_any, ctx)
        if unmet_any is not None and unmet_any[0] == UNCLEAR:
            found.append(_finding(call, UNCLEAR, "; ".join(unmet_any[1]), unmet_any[2]))
        elif unmet_any is not None:
            message = (f"step {call.step_id!r}: {tool} was called before any of {', '.join(rule.after_any)} "
                       f"succeeded and said yes for it: {'; '.join(unmet_any[1])}")  # fmt: skip
            found.append(_finding(call, unmet_any[0], message, unmet_any[2]))
    target = object_of(call, rule.per)
    for key, allowed in rule.require:
        seen = _observed(earlier, key, target)
        values = ", ".join(map(str, allowed))
        if seen is None:
            message = f"step {call.step_id!r}: {tool} needs {key} in ({values}), but no earlier observation showed it"
            found.append(_finding(call, "planning.required_value", message, []))
        elif not _allowed(seen[1], allowed):
            message = (f"step {call.step_id!r}: {tool} needs {key} in ({values}), but step {seen[0].step_id!r} "
                       f"observed {key}: {seen[1]!r}")  # fmt: skip
            found.append(_finding(call, "planning.required_value", message, [seen[0]]))
    if rule.at_most is None and not rule.not_after:
        return found
    done = [s for s in earlier if not call_failed(s) and same_object(s, call, rule.per)]
    if rule.at_most is not None:
        repeats = [s for s in done if same_tool(s.tool_name or "", tool or "")]
        if len(repeats) >= rule.at_most:
            message = (f"step {call.step_id!r}: {tool} already succeeded {len(repeats)} time(s) for this object; the "
                       f"policy allows at most {rule.at_most}")  # fmt: skip
            found.append(_finding(call, "planning.at_most", message, repeats))
    blocking = [s for s in done if any(same_tool(s.tool_name or "", n) for n in rule.not_after)]
    if blocking:
        message = (f"step {call.step_id!r}: {tool} may not follow {blocking[0].tool_name} for the same object "
                   f"(step {blocking[0].step_id!r})")  # fmt: skip
        found.append(_finding(call, "planning.not_after", message, blocking[:1]))
    return found


# --- hand-off rules ---------------------------------------------------------------------------------------------------


def _holds(rule: HandoffRule, step: Step) -> bool:
    if step.action_type is not ActionType.TOOL_CALL or not same_tool(step.tool_name or "", rule.after):
        return False
    if rule.failed and call_failed(step):
        return True
    return any(
        canonical_tool_name(k) == canonical_tool_name(key) and _allowed(v, allowed)
        for key, allowed in rule.observed
        for obj in observed_objects(step.observation)
        for k, v in obj.items()
    )


def _handoff_findings(trace: Trace, rule: HandoffRule) -> list[Finding]:
    count, due = 0, None
    for step in trace.steps:
        if due is not None:
            if step.action_type is ActionType.HANDOFF or (
                step.action_type is ActionType.TOOL_CALL and any(same_tool(step.tool_name or "", t) for t in rule.to)
            ):
                count, due = 0, None
                continue
            if step.action_type is ActionType.TOOL_CALL:
                message = (f"step {step.step_id!r}: a hand-off ({', '.join(rule.to) or 'a handoff step'}) was due "
                           f"after step {due.step_id!r} ({rule.after}), but {step.tool_name} was called")  # fmt: skip
                return [_finding(step, "planning.handoff_due", message, [due])]
        if _holds(rule, step):
            count += 1
            if count >= rule.times:
                due = step
    if due is None:
        return []
    message = (f"step {due.step_id!r}: a hand-off ({', '.join(rule.to) or 'a handoff step'}) was due after "
               f"{rule.after} here, and the run ended without one")  # fmt: skip
    return [_finding(due, "planning.handoff_due", message, [])]


def _names(rule: OrderingRule) -> tuple[str, ...]:
    return (rule.tool, *rule.after, *rule.after_any, *rule.not_after)


def check_planning(trace: Trace, env: Environment, ctx: TraceContext) -> DimensionVerdict:
    """The findings of the module docstring, in step order."""
    calls = trace.tool_calls()
    called = {tool_key(s.tool_name or "") for s in calls}  # a rule naming none of these cannot apply
    rules = [r for r in env.ordering if any(tool_key(n) in called for n in _names(r))]
    handoffs = [h for h in env.handoff if tool_key(h.after) in called]
    if not rules and not handoffs:
        reason = "no ordering rules" if not env.ordering and not env.handoff else "no ordering rule names a called tool"
        return not_applicable(Dimension.PLANNING, reason)
    findings: list[Finding] = []
    for position, call in enumerate(calls):
        for rule in rules:
            if same_tool(call.tool_name or "", rule.tool):
                findings.extend(_rule_findings(trace, rule, call, list(calls[:position]), ctx))
    for handoff in handoffs:
        findings.extend(_handoff_findings(trace, handoff))
    findings.sort(key=lambda f: f.step_index or 0)
    undecided = tuple(dict.fromkeys(f.message for f in findings if f.rule == UNCLEAR))
    findings = [f for f in findings if f.rule != UNCLEAR]
    checked = []
    if rules:
        described = "; ".join(f"{r.tool} after {', '.join(r.after or r.after_any) or 'nothing'}" for r in rules)
        checked.append(f"{len(rules)} ordering rule(s): {described}")
    if handoffs:
        checked.append(f"{len(handoffs)} hand-off rule(s): after {', '.join(h.after for h in handoffs)}")
    verdict = verdict_from(Dimension.PLANNING, findings, "; ".join(checked))
    return replace(verdict, undecided=undecided) if undecided else verdict
