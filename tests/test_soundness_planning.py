"""Planning preconditions that count (succeeded, said yes, same object, identity values from the user) and the
policy language's rules: ``after_any``, ``require`` (an observed value of the object), ``at_most`` and
``not_after`` per object, and when a hand-off is due. Each rule on a trace that passes and one that fails."""

from __future__ import annotations

from typing import Any

import pytest

from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.planning import check_planning
from aem_strands.trace.policy import environment_from_json
from aem_strands.trace.types import ActionType, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues

CTX = TraceContext(ComparatorValues())


def call(tool: str, observation: Any = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments, "observation": observation}


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def trace(*raw: dict[str, Any]) -> Trace:
    return Trace(trace_id="t", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(raw)))


def found(t: Trace, env: Environment) -> list[tuple[str | None, str]]:
    verdict = check_planning(t, env, CTX)
    assert verdict.passed is not None
    return [(f.step_id, f.rule) for f in verdict.findings]


REFUND = environment_from_json(
    {"rules": {"ordering": [{"tool": "issue_refund", "after": ["verify_identity", "check_refund_eligibility"]}]}}
)
ASK = user("I'm Ana Diaz, zip 94110. Please refund order O-1.")
REFUND_CALL = call("issue_refund", {"status": "issued"}, order_id="O-1")


def test_a_refund_after_yes_for_the_same_order_with_the_users_identity_passes() -> None:
    t = trace(ASK, call("verify_identity", {"verified": True}, name="Ana Diaz", zip="94110"),
              call("check_refund_eligibility", {"eligible": True}, order_id="O-1"), REFUND_CALL)  # fmt: skip
    assert found(t, REFUND) == []


@pytest.mark.parametrize(
    ("verify", "eligible", "rule"),
    [
        ({"verified": False}, {"eligible": True}, "planning.precondition_said_no"),
        ({"verified": True}, {"eligible": False, "reason": "past 30 days"}, "planning.precondition_said_no"),
        ("Identity could not be verified.", {"eligible": True}, "planning.precondition_said_no"),
        ({"verified": True}, {"status": "denied"}, "planning.precondition_said_no"),
        ({"verified": True}, {"result": {"is_eligible": False}}, "planning.precondition_said_no"),
    ],
)
def test_a_refund_after_a_precondition_that_said_no_fails(verify: Any, eligible: Any, rule: str) -> None:
    t = trace(ASK, call("verify_identity", verify, name="Ana Diaz", zip="94110"),
              call("check_refund_eligibility", eligible, order_id="O-1"), REFUND_CALL)  # fmt: skip
    assert found(t, REFUND) == [("s4", rule)]


def test_the_main_answer_decides_and_a_detail_beside_it_does_not() -> None:
    detail = {"verified": True, "email_verified": False}  # verified; only the e-mail is not
    t = trace(ASK, call("verify_identity", detail, name="Ana Diaz", zip="94110"),
              call("check_refund_eligibility", {"eligible": True}, order_id="O-1"), REFUND_CALL)  # fmt: skip
    assert found(t, REFUND) == []
    named = {"refund_eligible": False, "order_id": "O-1"}  # no main answer: the member named like the action
    t = trace(ASK, call("verify_identity", {"verified": True}, name="Ana Diaz", zip="94110"),
              call("check_refund_eligibility", named, order_id="O-1"), REFUND_CALL)  # fmt: skip
    assert found(t, REFUND) == [("s4", "planning.precondition_said_no")]


def test_eligibility_checked_for_another_order_does_not_count() -> None:
    t = trace(ASK, call("verify_identity", {"verified": True}, name="Ana Diaz", zip="94110"),
              call("check_refund_eligibility", {"eligible": True}, order_id="O-2"), REFUND_CALL)  # fmt: skip
    assert found(t, REFUND) == [("s4", "planning.precondition_other_object")]
    # a second check for the right order makes it count
    fixed = trace(ASK, call("verify_identity", {"verified": True}, name="Ana Diaz", zip="94110"),
                  call("check_refund_eligibility", {"eligible": True}, order_id="O-2"),
                  call("check_refund_eligibility", {"eligible": True}, order_id="o-1"), REFUND_CALL)  # fmt: skip
    assert found(fixed, REFUND) == []


def test_an_identity_verified_with_values_read_off_the_order_does_not_count() -> None:
    order = {"order_id": "O-1", "customer": {"name": "Ana Diaz", "zip": "94110"}, "total": 40}
    t = trace(user("Please refund order O-1."), call("get_order", order, order_id="O-1"),
              call("verify_identity", {"verified": True}, name="Ana Diaz", zip="94110"),
              call("check_refund_eligibility", {"eligible": True}, order_id="O-1"), REFUND_CALL)  # fmt: skip
    assert found(t, REFUND) == [("s5", "planning.identity_not_from_user")]
    # the same lookup, but the user gave the identity: it counts
    told = trace(ASK, call("get_order", order, order_id="O-1"),
                 call("verify_identity", {"verified": True}, name="Ana Diaz", zip="94110"),
                 call("check_refund_eligibility", {"eligible": True}, order_id="O-1"), REFUND_CALL)  # fmt: skip
    assert found(told, REFUND) == []


