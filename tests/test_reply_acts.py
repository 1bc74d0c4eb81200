"""Dialog act kinds of a reply (``compare/acts.py``) and the pairs they settle (``compare/replies.py``).

The kinds are named as the SGD corpus annotates system turns; the examples are written for these
tests in the style of SGD system replies (none is copied from the held-out pairs).
"""

from __future__ import annotations

import pytest

from aem_strands.compare.acts import ActKind, agreeing_acts, asked_against_done, dialog_act, same_topics
from aem_strands.compare.facts import check_reply_facts
from aem_strands.compare.replies import settle_reply
from aem_strands.types import FailureReason, Method


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("It's reserved for you.", {ActKind.NOTIFY_SUCCESS}),
        ("The reservation was made successfully.", {ActKind.NOTIFY_SUCCESS}),
        ("You're all set!", {ActKind.NOTIFY_SUCCESS}),
        ("I couldn't book the tickets.", {ActKind.NOTIFY_FAILURE}),  # failure before success: it says "book"
        ("Sorry, the transfer failed.", {ActKind.NOTIFY_FAILURE}),
        ("I found 5 restaurants you may like.", {ActKind.INFORM_COUNT}),
        ("How can I assist you further?", {ActKind.REQ_MORE}),
        ("Will there be anything else?", {ActKind.REQ_MORE}),
        ("Will that be all?", {ActKind.REQ_MORE}),
        ("Have a great day!", {ActKind.GOODBYE}),
        ("Shall I book it now?", {ActKind.OFFER_INTENT}),
        ("Are you interested in listening to this song", {ActKind.OFFER_INTENT}),  # a question without "?"
        ("How about Delta?", {ActKind.OFFER}),
        ("Is that correct?", {ActKind.CONFIRM}),
        ("The song is from 2017.", {ActKind.INFORM}),
        ("Sure. What date would you like to leave?", {ActKind.REQUEST}),  # "Sure." is a filler, no act
        ("Booked! Anything else?", {ActKind.NOTIFY_SUCCESS, ActKind.REQ_MORE}),
    ],
)
def test_each_sentence_gets_the_kind_sgd_would_annotate(text: str, kinds: set[ActKind]) -> None:
    assert dialog_act(text).kinds == kinds


def test_pleasantries_leave_the_main_act_alone() -> None:
    # a reply may add "Anything else?" to its main act; on its own it is the main act
    assert dialog_act("Booked! Anything else?").core == {ActKind.NOTIFY_SUCCESS}
    assert dialog_act("Anything else?").core == {ActKind.REQ_MORE}


def test_an_offered_intent_names_its_action() -> None:
    assert dialog_act("Would you like to reserve the vehicle?").intents == {"book"}
    assert dialog_act("Do you want me to play the song for you?").intents == {"play"}
    assert agreeing_acts("Shall I book it now?", "Would you like to reserve the vehicle?") == {ActKind.OFFER_INTENT}
    assert agreeing_acts("Shall I book it now?", "Shall I play it now?") is None  # another action


def test_acts_with_content_of_their_own_never_agree_by_kind_alone() -> None:
    # an inform or a request carries slot values: only facts and topics can settle those
    assert agreeing_acts("The song is from 2017.", "The song is from 2019.") is None
    assert agreeing_acts("What city?", "What date?") is None
    assert agreeing_acts("Booked!", "Sorry, it failed.") is None  # other kinds


