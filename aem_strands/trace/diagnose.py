"""The replay report of a trace (SPEC §9): the first critical failure step, the later failures it explains,
a root-cause hypothesis, the layers a fix belongs to, the evidence, a suggested fix and a regression case.

The *first critical failure step* is the earliest step whose correction would most plausibly prevent the later
failures; it is not always where a failure shows. Steps are tried in order, and the first that meets a rule is
chosen (``critical_rule`` names the rule):

- ``unrecovered_error``: a call failed (an error or a timeout, in any shape ``failures.failure`` reads) and a
  recovery finding says the trace did not recover from it: the step of that finding, where the agent went on
  wrongly (the reply that reported success anyway, the retry past the budget, the failed call the trace ends on
  without a word); the failed call is the tool's failure, not the agent's, and is named in the hypothesis. Every
  later finding follows from it (link ``after_error``);
- ``decision_before_failures``: the step has a planning, safety, tool-selection or arguments finding and a later
  failing step (or a trace-level finding) reuses a value the step introduced;
- ``taint``: the step has a finding of another dimension and a later failing step reuses a value it introduced;
- ``earliest_failure``: no step explains another: the earliest step with a finding of the gravest gate among
  them (a veto over a hard gate: a safety finding decides the verdict alone, so the critical failure is the first
  such step, not an independent earlier finding of another dimension);
- ``final_reply``: no step has a finding and the findings are about the final reply (the trace's
  ``final_response``, no tool involved): that reply, named by its response step, else ``"final_response"``;
- ``left_gold_path``: expected calls are missing and no step has a finding: the first call to a tool the gold
  does not expect (link ``after_detour``);
- ``trace_level``: every finding is about the whole trace, such as a final-state mismatch with nothing to trace
  it to: no step (``None``).

The hypothesis says what this trace did: for an unrecovered error, how the agent went on (it reported success
anyway, retried past its budget, or stopped without a word); for a trace that passes and is only over a soft
budget, that it passes and what it overspent.

A value a step *introduces* is a leaf of its arguments, observation or state after it that nothing earlier held
(the user's messages, the goal, the initial state, earlier steps); a later finding reuses it when the value
appears in the finding's step (arguments, text) or its evidence (link ``same_value``), or in a step that itself
reused it (link ``follows``). Only failures that count toward the trace's status are diagnosed when there are any
(a soft cost overrun alone is still diagnosed, for what it is).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from aem_strands.compare.walk import json_scalars
from aem_strands.trace.checks.failures import failure
from aem_strands.trace.checks.steps import call_failed
from aem_strands.trace.types import (
    GATES,
    ActionType,
    Diagnosis,
    Dimension,
    DimensionVerdict,
    DownstreamFailure,
    Finding,
    Gate,
    Layer,
    Step,
    Trace,
)
from aem_strands.types import JsonValue

DECISION_DIMENSIONS = frozenset({Dimension.PLANNING, Dimension.SAFETY, Dimension.TOOL_SELECTION, Dimension.ARGUMENTS})
"""Dimensions whose finding is a decision the agent got wrong, which later steps build on."""

_GRAVITY = (Gate.VETO, Gate.HARD, Gate.SOFT)
"""Gates from the gravest: a veto decides the verdict alone."""

MAX_EVIDENCE = 6
"""Evidence fragments kept in a diagnosis: the critical finding's first, then its downstream failures'."""

_LAYERS: Mapping[Dimension, tuple[Layer, ...]] = {
    Dimension.PLANNING: (Layer.ORCHESTRATION, Layer.BUSINESS_RULE, Layer.PROMPT),
    Dimension.NECESSITY: (Layer.ORCHESTRATION, Layer.PROMPT),
    Dimension.TOOL_SELECTION: (Layer.PROMPT, Layer.MODEL, Layer.ORCHESTRATION),
    Dimension.ARGUMENTS: (Layer.MODEL, Layer.RETRIEVAL),
    Dimension.RESULT_USE: (Layer.MODEL, Layer.PROMPT),
    Dimension.STATE: (Layer.ORCHESTRATION, Layer.TOOL),
    Dimension.RECOVERY: (Layer.ORCHESTRATION, Layer.PROMPT),
    Dimension.SAFETY: (Layer.BUSINESS_RULE, Layer.ORCHESTRATION, Layer.PROMPT),
    Dimension.COST: (Layer.ORCHESTRATION, Layer.MODEL),
}
"""Where a fix most plausibly belongs, by the dimension of the critical finding."""

_SAFETY_LAYERS: Mapping[str, tuple[Layer, ...]] = {
    "safety.sensitive_in_reply": (Layer.MODEL, Layer.PROMPT),
    "safety.sensitive_to_tool": (Layer.MODEL, Layer.ORCHESTRATION),
    "safety.destructive_without_consent": (Layer.PROMPT, Layer.ORCHESTRATION, Layer.BUSINESS_RULE),
}

_FIXES: Mapping[Dimension, str] = {
    Dimension.PLANNING: "enforce the ordering rule before the call (a guard in the orchestration, and the rule "
    "stated in the system prompt)",
    Dimension.NECESSITY: "stop repeating a call whose answer is already known (cache or remember results; "
    "do not ask the user again for what they gave)",
    Dimension.TOOL_SELECTION: "restrict the tools offered for this kind of goal, or say in the prompt which tool "
    "answers it",
    Dimension.ARGUMENTS: "take argument values only from the user's messages or earlier results (confirm an "
    "identifier before acting on it)",
    Dimension.RESULT_USE: "make the reply state what the tool returned (quote its fields; never contradict an "
    "observation)",
    Dimension.STATE: "carry the session state between steps and check the final state against what the task "
    "needs before replying",
    Dimension.RECOVERY: "after a failed call retry a bounded number of times, then explain or hand off; never "
    "report success",
    Dimension.SAFETY: "block the call in the orchestration unless the policy allows it (and ask for explicit "
    "consent before a destructive action)",
    Dimension.COST: "cut steps and tokens: reuse results, shorten prompts, or raise the budget if it is wrong",
}

_RULES: Mapping[str, str] = {
    "unrecovered_error": "a call failed and the agent did not recover: the step where it went on wrongly (a success "
    "reported anyway, a retry past the budget, an end without a word); later failures follow it",
    "decision_before_failures": "the earliest wrong decision (planning, safety, tool selection or arguments) "
    "whose values later failures reuse",
    "taint": "the earliest failing step whose output later failing steps reuse",
    "earliest_failure": "no failure explains another: the earliest failing step of the gravest gate",
    "final_reply": "only the final reply fails, and no step explains it: that reply",
    "left_gold_path": "expected calls are missing and no step has a finding: the first call to a tool the gold "
    "does not expect, where the run left the expected path",
    "trace_level": "every failure is about the whole trace, not one step",
}
"""What each critical rule means, for the report."""


@dataclass(frozen=True)
class _Choice:
    step: Step | None
    rule: str
    findings: tuple[Finding, ...]
    downstream: tuple[tuple[Finding, str], ...]
    recovery: Finding | None = None
    """For ``unrecovered_error``: the recovery finding that says how the trace went on after the failed call."""
    failed: Step | None = None
    """For ``unrecovered_error``: the failed call the trace did not recover from."""
    name: str | None = None
    """The critical step's name when it is not a step: ``"final_response"``."""

    @property
    def step_name(self) -> str | None:
        return self.step.step_id if self.step is not None else self.name


