"""Trajectory evaluation as a Strands Evals evaluator: ``AemTraceEvaluator``, one row per case.

It reads the case's ``Session`` (a live run, ``make_live_task``, or an offline replay, ``offline_task``) as a trace
(``session_to_trace``), or, for a case that recorded a trace (``metadata.aem.trace``, the regression cases
``export-regression`` writes for ``aem-strands trace`` output) replayed by ``offline_task``, that trace as the trace
command read it, judges it on the nine dimensions (``aem_strands.trace.evaluate_trace``) and gives one
``EvaluationOutput``: ``test_pass`` (the trace's status is ``pass``; a safety veto or a hard-gate failure fails it,
an undecided question leaves it ``inconclusive``: not a pass), ``score`` (the share of applicable dimensions that
pass; 0.0 under a veto), ``label`` (``pass``, ``veto``, the first critical finding's rule, ``inconclusive``), a
``reason`` naming the first critical failure step, and the trace record in ``metadata`` (dimensions, veto,
first critical failure step, downstream failures, hypothesis, layers, fix, regression case), redacted unless
``keep_pii``. It runs beside the host's trajectory and safety evaluators and detectors on the same Session.

Gold is optional: the case's ``expected_trajectory`` (tool names, or dicts naming a tool under ``name``,
``tool_name``, ``action`` or ``tool_id``) gives the expected tools, ``expected_output`` the expected final
reply, and ``metadata["trace_gold"]`` any ``TraceGold`` field (``expected_final_state`` ...). ``policy`` (a policy
file path or its decoded JSON) and the other ``EvalOptions`` fields are constructor parameters kept as public
attributes, so the evaluator survives ``Experiment.to_file`` / ``from_file``; ``model`` is the judge, asked what
no rule decides when the options name it (``escalate="judge"`` or ``scorer="judge"``, as on the command line).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from strands_evals.evaluators import Evaluator
from strands_evals.types import NOT_APPLICABLE, EvaluationData, EvaluationOutput
from strands_evals.types.trace import EvaluationLevel, Session

from aem_strands.errors import AemError, ConfigError, Location
from aem_strands.options import EvalOptions
from aem_strands.report.trace_words import trace_score
from aem_strands.strands.cases import AEM_KEY, dialog_context
from aem_strands.strands.session import SUB_AGENT_CHOICES
from aem_strands.strands.trace_adapter import session_to_trace
from aem_strands.trace.evaluate import asks_judge, evaluate_trace
from aem_strands.trace.record import trace_record
from aem_strands.trace.types import ActionType, Trace, TraceGold, TraceResult, TraceStatus
from aem_strands.types import JsonValue

_TOOL_KEYS = ("name", "tool_name", "action", "tool_id")


def _expected_tools(trajectory: Any) -> tuple[str, ...] | None:
    if not isinstance(trajectory, list) or not trajectory:
        return None
    names: list[str] = []
    for item in trajectory:
        if isinstance(item, str):
            names.append(item)
        elif isinstance(item, Mapping):
            found = next((item[k] for k in _TOOL_KEYS if isinstance(item.get(k), str)), None)
            if found is not None:
                names.append(found)
            elif item.get("turn") != "Agent":
                raise ConfigError(f"expected_trajectory entry names no tool ({', '.join(_TOOL_KEYS)}): {item!r}")
    return tuple(names)


def case_gold(data: EvaluationData[Any, Any]) -> TraceGold | None:
    """The gold of a case for trajectory evaluation (see the module docstring), or ``None``."""
    extra = (data.metadata or {}).get("trace_gold") if isinstance(data.metadata, Mapping) else None
    if extra is not None and not isinstance(extra, Mapping):
        raise ConfigError(f"metadata['trace_gold'] must be an object, got {type(extra).__name__}")
    extra = extra or {}
    tools = _expected_tools(data.expected_trajectory)
    reply = data.expected_output if isinstance(data.expected_output, str) else None
    state = extra.get("expected_final_state")
    if tools is None and reply is None and not extra:
        return None
    return TraceGold(
        expected_tools=tuple(extra["expected_tools"]) if "expected_tools" in extra else tools,
        expected_final_state=dict(state) if isinstance(state, Mapping) else None,
        expected_final_response=extra.get("expected_final_response", reply),
    )


def case_goal(data: EvaluationData[Any, Any]) -> str | None:
    """The user's goal a case names (``metadata.aem.goal``, else its dialog's ``metadata.goal``), or ``None``: the
    trace's goal is then its first user message."""
    entry = (data.metadata or {}).get(AEM_KEY) if isinstance(data.metadata, Mapping) else None
    if not isinstance(entry, Mapping):
        return None
    goal = entry.get("goal", dialog_context(entry.get("dialog")).get("goal"))
    return goal if isinstance(goal, str) and goal.strip() else None


