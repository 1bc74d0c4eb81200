"""Counterfactual replay: check a diagnosis by correcting its step and letting the agent run on (SPEC §9).

A root cause is a hypothesis. ``counterfactual_replay(factory, case, run)`` tests it on a failed live case: it
scores the recorded ``run`` (the task's ``{"output", "trajectory"}``) with the evaluator, takes the first root
cause (``DialogResult.root_causes[0]``), rebuilds the conversation before it as Strands messages (user text,
assistant ``toolUse``, user ``toolResult``, assistant text: what the agent really did), replaces that step with
gold (the gold call and its observation, or the gold reply; an extra call gold does not have is dropped),
gives those messages to a fresh agent from ``factory`` and continues its loop (``agent()`` with no prompt
when the step left a tool result to answer, then each remaining user message), and scores the whole new
conversation with the same evaluator against the same gold. ``Counterfactual.outcome``:

- ``fixed``: no turn after the replaced step fails: the step explains the later failures;
- ``still_fails``: a turn after it fails again as before (same gold turn, same own failure reason);
- ``other_failure``: turns after it fail, none as before (the correction changed the path);
- ``not_run``: nothing was replayed; ``reason`` says why (``not run: no agent`` for an offline case or no
  factory, ``not run: the case passes``, ``not run: could not score: ...``).

Tools (``tools``): no external system is called twice for real.

- ``"recorded"`` (default): no tool runs. A call matching one recorded in the run (tool name and arguments)
  returns the recorded observation, as does one matching a gold turn that carries an ``observation``; any
  other call returns an error observation naming it, and ``Counterfactual.unrecorded_calls`` lists it (the
  outcome is then about an agent that saw an error there, and ``reason`` says so). The gold call of the
  replaced step takes gold's observation, else the recorded one.
- ``"sandboxed"``: the factory's tools run (the caller vouches they touch no real system); the gold call of
  the replaced step takes gold's observation, else runs once through the agent's tool.

The factory's model must answer from the conversation it is given, as a hosted model does; a model scripted by
position (``aem_strands.testing.ScriptedModel``) would start its script again and is no test of the diagnosis.

In an Experiment: run it, then ``with_counterfactuals(report, factory, evaluator=...)`` returns a copy of the
report whose failing rows carry ``metadata["counterfactual"]`` (``Counterfactual.to_dict``); the report row
holds the case and its recorded run, so nothing but the replay itself runs again.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Literal

from strands.hooks import BeforeToolCallEvent
from strands_evals import Case
from strands_evals.types import EvaluationData
from strands_evals.types.evaluation_report import EvaluationReport
from strands_evals.types.trace import Session

from aem_strands.errors import AemError, ConfigError
from aem_strands.strands.cases import AEM_KEY, case_dialog
from aem_strands.strands.evaluators import AemSessionEvaluator, AemTurnEvaluator, ScoredCase
from aem_strands.strands.replay_messages import (
    Conversation,
    RecordedTools,
    call_key,
    continuation_turns,
    tool_observation,
)
from aem_strands.strands.session import (
    PredictedTurn,
    offline_session,
    session_to_turns,
    session_tools,
    with_tool_registry,
)
from aem_strands.strands.tasks import AgentFactory, build_agent, user_messages
from aem_strands.strands.trace_adapter import session_to_trace
from aem_strands.strands.trace_evaluator import AemTraceEvaluator, case_goal, readable_steps
from aem_strands.trace.types import ActionType
from aem_strands.types import ActionCall, JsonValue, Reply, TurnContent

ToolsMode = Literal["recorded", "sandboxed"]
TOOLS_MODES: tuple[ToolsMode, ...] = ("recorded", "sandboxed")
AemEvaluator = AemSessionEvaluator | AemTurnEvaluator | AemTraceEvaluator


class Outcome(str, Enum):
    """What replacing the diagnosed step with gold did to the rest of the conversation."""

    FIXED = "fixed"
    STILL_FAILS = "still_fails"
    OTHER_FAILURE = "other_failure"
    NOT_RUN = "not_run"


@dataclass(frozen=True)
class Counterfactual:
    """The result of one counterfactual replay (see the module docstring)."""

    outcome: Outcome
    reason: str
    tools: ToolsMode
    step: int | str | None = None
    """The replaced step: the first root cause's turn number, or the trace's first critical failure step id."""
    replaced_with: Mapping[str, JsonValue] | None = None
    """The gold turn put in its place (unpaired format, with ``observation_source``); ``None``: the step was dropped."""
    later_failures_before: int = 0
    later_failures_after: int = 0
    runs: int = 0
    unrecorded_calls: tuple[str, ...] = ()
    score_after: float | None = None
    turns_after: tuple[Mapping[str, JsonValue], ...] = field(default=(), repr=False)
    """The new conversation's predicted turns (unpaired format): the recorded prefix, gold, the continuation."""

    def to_dict(self) -> dict[str, JsonValue]:
        return {
            "step": self.step,
            "replaced_with": None if self.replaced_with is None else dict(self.replaced_with),
            "outcome": self.outcome.value,
            "reason": self.reason,
            "later_failures_before": self.later_failures_before,
            "later_failures_after": self.later_failures_after,
            "runs": self.runs,
            "tools": self.tools,
            "unrecorded_calls": list(self.unrecorded_calls),
            "score_after": self.score_after,
        }


