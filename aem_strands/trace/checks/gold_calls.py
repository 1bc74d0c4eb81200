"""A trace's tool calls against the gold's expected calls, judged by ``score``'s own engine (SPEC §9: with gold, a
run gets one verdict on its calls whichever way it comes in).

The two sides become an unpaired dialog as ``score`` reads one (``aem_strands.unpaired``):

- each ``tool_call`` step is a predicted call whose tool id and action are its ``tool_name``, with its arguments
  and its observation (a step's ``error`` is the observation ``{"error": text}``, how ``score`` records a failed
  call);
- each expected call (``TraceGold.calls()``) is a gold call with its arguments (none given: the tool alone is
  expected, ``compare_args=()``), its ``compare_args`` and its own observation (a gold call that failed is
  fulfilled by a call that failed).

They are aligned with ``AlignOptions(allow_extra="read_only", tools=<the environment's definitions>)`` and the
aligned dialog is judged by ``aem_strands.evaluate.evaluate_chunk``, the engine of ``aem-strands score --scope
actions --allow-extra read_only --tools FILE``: optimal alignment, typed equivalence of arguments, ``compare_args``,
failed calls (``call_failed``), side effects (an extra call is tolerated when read-only, failed, or an idempotent
repeat). Read-only tolerance goes both ways: an expected call to a read-only tool that the run skipped is
tolerated too (its gold turn is ``optional``, as ``score`` reads ``optional: true``). With no tool definition,
nothing is known to be read-only: every call the gold does not expect is reported unless it failed (it changed
nothing) or repeats an identical call of an idempotent tool.

Values are compared by the run's comparator (``RunValues.gold_comparator``: the one ``score`` would use for the
run's options, which ``evaluate_trace`` gives when no ``values`` are passed; else ``ComparatorValues.comparator``):
its semantic scorer decides what typed normalisation leaves open. With no comparator such a pair is undecided,
never guessed, and ``GoldCalls.undecided`` names it.

Each failing turn gives findings (``tool_selection.*``) at the step of the call, with ``score``'s reason:
``missing_tool`` (a gold call no call fulfils: no step), ``unexpected_tool`` (a call the gold does not expect, or
a call of another tool where the gold expects one: then the expected one is ``missing_tool`` too),
``wrong_arguments`` (missing, extra or different argument values) and ``call_failed`` (the call failed where
the gold's succeeded).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aem_strands.align import AlignOptions
from aem_strands.compare.chain import Comparator
from aem_strands.tools import ToolCatalog, ToolDefinition
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.steps import step_fragment
from aem_strands.trace.types import Dimension, Environment, ExpectedCall, Finding, Step, Trace
from aem_strands.types import (
    ActionCall,
    Dialog,
    FailureReason,
    JsonValue,
    Method,
    Problem,
    Turn,
    TurnKind,
    ValueKind,
    Verdict,
    make_turn,
)

_CONTEXT_KEYS = ("reference_date", "date", "unordered_args", "locale")
"""Metadata keys ``score`` reads from a dialog (``aem_strands.metadata``), read from the trace's metadata."""
_ARGUMENT_REASONS = frozenset(
    {
        FailureReason.MISSING_PARAMETERS,
        FailureReason.EXTRA_PARAMETERS,
        FailureReason.INCONSISTENT_PARAMETER_VALUES,
    }
)
_SHOWN = 80
"""Characters of a value a message shows."""


class _NoScorer:
    """The semantic stage of a comparator when the run has none: every pair it is asked is undecided."""

    name = "no semantic scorer in this run:"
    method = Method.NORMALISED

    def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        return [None] * len(pairs)


@dataclass(frozen=True)
class GoldCalls:
    """What ``score``'s engine said about a trace's calls: the findings, the questions it could not decide, and
    what it looked at (``checked``)."""

    findings: tuple[Finding, ...]
    undecided: tuple[str, ...]
    checked: str
    passed: bool
    """``score``'s ``test_pass`` on these calls (every judged turn passed)."""


def engine_observation(step: Step) -> JsonValue:
    """The observation ``score`` would record for ``step``: ``{"error": text}`` when it failed, else its own."""
    return {"error": step.error} if step.error is not None else step.observation


