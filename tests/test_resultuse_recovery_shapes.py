"""Recovery and outcomes on the replies real runs write after a call (issue 28, "Soundness": a success claim after
an error is read by the reply reading, not a word list). Each rule on traces of both outcomes."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.claims import success_claims
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.recovery import check_recovery
from aem_strands.trace.checks.result_use import check_result_use
from aem_strands.trace.types import ActionType, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues

CTX = TraceContext(ComparatorValues())
REPORTED = "recovery.reported_success_after_error"
UNAVAILABLE = {"error": "Service unavailable"}


def call(tool: str, observation: Any = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments, "observation": observation}


def say(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.RESPONSE, "content": text}


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def trace(*steps: dict[str, Any]) -> Trace:
    return Trace(trace_id="t1", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(steps)))


def recovery(t: Trace) -> list[tuple[str | None, str]]:
    return [(f.step_id, f.rule) for f in check_recovery(t, Environment(), CTX).findings]


def test_closing_the_exchange_after_a_failed_call_with_no_word_of_it_reports_it_done() -> None:
    played = (user("Play Die Young by Kesha"), call("PlayMedia", UNAVAILABLE, track="Die Young"))
    assert recovery(trace(*played, say("Okay, enjoy your music!"))) == [("s3", REPORTED)]
    assert recovery(trace(*played, say("Sorry, I couldn't start the song. Enjoy your evening!"))) == []
    # a later goodbye, after the failure was told, is no claim
    told = trace(*played, say("The player is unavailable, I couldn't start it."), user("Ok, bye"), say("Goodbye!"))
    assert recovery(told) == []


def test_a_plain_report_beside_a_denial_about_the_failed_call_is_about_another_call() -> None:
    steps = (
        user("Log me out and back in with my old password"),
        call("LogoutUser", {"status": "success"}),
        {**call("UserLogin", None, username="lifeng", password="old"), "error": "The password is incorrect."},
    )
    told = trace(*steps, say("Sure, I've logged you out. Your old password no longer works."))
    assert recovery(told) == []
    hidden = trace(*steps, say("Sure, I've logged you out. All set!"))
    assert recovery(hidden) == [("s4", REPORTED)]


def test_sentences_run_together_are_read_apart() -> None:
    assert [c.verbs for c in success_claims("The reservation was made.Outdoor seating is not available.")] == [
        ("made",)
    ]
    t = trace(user("Book it"), call("ReserveRestaurant", {"success": False}, restaurant_name="Triptych"),
              say("The reservation was made.Outdoor seating is not available."))  # fmt: skip
    assert recovery(t) == [("s3", REPORTED)]


def test_a_state_a_read_returned_is_no_unsupported_outcome() -> None:
    reminders = {"reminders": [{"task": "Take out the trash", "status": "complete"}, {"task": "Call grandma",
                 "status": "pending"}]}  # fmt: skip
    read = trace(user("Any reminders?"), call("GetReminders", reminders), say("Take out the trash is complete."))
    assert check_result_use(read, Environment(), CTX).passed is True
    claimed = trace(user("Any reminders?"), call("GetReminders", reminders), say("Call grandma is complete."))
    rules = [(f.step_id, f.rule) for f in check_result_use(claimed, Environment(), CTX).findings]
    assert rules == [("s3", "result_use.unsupported_outcome")]


def test_an_action_achieved_or_a_state_it_brings_about_is_a_claim_about_that_action() -> None:
    played = (user("Play Good Boys"), call("PlayMovie", {"status_code": 500}, title="Good Boys"))
    assert recovery(trace(*played, say("Your movie is playing. Good Boys is a comedy."))) == [("s3", REPORTED)]
    assert recovery(trace(*played, say("The player failed to start. Good Boys is a comedy."))) == []
    booked = (user("Book the home"), call("ScheduleVisit", {"error": "unavailable"}, property_name="Ivy"))
    assert recovery(trace(*booked, say("I was able to schedule your visit."))) == [("s3", REPORTED)]
    # finding something, or a state the failed call's action does not name, is no claim of it
    assert recovery(trace(*booked, say("I was able to locate one other property."))) == []
    cancelled = (user("Cancel W1"), call("cancel_order", {"success": False}, order_id="W1"))
    assert recovery(trace(*cancelled, say("Your order is shipping today, so it cannot be stopped now."))) == []


def test_a_clause_opening_with_the_agents_past_action_claims_only_that_action() -> None:
    completed = (user("Mark it as complete"), call("CompleteReminder", {"success": False}, reminder_id="59"))
    wrong = trace(*completed, say("Marked reminder as complete. Do you want to move on to your next reminder?"))
    assert recovery(wrong) == [("s3", REPORTED)]
    honest = trace(*completed, say("The reminder could not be completed. Do you want to move on to the next one?"))
    assert recovery(honest) == []
    # a clause opening with a participle that describes ("Based on ...", "Located at ...") claims nothing
    assert success_claims("Based on your preferences, there are 3 reminders.") == ()
    assert success_claims("Located at 5 Main Street, it is open late.") == ()
