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
from dataclasses import dataclass, field, replace
from datetime import date

from aem_strands.align import failed_call, identical_turn
from aem_strands.compare.chain import ComparisonRequest
from aem_strands.compare.facts import check_reply_facts
from aem_strands.compare.values import ParseContext
from aem_strands.metadata import UNORDERED_ARGS_KEY
from aem_strands.tools import FREE_TEXT_NAMES, ArgKind, ToolCatalog
from aem_strands.types import (
    REASON_PRECEDENCE,
    ActionCall,
    Comparison,
    Decision,
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
    make_verdict,
)

CompareFn = Callable[[ComparisonRequest], Comparison]


@dataclass(frozen=True)
class CheckContext:
    """What judging needs beyond the turn: "today" for relative dates, unordered arguments and the order of
    numeric dates (from the dialog's metadata), and the tool definitions and read-only tool names (from the
    options)."""

    reference_date: date | None = None
    unordered_args: Mapping[str, frozenset[str]] = field(default_factory=dict)
    tools: ToolCatalog = field(default_factory=ToolCatalog)
    read_only_tools: frozenset[str] = frozenset()
    day_first: bool | None = None

    @classmethod
    def from_metadata(
        cls,
        metadata: Mapping[str, JsonValue],
        tools: ToolCatalog | None = None,
        read_only_tools: frozenset[str] = frozenset(),
    ) -> CheckContext:
        """Read ``reference_date`` (or ``date``), ``unordered_args`` and ``locale`` (see ``aem_strands.metadata``)."""
        unordered = metadata.get(UNORDERED_ARGS_KEY) or {}
        parsing = ParseContext.from_metadata(dict(metadata))
        return cls(
            parsing.reference_date,
            {name: frozenset(args) for name, args in unordered.items()} if isinstance(unordered, dict) else {},
            tools or ToolCatalog(),
            read_only_tools,
            parsing.day_first,
        )

    def is_unordered(self, call: ActionCall, arg: str) -> bool:
        return arg in self.unordered_args.get(f"{call.tool_id}.{call.action}", ()) or arg in self.unordered_args.get(
            call.tool_id, ()
        )

    def arg_kind(self, call: ActionCall, arg: str, gold: JsonValue) -> ArgKind:
        """The argument's kind: from the tool's schema, else free text by name and shape, else a plain value."""
        definition = self.tools.find(call)
        declared = definition.arg_kind(arg) if definition is not None else None
        if declared is not None:
            return declared
        if arg.lower() in FREE_TEXT_NAMES and isinstance(gold, str) and len(gold.split()) >= FREE_TEXT_MIN_WORDS:
            return ArgKind.FREE_TEXT
        return ArgKind.VALUE

    def argument(
        self, call: ActionCall, arg: str, gold: JsonValue, predicted: JsonValue, kind: ArgKind = ArgKind.VALUE
    ) -> ComparisonRequest:
        # A free-text argument is judged like a reply (facts, then meaning); every other value as an argument.
        if kind is ArgKind.FREE_TEXT and isinstance(gold, str) and isinstance(predicted, str):
            return ComparisonRequest(gold, predicted, ValueKind.RESPONSE, self.reference_date, day_first=self.day_first)
        return ComparisonRequest(
            gold, predicted, ValueKind.ARGUMENT, self.reference_date, self.is_unordered(call, arg), self.day_first
        )

    def reply(self, gold: str, predicted: str) -> ComparisonRequest:
        return ComparisonRequest(gold, predicted, ValueKind.RESPONSE, self.reference_date, day_first=self.day_first)

    def is_read_only(self, call: ActionCall) -> bool:
        return self.tools.is_read_only(call, self.read_only_tools)


NO_CONTEXT = CheckContext()

FREE_TEXT_MIN_WORDS = 3
"""Without a schema, an argument named like free text (``tools.FREE_TEXT_NAMES``) is judged like a reply
when its gold value has at least this many words."""


@dataclass(frozen=True)
class ArgumentCheck:
    """One argument to compare: its field path, the gold and predicted values (nested keys only one side
    has taken out), its kind, and the request that compares them."""

    field: str
    gold: JsonValue
    predicted: JsonValue
    kind: ArgKind
    request: ComparisonRequest


@dataclass(frozen=True)
class KeyDiff:
    """Argument keys, at any depth, that only one side has: ``(path, value)`` pairs."""

    missing: tuple[tuple[str, JsonValue], ...] = ()
    extra: tuple[tuple[str, JsonValue], ...] = ()
    nested_missing: int = 0