@dataclass(frozen=True)
class _Reading:
    """One scoring of a conversation, reduced to what the replay compares.

    Positions count predicted turns (0-based); a gold turn the agent never made sits half-way after the
    predicted turn before it; a failure of the whole trace sits after every turn.
    """

    passed: bool
    status: str
    score: float | None
    predicted: tuple[PredictedTurn, ...]
    gold_turns: tuple[TurnContent, ...]
    failures: tuple[tuple[float, str], ...]
    """(position, key) of each failure; the key names the gold turn (or extra call, or trace rule) and reason."""
    step: int | str | None = None
    """The diagnosed step: the first root cause's turn number, or the trace's first critical failure step."""
    step_at: float | None = None
    gold: TurnContent | None = None
    """What gold puts in the step's place (``None``: the step is an extra call gold does not have)."""
    why_not: str | None = None
    """Why there is no step to replace (``None`` when there is one)."""

    @property
    def step_name(self) -> str:
        return f"turn {self.step}" if isinstance(self.step, int) else f"step {self.step}"

    def later(self, position: float) -> list[str]:
        return [key for at, key in self.failures if at > position]


def _data(case: Case[Any, Any], output: Any, trajectory: Any) -> EvaluationData[Any, Any]:
    return EvaluationData(
        input=case.input, actual_output=output, name=case.name, expected_output=case.expected_output,
        expected_trajectory=case.expected_trajectory, actual_trajectory=trajectory, metadata=case.metadata,
    )  # fmt: skip


def _positions(scored: ScoredCase) -> dict[int, float]:
    """Turn number -> position among predicted turns (alignment pairs; a missing turn half-way after the last)."""
    alignment = scored.found.dialog.metadata.get("alignment")
    pairs = alignment.get("pairs", []) if isinstance(alignment, dict) else []
    index = {p["turn_no"]: p.get("predicted_index") for p in pairs if isinstance(p, dict)}
    out: dict[int, float] = {}
    last = -1.0
    for turn in scored.result.turns:
        found = index.get(turn.turn.turn_no)
        last = float(found) if isinstance(found, int) else float(int(last)) + 0.5
        out[turn.turn.turn_no] = last
    return out


def _read_dialog(evaluator: AemSessionEvaluator | AemTurnEvaluator, data: EvaluationData[Any, Any]) -> _Reading:
    scored = evaluator.score_case(data)
    result = scored.result
    at = _positions(scored)
    failures = []
    for turn in result.failures:
        what = f"gold turn {turn.turn.turn_no}" if turn.turn.gold is not None else f"extra {turn.turn.predicted}"
        reason = turn.verdict.own_reason
        failures.append((at[turn.turn.turn_no], f"{what}: {reason.value if reason else 'fail'}"))
    golds = tuple(t.turn.gold for t in result.turns if t.turn.gold is not None)
    reading = _Reading(result.test_pass, result.status, result.score, scored.found.predicted, golds, tuple(failures))
    if not result.root_causes:
        return replace(reading, why_not=f"no root cause to replace ({result.status})")
    root = result.root_causes[0].turn
    return replace(reading, step=root.turn_no, step_at=at[root.turn_no], gold=root.gold)


