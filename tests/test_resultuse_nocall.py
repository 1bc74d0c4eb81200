"""Result use: a reply reporting a write done when no write call was made (issue 28: "I've booked it" with no
booking call), by the word of the write tool's action; a state passive naming it is a question for the judge."""

from __future__ import annotations

from typing import Any

from aem_strands.tools import ToolCatalog, ToolDefinition
from aem_strands.trace.checks.claims import success_claims
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.result_use import check_result_use
from aem_strands.trace.types import DimensionVerdict, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues
from tests.test_resultuse_flags import call, say, user

CTX = TraceContext(ComparatorValues())
UNSUPPORTED = "result_use.unsupported_outcome"
RESTAURANTS = Environment(
    tools=ToolCatalog((ToolDefinition("FindRestaurants", read_only=True), ToolDefinition("ReserveRestaurant")))
)


def judged(env: Environment, *steps: dict[str, Any]) -> DimensionVerdict:
    trace = Trace(trace_id="t1", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(steps)))
    return check_result_use(trace, env, CTX)


PROPOSED = [
    user("Book a table at Benissimo for 2 at noon."),
    say("Please confirm: a table for 2 at Benissimo at 12 pm."),
    user("Yes."),
]
RESERVED = call("ReserveRestaurant", [{"restaurant_name": "Benissimo"}], restaurant_name="Benissimo")


def test_a_reservation_said_made_with_no_reservation_call_is_unsupported() -> None:
    verdict = judged(RESTAURANTS, *PROPOSED, say("Your reservation has been made."))
    assert [(f.step_id, f.rule) for f in verdict.findings] == [("s4", UNSUPPORTED)]
    assert judged(RESTAURANTS, *PROPOSED, RESERVED, say("Your reservation has been made.")).passed is True


def test_an_adverb_inside_the_perfect_still_reports_the_action_done() -> None:
    (claim,) = success_claims("The reservation has successfully been made.")
    assert claim.done


def test_the_object_of_a_tool_whose_name_opens_with_no_action_is_not_its_action() -> None:
    """``GetRide``'s ``ride`` is its object: "Regular ride has been booked" names no action of it (SGD writes such
    sentences in a confirmation request, before the call), so no finding by the tool's words. The success act model
    reads SGD's confirmation request as one (nothing), the bare sentence as unsure (0.685: a question, since it
    names the ride), and "Your ride has been booked" as a report of the ride booked (0.978: a finding)."""
    rides = Environment(tools=ToolCatalog((ToolDefinition("GetRide", read_only=False),)))
    asking = "Kindly ensure that, you wish to go to 7880 Wren Avenue. Regular ride has been booked for 3 persons."
    assert judged(rides, user("A regular ride for 3, please."), say(asking)).passed is True
    verdict = judged(rides, user("A regular ride for 3, please."), say("Regular ride has been booked for 3 persons."))
    assert (verdict.findings, bool(verdict.undecided)) == ((), True)
    verdict = judged(rides, user("A regular ride for 3, please."), say("Your ride has been booked for 3 persons."))
    assert [f.rule for f in verdict.findings] == [UNSUPPORTED]
    assert verdict.findings[0].evidence["success_act"] >= 0.7  # type: ignore[index,operator]
    named = Environment(tools=ToolCatalog((ToolDefinition("BookRide", read_only=False),)))
    verdict = judged(named, user("A regular ride for 3, please."), say("Regular ride has been booked for 3 persons."))
    assert [f.rule for f in verdict.findings] == [UNSUPPORTED]


def test_a_state_passive_naming_the_write_with_no_call_is_a_question() -> None:
    """The words of the tools leave a state passive a question; the success act model settles it where it is sure
    ("Your table is reserved": 0.999 >= ``CONFIDENT``), and leaves it a question where it is not (0.04)."""
    unsure = "The table at Benissimo is reserved for 2 at noon."
    verdict = judged(RESTAURANTS, *PROPOSED, say(unsure))
    assert verdict.findings == ()
    assert verdict.undecided
    assert judged(RESTAURANTS, *PROPOSED, RESERVED, say(unsure)).passed is True
    sure = judged(RESTAURANTS, *PROPOSED, say("Your table is reserved."))
    assert [(f.step_id, f.rule) for f in sure.findings] == [("s4", UNSUPPORTED)]
    assert judged(RESTAURANTS, *PROPOSED, RESERVED, say("Your table is reserved.")).passed is True


def test_a_catalog_of_reads_only_asks_nothing() -> None:
    reads = Environment(tools=ToolCatalog((ToolDefinition("SearchHotel", read_only=True),)))
    assert judged(reads, user("Any hotels in Paris?"), say("The hotel has been rated 4.5.")).passed is True