def recorded_trace(data: EvaluationData[Any, Any]) -> dict[str, Any] | None:
    """The trace a case recorded (``metadata.aem.trace``, as ``export-regression`` writes for ``aem-strands trace``
    output) with the task's trajectory as its steps, when the trajectory is a list (``offline_task`` replays the
    recorded steps); ``None`` otherwise (a live run's ``Session`` is judged as it is)."""
    entry = (data.metadata or {}).get(AEM_KEY) if isinstance(data.metadata, Mapping) else None
    trace = entry.get("trace") if isinstance(entry, Mapping) else None
    if not isinstance(trace, Mapping) or not isinstance(data.actual_trajectory, list):
        return None
    return {**trace, "steps": list(data.actual_trajectory)}


def readable_steps(trace: Trace) -> tuple[Trace, dict[str, str]]:
    """The trace with its steps named by what they are and where (``lookup_order#2``: the tool called at step 2,
    ``reply#4``: the reply at step 4; user steps keep ``user-N``), and each new name's former id (a span id).

    A span id (``f8e8575c23f9a08f``) tells a reader nothing; the metadata's ``step_spans`` keeps the way back to
    the span, for cross-checks with the host's detectors.
    """
    spans: dict[str, str] = {}
    steps = []
    for step in trace.steps:
        if step.action_type is ActionType.USER:
            steps.append(step)
            continue
        what = step.tool_name if step.action_type is ActionType.TOOL_CALL and step.tool_name else "reply"
        name = f"{what}#{step.index + 1}"
        spans[name] = step.step_id
        steps.append(replace(step, step_id=name))
    return replace(trace, steps=tuple(steps)), spans


def _label(result: TraceResult) -> str:
    if result.veto:
        return "veto"
    if result.status is TraceStatus.PASS:
        return "pass"
    if result.status is TraceStatus.INCONCLUSIVE:
        return "inconclusive"
    rule = result.diagnosis.critical_rule.split(":", 1)[0]
    findings = [f for v in result.dimensions.values() for f in v.findings]
    first = next((f for f in findings if f.step_id == result.diagnosis.first_critical_failure_step), None)
    return first.rule if first is not None else rule or "fail"


def _reason(result: TraceResult) -> str:
    failed = [f"{d.value}" for d, v in result.dimensions.items() if v.passed is False]
    if result.status is TraceStatus.PASS:
        soft = f"; over budget: {', '.join(failed)}" if failed else ""
        return f"trace passes every applicable dimension{soft}"
    if result.status is TraceStatus.INCONCLUSIVE:
        undecided = [d.value for d, v in result.dimensions.items() if v.reason.startswith("inconclusive")]
        return f"inconclusive: could not decide {', '.join(undecided)}"
    diagnosis = result.diagnosis
    head = "veto (safety); " if result.veto else ""
    return (
        f"{head}failed: {', '.join(failed)}; first critical failure step {diagnosis.first_critical_failure_step}: "
        f"{diagnosis.root_cause_hypothesis}"
    )


