"""The value checks of a trace (arguments, result use, state) and the value judge and grounding index behind
them, on written traces of both outcomes: the stories of issue 20 (``eligible: false`` told as refundable, 5
days told as 2, a faithful reply, an invented order id, ``order 123`` grounding ``ORDER_123``, a final state
that is not the expected one, identity lost between steps)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aem_strands.tools import tools_from_json
from aem_strands.trace.checks.arguments import check_arguments
from aem_strands.trace.checks.context import ExactValues, TraceContext
from aem_strands.trace.checks.result_use import check_result_use
from aem_strands.trace.checks.state import check_state, is_identity_key
from aem_strands.trace.load import load_traces
from aem_strands.trace.policy import load_policy, merge_environment
from aem_strands.trace.types import (
    ActionType,
    Dimension,
    Environment,
    FindingMethod,
    Step,
    Trace,
    TraceGold,
)
from aem_strands.trace.values import ComparatorValues, GroundingIndex, compact
from aem_strands.types import JsonValue
from tests.conftest import ROOT

VALUES = ComparatorValues()
CTX = TraceContext(VALUES)


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def say(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.RESPONSE, "content": text}


def call(tool: str, observation: Any = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments, "observation": observation}


def trace(*steps: dict[str, Any], **fields: Any) -> Trace:
    built = tuple(Step(step_id=f"s{i}", index=i, **step) for i, step in enumerate(steps))
    return Trace("t", built, **fields)


class FakeJudge:
    """Answers every question with ``answer`` and records the questions."""

    def __init__(self, answer: bool | None) -> None:
        self.answer = answer
        self.questions: list[str] = []

    def decide(self, question: str, evidence: JsonValue) -> bool | None:
        self.questions.append(question)
        return self.answer


# --- the value judge -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("order 123", "ORDER_123", True),  # identifier with its separators as spaces
        ("5 days", "five days", True),  # durations: 5 x 86400 s both
        (5, "5", True),
        ("approved", "Approved", True),
        ({"status": "5 days"}, {"status": "five days"}, True),  # leaf by leaf
        ("5 days", "2 days", False),
        (1000000001, 1000000000, False),  # numbers are the same only when they are the same number
        ("ORDER_123", "ORDER_124", False),
        ("approved", "denied", False),  # opposite states
    ],
)
def test_comparator_values_decides_by_typed_normalisation(a: JsonValue, b: JsonValue, same: bool) -> None:
    assert VALUES.same(a, b) is same
    assert VALUES.same(b, a) is same


def test_comparator_values_leaves_open_what_normalisation_cannot_settle() -> None:
    # Two single words that no rule relates: only a semantic scorer could say, and none is given.
    assert VALUES.same("profit", "revenue") is None


@given(st.one_of(st.integers(), st.text(max_size=30), st.booleans()))
def test_a_value_is_always_the_same_as_itself(value: JsonValue) -> None:
    assert VALUES.same(value, value) is True


# --- the grounding index -------------------------------------------------------------------------------------


def _index() -> GroundingIndex:
    index = GroundingIndex(VALUES.same)
    index.add_text("Hi, please refund order 123; I paid $40 on March 1, 2024 and was told five days.", "user")
    index.add_json({"customer": {"id": "C-77", "email": "jane@example.com"}}, "observation")
    return index


@pytest.mark.parametrize(
    ("value", "method"),
    [
        ("ORDER_123", "identifier"),  # "order 123" in the user's words
        ("order 123", "normalised"),  # the phrase itself
        ("40.00", "normalised"),  # $40: the number token 40 (numbers as numbers)
        ("2024-03-01", "typed"),  # March 1, 2024
        ("5 days", "typed"),  # five days
        ("C77", "normalised"),  # the identifier token of C-77 (identifiers as whole tokens)
        ("JANE@example.com", "normalised"),
        ("C-77", "exact"),
    ],
)
def test_grounding_finds_a_value_said_another_way(value: JsonValue, method: str) -> None:
    found = _index().find(value)
    assert found is not None
    assert found.method == method


@pytest.mark.parametrize("value", ["ORDER_124", 41, "C-78", "2024-03-02", "6 days"])
def test_grounding_does_not_find_a_different_value(value: JsonValue) -> None:
    assert _index().find(value) is None


def test_a_partial_date_does_not_ground_a_full_one() -> None:
    index = GroundingIndex(VALUES.same)
    index.add_text("Sometime in March", "user")
    assert index.find("2024-03-01") is None


@pytest.mark.parametrize("module", ["aem_strands.trace.values", "aem_strands.trace.pii"])
def test_modules_import_on_their_own(module: str) -> None:
    # Imports run one way: neither module may reach back through the checks package that imports it.
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_compact_drops_case_spaces_and_separators() -> None:
    assert compact("Order 123") == compact("ORDER_123") == compact("order-123") == "order123"


# --- arguments -----------------------------------------------------------------------------------------------

REFUND_TOOLS = tools_from_json(
    [
        {
            "name": "issue_refund",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "order_id": {"type": "string"},
                    "mode": {"enum": ["card", "store_credit"]},
                    "reason": {"type": "string"},
                },
            },
        }
    ]
)


def test_order_123_grounds_order_id_ORDER_123() -> None:  # noqa: N802  # the story's own value
    verdict = check_arguments(
        trace(
            user("Please refund order 123, it arrived broken"),
            call("check_refund_eligibility", {"eligible": True, "amount": 40}, order_id="ORDER_123"),
            call("issue_refund", {"refund_id": "R-1"}, order_id="ORDER_123", amount="$40.00", mode="store_credit"),
        ),
        Environment(tools=REFUND_TOOLS),
        CTX,
    )
    assert verdict.passed is True
    # 3 values looked up: ORDER_123 twice and $40.00 (the observation's 40); mode is an enum, so exempt.
    assert verdict.checked.startswith("3 argument value(s) of 2 tool call(s)")


def test_an_invented_order_id_is_ungrounded() -> None:
    verdict = check_arguments(
        trace(
            user("Please refund my last order"),
            call("issue_refund", {"refund_id": "R-1"}, order_id="ORDER_456", notify=True),
        ),
        Environment(),
        CTX,
    )
    assert verdict.passed is False
    (finding,) = verdict.findings
    assert (finding.rule, finding.step_id, finding.dimension) == ("arguments.ungrounded", "s1", Dimension.ARGUMENTS)
    assert isinstance(finding.evidence, dict)
    assert (finding.evidence["argument"], finding.evidence["value"]) == ("order_id", "ORDER_456")
    assert "ORDER_456" in finding.message


def test_a_value_seen_only_after_the_call_does_not_ground_it() -> None:
    verdict = check_arguments(
        trace(call("get_order", {"order": "A"}, order_id="ORDER_9"), user("yes, ORDER_9 is mine")),
        Environment(),
        CTX,
    )
    assert [f.step_id for f in verdict.findings] == ["s0"]


def test_the_agents_own_reply_does_not_ground_an_argument() -> None:
    verdict = check_arguments(
        trace(user("cancel it"), say("I'll cancel ORDER_77 for you."), call("cancel_order", order_id="ORDER_77")),
        Environment(),
        CTX,
    )
    assert verdict.passed is False


def test_values_from_state_and_observations_ground_nested_arguments() -> None:
    verdict = check_arguments(
        trace(
            call("find_customer", {"customer": {"id": "C-77"}}, email="jane@example.com"),
            call("update", customer={"id": "c77", "tags": ["VIP"]}),
            initial_state={"tier": "VIP"},
            goal="update the record of jane@example.com",
        ),
        Environment(),
        CTX,
    )
    assert verdict.passed is True


def test_free_text_needs_only_its_identifiers_and_numbers_grounded() -> None:
    verdict = check_arguments(
        trace(
            user("refund order 123 please"),
            call("issue_refund", reason="customer says the item arrived broken; ORDER_123, RMA-99"),
        ),
        Environment(tools=REFUND_TOOLS),
        CTX,
    )
    (finding,) = verdict.findings
    assert isinstance(finding.evidence, dict)
    assert finding.evidence["value"] == "RMA-99"


@pytest.mark.parametrize("value", [True, False, None, 0, 1, "", "  "])
def test_booleans_small_integers_and_empty_strings_are_exempt(value: JsonValue) -> None:
    verdict = check_arguments(trace(call("search", flag=value)), Environment(), CTX)
    assert verdict.passed is True
    assert verdict.checked.startswith("0 argument value(s)")


def test_arguments_not_applicable_without_arguments() -> None:
    verdict = check_arguments(trace(user("hi"), call("ping"), say("pong")), Environment(), CTX)
    assert verdict.passed is None
    assert verdict.reason == "no tool call has arguments"


def test_exact_values_still_ground_through_normalised_forms() -> None:
    verdict = check_arguments(
        trace(user("refund order 123"), call("issue_refund", order_id="ORDER_123")),
        Environment(),
        TraceContext(ExactValues()),
    )
    assert verdict.passed is True


# --- result use ----------------------------------------------------------------------------------------------


def _eligibility(observation: dict[str, JsonValue], reply: str) -> Trace:
    return trace(
        user("Can I get a refund for order 123?"),
        call("check_refund_eligibility", observation, order_id="ORDER_123"),
        say(reply),
    )


def test_eligible_false_told_as_refundable_contradicts_the_observation() -> None:
    verdict = check_result_use(
        _eligibility({"eligible": False}, "Good news, your order is refundable!"), Environment(), CTX
    )
    assert verdict.passed is False
    (finding,) = verdict.findings
    assert (finding.rule, finding.step_id, finding.method) == (
        "result_use.contradicts_observation",
        "s2",
        FindingMethod.RULE,
    )
    assert isinstance(finding.evidence, dict)
    assert finding.evidence["observed"] == {"eligible": False}


@pytest.mark.parametrize(
    "reply",
    [
        "Sorry, your order is not eligible for a refund.",
        "I'm afraid this order is non-refundable.",
        "Unfortunately it doesn't qualify.",
    ],
)
def test_a_faithful_reply_about_eligibility_passes(reply: str) -> None:
    verdict = check_result_use(_eligibility({"eligible": False}, reply), Environment(), CTX)
    assert verdict.passed is True


def test_eligible_true_told_as_not_eligible_contradicts() -> None:
    verdict = check_result_use(_eligibility({"eligible": True}, "Unfortunately it isn't eligible."), Environment(), CTX)
    assert [f.rule for f in verdict.findings] == ["result_use.contradicts_observation"]


def test_five_days_told_as_two_contradicts_the_observation() -> None:
    verdict = check_result_use(
        _eligibility({"eligible": True, "processing_days": 5}, "You're eligible; the refund arrives in 2 days."),
        Environment(),
        CTX,
    )
    (finding,) = verdict.findings
    assert isinstance(finding.evidence, dict)
    assert (finding.evidence["stated"], finding.evidence["observed"]) == ("2 days", ["5 days"])


def test_five_days_told_as_five_business_days_passes() -> None:
    verdict = check_result_use(
        _eligibility({"eligible": True, "processing_days": 5}, "You're eligible; expect it in five business days."),
        Environment(),
        CTX,
    )
    assert verdict.passed is True


def test_status_denied_told_as_approved_contradicts() -> None:
    failing = check_result_use(
        _eligibility({"status": "denied"}, "Your refund request was approved."), Environment(), CTX
    )
    faithful = check_result_use(
        _eligibility({"status": "denied"}, "Your refund request was denied, sorry."), Environment(), CTX
    )
    assert (failing.passed, faithful.passed) == (False, True)


def test_an_amount_the_tool_did_not_report_contradicts() -> None:
    failing = check_result_use(_eligibility({"refund_amount": 40}, "You'll get $25 back."), Environment(), CTX)
    faithful = check_result_use(_eligibility({"refund_amount": 40}, "You'll get $40 back."), Environment(), CTX)
    assert (failing.passed, faithful.passed) == (False, True)


def test_a_later_observation_replaces_an_earlier_one() -> None:
    verdict = check_result_use(
        trace(
            call("check_refund_eligibility", {"eligible": False}, order_id="A"),
            call("escalate", {"eligible": True}, order_id="A"),
            say("After review, your order is eligible for a refund."),
        ),
        Environment(),
        CTX,
    )
    assert verdict.passed is True


def test_a_later_argument_that_contradicts_an_observation() -> None:
    verdict = check_result_use(
        trace(
            user("what's my latest order?"),
            call("get_latest_order", {"order_id": "ORDER_8"}),
            call("cancel_order", order_id="ORDER_9"),
        ),
        Environment(),
        CTX,
    )
    (finding,) = verdict.findings
    assert finding.step_id == "s2"
    assert "ORDER_8" in finding.message


def test_judge_is_asked_only_where_no_rule_decides_and_only_adds() -> None:
    reply = "About your refund: we looked into it and it's all sorted."  # names the subject, says no side
    yes, no, unsure = FakeJudge(True), FakeJudge(False), FakeJudge(None)
    judged = check_result_use(_eligibility({"eligible": False}, reply), Environment(), TraceContext(VALUES, yes))
    assert [f.method for f in judged.findings] == [FindingMethod.JUDGE]
    assert len(yes.questions) == 1
    cleared = check_result_use(_eligibility({"eligible": False}, reply), Environment(), TraceContext(VALUES, no))
    assert cleared.passed is True
    open_ = check_result_use(_eligibility({"eligible": False}, reply), Environment(), TraceContext(VALUES, unsure))
    assert open_.undecided == tuple(unsure.questions)
    assert open_.undecided


def test_judge_cannot_clear_a_rule_finding() -> None:
    no = FakeJudge(False)
    verdict = check_result_use(
        _eligibility({"eligible": False}, "Your order is refundable."), Environment(), TraceContext(VALUES, no)
    )
    assert verdict.passed is False
    assert no.questions == []  # the rule decided: nothing to ask


def test_result_use_not_applicable_when_nothing_follows_an_observation() -> None:
    verdict = check_result_use(trace(user("hi"), say("hello")), Environment(), CTX)
    assert verdict.passed is None


# --- state ---------------------------------------------------------------------------------------------------


def test_final_state_matching_the_expected_state_passes_under_typed_equivalence() -> None:
    verdict = check_state(
        trace(call("get_refund_status", {"status": "approved"}), final_state={"refund_status": "Approved", "x": 1}),
        Environment(expected_final_state={"refund_status": "approved"}),
        CTX,
    )
    assert verdict.passed is True


def test_final_state_mismatch_names_key_expected_and_found() -> None:
    verdict = check_state(
        trace(call("issue_refund"), final_state={"refund_status": "pending"}),
        Environment(),
        CTX,
    )
    assert verdict.passed is None  # no expectation and no identity state: nothing to check
    gold = TraceGold(expected_final_state={"refund_status": "approved", "ticket": "T-1"})
    verdict = check_state(
        trace(call("issue_refund"), final_state={"refund_status": "pending"}, gold=gold), Environment(), CTX
    )
    assert [f.rule for f in verdict.findings] == ["state.final_state_mismatch"] * 2
    first, second = verdict.findings
    assert first.evidence == {
        "key": "refund_status",
        "expected": "approved",
        "found": "pending",
        "where": "final_state",
    }
    assert "missing" in second.message


def test_the_last_state_after_stands_for_a_missing_final_state() -> None:
    verdict = check_state(
        trace({"action_type": ActionType.STATE_UPDATE, "state_after": {"refund_status": "approved"}}),
        Environment(expected_final_state={"refund_status": "approved"}),
        CTX,
    )
    assert verdict.passed is True


def test_identity_lost_between_steps() -> None:
    lost = trace(
        {**call("verify_identity", {"ok": True}), "state_after": {"authenticated": True, "user_id": "U1"}},
        {**call("get_refund_status", {"status": "approved"}), "state_before": {"user_id": "U1"}},
    )
    kept = trace(
        {**call("verify_identity", {"ok": True}), "state_after": {"authenticated": True, "user_id": "U1"}},
        {**call("get_refund_status"), "state_before": {"authenticated": True, "user_id": "U1"}},
    )
    failing, passing = check_state(lost, Environment(), CTX), check_state(kept, Environment(), CTX)
    (finding,) = failing.findings
    assert (finding.rule, finding.step_id) == ("state.identity_lost", "s1")
    assert "'authenticated'" in finding.message
    assert passing.passed is True


def test_a_changed_user_id_is_identity_lost() -> None:
    verdict = check_state(
        trace(
            {**call("login"), "state_after": {"user_id": "U1"}},
            {**call("get_orders"), "state_before": {"user_id": "U2"}},
        ),
        Environment(),
        CTX,
    )
    assert [f.rule for f in verdict.findings] == ["state.identity_lost"]


@pytest.mark.parametrize(
    ("key", "identity"),
    [("authenticated", True), ("identity_verified", True), ("email_verified", True), ("Role", True), ("cart", False)],
)
def test_identity_keys(key: str, identity: bool) -> None:
    assert is_identity_key(key) is identity


def test_an_undecidable_state_value_goes_to_the_judge() -> None:
    judge = FakeJudge(None)
    verdict = check_state(
        trace(call("x"), final_state={"plan": "profit"}),
        Environment(expected_final_state={"plan": "revenue"}),
        TraceContext(VALUES, judge),
    )
    assert verdict.findings == ()
    assert verdict.undecided == tuple(judge.questions)
    assert len(judge.questions) == 1


# --- the example traces --------------------------------------------------------------------------------------

EXAMPLES = ROOT / "examples" / "data" / "traces"


@pytest.mark.parametrize(
    ("file", "trace_id", "failing"),
    [
        ("refund_status.json", "refund-status-ok", set()),
        ("result_use.jsonl", "ineligible-claimed-refundable", {Dimension.RESULT_USE}),
        ("result_use.jsonl", "ineligible-faithful", set()),
        ("result_use.jsonl", "delivery-days-wrong", {Dimension.RESULT_USE}),
        ("result_use.jsonl", "delivery-days-faithful", set()),
        ("ungrounded_order.json", "ungrounded-order-id", {Dimension.ARGUMENTS, Dimension.STATE}),
    ],
)
def test_value_checks_on_the_example_traces(file: str, trace_id: str, failing: set[Dimension]) -> None:
    policy = load_policy(EXAMPLES / "policy.yaml")
    (found,) = [t for t in load_traces(EXAMPLES / file).traces if t.trace_id == trace_id]
    env = merge_environment(policy, found.environment)
    verdicts = [check(found, env, CTX) for check in (check_arguments, check_result_use, check_state)]
    assert {v.dimension for v in verdicts if v.passed is False} == failing
    assert all(v.undecided == () for v in verdicts)