def _shared(
    gold: JsonValue, predicted: JsonValue, path: str, diff: list[list[tuple[str, JsonValue]]]
) -> tuple[JsonValue, JsonValue]:
    """Gold and predicted with the nested keys only one side has removed (recorded in ``diff``).

    Dicts recurse on shared keys; lists of equal length recurse item by item; anything else is a leaf.
    """
    if isinstance(gold, dict) and isinstance(predicted, dict):
        g_out: dict[str, JsonValue] = {}
        p_out: dict[str, JsonValue] = {}
        for key, value in gold.items():
            if key in predicted:
                g_out[key], p_out[key] = _shared(value, predicted[key], f"{path}.{key}", diff)
            else:
                diff[0].append((f"{path}.{key}", value))
        diff[1].extend((f"{path}.{key}", value) for key, value in predicted.items() if key not in gold)
        return g_out, p_out
    if isinstance(gold, list) and isinstance(predicted, list) and len(gold) == len(predicted):
        pairs = [_shared(g, p, f"{path}[{i}]", diff) for i, (g, p) in enumerate(zip(gold, predicted, strict=True))]
        return [g for g, _ in pairs], [p for _, p in pairs]
    return gold, predicted


def argument_checks(
    gold: ActionCall, predicted: ActionCall, context: CheckContext
) -> tuple[list[ArgumentCheck], KeyDiff]:
    """What to compare between two calls of the same tool and action, and which keys only one side has.

    Only gold's ``compare_args`` are considered when it names them. Unordered arguments (their lists are
    multisets) are not searched for nested keys item by item.
    """
    gold_args, predicted_args = gold.compared_args(gold.args), gold.compared_args(predicted.args)
    missing = [(f"args.{k}", v) for k, v in gold_args.items() if k not in predicted_args]
    extra = [(f"args.{k}", v) for k, v in predicted_args.items() if k not in gold_args]
    checks = []
    top_missing = len(missing)
    for key, gold_value in gold_args.items():
        if key not in predicted_args:
            continue
        nested: list[list[tuple[str, JsonValue]]] = [[], []]
        g, p = gold_value, predicted_args[key]
        if not context.is_unordered(gold, key):
            g, p = _shared(g, p, f"args.{key}", nested)
        missing += nested[0]
        extra += nested[1]
        kind = context.arg_kind(gold, key, gold_value)
        checks.append(ArgumentCheck(f"args.{key}", g, p, kind, context.argument(gold, key, g, p, kind)))
    return checks, KeyDiff(tuple(missing), tuple(extra), len(missing) - top_missing)


# The scores the full checks give an identical pair: exact match decides every value (score 1.0), every key is
# shared, and a reply's facts are all covered by themselves (tests/test_speed_identical.py).
_IDENTICAL_CALL = {SubMetric.STRUCTURE: 1.0, SubMetric.COMPLETENESS: 1.0, SubMetric.TRUTHFULNESS: 1.0}
_IDENTICAL_REPLY = {SubMetric.TRUTHFULNESS: 1.0, SubMetric.COMPLETENESS: 1.0}
_IDENTICAL_CALL_PASSED = dict.fromkeys(_IDENTICAL_CALL, True)
_IDENTICAL_REPLY_PASSED = dict.fromkeys(_IDENTICAL_REPLY, True)
_IDENTICAL = (Decision("turn", True, Method.EXACT, 1.0, "identical to gold"),)


def identical_verdict(turn: Turn) -> TurnVerdict:
    """The verdict ``check_turn`` gives a turn whose prediction is identical to gold (``align.identical_turn``)."""
    # Each verdict gets its own copies of the score maps (a caller may change one), built from templates.
    if isinstance(turn.gold, ActionCall):
        scores, passed = _IDENTICAL_CALL.copy(), _IDENTICAL_CALL_PASSED.copy()
    else:
        scores, passed = _IDENTICAL_REPLY.copy(), _IDENTICAL_REPLY_PASSED.copy()
    return make_verdict(turn.turn_no, turn.kind, Verdict.PASS, (), scores, passed, None, "", _IDENTICAL)


