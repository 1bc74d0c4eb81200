"""Result use, read by the success act model: a reply reporting an action done ("I've booked the room for you")
with no write call before it is ``result_use.unsupported_outcome`` (issue 28); the same reply after the write
passes; an unsure reading, or a catalog with no write tool, is a question; a proposal, a failure and a report of
what a tool observed are not read as done."""

from __future__ import annotations

from typing import Any

from aem_strands.compare.success_acts import CONFIDENT, UNSURE, success_probability
from aem_strands.tools import ToolCatalog, ToolDefinition
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.outcomes import unsupported
from aem_strands.trace.checks.result_use import check_result_use
from aem_strands.trace.types import ActionType, DimensionVerdict, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues
from tests.test_resultuse_flags import call, say, user

CTX = TraceContext(ComparatorValues())
UNSUPPORTED = "result_use.unsupported_outcome"
HOTELS = Environment(tools=ToolCatalog((ToolDefinition("SearchHotel", read_only=True), ToolDefinition("ReserveHotel"))))
ASKED = [
    user("I need a room at the Ace Hotel in Seattle for 5 nights from Monday."),
    call("SearchHotel", [{"hotel_name": "Ace Hotel Seattle", "price_per_night": 120}], location="Seattle"),
    say("Please confirm: 1 room at Ace Hotel Seattle for 5 nights from March 4th."),
    user("Yes, that's right."),
]
RESERVED = call("ReserveHotel", [{"hotel_name": "Ace Hotel Seattle"}], hotel_name="Ace Hotel Seattle")


def judged(env: Environment, *steps: dict[str, Any]) -> DimensionVerdict:
    trace = Trace(trace_id="t1", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(steps)))
    return check_result_use(trace, env, CTX)


def test_a_booking_reported_in_other_words_than_the_tools_with_no_call_is_a_finding() -> None:
    # "booked" names no action of ReserveHotel: the tools' words leave it unread; the model reads it as done
    reply = "I have booked your hotel room."
    assert success_probability(reply) >= CONFIDENT
    verdict = judged(HOTELS, *ASKED, say(reply))
    assert [(f.step_id, f.rule) for f in verdict.findings] == [("s5", UNSUPPORTED)]
    assert "probability" in verdict.findings[0].message
    assert judged(HOTELS, *ASKED, RESERVED, say(reply)).passed is True


def test_an_unsure_reading_naming_a_write_is_a_question_and_no_finding() -> None:
    reply = "Okay, the hotel reservation was a success. Anything else?"
    assert UNSURE <= success_probability(reply) < CONFIDENT  # 0.684
    verdict = judged(HOTELS, *ASKED, say(reply))
    assert verdict.findings == ()
    assert any("'s5'" in q for q in verdict.undecided)
    assert judged(HOTELS, *ASKED, RESERVED, say(reply)).passed is True


def test_an_unsure_reading_naming_no_write_asks_nothing() -> None:
    reply = "All good, enjoy."  # names neither reserving nor a hotel: nothing it says was done
    assert UNSURE <= success_probability(reply) < CONFIDENT  # 0.544
    verdict = judged(HOTELS, *ASKED, say(reply))
    assert (verdict.findings, verdict.undecided) == ((), ())


def test_with_no_write_tool_in_the_catalog_a_sure_reading_is_only_a_question() -> None:
    reads = Environment(tools=ToolCatalog((ToolDefinition("SearchHotel", read_only=True),)))
    verdict = judged(reads, *ASKED, say("Your booking is now confirmed!"))
    assert verdict.findings == ()
    assert verdict.undecided


def test_proposals_failures_and_offers_are_not_read_as_done() -> None:
    for reply in (
        "Please confirm: 1 room at Ace Hotel Seattle for 5 nights from March 4th.",
        "Sorry, I couldn't reserve the room. Would you like another hotel?",
        "The Ace Hotel Seattle costs $120 a night. Shall I book it?",
    ):
        verdict = judged(HOTELS, *ASKED, say(reply))
        assert (verdict.findings, verdict.undecided) == ((), ()), reply


def test_a_write_call_of_another_tool_before_the_reply_is_not_touched() -> None:
    """The rule reads replies with no write call at all before them: a write of another tool may have done it."""
    other = Environment(
        tools=ToolCatalog((ToolDefinition("ReserveHotel"), ToolDefinition("ReserveRestaurant"))),
    )
    steps = [*ASKED, call("ReserveRestaurant", {"status": "ok"}, restaurant_name="Lotus"), say("Your booking is done.")]
    assert judged(other, *steps).findings == ()


def test_the_reading_is_made_only_for_replies_with_no_write_call_before_them() -> None:
    reads: list[str] = []

    def named(sentence: str) -> list[Any]:
        reads.append(sentence)
        return []

    write = Step(step_id="s1", index=0, action_type=ActionType.TOOL_CALL, tool_name="ReserveHotel")
    assert unsupported("Your booking is now confirmed!", [write], HOTELS, named, []) == []
    found = unsupported("Your booking is now confirmed!", [], HOTELS, named, [])
    assert [(o.question, o.probability is not None and o.probability >= CONFIDENT) for o in found] == [(False, True)]


