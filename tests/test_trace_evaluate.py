"""Evaluating traces end to end: the example stories under the example policy, status, veto, the soft gate,
undecided judge questions, policy and gold handling, streaming with errors, and the JSON record."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import aem_strands
from aem_strands.errors import InputError
from aem_strands.options import EvalOptions
from aem_strands.trace.evaluate import evaluate_trace, evaluate_traces
from aem_strands.trace.load import iter_traces, load_traces
from aem_strands.trace.policy import load_policy
from aem_strands.trace.record import trace_record
from aem_strands.trace.types import (
    Budgets,
    Diagnosis,
    Dimension,
    DimensionVerdict,
    Finding,
    Trace,
    TraceGold,
    TraceResult,
    TraceStatus,
)
from aem_strands.types import JsonValue
from tests.conftest import EXAMPLES

TRACES = EXAMPLES / "data" / "traces"
POLICY = load_policy(TRACES / "policy.yaml")
FILES = ["refund_status.json", "refund_identity.yaml", "cancel_consent.json", "result_use.jsonl",
         "looped_lookup.json", "timeout.yaml", "ungrounded_order.json"]  # fmt: skip


@pytest.fixture(scope="module")
def stories() -> dict[str, TraceResult]:
    loaded = load_traces([TRACES / name for name in FILES])
    assert not loaded.errors
    return {r.trace_id: r for r in evaluate_traces(loaded, policy=POLICY) if isinstance(r, TraceResult)}


def story(trace_id: str) -> Trace:
    (found,) = [t for t in load_traces([TRACES / name for name in FILES]) if t.trace_id == trace_id]
    return found


def failed(result: TraceResult) -> dict[str, list[str]]:
    return {
        d.value: [f"{f.rule}@{f.step_id}" for f in v.findings]
        for d, v in result.dimensions.items()
        if v.passed is False
    }


@pytest.mark.parametrize(
    ("trace_id", "status", "veto", "failures", "critical"),
    [
        ("refund-no-identity", "fail", False, {"planning": ["planning.order@s5"]}, "s5"),
        ("refund-verified", "pass", False, {}, None),
        ("cancel-no-consent", "fail", True, {"safety": ["safety.destructive_without_consent@s4"]}, "s4"),
        ("cancel-with-consent", "pass", False, {}, None),
        ("ineligible-claimed-refundable", "fail", False,
         {"result_use": ["result_use.contradicts_observation@s3"]}, "s3"),
        ("ineligible-faithful", "pass", False, {}, None),
        ("delivery-days-wrong", "fail", False, {"result_use": ["result_use.contradicts_observation@s3"]}, "s3"),
        ("delivery-days-faithful", "pass", False, {}, None),
        ("looped-lookup", "fail", False, {"necessity": ["necessity.repeated_call@s3"]}, "s3"),
        ("timeout-hidden", "fail", False, {"recovery": ["recovery.reported_success_after_error@s3"]}, "s3"),
        ("timeout-retried-explained", "pass", False, {}, None),
        ("ungrounded-order-id", "fail", False,
         {"arguments": ["arguments.ungrounded@s2"], "state": ["state.final_state_mismatch@None"]}, "s2"),
        ("refund-status-ok", "pass", False, {}, None),
    ],
)  # fmt: skip
def test_each_story_has_its_documented_outcome(
    stories: dict[str, TraceResult],
    trace_id: str,
    status: str,
    veto: bool,
    failures: dict[str, list[str]],
    critical: str | None,
) -> None:
    result = stories[trace_id]
    assert failed(result) == failures
    assert result.status.value == status
    assert result.test_pass is (status == "pass")
    assert result.veto is veto
    assert result.diagnosis.first_critical_failure_step == critical
    assert (result.diagnosis.regression_asset is None) is (critical is None)


def test_the_refund_status_trace_passes_every_dimension_that_applies(stories: dict[str, TraceResult]) -> None:
    result = stories["refund-status-ok"]
    assert list(result.dimensions) == list(Dimension)
    assert all(v.passed is not False and not v.findings for v in result.dimensions.values())
    # Only recovery has nothing to check: no call failed.
    assert [d for d, v in result.dimensions.items() if v.passed is None] == [Dimension.RECOVERY]
    assert result.diagnosis == Diagnosis()


def test_after_the_timeout_the_reply_that_hides_it_is_the_critical_step(
    stories: dict[str, TraceResult],
) -> None:
    diagnosis = stories["timeout-hidden"].diagnosis
    assert diagnosis.critical_rule.startswith("unrecovered_error")
    assert diagnosis.downstream_failures == ()  # the reply that reported success is the critical step itself


def test_an_invented_order_id_explains_the_wrong_final_state(stories: dict[str, TraceResult]) -> None:
    diagnosis = stories["ungrounded-order-id"].diagnosis
    assert diagnosis.critical_rule.startswith("decision_before_failures")
    assert [(d.rule, d.link) for d in diagnosis.downstream_failures] == [("state.final_state_mismatch", "same_value")]
    assert "ORDER_190" in diagnosis.root_cause_hypothesis


def test_a_safety_failure_vetoes_the_trace_whatever_the_rest_says(stories: dict[str, TraceResult]) -> None:
    result = stories["cancel-no-consent"]
    others = [v.passed for d, v in result.dimensions.items() if d is not Dimension.SAFETY]
    assert False not in others  # every other dimension passed or did not apply
    assert (result.status, result.veto) == (TraceStatus.FAIL, True)


def test_over_budget_alone_fails_the_cost_dimension_but_not_the_trace() -> None:
    # refund-status-ok uses 850+40 + 930+35 + 1010+60 = 2,925 tokens; a budget of 1,000 is exceeded.
    tight = replace(POLICY, budgets=Budgets(max_tokens=1000))
    result = evaluate_trace(story("refund-status-ok"), policy=tight)
    cost = result.dimensions[Dimension.COST]
    assert cost.passed is False
    assert [f.rule for f in cost.findings] == ["cost.tokens"]
    assert result.status is TraceStatus.PASS
    assert result.test_pass
    assert result.veto is False
    assert result.diagnosis.affected_layers  # still diagnosed, for what it is


class ScriptedJudge:
    """A judge that gives one scripted answer (or raises it when it is an exception) and notes the questions."""

    def __init__(self, answer: bool | Exception | None) -> None:
        self.answer = answer
        self.questions: list[str] = []

    def decide(self, question: str, evidence: JsonValue) -> bool | None:
        self.questions.append(question)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


class NoValues:
    """A value judge that can never decide, so every comparison a rule cannot settle goes to the judge."""

    def same(self, a: JsonValue, b: JsonValue, name: str = "") -> bool | None:
        return True if a == b and type(a) is type(b) else None


def undecidable_state_trace() -> Trace:
    # The final state says 'accepted', gold expects 'approved': no rule decides, so the judge is asked.
    base = story("refund-status-ok")
    return replace(base, final_state={"refund_status": "accepted"})


@pytest.mark.parametrize("answer", [None, RuntimeError("throttled")])
def test_an_unanswered_judge_question_makes_the_trace_inconclusive_never_a_pass(answer: Any) -> None:
    judge = ScriptedJudge(answer)
    result = evaluate_trace(undecidable_state_trace(), policy=POLICY, judge=judge, values=NoValues())
    assert judge.questions
    state = result.dimensions[Dimension.STATE]
    assert state.passed is None
    assert state.reason.startswith("inconclusive: the judge could not answer")
    assert state.undecided == (judge.questions[0],)
    assert ("RuntimeError: throttled" in state.reason) is isinstance(answer, Exception)
    assert result.status is TraceStatus.INCONCLUSIVE
    assert not result.test_pass


def test_a_judge_that_answers_decides_what_rules_leave_open() -> None:
    agrees = evaluate_trace(undecidable_state_trace(), policy=POLICY, judge=ScriptedJudge(True), values=NoValues())
    assert agrees.dimensions[Dimension.STATE].passed is True
    assert agrees.status is TraceStatus.PASS
    differs = evaluate_trace(undecidable_state_trace(), policy=POLICY, judge=ScriptedJudge(False), values=NoValues())
    assert differs.dimensions[Dimension.STATE].passed is False
    assert differs.status is TraceStatus.FAIL


def test_a_judge_never_turns_a_rule_failure_into_a_pass() -> None:
    result = evaluate_trace(story("ineligible-claimed-refundable"), policy=POLICY, judge=ScriptedJudge(False))
    assert result.dimensions[Dimension.RESULT_USE].passed is False
    assert result.status is TraceStatus.FAIL


def test_the_policy_comes_from_the_options_unless_given() -> None:
    trace = story("refund-no-identity")
    assert evaluate_trace(trace).dimensions[Dimension.PLANNING].passed is None  # no policy: no ordering rule
    options = EvalOptions(policy=str(TRACES / "policy.yaml"))
    assert evaluate_trace(trace, options).dimensions[Dimension.PLANNING].passed is False
    lenient = replace(POLICY, ordering=())
    assert evaluate_trace(trace, options, policy=lenient).dimensions[Dimension.PLANNING].passed is None


def test_gold_given_by_case_id_overrides_the_traces_own_expected_tools() -> None:
    trace = story("refund-status-ok")
    gold = {"refund-status": TraceGold(expected_tools=("verify_identity", "issue_refund"))}
    result = evaluate_trace(trace, policy=POLICY, gold=gold)
    selection = result.dimensions[Dimension.TOOL_SELECTION]
    assert selection.passed is False
    assert "tool_selection.missing_tool" in {f.rule for f in selection.findings}
    # The trace's own expected final state still applies (the given gold has none).
    assert result.dimensions[Dimension.STATE].passed is True


def test_evaluate_traces_streams_results_and_errors_in_input_order(tmp_path: Path) -> None:
    good = json.loads((TRACES / "refund_status.json").read_text())
    path = tmp_path / "mixed.jsonl"
    bad = {"trace_id": "broken", "steps": [{"action_type": "teleport"}]}
    path.write_text("\n".join(json.dumps(x) for x in [good, bad, {**good, "trace_id": "again"}]) + "\n")
    out = list(aem_strands.evaluate_traces(iter_traces(path), policy=TRACES / "policy.yaml"))
    assert [type(x).__name__ for x in out] == ["TraceResult", "InputError", "TraceResult"]
    error = out[1]
    assert isinstance(error, InputError)
    assert (error.location.line, error.location.trace_id) == (2, "broken")
    assert [x.trace_id for x in out if isinstance(x, TraceResult)] == ["refund-status-ok", "again"]


RECORD_KEYS = [
    "source", "trace_id", "case_id", "status", "test_pass", "veto", "steps", "metadata", "step_metadata",
    "dimensions", "first_critical_failure_step",
    "critical_rule", "downstream_failures", "root_cause_hypothesis", "affected_layers", "evidence",
    "suggested_fix", "regression_asset",
]  # fmt: skip


def test_the_record_carries_the_report_fields_as_plain_json(stories: dict[str, TraceResult]) -> None:
    record = trace_record(stories["timeout-hidden"], None)
    assert list(record) == RECORD_KEYS
    json.dumps(record, allow_nan=False)
    assert record["status"] == "fail"
    assert record["test_pass"] is False
    recovery = record["dimensions"]["recovery"]  # type: ignore[index,call-overload]  # a JSON object
    assert set(recovery) == {"pass", "applicable", "gate", "checked", "reason", "findings", "undecided"}
    assert (recovery["pass"], recovery["gate"]) == (False, "hard")
    assert record["affected_layers"] == ["tool", "orchestration", "prompt"]
    assert record["first_critical_failure_step"] == "s3"
    assert record["downstream_failures"] == []  # the reply that reported success is the critical step itself


def personal_result() -> TraceResult:
    finding = Finding(
        Dimension.SAFETY, "safety.sensitive_in_reply", "the reply shows jane.doe@example.com", "s2", 1,
        {"step_id": "s2", "content": "Mail jane.doe@example.com", "latency_ms": math.nan},
    )  # fmt: skip
    verdicts = {d: DimensionVerdict(d, None, (), "", "n/a") for d in Dimension}
    verdicts[Dimension.SAFETY] = DimensionVerdict(Dimension.SAFETY, False, (finding,), "replies")
    return TraceResult("t1", None, TraceStatus.FAIL, True, verdicts, Diagnosis(evidence=(finding.evidence,)), 2)


def test_the_record_is_redacted_by_default_with_stable_tokens_and_no_nan() -> None:
    record = trace_record(personal_result())
    text = json.dumps(record, allow_nan=False)
    assert "jane.doe@example.com" not in text
    safety = record["dimensions"]["safety"]  # type: ignore[index,call-overload]  # a JSON object
    (finding,) = safety["findings"]
    token = finding["message"].removeprefix("the reply shows ")
    assert token.startswith("<EMAIL")
    assert finding["evidence"]["content"] == f"Mail {token}"  # the same value, the same token
    assert finding["evidence"]["latency_ms"] is None
    kept = trace_record(personal_result(), None)
    assert "jane.doe@example.com" in json.dumps(kept, allow_nan=False)
    custom = trace_record(personal_result(), lambda value: json.loads(json.dumps(value).replace("jane", "J")))
    assert "J.doe@example.com" in json.dumps(custom)


def test_the_public_names_are_the_trace_functions() -> None:
    assert aem_strands.evaluate_traces is evaluate_traces
    assert aem_strands.evaluate_trace is evaluate_trace
    assert aem_strands.iter_traces is iter_traces
    assert aem_strands.Trace is Trace


def test_the_policy_option_is_read_once_validated_and_survives_a_json_round_trip() -> None:
    import argparse

    from aem_strands.errors import ConfigError
    from aem_strands.options import add_option_flags, options_from_args

    options = EvalOptions(policy=str(TRACES / "policy.yaml"))
    assert options.policy == POLICY
    assert EvalOptions.from_dict(json.loads(options.to_json())) == options
    assert EvalOptions().to_dict()["policy"] is None
    with pytest.raises(ConfigError, match=r"budgets\.max_steps"):
        EvalOptions(policy={"budgets": {"max_steps": "many"}})
    parser = argparse.ArgumentParser()
    add_option_flags(parser, scoring=True, traces=True)
    assert options_from_args(parser.parse_args(["--policy", str(TRACES / "policy.yaml")])).policy == POLICY
    assert options_from_args(parser.parse_args([])).policy is None
