"""The replay report: which step is the first critical failure, by which rule, what it explains, and the
regression case. Verdicts are written by hand here, so the diagnosis is tested apart from the checks."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from strands_evals import Case

from aem_strands.trace.diagnose import diagnose
from aem_strands.trace.types import (
    GATES,
    ActionType,
    Diagnosis,
    Dimension,
    DimensionVerdict,
    Finding,
    Gate,
    Layer,
    Step,
    Trace,
    TraceGold,
)


def user(step_id: str, index: int, text: str) -> Step:
    return Step(step_id, index, ActionType.USER, content=text)


def call(step_id: str, index: int, tool: str, observation: Any = None, error: str | None = None, **args: Any) -> Step:
    return Step(step_id, index, ActionType.TOOL_CALL, tool, args, observation, error=error)


def reply(step_id: str, index: int, text: str) -> Step:
    return Step(step_id, index, ActionType.RESPONSE, content=text)


def at(step: Step | None, dimension: Dimension, rule: str, evidence: Any = None) -> Finding:
    return Finding(
        dimension, rule, f"{rule} here", step.step_id if step else None, step.index if step else None, evidence
    )


def verdicts(*findings: Finding) -> dict[Dimension, DimensionVerdict]:
    out = {d: DimensionVerdict(d, True, (), "checked") for d in Dimension}
    for dimension in Dimension:
        mine = tuple(f for f in findings if f.dimension is dimension)
        if mine:
            out[dimension] = DimensionVerdict(dimension, False, mine, "checked")
    return out


# The story of the design note: an order id nobody gave (step 2) explains a wrong cancel (step 4) and a
# wrong reply (step 6); the failure shows at 4 and 6, the step to correct is 2.
S1 = user("s1", 0, "Please cancel my order ORDER_100.")
S2 = call("s2", 1, "get_order", {"order_id": "ORDER_190", "status": "processing"}, order_id="ORDER_190")
S3 = reply("s3", 2, "Found it. Shall I cancel it?")
S4 = call("s4", 3, "cancel_order", {"status": "cancelled", "refund_ref": "RF-5521"}, order_id="ORDER_190")
S5 = user("s5", 4, "Thanks")
S6 = reply("s6", 5, "Your order is cancelled, refund reference RF-5521.")
UNGROUNDED = Trace(
    "t-ungrounded", (S1, S2, S3, S4, S5, S6), case_id="cancel-lamp", goal="Cancel order ORDER_100",
    gold=TraceGold(expected_tools=("get_order", "cancel_order")),
)  # fmt: skip


def test_an_invented_id_is_the_critical_step_for_the_failures_that_reuse_it() -> None:
    found = verdicts(
        at(S2, Dimension.ARGUMENTS, "arguments.ungrounded"),
        at(S4, Dimension.STATE, "state.identity_lost"),
        at(S6, Dimension.RESULT_USE, "result_use.contradicts_observation"),
    )
    diagnosis = diagnose(UNGROUNDED, found)
    assert diagnosis.first_critical_failure_step == "s2"
    assert diagnosis.critical_rule.startswith("decision_before_failures: ")
    # s4 reuses ORDER_190 itself; s6 only repeats RF-5521, which s4 produced from it: a dependent step.
    assert [(d.step_id, d.rule, d.link) for d in diagnosis.downstream_failures] == [
        ("s4", "state.identity_lost", "same_value"),
        ("s6", "result_use.contradicts_observation", "follows"),
    ]
    assert diagnosis.affected_layers == (Layer.MODEL, Layer.RETRIEVAL)
    assert "2 later failures follow from it" in diagnosis.root_cause_hypothesis
    assert diagnosis.suggested_fix.startswith("Take argument values only from")


def test_a_trace_level_finding_is_linked_through_its_evidence() -> None:
    mismatch = at(None, Dimension.STATE, "state.final_state_mismatch", {"expected": "ORDER_100", "found": "ORDER_190"})
    diagnosis = diagnose(UNGROUNDED, verdicts(at(S2, Dimension.ARGUMENTS, "arguments.ungrounded"), mismatch))
    assert diagnosis.first_critical_failure_step == "s2"
    assert [(d.step_id, d.link) for d in diagnosis.downstream_failures] == [(None, "same_value")]


def test_a_value_the_user_gave_links_nothing() -> None:
    # ORDER_100 came from the user, so a later step that repeats it does not make s2 its cause.
    s2 = call("s2", 1, "get_order", {"status": "processing"}, order_id="ORDER_100")
    s4 = call("s4", 3, "cancel_order", {"status": "failed"}, order_id="ORDER_100")
    trace = Trace("t", (S1, s2, S3, s4))
    found = verdicts(
        at(s2, Dimension.NECESSITY, "necessity.repeated_call"), at(s4, Dimension.PLANNING, "planning.order")
    )
    diagnosis = diagnose(trace, found)
    assert diagnosis.first_critical_failure_step == "s2"
    assert diagnosis.critical_rule.startswith("earliest_failure")
    assert diagnosis.downstream_failures == ()


def test_after_an_unrecovered_tool_error_the_reply_that_reports_success_is_critical() -> None:
    """The failed calls are the tool's failure; the agent's is the reply that reports success (issue 28: the
    critical step is a step with a finding): it is named, and the hypothesis names the failed call and its error."""
    t1 = user("u", 0, "Refund ORDER_7")
    t2 = call("c1", 1, "check_refund_eligibility", error="timeout after 30 s", order_id="ORDER_7")
    t3 = call("c2", 2, "check_refund_eligibility", error="timeout after 30 s", order_id="ORDER_7")
    t4 = reply("r", 3, "Done, refunded!")
    t5 = call("c3", 4, "send_receipt", {"sent": True}, order_id="ORDER_7")
    trace = Trace("t", (t1, t2, t3, t4, t5))
    found = verdicts(
        at(t4, Dimension.RECOVERY, "recovery.reported_success_after_error"),
        at(t4, Dimension.RESULT_USE, "result_use.contradicts_observation"),
        at(t5, Dimension.ARGUMENTS, "arguments.ungrounded"),
    )
    diagnosis = diagnose(trace, found)
    assert diagnosis.first_critical_failure_step == "r"
    assert diagnosis.critical_rule.startswith("unrecovered_error")
    assert [(d.step_id, d.link) for d in diagnosis.downstream_failures] == [("c3", "after_error")]
    assert "step 'c1' (check_refund_eligibility) failed" in diagnosis.root_cause_hypothesis  # the first of the row
    assert diagnosis.affected_layers[0] is Layer.TOOL
    assert "timeout after 30 s" in diagnosis.root_cause_hypothesis


def test_independent_failures_name_the_earliest_and_explain_nothing() -> None:
    diagnosis = diagnose(
        UNGROUNDED,
        verdicts(at(S6, Dimension.RESULT_USE, "result_use.contradicts_observation"),
                 at(S3, Dimension.NECESSITY, "necessity.asked_again")),
    )  # fmt: skip
    assert diagnosis.first_critical_failure_step == "s3"
    assert diagnosis.critical_rule.startswith("earliest_failure")
    assert diagnosis.affected_layers == (Layer.ORCHESTRATION, Layer.PROMPT)


def test_findings_about_the_whole_trace_only_name_no_step() -> None:
    diagnosis = diagnose(UNGROUNDED, verdicts(at(None, Dimension.STATE, "state.final_state_mismatch")))
    assert diagnosis.first_critical_failure_step is None
    assert diagnosis.critical_rule.startswith("trace_level")
    assert diagnosis.root_cause_hypothesis.startswith("No single step explains it: the trace as a whole fails")


def test_a_soft_failure_is_diagnosed_only_when_nothing_hard_failed() -> None:
    cost = at(S2, Dimension.COST, "cost.steps")
    planning = at(S4, Dimension.PLANNING, "planning.order")
    assert diagnose(UNGROUNDED, verdicts(cost, planning)).first_critical_failure_step == "s4"
    alone = diagnose(UNGROUNDED, verdicts(cost))
    assert alone.first_critical_failure_step == "s2"
    assert alone.affected_layers == (Layer.ORCHESTRATION, Layer.MODEL)


def test_safety_layers_depend_on_the_rule() -> None:
    leak = diagnose(UNGROUNDED, verdicts(at(S6, Dimension.SAFETY, "safety.sensitive_in_reply")))
    assert leak.affected_layers == (Layer.MODEL, Layer.PROMPT)
    denied = diagnose(UNGROUNDED, verdicts(at(S4, Dimension.SAFETY, "safety.denied_tool")))
    assert denied.affected_layers == (Layer.BUSINESS_RULE, Layer.ORCHESTRATION, Layer.PROMPT)


def test_no_failure_no_diagnosis() -> None:
    assert diagnose(UNGROUNDED, verdicts()) == Diagnosis()


def test_the_regression_asset_is_a_strands_evals_case() -> None:
    found = verdicts(at(S2, Dimension.ARGUMENTS, "arguments.ungrounded", {"step_id": "s2"}))
    diagnosis = diagnose(UNGROUNDED, found)
    asset = diagnosis.regression_asset
    assert asset is not None
    case = Case.model_validate(asset)
    assert case.name == "regression-cancel-lamp"
    assert case.input == "Cancel order ORDER_100"
    assert case.expected_trajectory == ["get_order", "cancel_order"]
    assert case.metadata is not None
    assert case.metadata["first_critical_failure_step"] == "s2"
    assert case.metadata["failed_dimensions"] == ["arguments"]
    assert case.model_dump() == asset  # nothing lost or added by the host's model
    assert diagnosis.evidence == ({"step_id": "s2"},)


def test_without_a_goal_the_case_input_is_the_first_user_message() -> None:
    trace = Trace("t", (S1, S2))
    diagnosis = diagnose(trace, verdicts(at(S2, Dimension.ARGUMENTS, "arguments.ungrounded")))
    assert diagnosis.regression_asset is not None
    assert Case.model_validate(diagnosis.regression_asset).input == "Please cancel my order ORDER_100."


DIMENSIONS = st.sampled_from([d for d in Dimension if d is not Dimension.COST])


@given(st.lists(st.tuples(st.integers(0, 5), DIMENSIONS), min_size=1, max_size=8))
def test_the_critical_step_has_a_finding_and_explains_only_later_ones(spots: list[tuple[int, Dimension]]) -> None:
    found = [at(UNGROUNDED.steps[i], d, f"{d.value}.rule") for i, d in spots]
    diagnosis = diagnose(UNGROUNDED, verdicts(*found))
    chosen = diagnosis.first_critical_failure_step
    positions = {s.step_id: s.index for s in UNGROUNDED.steps}
    assert chosen is not None
    index = positions[chosen]
    assert index in {i for i, _ in spots}  # no call failed with an error here: the step has a finding itself
    assert all(positions[d.step_id] > index for d in diagnosis.downstream_failures if d.step_id is not None)
    if not diagnosis.downstream_failures:  # it explains nothing: then it is the earliest failure of the gravest gate
        gravest = Gate.VETO if any(GATES[d] is Gate.VETO for _, d in spots) else Gate.HARD
        assert index == min(i for i, d in spots if GATES[d] is gravest)
        assert diagnosis.critical_rule.startswith("earliest_failure")


def test_of_independent_failures_the_first_veto_is_critical_over_an_earlier_hard_one() -> None:
    """Two findings, neither explaining the other: a reply that misstates a date (hard) and a later cancellation
    of another booking than the one the user agreed to (veto). The veto decides the verdict: it is critical."""
    steps = (
        user("u1", 0, "Please cancel the Galway one of my two kennel bookings."),
        call("c1", 1, "list_bookings", {"bookings": [{"id": "KB-31", "town": "Galway"}]}, owner="Nell"),
        reply("r1", 2, "Found KB-31 in Galway, 3-5 July. Cancel it?"),
        user("u2", 3, "Yes."),
        call("c2", 4, "cancel_booking", {"status": "cancelled"}, booking_id="KB-30"),
    )
    trace = Trace("t", steps)
    hard_then_veto = verdicts(
        at(steps[2], Dimension.RESULT_USE, "result_use.contradicts_observation"),
        at(steps[4], Dimension.SAFETY, "safety.destructive_without_consent"),
    )
    diagnosis = diagnose(trace, hard_then_veto)
    assert diagnosis.first_critical_failure_step == "c2"
    assert diagnosis.critical_rule.startswith("earliest_failure")
    # with no veto among them, the earliest hard finding is critical, as before
    hard_only = verdicts(
        at(steps[2], Dimension.RESULT_USE, "result_use.contradicts_observation"),
        at(steps[4], Dimension.ARGUMENTS, "arguments.ungrounded"),
    )
    assert diagnose(trace, hard_only).first_critical_failure_step == "r1"


def test_an_error_read_off_the_observation_and_hidden_by_the_final_response_names_that_reply() -> None:
    """An error the observation reports (no ``error`` field) and a success claimed in a final response that no
    step carries: the critical step is ``"final_response"``, and the hypothesis names the failed call."""
    t1 = user("u", 0, "Please renew library loan LN-404.")
    t2 = call("c1", 1, "renew_loan", {"renewed": False, "error": "HOLD_PLACED"}, loan_id="LN-404")
    trace = Trace("t", (t1, t2), final_response="Renewed! LN-404 is due in three more weeks.")
    hidden = verdicts(at(None, Dimension.RECOVERY, "recovery.reported_success_after_error"))
    diagnosis = diagnose(trace, hidden)
    assert diagnosis.first_critical_failure_step == "final_response"
    assert diagnosis.critical_rule.startswith("unrecovered_error")
    assert "step 'c1' (renew_loan) failed" in diagnosis.root_cause_hypothesis
    # the same run whose call did not fail has no unrecovered error: the reply alone is named by the reply rule
    fine = Trace("t", (t1, call("c1", 1, "renew_loan", {"renewed": True}, loan_id="LN-404")),
                 final_response="Renewed! LN-404 is due in three more weeks.")  # fmt: skip
    claimed = verdicts(at(None, Dimension.RESULT_USE, "result_use.unsupported_outcome", {"final_response": "x"}))
    assert diagnose(fine, claimed).critical_rule.startswith("final_reply")