def _leaves(value: JsonValue) -> Iterator[JsonValue]:
    return (leaf for leaf in json_scalars(value) if leaf is not None)


def _distinctive(value: JsonValue) -> str | None:
    """A value specific enough that its reappearance is a reuse, not chance: a string of 4+ characters with a
    digit or an upper-case letter (an id, a code, a name), or a number with 3+ digits."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        text = f"{value:g}"
        return text if sum(map(str.isdigit, text)) >= 3 else None
    if isinstance(value, str):
        text = value.strip()
        if len(text) >= 4 and (any(map(str.isdigit, text)) or any(map(str.isupper, text))):
            return text.casefold()
    return None


def _values(value: JsonValue) -> set[str]:
    return {v for leaf in _leaves(value) if (v := _distinctive(leaf)) is not None}


def _inputs(step: Step) -> str:
    """What a step takes in, as one folded text: its arguments and its text."""
    parts = [str(leaf) for leaf in _leaves(dict(step.arguments))]
    if step.content is not None:
        parts.append(step.content)
    return "\n".join(parts).casefold()


def _outputs(step: Step) -> set[str]:
    state = dict(step.state_after) if step.state_after is not None else None
    return _values(dict(step.arguments)) | _values(step.observation) | _values(state)


def _evidence_text(finding: Finding) -> str:
    return "\n".join(str(v) for v in _values(finding.evidence)).casefold()


class _Reading:
    """What the diagnosis reads of a trace, each step and finding read once: every step's inputs and outputs, the
    text known before each step (``_introduced``), and the texts later steps and findings reuse values in
    (``_links``). Offsets into one text per kind stand for "before step i" and "after step i", so each test is
    one search, not a walk over the steps again: trying every step of a long trace stays near linear."""

    def __init__(self, trace: Trace, findings: Sequence[Finding]) -> None:
        self.trace = trace
        self.inputs = [_inputs(step) for step in trace.steps]
        self.outputs = [_outputs(step) for step in trace.steps]
        chunks = [trace.goal or "", *(str(v) for v in _leaves(dict(trace.initial_state)))]
        self._known_chunks: list[int] = []  # chunks before step i
        for i in range(len(trace.steps)):
            self._known_chunks.append(len(chunks))
            chunks.append(self.inputs[i])
            chunks.extend(self.outputs[i])
        folded = [c.casefold() for c in chunks]  # casefold maps each character alone: join and fold commute
        self._chunks = chunks
        self.known = "\n".join(folded)
        ends = [0]
        for chunk in folded:
            ends.append(ends[-1] + len(chunk) + 1)
        self._known_end = [ends[c] - 1 for c in self._known_chunks]  # the length of the text known before step i
        self.later_inputs = "\n".join(self.inputs)
        self._input_start = []
        at = 0
        for text in self.inputs:
            self._input_start.append(at)
            at += len(text) + 1
        self._finding_texts: dict[int, str] = {}
        steps = len(trace.steps)
        self._unreadable = any(f.step_index is not None and not -steps <= f.step_index < steps for f in findings)
        placed = sorted(
            (f for f in findings if f.step_index is not None and -steps <= f.step_index < steps),
            key=lambda f: f.step_index or 0,
        )
        # A finding's text is its step's inputs (in ``later_inputs`` from that step on) and its evidence's values:
        # the evidence alone is kept here, the inputs (as long as a step's text may be) are read where they are.
        self._finding_steps = [f.step_index or 0 for f in placed]
        evidence = [_evidence_text(f) for f in placed]
        self.later_findings = "\n".join(evidence)
        self._finding_start = []
        at = 0
        for text in evidence:
            self._finding_start.append(at)
            at += len(text) + 1
        self.unplaced = "\n".join(_evidence_text(f) for f in findings if f.step_index is None)

    def finding_text(self, finding: Finding) -> str:
        """The folded text a later finding may reuse a value in: its step's inputs and its evidence's values."""
        text = self._finding_texts.get(id(finding))
        if text is None:
            at = self.inputs[finding.step_index] if finding.step_index is not None else ""
            text = self._finding_texts[id(finding)] = "\n".join([at, *_values(finding.evidence)]).casefold()
        return text

    def introduced(self, index: int) -> set[str]:
        """The values step ``index`` introduces (see the module docstring)."""
        end = self._known_end[index]
        if any("\n" in v for v in self.outputs[index]):  # a value may span two chunks: the text as it was joined
            known = "\n".join(self._chunks[: self._known_chunks[index]]).casefold()
            return {v for v in self.outputs[index] if v not in known}
        return {v for v in self.outputs[index] if self.known.find(v, 0, end) < 0}

    def reused_after(self, values: set[str], index: int) -> bool:
        """Whether a step after ``index`` takes in one of ``values`` (so a finding of such a step may too), or the
        evidence of a finding after it (or of no step) shows one; ``True`` too when a value holds a line break (it
        is then looked up the long way). Case folding is stable: folded inputs fold to themselves."""
        if self._unreadable or any("\n" in v for v in values):
            return True  # read as before, step by step (a finding of no step of the trace fails there, as before)
        step_from = self._input_start[index + 1] if index + 1 < len(self._input_start) else len(self.later_inputs)
        after = bisect.bisect_right(self._finding_steps, index)
        finding_from = self._finding_start[after] if after < len(self._finding_start) else len(self.later_findings)
        return any(
            self.later_inputs.find(v, step_from) >= 0
            or self.later_findings.find(v, finding_from) >= 0
            or v in self.unplaced
            for v in values
        )


class _AnyOf:
    """A growing set of values, and whether a text holds any of them: value by value while they are few against
    their lengths; past that, every piece of the text as long as some value is, looked up in the set (the work
    then grows with the text and the lengths, not with the number of values: a long trace's values would make
    it quadratic)."""

    _PER_LENGTH = 64
    """Values a length before pieces are looked up: a substring search costs about a 64th of a lookup."""

    def __init__(self, values: set[str] | None = None) -> None:
        self.values: set[str] = set()
        self._lengths: set[int] = set()
        self.update(values or set())

    def update(self, values: set[str]) -> None:
        self.values |= values
        self._lengths.update(len(v) for v in values)

    def in_text(self, text: str) -> bool:
        values = self.values
        if len(values) <= self._PER_LENGTH * len(self._lengths):
            return any(v in text for v in values)
        if 0 in self._lengths:
            return True  # the empty string is in every text
        return any(text[i : i + length] in values for length in self._lengths for i in range(len(text) - length + 1))


def _links(read: _Reading, start: int, later: Sequence[Finding]) -> list[tuple[Finding, str]]:
    """The findings of ``later`` that reuse a value step ``start`` introduced (``same_value``) or that a step
    reusing one passed on (``follows``)."""
    direct = read.introduced(start)
    if not direct or not read.reused_after(direct, start):
        return []  # nothing after the step holds a value it introduced: nothing can be passed on either
    reused = _AnyOf(direct)  # the direct values and the derived ones
    derived = _AnyOf()
    for index in range(start + 1, len(read.trace.steps)):
        if reused.in_text(read.inputs[index]):
            fresh = read.outputs[index] - direct
            derived.update(fresh)
            reused.update(fresh)
    introduced = _AnyOf(direct)
    out = []
    for finding in later:
        text = read.finding_text(finding)
        if introduced.in_text(text):
            out.append((finding, "same_value"))
        elif derived.in_text(text):
            out.append((finding, "follows"))
    return out


def _error_step(trace: Trace, finding: Finding) -> Step | None:
    """The failed call a recovery finding is about: the first of the run of identical failed calls that ends at
    or before the finding's step."""
    end = len(trace.steps) if finding.step_index is None else finding.step_index + 1
    failed = [s for s in trace.steps[:end] if s.action_type is ActionType.TOOL_CALL and call_failed(s)]
    if not failed:
        return None
    last = failed[-1]
    same = [s for s in failed if s.tool_name == last.tool_name and s.arguments == last.arguments]
    return same[0]