@pytest.mark.parametrize(
    ("gold", "predicted", "detail"),
    [
        (
            "It's reserved for you.",
            "The reservation was made successfully.",
            "both confirm success (notify_success)",
        ),
        (
            "How can I assist you further?",
            "Will there be anything else?",
            "both ask whether the user needs anything else (req_more)",
        ),
        (
            "Sorry, I was not able to buy the tickets. How can I assist you further?",
            "The purchase could not be made. Anything else?",
            "both report a failure (notify_failure)",
        ),
        ("Have a great day!", "Anytime. Enjoy!", "both close the conversation (goodbye)"),  # "Anytime" names nothing
        ("Shall I book it now?", "Would you like to reserve the vehicle?", "both offer to book (offer_intent)"),
        (
            "Your table for 2 is booked at 7 pm.",
            "Booked: a table for two at 19:00.",
            "both confirm success (notify_success); facts agree: 2, 7 pm",
        ),
    ],
)
def test_two_replies_of_one_content_free_act_are_equivalent(gold: str, predicted: str, detail: str) -> None:
    settled = settle_reply(gold, predicted)
    assert settled is not None
    assert (settled.equivalent, settled.method, settled.detail) == (True, Method.FACTS, detail)


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Your table is booked for 7 pm.", "Your table is booked for 8 pm."),  # a fact differs: it fails
        ("Your table is booked for 7 pm.", "Your table is booked."),  # gold's time left out
        ("Booked!", "Booked for 7 pm."),  # the prediction adds a fact: the semantic stage decides
        ("Your reservation is confirmed.", "Sorry, the reservation failed."),
    ],
)
def test_the_same_act_does_not_settle_a_pair_whose_facts_differ(gold: str, predicted: str) -> None:
    settled = settle_reply(gold, predicted)
    assert settled is None or settled.equivalent is False


@pytest.mark.parametrize(
    ("text", "topics"),
    [
        ("Is there a particular day you would like the tickets for?", {"date"}),  # a preference, not an offer
        ("Would you like a pool, luxury, or some other type of ride?", {"kind"}),  # alternatives offered
        ("What type of movie are you in the mood to watch.", {"kind:genre"}),  # a wh-question ending in "."
        ("Sure, first tell me the number of tickets and the date.", {"count", "date"}),  # "first" proposes nothing
        ("What are your check in and check out dates?", {"date:checkin", "date:checkout"}),  # both roles
        ("Where do you want to pick up the car?", {"place:pickup"}),
        ("Please say the name of the person receiving the payment.", {"recipient"}),
        ("Is there a particular time of day you prefer?", {"time"}),  # "time of day" asks for no date
        ("Would you like it for a specific time? Any other questions or anything else?", {"time"}),
        # a need stated with a contracted or modal verb asks as "I need your ..." does
        ("I'll need your date of arrival, please.", {"date"}),
        ("We'd need the number of guests first.", {"count"}),
        # where a trip starts is its origin, with or without "from"
        ("Where will you be starting your trip?", {"place:origin"}),
        ("What's your starting point?", {"place:origin"}),
        ("Where do you set off, and where are you going to?", {"place:origin", "place:destination"}),
    ],
)
def test_requests_are_read_for_the_information_they_ask_for(text: str, topics: set[str]) -> None:
    assert dialog_act(text).requests == topics


def test_bedrooms_and_bathrooms_are_not_the_same_question() -> None:
    assert same_topics(frozenset({"rooms:bed"}), frozenset({"rooms:bath"})) is not True
    assert dialog_act("How many bathrooms do you need?").requests == {"count", "rooms:bath"}