def test_after_any_is_met_by_one_of_several_tools() -> None:
    env = environment_from_json(
        {"rules": {"ordering": [{"tool": "cancel_order", "after_any": ["find_user_by_email", "find_user_by_zip"]}]}}
    )
    cancel = call("cancel_order", {"status": "cancelled"}, order_id="O-1")
    ok = trace(user("ana@x.com, cancel O-1"), call("find_user_by_email", {"user_id": "u1"}, email="ana@x.com"), cancel)
    assert found(ok, env) == []
    failed = trace(user("ana@x.com, cancel O-1"), call("find_user_by_email", {"error": "not found"}, email="ana@x.com"),
                   cancel)  # fmt: skip
    assert found(failed, env) == [("s3", "planning.order")]
    assert found(trace(user("cancel O-1"), cancel), env) == [("s2", "planning.order")]


REQUIRE = environment_from_json(
    {
        "rules": {
            "ordering": [{"tool": "cancel_order", "require": {"status": ["pending", "processing"]}, "per": "order_id"}]
        }
    }
)


def test_a_precondition_on_an_observed_value_of_the_same_object() -> None:
    cancel = call("cancel_order", {"status": "cancelled"}, order_id="O-1")
    pending = trace(call("get_order", {"order_id": "O-1", "status": "Pending"}, order_id="O-1"), cancel)
    assert found(pending, REQUIRE) == []
    listed = trace(call("list_orders", {"orders": [{"order_id": "O-2", "status": "delivered"},
                                                   {"order_id": "O-1", "status": "pending"}]}), cancel)  # fmt: skip
    assert found(listed, REQUIRE) == []
    shipped = trace(call("get_order", {"order_id": "O-1", "status": "shipped"}, order_id="O-1"), cancel)
    assert found(shipped, REQUIRE) == [("s2", "planning.required_value")]
    other = trace(call("get_order", {"order_id": "O-2", "status": "pending"}, order_id="O-2"), cancel)
    assert found(other, REQUIRE) == [("s2", "planning.required_value")]  # only another order was seen pending
    assert found(trace(cancel), REQUIRE) == [("s1", "planning.required_value")]  # never looked


ONCE = environment_from_json(
    {"rules": {"ordering": [{"tool": "modify_order", "at_most": 1, "not_after": ["cancel_order"], "per": "order_id"}]}}
)


def test_at_most_once_per_object() -> None:
    one_each = trace(call("modify_order", {"ok": True}, order_id="O-1", item="a"),
                     call("modify_order", {"ok": True}, order_id="O-2", item="b"))  # fmt: skip
    assert found(one_each, ONCE) == []
    twice = trace(call("modify_order", {"ok": True}, order_id="O-1", item="a"),
                  call("modify_order", {"ok": True}, order_id="O-1", item="b"))  # fmt: skip
    assert found(twice, ONCE) == [("s2", "planning.at_most")]
    retried = trace(call("modify_order", {"error": "timeout"}, order_id="O-1", item="a"),
                    call("modify_order", {"ok": True}, order_id="O-1", item="a"))  # fmt: skip
    assert found(retried, ONCE) == []  # a failed attempt is no change


def test_not_after_per_object() -> None:
    after_cancel = trace(call("cancel_order", {"ok": True}, order_id="O-1"),
                         call("modify_order", {"ok": True}, order_id="O-1", item="a"))  # fmt: skip
    assert found(after_cancel, ONCE) == [("s2", "planning.not_after")]
    other = trace(call("cancel_order", {"ok": True}, order_id="O-2"),
                  call("modify_order", {"ok": True}, order_id="O-1", item="a"))  # fmt: skip
    assert found(other, ONCE) == []


HANDOFF = environment_from_json({"rules": {"handoff": [
    {"after": "verify_identity", "observed": {"verified": False}, "times": 2, "to": ["transfer_to_human"]},
    {"after": "issue_refund", "failed": True, "to": ["transfer_to_human"]},
]}})  # fmt: skip


def test_a_handoff_is_due_after_the_condition() -> None:
    no = call("verify_identity", {"verified": False}, name="Ana", zip="1")
    handed = trace(user("I'm Ana"), no, no, {"action_type": ActionType.RESPONSE, "content": "Let me transfer you."},
                   call("transfer_to_human", {"ok": True}, summary="identity failed twice"))  # fmt: skip
    assert found(handed, HANDOFF) == []
    once = trace(user("I'm Ana"), no, call("verify_identity", {"verified": True}, name="Ana", zip="2"),
                 call("get_order", {"status": "pending"}, order_id="O-1"))  # fmt: skip
    assert found(once, HANDOFF) == []  # one failure is not two
    went_on = trace(user("I'm Ana"), no, no, call("get_order", {"status": "pending"}, order_id="O-1"))
    assert found(went_on, HANDOFF) == [("s4", "planning.handoff_due")]
    ended = trace(user("refund O-1"), call("issue_refund", {"error": "payment gateway down"}, order_id="O-1"))
    assert found(ended, HANDOFF) == [("s2", "planning.handoff_due")]
    step = {"action_type": ActionType.HANDOFF, "tool_name": "human_support"}
    assert (
        found(trace(user("refund O-1"), call("issue_refund", {"error": "down"}, order_id="O-1"), step), HANDOFF) == []
    )


@pytest.mark.parametrize(
    "rule",
    [{"tool": "x"}, {"tool": "x", "after": []}, {"tool": "x", "at_most": 0}, {"tool": "x", "require": {}}],
)
def test_an_ordering_rule_that_says_nothing_is_refused(rule: dict[str, Any]) -> None:
    from aem_strands.errors import ConfigError

    with pytest.raises(ConfigError, match=r"rules\.ordering\[0\]"):
        environment_from_json({"rules": {"ordering": [rule]}})
    with pytest.raises(ConfigError, match=r"rules\.handoff\[0\]"):
        environment_from_json({"rules": {"handoff": [{"after": "x"}]}})