def _after(findings: Sequence[Finding], index: int) -> list[Finding]:
    return [f for f in findings if f.step_index is None or f.step_index > index]


def _about_final_reply(finding: Finding) -> bool:
    """Whether a finding with no step is about the trace's final reply (its evidence quotes ``final_response``,
    or says that is where it is: ``{"where": "final_response", ...}``)."""
    evidence = finding.evidence if isinstance(finding.evidence, list) else [finding.evidence]
    return any(
        isinstance(item, Mapping) and ("final_response" in item or item.get("where") == "final_response")
        for item in evidence
    )


def _final_reply_step(trace: Trace) -> Step | None:
    """The response step that carries the final reply, if one does."""
    replies = [s for s in trace.steps if s.action_type is ActionType.RESPONSE]
    final = trace.final_response
    if not replies:
        return None
    last = replies[-1]
    return last if final is None or (last.content or "").strip() == final.strip() else None


def _choose(trace: Trace, findings: Sequence[Finding]) -> _Choice:
    read = _Reading(trace, findings)
    by_step: dict[int, list[Finding]] = {}
    for finding in findings:
        if finding.step_index is not None and 0 <= finding.step_index < len(trace.steps):
            by_step.setdefault(finding.step_index, []).append(finding)
    unrecovered: dict[int, tuple[Step, Finding]] = {}
    steps = len(trace.steps)
    for finding in findings:
        if finding.dimension is Dimension.RECOVERY and (failed := _error_step(trace, finding)) is not None:
            at = finding.step_index if finding.step_index is not None and 0 <= finding.step_index < steps else steps
            unrecovered.setdefault(at, (failed, finding))
    for index in sorted(set(by_step) | set(unrecovered)):
        if index == steps:  # a recovery finding about the final response that no step carries
            failed, how = unrecovered[index]
            reply = _final_reply_step(trace)
            rest = tuple((f, "after_error") for f in findings if f is not how and f.step_index is None)
            return _Choice(reply, "unrecovered_error", (how,), rest, recovery=how, failed=failed,
                           name=None if reply else "final_response")  # fmt: skip
        step = trace.steps[index]
        own = tuple(by_step.get(index, ()))
        later = _after(findings, index)
        if index in unrecovered:
            failed, how = unrecovered[index]
            return _Choice(step, "unrecovered_error", own, tuple((f, "after_error") for f in later), recovery=how,
                           failed=failed)  # fmt: skip
        links = _links(read, index, later)
        if links:
            decision = any(f.dimension in DECISION_DIMENSIONS for f in own)
            return _Choice(step, "decision_before_failures" if decision else "taint", own, tuple(links))
    if by_step:
        gravest = min(_GRAVITY.index(GATES[f.dimension]) for own in by_step.values() for f in own)
        first = min(i for i, own in by_step.items() if any(_GRAVITY.index(GATES[f.dimension]) == gravest for f in own))
        return _Choice(trace.steps[first], "earliest_failure", tuple(by_step[first]), ())
    about_reply = [f for f in findings if _about_final_reply(f)]
    if about_reply:  # a reply's own failure, no tool involved: the reply is the step to correct
        reply = _final_reply_step(trace)
        rest = tuple((f, "same_reply") for f in findings if f not in about_reply[:1])
        return _Choice(reply, "final_reply", tuple(about_reply[:1]), rest, name=None if reply else "final_response")
    missing = [f for f in findings if f.rule == "tool_selection.missing_tool"]
    expected = trace.gold.calls() if trace.gold is not None else None
    if missing and expected is not None:  # the run took another way: the first call the gold does not expect
        wanted = {call.tool for call in expected}
        detour = next((s for s in trace.tool_calls() if s.tool_name not in wanted), None)
        if detour is not None:
            detoured = tuple((f, "after_detour") for f in missing[1:])
            return _Choice(detour, "left_gold_path", tuple(missing[:1]), detoured)
    return _Choice(None, "trace_level", tuple(findings[:1]), ())