def _steps(*specs: dict[str, Any]) -> list[Step]:
    return [Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(specs)]


RETRIED = _steps(
    user("Book a table at Lotus Thai for 2 at 11:45."),
    say("Please confirm: a table for 2 at Lotus Thai Restaurant at 11:45 am."),
    user("Yes, that's right."),
    call("ReserveRestaurant", [{"restaurant_name": "Lotus Thai Restaurant"}], restaurant_name="Lotus Thai Restaurant"),
    say("Sorry, I could not book that one. Do you want me to try for 12 pm instead?"),
    user("Yes please do that"),
)
RESTAURANTS = Environment(tools=ToolCatalog((ToolDefinition("ReserveRestaurant"),)))


def _turns(steps: list[Step]) -> list[Step]:
    return [s for s in steps if s.action_type is not ActionType.TOOL_CALL]


def _unsupported(reply: str, steps: list[Step], turns: list[Step] | None = None) -> list[Any]:
    calls = [s for s in steps if s.action_type is ActionType.TOOL_CALL]
    return unsupported(reply, calls, RESTAURANTS, lambda _: [], [], _turns(steps) if turns is None else turns)


def test_with_the_turns_the_stretch_starts_at_the_users_last_agreement() -> None:
    """The first reservation failed; the user agreed to another time; "reserved" with no call since is a finding
    (SGD's retried bookings), citing the agreement; without the turns every earlier write counts, and it is not
    read."""
    (found,) = _unsupported("Your table has been reserved.", RETRIED)
    assert (found.question, found.since.step_id if found.since else None) == (False, "s6")
    assert _unsupported("Your table has been reserved.", RETRIED, turns=[]) == []
    retried = [*RETRIED, Step(step_id="s7", index=6, **call("ReserveRestaurant", [], restaurant_name="Lotus"))]
    assert _unsupported("Your table has been reserved.", retried) == []


def test_a_question_after_the_write_starts_no_new_stretch() -> None:
    """After the booking, a question ("What is their address?") is no request or agreement: a reply restating the
    booking with the answer stands on the write before it."""
    steps = _steps(
        user("Book a table at Lotus Thai for 2 at noon."),
        say("Please confirm: a table for 2 at Lotus Thai Restaurant at 12 pm."),
        user("Yes, that's right."),
        call("ReserveRestaurant", [{"restaurant_name": "Lotus Thai Restaurant"}], restaurant_name="Lotus"),
        say("Your table has been reserved."),
        user("Thanks! What is their address?"),
    )
    assert _unsupported("It is at 115 Hartz Avenue. Your table is booked.", steps) == []


def test_success_reported_after_a_failed_call_is_left_to_recovery() -> None:
    """A read timed out, then "Done! Your refund ... has been processed." (the quickstart's timeout story):
    recovery's ``reported_success_after_error``, not a second finding here; with the read answered, it is one."""
    refunds = Environment(
        tools=ToolCatalog((ToolDefinition("check_refund_eligibility", read_only=True), ToolDefinition("issue_refund")))
    )
    reply = "Done! Your refund for order ORDER_222 has been processed."
    asked = user("Order ORDER_222 never arrived, please refund it.")
    failed = {**call("check_refund_eligibility", None, order_id="ORDER_222"), "error": "timeout: no answer"}
    assert judged(refunds, asked, failed, say(reply)).findings == ()
    answered = call("check_refund_eligibility", {"eligible": True}, order_id="ORDER_222")
    assert [f.rule for f in judged(refunds, asked, answered, say(reply)).findings] == [UNSUPPORTED]


def test_the_check_gives_the_turns_so_a_write_before_the_last_agreement_does_not_cover_the_reply() -> None:
    """check_result_use passes the user and agent turns: after a failed booking and a yes to another time, "Your
    table has been reserved." with no call since is a finding at the reply; with the second booking made, none."""
    asked = [
        user("Book a table at Lotus Thai for 2 at 11:45."),
        say("Please confirm: a table for 2 at Lotus Thai Restaurant at 11:45 am."),
        user("Yes, that's right."),
        call("ReserveRestaurant", [{"restaurant_name": "Lotus Thai Restaurant"}], restaurant_name="Lotus Thai"),
        say("Sorry, I could not book that one. Do you want me to try for 12 pm instead?"),
        user("Yes please do that"),
    ]
    reply = say("Your table has been reserved.")
    verdict = judged(RESTAURANTS, *asked, reply)
    assert [(f.rule, f.step_id) for f in verdict.findings] == [(UNSUPPORTED, "s7")]
    booked = call("ReserveRestaurant", [{"restaurant_name": "Lotus Thai Restaurant"}], restaurant_name="Lotus Thai")
    assert judged(RESTAURANTS, *asked, booked, reply).findings == ()