def _gold_call(expected: ExpectedCall) -> ActionCall:
    compare = () if expected.arguments is None else expected.compare_args
    return ActionCall(expected.tool, expected.tool, dict(expected.arguments or {}), expected.observation, compare)


def gold_dialog(trace: Trace, env: Environment, calls: tuple[ExpectedCall, ...]) -> tuple[Dialog, tuple[Step, ...]]:
    """The aligned dialog ``score`` judges for ``trace``'s calls against ``calls``, and the steps of the calls
    (indexed as the alignment's ``predicted_index``). See the module docstring."""
    from aem_strands.unpaired import UnpairedDialog

    options = _align_options(_catalog(trace, env))
    steps = trace.tool_calls()
    predicted = tuple(
        ActionCall(s.tool_name or "", s.tool_name or "", dict(s.arguments), engine_observation(s), None) for s in steps
    )
    gold: list[Turn] = []
    for number, expected in enumerate(calls, start=1):
        call = _gold_call(expected)
        optional = options.allow_extra == "read_only" and options.is_read_only(call)
        gold.append(make_turn(number, TurnKind.ACTION, call, None, (), (), False, 1.0, None, optional))
    metadata: dict[str, JsonValue] = {k: trace.metadata[k] for k in _CONTEXT_KEYS if k in trace.metadata}
    return UnpairedDialog(trace.trace_id, tuple(gold), predicted, metadata).align(options), steps


def _catalog(trace: Trace, env: Environment) -> ToolCatalog:
    """The environment's tool definitions; with none, a definition without hints for each tool the trace calls:
    nothing is known to be read-only, and side effects still decide (``score`` needs a catalog for that)."""
    if env.tools:
        return env.tools
    names = dict.fromkeys(s.tool_name for s in trace.tool_calls() if s.tool_name)
    return ToolCatalog(tuple(ToolDefinition(name) for name in names))


def _align_options(catalog: ToolCatalog) -> AlignOptions:
    return AlignOptions("read_only" if catalog else "none", frozenset(), catalog, "actions")


def judge_gold_calls(trace: Trace, env: Environment, ctx: TraceContext, calls: tuple[ExpectedCall, ...]) -> GoldCalls:
    """Judge ``trace``'s calls against ``calls`` with ``score``'s engine (see the module docstring)."""
    from aem_strands.evaluate import evaluate_chunk
    from aem_strands.options import EvalOptions

    dialog, steps = gold_dialog(trace, env, calls)
    comparator = getattr(ctx.values, "gold_comparator", None) or getattr(ctx.values, "comparator", None)
    if not isinstance(comparator, Comparator):
        comparator = Comparator(_NoScorer())
    catalog = _catalog(trace, env)
    options = EvalOptions(
        scorer="exact", scope="actions", allow_extra=_align_options(catalog).allow_extra, tools=catalog
    )
    (result,) = evaluate_chunk([dialog], options, comparator, options.make_composer())
    pairs = {p["turn_no"]: p for p in _alignment(dialog)["pairs"]}
    findings: list[Finding] = []
    undecided: list[str] = []
    for turn in result.turns:
        verdict = turn.verdict
        pair = pairs.get(turn.turn.turn_no, {})
        index = pair.get("predicted_index")
        step = steps[index] if isinstance(index, int) else None
        gold_no = pair.get("gold_index")
        if verdict.verdict is Verdict.NOT_APPLICABLE:
            where = f"step {step.step_id!r}" if step is not None else "the run"
            undecided.append(f"{where}: does it match gold call {_number(gold_no)}? {verdict.note}")
        elif verdict.failed:
            findings.extend(_findings(turn.turn, verdict.problems, step, gold_no, calls))
    findings.sort(key=lambda f: -1 if f.step_index is None else f.step_index)
    return GoldCalls(tuple(findings), tuple(undecided), _checked(dialog, steps, calls), result.test_pass)


def _alignment(dialog: Dialog) -> dict[str, Any]:
    """The alignment record ``UnpairedDialog.align`` writes (``Alignment.to_dict``): pairs and tolerated turns."""
    record = dialog.metadata.get("alignment")
    return record if isinstance(record, dict) else {"pairs": [], "tolerated": []}


