"""Checking one turn against its gold turn (SPEC §4).

Action turns: structural checks (tool, then action), completeness (argument keys come from gold:
missing keys, extra keys) and truthfulness (each shared key's value must be equivalent to gold).
Response turns: truthfulness (the reply as a whole must be equivalent to gold, and must not state
numbers gold does not) and completeness (gold's numbers and questions must be covered).

Every problem found is recorded; the primary reason is the first in ``REASON_PRECEDENCE``:
missing_turn, extra_turn, tool_mismatch, action_mismatch, missing_parameters,
inconsistent_parameter_values, extra_parameters, inconsistent_response, incomplete_response.
A turn whose only open question is a comparison that could not be decided is ``not_applicable``.

Judging is pure: value comparisons arrive through ``compare``, a function that returns already
computed results (see ``comparison_requests``), so no model is called here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date

from aem_strands.compare.chain import ComparisonRequest
from aem_strands.compare.facts import check_reply_facts
from aem_strands.compare.values import ParseContext
from aem_strands.metadata import UNORDERED_ARGS_KEY
from aem_strands.types import (
    REASON_PRECEDENCE,
    ActionCall,
    Comparison,
    FailureReason,
    JsonValue,
    Method,
    Problem,
    Reply,
    SubMetric,
    Turn,
    TurnKind,
    TurnVerdict,
    ValueKind,
    Verdict,
)

CompareFn = Callable[[ComparisonRequest], Comparison]


@dataclass(frozen=True)
class CheckContext:
    """What a dialog's metadata tells judging: "today" for relative dates, and unordered arguments."""

    reference_date: date | None = None
    unordered_args: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, JsonValue]) -> CheckContext:
        """Read ``reference_date`` (or ``date``) and ``unordered_args`` (see ``aem_strands.metadata``)."""
        unordered = metadata.get(UNORDERED_ARGS_KEY) or {}
        return cls(
            ParseContext.from_metadata(dict(metadata)).reference_date,
            {name: frozenset(args) for name, args in unordered.items()} if isinstance(unordered, dict) else {},
        )

    def is_unordered(self, call: ActionCall, arg: str) -> bool:
        return arg in self.unordered_args.get(f"{call.tool_id}.{call.action}", ()) or arg in self.unordered_args.get(
            call.tool_id, ()
        )

    def argument(self, call: ActionCall, arg: str, gold: JsonValue, predicted: JsonValue) -> ComparisonRequest:
        return ComparisonRequest(gold, predicted, ValueKind.ARGUMENT, self.reference_date, self.is_unordered(call, arg))

    def reply(self, gold: str, predicted: str) -> ComparisonRequest:
        return ComparisonRequest(gold, predicted, ValueKind.RESPONSE, self.reference_date)


NO_CONTEXT = CheckContext()


def comparison_requests(turn: Turn, context: CheckContext = NO_CONTEXT) -> list[ComparisonRequest]:
    """The value comparisons ``check_turn`` will ask for, so they can be batched beforehand."""
    gold, predicted = turn.gold, turn.predicted
    if isinstance(gold, ActionCall) and isinstance(predicted, ActionCall):
        if gold.tool_id != predicted.tool_id or gold.action != predicted.action:
            return []
        return [context.argument(gold, k, gold.args[k], predicted.args[k]) for k in gold.args if k in predicted.args]
    if isinstance(gold, Reply) and isinstance(predicted, Reply):
        return [context.reply(gold.response, predicted.response)]
    return []


def _ordered(problems: list[Problem]) -> tuple[Problem, ...]:
    return tuple(sorted(problems, key=lambda p: REASON_PRECEDENCE.index(p.reason)))


def _verdict(turn: Turn, problems: list[Problem], scores: dict[SubMetric, float], undecided: list[str]) -> TurnVerdict:
    passed = {metric: not any(p.sub_metric is metric for p in problems) for metric in scores}
    if problems:
        verdict = Verdict.FAIL
    elif undecided:
        verdict = Verdict.NOT_APPLICABLE
    else:
        verdict = Verdict.PASS
    return TurnVerdict(turn.turn_no, turn.kind, verdict, _ordered(problems), scores, passed, note="; ".join(undecided))