def _subject(step: Step) -> str:
    what = step.tool_name if step.tool_name else step.action_type.value
    return f"step {step.step_id!r} ({what})"


_STEP_PREFIX = re.compile(r"^\s*step\s+'?[^':]*'?\s*:\s*", re.IGNORECASE)


def _went_on(choice: _Choice, tail: str) -> str:
    """How the trace went on after its unrecovered failed call, from the recovery finding that says so."""
    how = choice.recovery
    rule = how.rule if how is not None else ""
    at = f" at step {how.step_id!r}" if how is not None and how.step_id else ""
    if rule == "recovery.reported_success_after_error":
        return (f"the agent reported success anyway{at}{tail}: handle the failure (retry within a bound, explain or "
                "hand off) instead of going on as if it had worked")  # fmt: skip
    if rule == "recovery.endless_retry":
        return (f"the agent kept making the same failing call past its retry budget (until{at[3:] or ' the end'})"
                f"{tail}: stop after a bounded number of retries, then explain or hand off")  # fmt: skip
    if rule == "recovery.unhandled_error":
        return f"the trace ends there with no retry, explanation or hand-off{tail}: tell the user what happened"
    message = _STEP_PREFIX.sub("", how.message).rstrip(".") if how is not None else "no recovery"
    return f"the agent did not recover ({rule or 'recovery'}: {message}){tail}"


