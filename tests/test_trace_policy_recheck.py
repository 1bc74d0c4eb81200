"""Necessity across a user turn: a read made again after the user speaks that finds a changed answer is a fresh
look (they changed something outside the run), not a loop; the same read made again with no user turn between,
or after a user question the earlier answer already held, is a repeat."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.context import ExactValues, TraceContext
from aem_strands.trace.checks.necessity import check_necessity
from aem_strands.trace.types import Environment, Step, Trace
from tests.consent_traces import call, say, user

CTX = TraceContext(ExactValues())


def trace(*raw: dict[str, Any]) -> Trace:
    return Trace(trace_id="t", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(raw)))


def _lab_run(between: list[dict[str, Any]]) -> list[tuple[str | None, str]]:
    t = trace(
        user("Has my blood panel LAB-4410 come back?"),
        call("get_lab_result", {"lab_id": "LAB-4410", "status": "sample_missing"}, lab_id="LAB-4410"),
        say("LAB-4410 is waiting for a sample."),
        *between,
        call("get_lab_result", {"lab_id": "LAB-4410", "status": "received"}, lab_id="LAB-4410"),
        say("LAB-4410 now shows the sample as received."),
    )
    return [(f.step_id, f.rule) for f in check_necessity(t, Environment(), CTX).findings]


def test_a_read_again_after_the_user_says_something_changed_is_no_repeat() -> None:
    assert _lab_run([user("I dropped the sample at the clinic an hour ago. Does 4410 show it now?")]) == []


def test_the_same_read_again_with_no_user_turn_between_is_a_repeat() -> None:
    assert _lab_run([]) == [("s4", "necessity.repeated_call")]
    assert _lab_run([say("Let me look once more.")]) == [("s5", "necessity.repeated_call")]


def test_the_same_answer_read_again_after_a_user_question_it_already_held_is_a_repeat() -> None:
    t = trace(
        user("Which plans can I move to on account 880-12?"),
        call("list_plans", {"current": "Basic", "exit_fee": 40, "options": ["Plus", "Max"]}, account="880-12"),
        say("You can move to Plus or Max."),
        user("And what does leaving Basic cost?"),
        call("list_plans", {"current": "Basic", "exit_fee": 40, "options": ["Plus", "Max"]}, account="880-12"),
        say("Leaving Basic costs 40."),
    )
    assert [(f.step_id, f.rule) for f in check_necessity(t, Environment(), CTX).findings] == [
        ("s5", "necessity.repeated_call")
    ]