def _check_action(
    turn: Turn, gold: ActionCall, predicted: ActionCall, compare: CompareFn, context: CheckContext
) -> TurnVerdict:
    if gold.tool_id != predicted.tool_id:
        problem = Problem(
            FailureReason.TOOL_MISMATCH, SubMetric.STRUCTURE, "tool_id", gold.tool_id, predicted.tool_id, 0.0
        )
        return _verdict(turn, [problem], {SubMetric.STRUCTURE: 0.0}, [])
    if gold.action != predicted.action:
        problem = Problem(
            FailureReason.ACTION_MISMATCH, SubMetric.STRUCTURE, "action", gold.action, predicted.action, 0.0
        )
        return _verdict(turn, [problem], {SubMetric.STRUCTURE: 0.0}, [])
    problems: list[Problem] = []
    undecided: list[str] = []
    missing = [k for k in gold.args if k not in predicted.args]
    extra = [k for k in predicted.args if k not in gold.args]
    for key in missing:
        problems.append(
            Problem(
                FailureReason.MISSING_PARAMETERS,
                SubMetric.COMPLETENESS,
                f"args.{key}",
                gold.args[key],
                None,
                method=Method.KEYS,
            )
        )
    for key in extra:
        problems.append(
            Problem(
                FailureReason.EXTRA_PARAMETERS,
                SubMetric.COMPLETENESS,
                f"args.{key}",
                None,
                predicted.args[key],
                method=Method.KEYS,
            )
        )
    shared = [k for k in gold.args if k in predicted.args]
    equivalent = 0
    for key in shared:
        result = compare(context.argument(gold, key, gold.args[key], predicted.args[key]))
        if result.equivalent is True:
            equivalent += 1
        elif result.equivalent is False:
            problems.append(
                Problem(
                    FailureReason.INCONSISTENT_PARAMETER_VALUES, SubMetric.TRUTHFULNESS, f"args.{key}",
                    gold.args[key], predicted.args[key], result.score, result.method, result.detail,
                )
            )  # fmt: skip
        else:
            undecided.append(f"args.{key}: {result.detail}")
    required = len(gold.args) + len(extra)
    scores = {
        SubMetric.STRUCTURE: 1.0,
        SubMetric.COMPLETENESS: (len(gold.args) - len(missing)) / required if required else 1.0,
        SubMetric.TRUTHFULNESS: equivalent / len(shared) if shared else 1.0,
    }
    return _verdict(turn, problems, scores, undecided)


def _check_reply(turn: Turn, gold: Reply, predicted: Reply, compare: CompareFn, context: CheckContext) -> TurnVerdict:
    problems: list[Problem] = []
    undecided: list[str] = []
    result = compare(context.reply(gold.response, predicted.response))
    if result.equivalent is False:
        problems.append(
            Problem(
                FailureReason.INCONSISTENT_RESPONSE, SubMetric.TRUTHFULNESS, "response",
                gold.response, predicted.response, result.score, result.method, result.detail,
            )
        )  # fmt: skip
    elif result.equivalent is None:
        undecided.append(f"response: {result.detail}")
    facts = check_reply_facts(gold.response, predicted.response)
    for finding in facts.findings:
        problems.append(
            Problem(
                finding.reason,
                finding.sub_metric,
                "response",
                finding.gold,
                finding.predicted,
                None,
                Method.FACTS,
                finding.detail,
            )
        )
    contradicted = any(f.sub_metric is SubMetric.TRUTHFULNESS for f in facts.findings)
    scores = {
        SubMetric.TRUTHFULNESS: 0.0 if contradicted else result.score,
        SubMetric.COMPLETENESS: facts.coverage,
    }
    return _verdict(turn, problems, scores, undecided)


def check_turn(turn: Turn, compare: CompareFn, context: CheckContext = NO_CONTEXT) -> TurnVerdict:
    """Judge ``turn.predicted`` against ``turn.gold`` (``context``: from the dialog's metadata)."""
    gold, predicted = turn.gold, turn.predicted
    if predicted is None and gold is not None:
        problem = Problem(
            FailureReason.MISSING_TURN, SubMetric.COMPLETENESS, "turn", _describe(gold), None, 0.0, Method.ALIGNMENT
        )
        return _verdict(turn, [problem], {SubMetric.COMPLETENESS: 0.0}, [])
    if gold is None and predicted is not None:
        problem = Problem(
            FailureReason.EXTRA_TURN, SubMetric.COMPLETENESS, "turn", None, _describe(predicted), 0.0, Method.ALIGNMENT
        )
        return _verdict(turn, [problem], {SubMetric.COMPLETENESS: 0.0}, [])
    if isinstance(gold, ActionCall) and isinstance(predicted, ActionCall):
        return _check_action(turn, gold, predicted, compare, context)
    if isinstance(gold, Reply) and isinstance(predicted, Reply):
        return _check_reply(turn, gold, predicted, compare, context)
    # A reply where a tool call was due (or the reverse) is the wrong tool: none at all.
    expected, found = _describe(gold), _describe(predicted)
    problem = Problem(FailureReason.TOOL_MISMATCH, SubMetric.STRUCTURE, "turn", expected, found, 0.0)
    kind = TurnKind.ACTION if isinstance(gold, ActionCall) else TurnKind.RESPONSE
    return _verdict(Turn(turn.turn_no, kind, gold, predicted), [problem], {SubMetric.STRUCTURE: 0.0}, [])


def _describe(content: ActionCall | Reply | None) -> str | None:
    if isinstance(content, ActionCall):
        return f"{content.tool_id}.{content.action}"
    if isinstance(content, Reply):
        return "reply"
    return None