def _read_trace(evaluator: AemTraceEvaluator, data: EvaluationData[Any, Any]) -> _Reading:
    result = evaluator.judge_case(data)
    session = data.actual_trajectory
    if not isinstance(session, Session):  # judge_case has refused it already; this narrows the type
        raise ConfigError(f"case {data.name!r}: a trace replay needs a Session trajectory")
    name = data.name or session.session_id
    read = session_to_trace(session, trace_id=name, goal=case_goal(data), sub_agents=evaluator.sub_agents)
    trace, _ = readable_steps(read)  # the step names judge_case gives
    ordinal = {s.step_id: k for k, s in enumerate(s for s in trace.steps if s.action_type is not ActionType.USER)}
    failures = [
        (float(ordinal.get(f.step_id, -1)) if f.step_id is not None else math.inf, f"{f.rule}")
        for verdict in result.dimensions.values()
        if verdict.passed is False
        for f in verdict.findings
    ]
    predicted = tuple(session_to_turns(session, sub_agents=evaluator.sub_agents))
    dims = [v for v in result.dimensions.values() if v.applicable]
    score = 0.0 if result.veto else sum(bool(v.passed) for v in dims) / len(dims) if dims else 1.0
    reading = _Reading(result.test_pass, result.status.value, score, predicted, (), tuple(failures))
    critical = result.diagnosis.first_critical_failure_step
    if result.test_pass or critical not in ordinal:
        return replace(reading, why_not=f"no step to replace ({result.status.value}, critical step {critical})")
    try:
        found = case_dialog(
            data.metadata, session, name=data.name, sub_agents=evaluator.sub_agents,
            expected_trajectory=data.expected_trajectory, expected_output=data.expected_output,
        )  # fmt: skip
    except AemError as error:
        return replace(reading, step=critical, why_not=f"no gold to replace step {critical} with: {error}")
    alignment = found.dialog.metadata.get("alignment")
    pairs = alignment.get("pairs", []) if isinstance(alignment, dict) else []
    turn_no = next((p["turn_no"] for p in pairs if p.get("predicted_index") == ordinal[critical]), None)
    gold = next((t.gold for t in found.dialog.turns if t.turn_no == turn_no), None)
    golds = tuple(t.gold for t in found.dialog.turns if t.gold is not None)
    return replace(reading, gold_turns=golds, step=critical, step_at=float(ordinal[critical]), gold=gold)


def _read(evaluator: AemEvaluator, case: Case[Any, Any], output: Any, trajectory: Any) -> _Reading:
    data = _data(case, output, trajectory)
    return _read_trace(evaluator, data) if isinstance(evaluator, AemTraceEvaluator) else _read_dialog(evaluator, data)


def _gold_step(gold: ActionCall, replay: RecordedTools, agent: Any, tools: ToolsMode) -> tuple[ActionCall, str]:
    """The gold call with its observation, and where that came from (gold, recorded, sandboxed, unrecorded)."""
    if gold.observation is not None:
        return gold, "gold"
    key = call_key(gold.action, gold.args)
    if key in replay.recorded:
        return replace(gold, observation=replay.recorded[key]), "recorded"
    if tools == "sandboxed" and gold.action not in agent.tool_names:
        return replace(gold, observation={"error": f"the agent has no tool {gold.action!r}"}), "sandboxed"
    if tools == "sandboxed":
        result = getattr(agent.tool, gold.action)(record_direct_tool_call=False, **gold.args)
        return replace(gold, observation=tool_observation(result)), "sandboxed"
    return replace(gold, observation=replay.answer(gold.action, gold.args)), "unrecorded"