def _hypothesis(choice: _Choice, lead: Finding, passes: bool) -> str:
    explained = len(choice.downstream)
    tail = f", and {explained} later failure{' follows' if explained == 1 else 's follow'} from it" if explained else ""
    if choice.rule == "unrecovered_error" and choice.failed is not None:
        failed = choice.failed
        return f"The call at {_subject(failed)} failed ({failure(failed)}) and {_went_on(choice, tail)}."
    message = _STEP_PREFIX.sub("", lead.message).rstrip(".")  # the step is named already
    what = f"({lead.rule}: {message})"
    if passes:  # only a soft budget was exceeded: the trace did its job
        where = f" at {_subject(choice.step)}" if choice.step is not None else ""
        return f"The trace passes every check that counts; it only goes over a budget{where} {what}{tail}."
    if choice.step is not None:
        return f"S{_subject(choice.step)[1:]} is where it first went wrong {what}{tail}."
    if choice.rule == "final_reply":
        return f"The final reply is where it went wrong, with no tool involved {what}{tail}."
    return f"No single step explains it: the trace as a whole fails {what}{tail}."


def _layers(choice: _Choice, lead: Finding) -> tuple[Layer, ...]:
    if choice.rule == "unrecovered_error":
        return (Layer.TOOL, Layer.ORCHESTRATION, Layer.PROMPT)
    return _SAFETY_LAYERS.get(lead.rule, _LAYERS[lead.dimension])