@pytest.mark.parametrize(
    ("gold", "predicted", "same"),
    [
        # one topic asked for instead of another: the requests differ
        ("Where are you leaving from? How many tickets?", "When and how many tickets?", False),
        ("Where will you be going and what time do you prefer?", "How many people and what time?", False),
        ("Where are you going and when are you leaving?", "Where are you going and when will you come back?", False),
        ("Where does your trip begin?", "Where are you travelling to?", False),
        # one request asks for more than the other, or for a moment in other words: the semantic stage decides
        ("Where are you headed?", "Where are you headed and when do you leave?", None),
        ("When will you leave? Where are you coming from?", "What day do you leave, and from where?", None),
        ("How many days will you keep the car? Where will you pick it up?", "Until when, and pick up where?", None),
        # kinds and the things a request is about may name one slot
        ("What kind of event, and how many tickets?", "Which event, and how many tickets?", None),
    ],
)
def test_a_request_for_another_topic_in_place_of_one_gold_asks_for_is_another_request(
    gold: str, predicted: str, same: bool | None
) -> None:
    assert same_topics(dialog_act(gold).requests, dialog_act(predicted).requests) is same
    assert same_topics(dialog_act(predicted).requests, dialog_act(gold).requests) is same


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Your reservation was a success!", "Sorry, the reservation could not be made."),
        ("You're all set!", "Sorry, that didn't go through."),
        ("I was unable to add the alarm.", "The alarm has been added."),
        # a plain statement that a transaction went through against a refusal of it
        ("Your refund was credited.", "Sorry, your refund was rejected."),
        ("The deposit of $40 was paid.", "The $40 deposit payment got turned down."),
    ],
)
def test_success_against_failure_is_a_contradiction(gold: str, predicted: str) -> None:
    check = check_reply_facts(gold, predicted)
    assert [f.reason for f in check.findings] == [FailureReason.INCONSISTENT_RESPONSE]
    gold_said, said = ("failure", "success") if "unable" in gold else ("success", "failure")  # gold's side
    assert check.findings[0].detail == f"reports {said} vs gold {gold_said}"


def test_an_apology_beside_a_success_is_no_failure() -> None:
    assert dialog_act("Sorry for the wait, your table is booked.").kinds == {ActKind.NOTIFY_SUCCESS}
    assert not check_reply_facts("Sorry for the wait, your table is booked.", "Your table is booked.").findings


@pytest.mark.parametrize(
    ("gold", "predicted", "acts"),
    [
        # asking whether to act is no report that it was done, whatever verbs the two use
        ("Would you like me to renew your membership?", "I've extended your membership for a year.",
         ("asks whether to do it", "reports it done")),
        ("We have moved your meeting to Friday.", "Shall I reschedule the meeting for Friday?",
         ("reports it done", "asks whether to do it")),
        ("Your parcel has been sent.", "Do you want me to post the parcel?",
         ("reports it done", "asks whether to do it")),
        ("Should I enrol you in the evening class?", "I've signed you up for the evening class.",
         ("asks whether to do it", "reports it done")),
        # asking whether a fact holds is no statement of it
        ("Is the back gate still unlocked?", "The back gate is still unlocked.",
         ("asks whether it holds", "states it")),
    ],
)  # fmt: skip
def test_asking_against_reporting_done_or_stating_is_a_contradiction(
    gold: str, predicted: str, acts: tuple[str, str]
) -> None:
    assert asked_against_done(gold, predicted) == acts
    check = check_reply_facts(gold, predicted)
    assert [f.reason for f in check.findings] == [FailureReason.INCONSISTENT_RESPONSE]
    assert check.findings[0].detail == f"the prediction {acts[1]} where gold {acts[0]}"


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("How about Delta at 7 pm?", "There is a Delta flight at 7 pm."),  # SGD's one offer, told two ways
        ("I've found 3 hotels in Paris.", "Shall I look for hotels in Paris?"),  # what was found, not an action done
        ("Please confirm: a table for 2 at 7 pm. Is that right?", "Booking a table for 2 at 7 pm."),  # both confirm
        ("Shall I book it?", "Would you like me to reserve it?"),  # both ask
        ("I was able to confirm that purchase.", "I have successfully booked the tickets."),  # both report
    ],
)
def test_offers_statements_of_items_and_two_reports_are_not_asked_against_done(gold: str, predicted: str) -> None:
    assert asked_against_done(gold, predicted) is None


def test_a_statement_of_a_transaction_without_a_failure_opposite_is_no_outcome() -> None:
    # a plain statement is a success only against a failure; against another statement it is an inform
    assert dialog_act("Your card was charged $15.").kinds == {ActKind.INFORM}
    assert not check_reply_facts("Your card was charged $15.", "The $15 was charged to your card.").findings