def _step_user_turn(predicted: Sequence[PredictedTurn], keep: int, *, missing: bool) -> int:
    """The user turn the step belongs to: the replaced turn's; for a turn the agent never made, the turn of the
    call before it (a reply before it ended that user turn: the next turn's)."""
    after = predicted[keep] if keep < len(predicted) else None
    before = predicted[keep - 1] if keep > 0 else None
    if after is not None and (not missing or before is None or isinstance(before.content, Reply)):
        return after.user_turn
    return before.user_turn if before is not None else 1


def _prefix(users: Sequence[str], kept: Sequence[PredictedTurn], user_turn: int) -> Conversation:
    """The recorded conversation up to the step: user messages 1..user_turn and the agent's kept turns."""
    conversation = Conversation()
    for number in range(1, user_turn + 1):
        if number <= len(users):
            conversation.user(users[number - 1])
        for turn in kept:
            if turn.user_turn == number:
                conversation.add(turn.content)
    return conversation


def _session(turns: Sequence[PredictedTurn], case: Case[Any, Any], users: Sequence[str], recorded: Any) -> Session:
    """The replayed conversation as a ``Session`` (as ``offline_session`` builds one), with the run's tool specs."""
    paired = [
        {"turn_no": i + 1, "turn": "Agent" if isinstance(t.content, Reply) else "Tool", "predict_turn": t.to_dict()}
        for i, t in enumerate(turns)
    ]
    session = offline_session(paired, str(case.session_id), users)
    specs = session_tools(recorded) if isinstance(recorded, Session) else []
    return with_tool_registry(session, specs) if specs else session


def counterfactual_replay(
    factory: AgentFactory | None,
    case: Case[Any, Any],
    run: Mapping[str, Any],
    *,
    evaluator: AemEvaluator | None = None,
    tools: ToolsMode = "recorded",
) -> Counterfactual:
    """Replace the failed case's diagnosed step with gold, let a fresh agent continue, and score it.

    ``run`` is the case's recorded run, as ``make_live_task`` returns it (``{"output", "trajectory"}``);
    ``evaluator`` (default ``AemSessionEvaluator()``) scores it and the replay alike: an AEM evaluator
    diagnoses the first root cause, ``AemTraceEvaluator`` the first critical failure step (gold from the case
    as ``case_dialog`` reads it). See the module docstring for the outcomes and the ``tools`` modes. Raises
    ``ConfigError`` for an unknown ``tools``.
    """
    if tools not in TOOLS_MODES:
        raise ConfigError(f"tools must be one of {', '.join(TOOLS_MODES)}, got {tools!r}")
    entry = (case.metadata or {}).get(AEM_KEY)
    if factory is None or (isinstance(entry, dict) and "dialog" in entry):
        return Counterfactual(Outcome.NOT_RUN, "not run: no agent", tools)
    evaluator = evaluator or AemSessionEvaluator()
    trajectory = run.get("trajectory")
    try:
        before = _read(evaluator, case, run.get("output"), trajectory)
    except AemError as error:
        return Counterfactual(Outcome.NOT_RUN, f"not run: could not score: {error}", tools)
    if before.passed:
        return Counterfactual(Outcome.NOT_RUN, "not run: the case passes", tools)
    if before.why_not is not None or before.step_at is None:
        return Counterfactual(Outcome.NOT_RUN, f"not run: {before.why_not}", tools)
    predicted = before.predicted
    keep = math.ceil(before.step_at)  # a step the agent made is dropped; a missing one is inserted before the next
    later_before = before.later(before.step_at)

    recorded: dict[str, JsonValue] = {}
    for content in [*before.gold_turns, *(p.content for p in predicted)]:
        if isinstance(content, ActionCall) and content.observation is not None:
            recorded[call_key(content.action, content.args)] = content.observation  # the run's observation wins
    replay = RecordedTools(recorded)
    agent = build_agent(factory, case)
    users = user_messages(case)
    user_turn = _step_user_turn(predicted, keep, missing=before.step_at != keep)
    conversation = _prefix(users, predicted[:keep], user_turn)
    gold, replaced = before.gold, None
    if isinstance(gold, ActionCall):
        gold, source = _gold_step(gold, replay, agent, tools)
        replaced = {**PredictedTurn(gold, user_turn).to_dict(), "observation_source": source}
    elif isinstance(gold, Reply):
        replaced = PredictedTurn(gold, user_turn).to_dict()
    if gold is not None:
        conversation.add(gold)

    if tools == "recorded":
        agent.hooks.add_callback(BeforeToolCallEvent, replay.before_tool)
    agent.messages = list(conversation.messages)
    start = len(agent.messages)
    if agent.messages and agent.messages[-1]["role"] == "user":
        agent()  # no new prompt: the agent answers the last user message or tool result
    for message in users[user_turn:]:
        agent(message)
    step_turns = [PredictedTurn(gold, user_turn)] if gold is not None else []
    turns = [*predicted[:keep], *step_turns, *continuation_turns(agent.messages[start:], user_turn)]
    replies = [t.content.response for t in turns if isinstance(t.content, Reply)]
    after = _read(evaluator, case, replies[-1] if replies else None, _session(turns, case, users, trajectory))

    later_after = after.later(keep if step_turns else keep - 1)  # the gold step itself is not later
    if not later_after:
        outcome, why = Outcome.FIXED, f"no failure after the replaced step (now {after.status})"
    elif set(later_after) & set(later_before):
        outcome, why = (
            Outcome.STILL_FAILS,
            f"fails again as before: {'; '.join(sorted(set(later_after) & set(later_before)))}",
        )
    else:
        outcome, why = Outcome.OTHER_FAILURE, f"fails differently: {'; '.join(later_after)}"
    if replay.unrecorded:
        why += (
            f"; {len(replay.unrecorded)} unrecorded tool call(s) answered with an error: {', '.join(replay.unrecorded)}"
        )
    return Counterfactual(
        outcome, f"{before.step_name} replaced with gold: {why}", tools, before.step, replaced, len(later_before),
        len(later_after), 1, tuple(replay.unrecorded), after.score, tuple(t.to_dict() for t in turns),
    )  # fmt: skip