def _pool(verdicts: Mapping[Dimension, DimensionVerdict]) -> tuple[list[Finding], bool]:
    """The findings to diagnose: those that count toward the status, else (a soft gate only) the rest; and whether
    only soft findings are left (the trace passes)."""
    failed = [v for v in verdicts.values() if v.passed is False]
    counted = [f for v in failed if GATES[v.dimension] is not Gate.SOFT for f in v.findings]
    return (counted, False) if counted else ([f for v in failed for f in v.findings], True)


def regression_case(trace: Trace, diagnosis: Diagnosis, failed: Sequence[Dimension]) -> dict[str, JsonValue]:
    """The failing case as a Strands Evals ``Case`` (``Case.model_validate`` reads it): the goal (or the first user
    message) as input, the expected tools as trajectory and the final reply as output when the gold gives them,
    and the diagnosis in metadata."""
    first_user = next((s.content for s in trace.steps if s.action_type is ActionType.USER and s.content), None)
    gold = trace.gold
    return {
        "name": f"regression-{trace.case_id or trace.trace_id}",
        "session_id": trace.trace_id,
        "input": trace.goal or first_user or "",
        "expected_output": gold.expected_final_response if gold is not None else None,
        "expected_assertion": None,
        "expected_trajectory": list(gold.expected_tools) if gold is not None and gold.expected_tools else None,
        "expected_interactions": None,
        "expected_environment_state": None,
        "metadata": {
            "trace_id": trace.trace_id,
            "case_id": trace.case_id,
            "first_critical_failure_step": diagnosis.first_critical_failure_step,
            "critical_rule": diagnosis.critical_rule,
            "failed_dimensions": [d.value for d in failed],
            "root_cause_hypothesis": diagnosis.root_cause_hypothesis,
            "suggested_fix": diagnosis.suggested_fix,
        },
    }


def diagnose(trace: Trace, verdicts: Mapping[Dimension, DimensionVerdict]) -> Diagnosis:
    """The replay report of ``trace`` from its dimension verdicts (see the module docstring); an empty
    ``Diagnosis`` when no dimension failed."""
    pool, soft_only = _pool(verdicts)
    findings = sorted(pool, key=lambda f: (f.step_index is None, f.step_index or 0, list(Dimension).index(f.dimension)))
    if not findings:
        return Diagnosis()
    choice = _choose(trace, findings)
    own = [f for f in choice.findings if f.dimension in DECISION_DIMENSIONS] or list(choice.findings)
    lead = own[0] if own else findings[0]
    if choice.rule == "unrecovered_error" and not choice.findings:
        lead = next(f for f, _ in choice.downstream)
    evidence = [f.evidence for f in (*choice.findings, *(f for f, _ in choice.downstream)) if f.evidence is not None]
    dimension = Dimension.RECOVERY if choice.rule == "unrecovered_error" else lead.dimension
    diagnosis = Diagnosis(
        first_critical_failure_step=choice.step_name,
        critical_rule=f"{choice.rule}: {_RULES[choice.rule]}",
        downstream_failures=tuple(
            DownstreamFailure(f.step_id, f.dimension, f.rule, link) for f, link in choice.downstream
        ),
        root_cause_hypothesis=_hypothesis(choice, lead, soft_only),
        affected_layers=_layers(choice, lead),
        evidence=tuple(evidence[:MAX_EVIDENCE]),
        suggested_fix=_FIXES[dimension][:1].upper() + _FIXES[dimension][1:] + ".",
    )
    failed = [d for d, v in verdicts.items() if v.passed is False]
    return Diagnosis(
        diagnosis.first_critical_failure_step,
        diagnosis.critical_rule,
        diagnosis.downstream_failures,
        diagnosis.root_cause_hypothesis,
        diagnosis.affected_layers,
        diagnosis.evidence,
        diagnosis.suggested_fix,
        regression_case(trace, diagnosis, failed),
    )