def _number(gold_index: object) -> str:
    return str(gold_index + 1) if isinstance(gold_index, int) else "?"


def _shown(value: JsonValue) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _expected(calls: tuple[ExpectedCall, ...], gold_index: object) -> str:
    if not isinstance(gold_index, int):
        return "?"
    call = calls[gold_index]
    return call.tool if call.arguments is None else f"{call.tool}({_shown(dict(call.arguments))})"


def _problem_text(problem: Problem) -> str:
    detail = f": {problem.detail}" if problem.detail else ""
    if problem.reason is FailureReason.MISSING_PARAMETERS:
        return f"{problem.field} missing (the gold has {_shown(problem.gold)}){detail}"
    if problem.reason is FailureReason.EXTRA_PARAMETERS:
        return f"{problem.field} not expected (given {_shown(problem.predicted)}){detail}"
    return f"{problem.field} is {_shown(problem.predicted)} where the gold has {_shown(problem.gold)}{detail}"


def _findings(
    turn: Turn, problems: tuple[Problem, ...], step: Step | None, gold_index: object, calls: tuple[ExpectedCall, ...]
) -> list[Finding]:
    lead = problems[0].reason if problems else None
    reasons = ", ".join(dict.fromkeys(p.reason.value for p in problems))
    expected = _expected(calls, gold_index)
    out: list[Finding] = []

    def missing() -> Finding:
        tool = calls[gold_index].tool if isinstance(gold_index, int) else "?"
        message = (
            f"{tool} was expected (gold call {_number(gold_index)}: {expected}) but no call of the run fulfils it "
            f"in order (score: {FailureReason.MISSING_TURN.value})"
        )
        evidence: JsonValue = {"expected_call": _number(gold_index), "expected_tools": [c.tool for c in calls]}
        return Finding(Dimension.TOOL_SELECTION, "tool_selection.missing_tool", message, None, None, evidence)

    if step is None:
        return [missing()]
    fragment = [step_fragment(step)]
    name = step.tool_name

    def at(rule: str, message: str) -> Finding:
        return Finding(Dimension.TOOL_SELECTION, rule, f"step {step.step_id!r}: {message} (score: {reasons})",
                       step.step_id, step.index, fragment)  # fmt: skip

    if turn.gold is None:
        detail = problems[0].detail if problems and problems[0].detail else "a call the gold does not expect"
        out.append(
            at("tool_selection.unexpected_tool", f"{name} was called but the gold does not expect it ({detail})")
        )
    elif lead in (FailureReason.TOOL_MISMATCH, FailureReason.ACTION_MISMATCH):
        out.append(at("tool_selection.unexpected_tool", f"{name} was called where the gold expects {expected}"))
        out.append(missing())
    elif lead is FailureReason.CALL_FAILED:
        out.append(at("tool_selection.call_failed", f"{name} failed where the gold's {expected} succeeded: the "
                                                    "expected call did not happen"))  # fmt: skip
    args = [p for p in problems if p.reason in _ARGUMENT_REASONS]
    if args:
        texts = "; ".join(_problem_text(p) for p in args)
        out.append(at("tool_selection.wrong_arguments", f"{name} was called with other arguments than the gold's "
                                                        f"{expected}: {texts}"))  # fmt: skip
    return out


def _checked(dialog: Dialog, steps: tuple[Step, ...], calls: tuple[ExpectedCall, ...]) -> str:
    called = ", ".join(s.tool_name or "?" for s in steps) or "no tool"
    expected = ", ".join(c.tool for c in calls) or "no tool"
    text = f"called {called} against the gold's {expected} (score's engine: alignment, arguments, side effects)"
    read_only: list[str] = []
    others: list[str] = []
    for item in _alignment(dialog).get("tolerated") or []:
        index = item.get("predicted_index") if isinstance(item, dict) else None
        if isinstance(index, int):
            name, why = steps[index].tool_name or "?", str(item.get("why"))
            (read_only if why.endswith("is read-only") else others).append(name if why.endswith("is read-only")
                                                                              else f"{name} ({why})")  # fmt: skip
    if read_only:
        text += f"; read-only tools tolerated though not expected: {', '.join(dict.fromkeys(read_only))}"
    if others:
        text += f"; also tolerated: {', '.join(others)}"
    return text
