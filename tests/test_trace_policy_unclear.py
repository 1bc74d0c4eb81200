"""A precondition whose answer is a member named only like the check's subject (``on_watchlist`` of
``check_export_watchlist``) does not say whether the guarded call may go ahead: no on a watchlist is the good answer,
no in stock is not. Such an answer is a question for the judge (its no is a ``planning.precondition_said_no``
finding, method ``judge``), else undecided (the trace inconclusive); an answer word beside it (``approved``)
still decides by rule."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.context import ExactValues, TraceContext
from aem_strands.trace.checks.planning import check_planning
from aem_strands.trace.evaluate import evaluate_trace
from aem_strands.trace.policy import environment_from_json
from aem_strands.trace.types import ActionType, FindingMethod, Step, Trace, TraceStatus
from aem_strands.types import JsonValue

EXPORTS = environment_from_json(
    {
        "tools": [
            {"name": "check_export_watchlist", "annotations": {"readOnlyHint": True}},
            {"name": "ship_consignment", "annotations": {"readOnlyHint": False, "destructiveHint": False}},
        ],
        "rules": {"ordering": [{"tool": "ship_consignment", "after": ["check_export_watchlist"]}]},
    }
)


class Judge:
    def __init__(self, answer: bool | None) -> None:
        self.answer = answer
        self.asked: list[str] = []

    def decide(self, question: str, evidence: JsonValue) -> bool | None:
        self.asked.append(question)
        return self.answer


def _shipment(answer: Any) -> Trace:
    raw: list[dict[str, Any]] = [
        {"action_type": ActionType.USER, "content": "Ship consignment CN-207 to Tallinn Marine for client TM-55."},
        {"action_type": ActionType.TOOL_CALL, "tool_name": "check_export_watchlist",
         "arguments": {"client_id": "TM-55"}, "observation": answer},
        {"action_type": ActionType.TOOL_CALL, "tool_name": "ship_consignment",
         "arguments": {"consignment_id": "CN-207", "client_id": "TM-55"}, "observation": {"shipped": True}},
    ]  # fmt: skip
    return Trace(trace_id="t", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(raw)))


def test_a_subject_named_answer_is_undecided_without_a_judge() -> None:
    verdict = check_planning(_shipment({"on_watchlist": False}), EXPORTS, TraceContext(ExactValues()))
    assert verdict.findings == ()
    assert len(verdict.undecided) == 1
    assert "on_watchlist: false" in verdict.undecided[0]
    result = evaluate_trace(_shipment({"on_watchlist": True}), policy=EXPORTS)
    assert result.status is TraceStatus.INCONCLUSIVE  # a yes of unknown polarity is no pass either


def test_the_judge_decides_a_subject_named_answer_both_ways() -> None:
    allows = Judge(True)
    assert check_planning(_shipment({"on_watchlist": False}), EXPORTS, TraceContext(ExactValues(), allows)).passed
    assert allows.asked
    assert "allow ship_consignment" in allows.asked[0]
    refuses = check_planning(_shipment({"on_watchlist": True}), EXPORTS, TraceContext(ExactValues(), Judge(False)))
    assert [(f.step_id, f.rule, f.method) for f in refuses.findings] == [
        ("s3", "planning.precondition_said_no", FindingMethod.JUDGE)
    ]


def test_an_answer_word_still_decides_by_rule() -> None:
    ctx = TraceContext(ExactValues())
    said_no = check_planning(_shipment({"on_watchlist": False, "approved": False}), EXPORTS, ctx)
    assert [(f.step_id, f.rule, f.method) for f in said_no.findings] == [
        ("s3", "planning.precondition_said_no", FindingMethod.RULE)
    ]
    said_yes = check_planning(_shipment({"on_watchlist": False, "approved": True}), EXPORTS, ctx)
    assert said_yes.passed is True
    assert said_yes.undecided == ()


def test_an_open_answer_for_this_object_beside_a_check_of_another_object_stays_undecided() -> None:
    answer = {"client_id": "TM-90", "on_watchlist": False}
    other = {"action_type": ActionType.TOOL_CALL, "tool_name": "check_export_watchlist",
             "arguments": {"client_id": "TM-90"}, "observation": answer}  # fmt: skip
    shipment = _shipment({"on_watchlist": False})
    steps = (Step(step_id="s0", index=0, **other), *(Step(**{**vars(s), "index": s.index + 1}) for s in shipment.steps))
    verdict = check_planning(Trace(trace_id="t", steps=steps), EXPORTS, TraceContext(ExactValues()))
    assert verdict.findings == ()
    assert len(verdict.undecided) == 1
    # the other client's check alone is a finding: it was for another object
    alone = Trace(trace_id="t", steps=(steps[0], steps[1], steps[3]))
    found = check_planning(alone, EXPORTS, TraceContext(ExactValues()))
    assert [f.rule for f in found.findings] == ["planning.precondition_other_object"]


def test_available_is_an_answer_word_both_ways() -> None:
    rooms = environment_from_json(
        {
            "tools": [{"name": "check_availability", "annotations": {"readOnlyHint": True}}],
            "rules": {"ordering": [{"tool": "reserve_berth", "after": ["check_availability"]}]},
        }
    )

    def run(available: bool) -> list[str]:
        raw: list[dict[str, Any]] = [
            {"action_type": ActionType.TOOL_CALL, "tool_name": "check_availability", "arguments": {"berth_id": "B-4"},
             "observation": {"available": available}},
            {"action_type": ActionType.TOOL_CALL, "tool_name": "reserve_berth", "arguments": {"berth_id": "B-4"},
             "observation": {"ok": True}},
        ]  # fmt: skip
        t = Trace(trace_id="t", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(raw)))
        verdict = check_planning(t, rooms, TraceContext(ExactValues()))
        assert verdict.undecided == ()
        return [f.rule for f in verdict.findings]

    assert run(True) == []
    assert run(False) == ["planning.precondition_said_no"]
