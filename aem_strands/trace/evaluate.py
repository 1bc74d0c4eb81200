"""Evaluating traces: the effective environment, the nine dimension checks, the status and veto, the diagnosis.

The status of a trace (SPEC §9):

- ``fail`` when safety fails (``veto``: whatever the other dimensions say) or any hard-gate dimension fails;
- ``inconclusive`` when nothing failed but a dimension could not be decided: a question its check needed the
  judge for went unanswered (the check's ``undecided``, or a judge call that returned nothing or raised); the
  verdict becomes not applicable, its reason and ``undecided`` say which questions; never a pass;
- ``pass`` otherwise. A failed soft gate (cost over budget) leaves the status ``pass``; the dimension still
  says ``pass: false``.

The environment of a trace is its own over the run's policy (``merge_environment``); gold from the caller
(``gold=``, keyed by trace id, else case id) over the trace's own ``evaluation`` block, field by field.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from aem_strands.collector import collector_paused
from aem_strands.compare.chain import Comparator
from aem_strands.errors import InputError
from aem_strands.options import EvalOptions
from aem_strands.tools import ToolCatalog, ToolDefinition
from aem_strands.trace.checks import CHECKS
from aem_strands.trace.checks.context import TraceContext, TraceJudge, ValueJudge
from aem_strands.trace.diagnose import diagnose
from aem_strands.trace.policy import as_environment, merge_environment
from aem_strands.trace.types import (
    GATES,
    Budgets,
    Dimension,
    DimensionVerdict,
    Environment,
    Gate,
    Trace,
    TraceGold,
    TraceResult,
    TraceStatus,
    not_applicable,
)
from aem_strands.trace.values import ComparatorValues
from aem_strands.types import JsonValue

Policy = Environment | str | Path | Mapping[str, Any] | None
"""A policy: an environment, a policy file path, or its decoded JSON."""

Gold = Mapping[str, TraceGold] | TraceGold | None
"""Gold for traces: one ``TraceGold`` (for ``evaluate_trace``) or gold keyed by trace id or case id."""


@dataclass
class _AskedJudge:
    """The judge of one dimension check, noting the questions it could not answer (``None``, or an exception:
    a failed call is an unanswered question, never an answer)."""

    judge: TraceJudge
    unanswered: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def decide(self, question: str, evidence: JsonValue) -> bool | None:
        try:
            answer = self.judge.decide(question, evidence)
        except Exception as error:  # any failure of the judge's call is "could not answer"
            self.unanswered.append(question)
            self.errors.append(f"{type(error).__name__}: {error}")
            return None
        if answer is None:
            self.unanswered.append(question)
        return answer


def asks_judge(options: EvalOptions) -> bool:
    """Whether a run puts to the LLM judge what no trace rule decides: when it names the judge as its scorer or
    escalation (the same options as for dialogs); the CLI and the Strands evaluator decide it here."""
    return "judge" in (options.scorer, options.escalate)


def _with_budgets(policy: Environment | None, options: EvalOptions) -> Environment | None:
    """The run's policy with ``options.budgets`` over its budgets (a trace's own budgets still win), and with the
    tool definitions of ``options.tools`` it does not define itself and ``options.read_only_tools`` marked
    read-only (``--tools`` / ``--read-only-tool``, as ``score`` reads them)."""
    if options.budgets:
        base = policy or Environment()
        policy = replace(base, budgets=Budgets(**{**asdict(base.budgets), **options.budgets}))
    if not options.tools and not options.read_only_tools:
        return policy
    base = policy or Environment()
    tools = {d.name: d for d in options.tools.definitions} | {d.name: d for d in base.tools.definitions}
    for name in sorted(options.read_only_tools):
        tools[name] = replace(tools[name], read_only=True) if name in tools else ToolDefinition(name, read_only=True)
    return replace(base, tools=ToolCatalog(tuple(tools.values())))


def _gold_for(trace: Trace, gold: Gold) -> TraceGold | None:
    if gold is None:
        return trace.gold
    if isinstance(gold, TraceGold):
        given: TraceGold | None = gold
    else:
        given = gold.get(trace.trace_id) or (gold.get(trace.case_id) if trace.case_id is not None else None)
    if given is None or trace.gold is None:
        return given or trace.gold
    own = trace.gold
    tools_from = given if given.expected_tools is not None else own
    return TraceGold(
        tools_from.expected_tools,
        tools_from.expected_arguments,
        given.expected_final_state if given.expected_final_state is not None else own.expected_final_state,
        given.expected_final_response if given.expected_final_response is not None else own.expected_final_response,
        tools_from.expected_calls,
    )


class RunValues(ComparatorValues):
    """The ``ValueJudge`` of a run given no ``values``: the typed normalisation (``ComparatorValues()``, no
    comparator) for every check, and ``gold_comparator``, the comparator ``score`` would use for the run's options,
    for the gold calls (``aem_strands.trace.checks.gold_calls``)."""

    def __init__(self, gold_comparator: Comparator) -> None:
        super().__init__()
        self.gold_comparator = gold_comparator


def run_values(options: EvalOptions) -> RunValues:
    """``RunValues`` for ``options`` (see there); building it loads no model."""
    from aem_strands.evaluate import make_comparator

    return RunValues(make_comparator(options))


def _status(verdicts: Mapping[Dimension, DimensionVerdict], undecided: bool) -> tuple[TraceStatus, bool]:
    veto = any(v.passed is False and GATES[d] is Gate.VETO for d, v in verdicts.items())
    failed = veto or any(v.passed is False and GATES[d] is Gate.HARD for d, v in verdicts.items())
    if failed:
        return TraceStatus.FAIL, veto
    return (TraceStatus.INCONCLUSIVE if undecided else TraceStatus.PASS), veto


@dataclass(frozen=True)
class _Checked:
    verdicts: dict[Dimension, DimensionVerdict]
    undecided: bool
    """Whether a dimension was left undecided by an unanswered judge question."""


def _checked(trace: Trace, env: Environment, values: ValueJudge, judge: TraceJudge | None) -> _Checked:
    verdicts: dict[Dimension, DimensionVerdict] = {}
    undecided = False
    for dimension in Dimension:
        check = CHECKS.get(dimension)
        if check is None:
            verdicts[dimension] = not_applicable(dimension, "no check for this dimension in this version")
            continue
        asked = _AskedJudge(judge) if judge is not None else None
        verdict = check(trace, env, TraceContext(values, asked))
        # The check's own undecided questions, and any the judge failed that the check did not note.
        questions = tuple(dict.fromkeys([*verdict.undecided, *(asked.unanswered if asked is not None else ())]))
        if questions and verdict.passed is not False:
            undecided = True
            failures = f" ({'; '.join(dict.fromkeys(asked.errors))})" if asked is not None and asked.errors else ""
            asked_judge = asked is not None and bool(asked.unanswered)
            # a check's own open question (no judge involved: e.g. a value only a semantic scorer could settle)
            who = "the judge could not answer" if asked_judge else "could not be decided"
            reason = f"inconclusive: {who}{failures}: {'; '.join(questions)}"
            verdict = DimensionVerdict(dimension, None, (), verdict.checked, reason, questions)
        verdicts[dimension] = verdict
    return _Checked(verdicts, undecided)


def evaluate_trace(
    trace: Trace,
    options: EvalOptions | None = None,
    *,
    policy: Policy = None,
    gold: Gold = None,
    judge: TraceJudge | None = None,
    values: ValueJudge | None = None,
) -> TraceResult:
    """Judge one trace on the nine dimensions and diagnose it (see the module docstring).

    ``policy`` (else ``options.policy``) is the run's environment; the trace's own wins key by key. ``gold``
    replaces the trace's own gold field by field. ``judge`` answers what no rule decides (``None``: rules only).
    ``values`` decides typed equivalence (default: the product's typed normalisation, ``ComparatorValues``; give
    ``ComparatorValues(make_comparator(options))`` to let the semantic scorer decide what normalisation leaves
    open). Gold calls are compared as ``score`` compares them: by the comparator of ``values`` when it has one,
    else, with ``values`` not given, by ``make_comparator(options)`` (the options' scorer: its model loads only if a
    pair reaches it); with ``values`` given without a comparator, such a pair is undecided.
    """
    options = options or EvalOptions()
    run_policy = _with_budgets(as_environment(policy) if policy is not None else options.policy, options)
    env = merge_environment(run_policy, trace.environment)
    judged = replace(trace, gold=_gold_for(trace, gold))
    # The checks read every text into many small objects that live until the verdict is made; the cyclic collector
    # walked them again and again (a fifth of the CPU time on SGD traces): paused while one trace is judged.
    with collector_paused():  # the dialogs' pause: one for every judging in a process
        checked = _checked(judged, env, values or run_values(options), judge)
        verdicts = checked.verdicts
        diagnosis = diagnose(judged, verdicts)
    status, veto = _status(verdicts, checked.undecided)
    return TraceResult(
        trace_id=trace.trace_id,
        case_id=trace.case_id,
        status=status,
        veto=veto,
        dimensions=verdicts,
        diagnosis=diagnosis,
        steps=len(trace.steps),
        source=trace.source,
        metadata=trace.metadata,
        step_metadata={s.step_id: s.metadata for s in trace.steps if s.metadata},
    )


def evaluate_traces(
    traces: Iterable[Trace | InputError],
    options: EvalOptions | None = None,
    *,
    policy: Policy = None,
    gold: Gold = None,
    judge: TraceJudge | None = None,
    values: ValueJudge | None = None,
) -> Iterator[TraceResult | InputError]:
    """Judge traces as they come, in input order: a result per trace, and each error record (``InputError``, as
    ``iter_traces`` yields them) passed through where it stands. The policy is read once."""
    options = options or EvalOptions()
    run_policy = _with_budgets(as_environment(policy) if policy is not None else options.policy, options)
    judge_values = values or run_values(options)
    for item in traces:
        if isinstance(item, InputError):
            yield item
            continue
        yield evaluate_trace(item, options, policy=run_policy, gold=gold, judge=judge, values=judge_values)