def comparison_requests(turn: Turn, context: CheckContext = NO_CONTEXT) -> list[ComparisonRequest]:
    """The value comparisons ``check_turn`` will ask for, so they can be batched beforehand (none for an
    identical pair, which ``check_turn`` settles without comparing)."""
    gold, predicted = turn.gold, turn.predicted
    if identical_turn(gold, predicted):
        return []
    if isinstance(gold, ActionCall) and isinstance(predicted, ActionCall):
        if gold.tool_id != predicted.tool_id or gold.action != predicted.action:
            return []
        return [check.request for check in argument_checks(gold, predicted, context)[0]]
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
    if failed_call(predicted) and not failed_call(gold):
        # The tool rejected the call: whatever its arguments, the step gold requires did not happen.
        problems.append(
            Problem(
                FailureReason.CALL_FAILED, SubMetric.COMPLETENESS, "observation", gold.observation,
                predicted.observation, 0.0, Method.STRUCTURAL,
                "the call failed (its observation is an error) where gold's succeeded: the step did not happen",
            )
        )  # fmt: skip
    checks, keys = argument_checks(gold, predicted, context)
    for path, value in keys.missing:
        problems.append(
            Problem(FailureReason.MISSING_PARAMETERS, SubMetric.COMPLETENESS, path, value, None, method=Method.KEYS)
        )
    for path, value in keys.extra:
        problems.append(
            Problem(FailureReason.EXTRA_PARAMETERS, SubMetric.COMPLETENESS, path, None, value, method=Method.KEYS)
        )
    equivalent = 0
    decisions: list[Decision] = []
    for check in checks:
        result = _strict(compare(check.request), check.kind)
        decisions.append(Decision(check.field, result.equivalent, result.method, result.score, result.detail))
        if result.equivalent is True:
            equivalent += 1
        elif result.equivalent is False:
            problems.append(
                Problem(
                    FailureReason.INCONSISTENT_PARAMETER_VALUES, SubMetric.TRUTHFULNESS, check.field,
                    check.gold, check.predicted, result.score, result.method, result.detail,
                )
            )  # fmt: skip
        else:
            undecided.append(f"{check.field}: {result.detail}")
    expected = len(gold.compared_args(gold.args)) + keys.nested_missing
    required = expected + len(keys.extra)
    scores = {
        SubMetric.STRUCTURE: 1.0,
        SubMetric.COMPLETENESS: 0.0
        if problems and problems[0].reason is FailureReason.CALL_FAILED
        else (expected - len(keys.missing)) / required
        if required
        else 1.0,
        SubMetric.TRUTHFULNESS: equivalent / len(checks) if checks else 1.0,
    }
    return replace(_verdict(turn, problems, scores, undecided), decisions=tuple(decisions))


_SEMANTIC = frozenset({Method.EMBEDDING, Method.JUDGE, Method.TEST})


def _strict(result: Comparison, kind: ArgKind) -> Comparison:
    """For an argument whose schema makes it strict (enum, date, e-mail, uri, number, boolean), a pass by
    similarity is not a pass: only exact match and typed normalisation decide it."""
    if kind.strict and result.equivalent is True and result.method in _SEMANTIC:
        detail = f"{result.detail}; but the schema declares a {kind.value} argument: similarity does not decide it"
        return Comparison(False, result.score, result.method, detail)
    return result


def _check_reply(turn: Turn, gold: Reply, predicted: Reply, compare: CompareFn, context: CheckContext) -> TurnVerdict:
    problems: list[Problem] = []
    undecided: list[str] = []
    result = compare(context.reply(gold.response, predicted.response))
    # A reply the comparison failed on its facts is reported fact by fact below, not twice.
    if result.equivalent is False and result.method is not Method.FACTS:
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
    decision = Decision("response", result.equivalent, result.method, result.score, result.detail)
    return replace(_verdict(turn, problems, scores, undecided), decisions=(decision,))


def check_turn(turn: Turn, compare: CompareFn, context: CheckContext = NO_CONTEXT) -> TurnVerdict:
    """Judge ``turn.predicted`` against ``turn.gold`` (``context``: from the dialog's metadata)."""
    gold, predicted = turn.gold, turn.predicted
    if gold is not None and identical_turn(gold, predicted):
        return identical_verdict(turn)
    if predicted is None and gold is not None:
        problem = Problem(
            FailureReason.MISSING_TURN, SubMetric.COMPLETENESS, "turn", _describe(gold), None, 0.0, Method.ALIGNMENT
        )
        return _verdict(turn, [problem], {SubMetric.COMPLETENESS: 0.0}, [])
    if gold is None and predicted is not None:
        problem = Problem(
            FailureReason.EXTRA_TURN, SubMetric.COMPLETENESS, "turn", None, _describe(predicted), 0.0, Method.ALIGNMENT,
            _extra_detail(predicted, context),
        )  # fmt: skip
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


def _extra_detail(predicted: ActionCall | Reply, context: CheckContext) -> str:
    if not isinstance(predicted, ActionCall):
        return "a reply gold does not have"
    if context.is_read_only(predicted):
        return f"an extra call to {predicted.action}, a read-only tool (not tolerated under these options)"
    return f"an extra call to {predicted.action}, a write (not a read-only tool): it may have changed state"


def _describe(content: ActionCall | Reply | None) -> str | None:
    if isinstance(content, ActionCall):
        return f"{content.tool_id}.{content.action}"
    if isinstance(content, Reply):
        return "reply"
    return None