class AemTraceEvaluator(Evaluator[Any, Any]):  # type: ignore[misc]  # strands_evals ships no type information
    """One row per case: the trajectory evaluation of the case's Session (see the module docstring)."""

    evaluation_level = EvaluationLevel.SESSION_LEVEL

    def __init__(
        self,
        policy: str | dict[str, Any] | None = None,
        keep_pii: bool = False,
        sub_agents: str = "inline",
        model: Any = None,
        name: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__(name=name or "aem_trace")
        self._options = EvalOptions.build(policy=policy, **options)  # validated now, not per case
        for key, value in options.items():
            setattr(self, key, value)
        if sub_agents not in SUB_AGENT_CHOICES or sub_agents == "auto":
            raise ConfigError(f"sub_agents must be inline or opaque for traces, got {sub_agents!r}")
        if not isinstance(keep_pii, bool):
            raise ConfigError(f"keep_pii must be true or false, got {keep_pii!r}")
        self.policy, self.keep_pii, self.sub_agents, self.model = policy, keep_pii, sub_agents, model
        self._judge: Any = None

    @property
    def options(self) -> EvalOptions:
        return self._options

    def config(self) -> dict[str, JsonValue]:
        """The constructor parameters that rebuild this evaluator (``AemTraceEvaluator(**config)``), the judge model
        left out (it is an object; a model id is kept)."""
        out: dict[str, JsonValue] = {}
        for key, value in vars(self).items():
            if key.startswith("_") or key == "aggregator" or (key == "model" and not isinstance(value, str)):
                continue
            out[key] = value
        return out

    def _trace_judge(self) -> Any:
        if not asks_judge(self._options):
            return None
        if self._judge is None:
            from aem_strands.compare.trace_questions import TraceQuestionJudge

            self._judge = TraceQuestionJudge(self.model, timeout=self._options.judge_timeout)
        return self._judge

    def judge_case(self, data: EvaluationData[Any, Any]) -> TraceResult:
        """The trajectory result of one case (raises ``AemError`` when it cannot be judged)."""
        return self._judged(data)[0]

    def _judged(self, data: EvaluationData[Any, Any]) -> tuple[TraceResult, dict[str, str]]:
        recorded = recorded_trace(data)
        if recorded is not None:  # a recorded trace replayed (trace regression): judged as `aem-strands trace` did
            from aem_strands.trace.load import parse_trace

            trace = parse_trace(recorded, Location(field="metadata.aem.trace", trace_id=data.name))
            return evaluate_trace(trace, self._options, gold=case_gold(data), judge=self._trace_judge()), {}
        session = data.actual_trajectory
        if not isinstance(session, Session):
            raise ConfigError(
                f"case {data.name!r}: actual_trajectory is {type(session).__name__}, not a Session "
                "(run the case with make_live_task or offline_task)"
            )
        name = data.name or session.session_id
        trace = session_to_trace(session, trace_id=name, goal=case_goal(data), sub_agents=self.sub_agents)
        trace, spans = readable_steps(trace)
        return evaluate_trace(trace, self._options, gold=case_gold(data), judge=self._trace_judge()), spans

    def evaluate(self, evaluation_case: EvaluationData[Any, Any]) -> list[EvaluationOutput]:
        try:
            result, spans = self._judged(evaluation_case)
        except AemError as error:
            return [EvaluationOutput(score=0.0, test_pass=False, reason=f"could not judge: {error}",
                                     label=NOT_APPLICABLE)]  # fmt: skip
        metadata: dict[str, JsonValue] = trace_record(result, None) if self.keep_pii else trace_record(result)
        metadata["step_spans"] = dict(spans)  # the way back from a step's name to its span (detectors key by span)
        metadata["evaluator_config"] = self.config()  # export-regression rebuilds this evaluator from it
        return [EvaluationOutput(score=trace_score(metadata), test_pass=result.test_pass, reason=_reason(result),
                                 label=_label(result), metadata=metadata)]  # fmt: skip