_ROW_ONLY = ("evaluator", "evaluator_type")


def with_counterfactuals(
    report: EvaluationReport,
    factory: AgentFactory | None,
    *,
    evaluator: AemEvaluator | None = None,
    tools: ToolsMode = "recorded",
) -> EvaluationReport:
    """A copy of ``report`` whose failing rows carry ``metadata["counterfactual"]`` (``Counterfactual.to_dict``).

    Each row's case and recorded run are read from ``report.cases`` (the host keeps the evaluation data
    there); rows that pass are left as they are. A replay that raises (the agent or its model failed) gives
    ``not_run`` with the error in ``reason``, and the other rows are still replayed.
    """
    out = report.model_copy(deep=True)
    for index, (row, passed) in enumerate(zip(out.cases, out.test_passes, strict=True)):
        outputs = out.detailed_results[index] if index < len(out.detailed_results) else []
        if passed or not outputs:
            continue
        data = EvaluationData[Any, Any].model_validate({k: v for k, v in row.items() if k not in _ROW_ONLY})
        case: Case[Any, Any] = Case(
            name=data.name, input=data.input, expected_output=data.expected_output,
            expected_trajectory=data.expected_trajectory if isinstance(data.expected_trajectory, list) else None,
            metadata=data.metadata,
        )  # fmt: skip
        run = {"output": data.actual_output, "trajectory": data.actual_trajectory}
        try:
            found = counterfactual_replay(factory, case, run, evaluator=evaluator, tools=tools)
        except Exception as error:  # one agent that crashes on replay must not lose the other rows' replays
            found = Counterfactual(
                Outcome.NOT_RUN, f"not run: the replay raised {type(error).__name__}: {error}", tools
            )
        first = outputs[0]
        outputs[0] = first.model_copy(
            update={"metadata": {**(first.metadata or {}), "counterfactual": found.to_dict()}}
        )
    return out
