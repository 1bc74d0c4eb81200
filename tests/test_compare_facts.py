"""Reply facts: the typed facts a reply states, the dialog act, and the checks between two replies."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aem_strands import ConfigError
from aem_strands.compare.acts import dialog_act, same_topics
from aem_strands.compare.facts import check_reply_facts
from aem_strands.compare.reply_signals import facts_in
from aem_strands.types import FailureReason, SubMetric


def _facts(text: str) -> list[tuple[str, str]]:
    return [(f.group, f.key) for f in facts_in(text) if not f.group.startswith(("state", "negation"))]


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("EU revenue was 4.2 million.", [("entity", "eu"), ("number", "4200000")]),  # one value, not 4.2 and 1000000
        ("profit was 1.1M", [("number", "1100000")]),  # not "1"
        ("Meet me at 10:00.", [("time", "10:00")]),  # a time, not the number 1000
        ("Delivery takes two working days.", [("duration", "172800 s")]),  # two days, in seconds
        ("Your table is at 7 pm on May 3.", [("time", "19:00"), ("date", "?-5-3")]),
        ("It was sold for $356M.", [("money", "USD 356000000")]),
        ("It was sold for $356 million.", [("money", "USD 356000000")]),
        ("Sales are up 8% this quarter.", [("percent", "8% up")]),
        ("Order ORDER_123 shipped.", [("identifier", "order123")]),
        ("Call +1 555-123-2002.", [("phone", "5551232002")]),
        ("Mail john.smith@example.com today.", [("email", "john.smith@example.com")]),
        ("It weighs 5 kg.", [("measure", "mass g 5000")]),
        ("The meeting is on Friday.", [("weekday", "fri")]),
        ("Your train leaves from Grand Central Station.", [("entity", "grand central station")]),
        ("John will join you.", [("entity", "john")]),  # a first word that is no common word is a name
        ("Sure, I can help.", []),
        ("Half of the six parcels have shipped.", [("number", "3"), ("number", "6")]),  # half of 6 states 3
        ("Half of the 3 rooms are ready.", [("number", "3")]),  # no whole half of an odd count
        ("One parcel has shipped and the other is on hold.", [("number", "1"), ("number", "2")]),  # one of 2
        ("One parcel has shipped; the others are on hold.", [("number", "1")]),  # no count of the others
        ("One parcel shipped the other day.", [("number", "1")]),  # an idiom
    ],
)
def test_facts_in(text: str, facts: list[tuple[str, str]]) -> None:
    assert _facts(text) == facts


@pytest.mark.parametrize(
    ("text", "group", "pole"),
    [
        ("The heater is switched off.", "state:switch", "off"),
        ("That is not a good idea.", "state:quality", "bad"),  # a negation flips the word it governs
        ("I couldn't book the table.", "state:outcome", "failed"),
        ("The price includes tax, including delivery.", "state:inclusion", "including"),
    ],
)
def test_state_words_carry_their_pole(text: str, group: str, pole: str) -> None:
    assert (group, pole) in [(f.group, f.key) for f in facts_in(text)]


def test_on_as_a_preposition_is_no_state() -> None:
    assert not [f for f in facts_in("The meeting is on Friday.") if f.group == "state:switch"]


def test_dialog_acts() -> None:
    leave, departure = (
        dialog_act("What date would you like to leave?"),
        dialog_act("Could you tell me your departure date?"),
    )
    assert leave.requests == departure.requests == frozenset({"date:departure"})
    assert dialog_act("How about Delta?").offers
    assert not dialog_act("How about Delta?").requests
    assert dialog_act("Is that correct?").confirms
    assert dialog_act("Anything else I can help you with?").more
    assert same_topics(frozenset({"date"}), frozenset({"date:departure"}))  # a role on one side only
    assert same_topics(frozenset({"date:checkin"}), frozenset({"date:checkout"})) is False
    assert same_topics(frozenset({"?"}), frozenset({"date"})) is None  # unknown: the semantic stage decides


def test_a_flipped_outcome_is_inconsistent_and_names_both_facts() -> None:
    check = check_reply_facts("Your reservation is confirmed.", "Sorry, the reservation failed.")
    assert [(f.reason, f.sub_metric) for f in check.findings] == [
        (FailureReason.INCONSISTENT_RESPONSE, SubMetric.TRUTHFULNESS)
    ]
    assert check.findings[0].detail == "failed vs gold confirmed"


def test_a_substituted_name_is_inconsistent_but_a_variant_is_not() -> None:
    swapped = check_reply_facts("Your flight to London is booked.", "Your flight to Paris is booked.")
    assert [f.detail for f in swapped.findings] == ["Paris vs gold London"]
    variant = check_reply_facts("Your flight to London is booked.", "Your flight to london is booked.")
    assert variant.findings == ()  # any casing names the same place


def test_times_in_two_forms_are_the_same_fact() -> None:
    check = check_reply_facts("Your table for 2 is booked at 7 pm.", "Booked: a table for 2 at 19:00.")
    assert check.findings == ()
    assert (check.gold_facts, check.covered_facts) == (2, 2)  # 2 and 19:00, both given
    assert check.matched == ("2", "7 pm")


def test_numbers_drive_inconsistent_and_incomplete() -> None:
    check = check_reply_facts("EU revenue for 2024 was 4,200,000 EUR.", "EU profit for 2024 was 1,150,000 EUR.")
    assert [(f.reason, f.detail) for f in check.findings] == [
        (FailureReason.INCONSISTENT_RESPONSE, "1,150,000 EUR vs gold 4,200,000 EUR")
    ]
    omitted = check_reply_facts("Your table for 2 is booked at 7 pm on May 3.", "Your table is booked.")
    assert [(f.reason, f.gold) for f in omitted.findings] == [
        (FailureReason.INCOMPLETE_RESPONSE, "2"),
        (FailureReason.INCOMPLETE_RESPONSE, "7 pm"),
        (FailureReason.INCOMPLETE_RESPONSE, "May 3"),
    ]
    assert omitted.coverage == 0.0  # 0 of gold's 3 facts given


def test_a_request_for_other_information_is_incomplete() -> None:
    check = check_reply_facts("What date would you like to leave?", "What time would you like to leave?")
    assert [(f.reason, f.detail) for f in check.findings] == [
        (FailureReason.INCOMPLETE_RESPONSE, "asks for time:departure where gold asks for date:departure")
    ]
    silent = check_reply_facts("Which region should the report cover?", "Here is the report.")
    assert [f.reason for f in silent.findings] == [FailureReason.INCOMPLETE_RESPONSE]


def test_checks_can_be_selected_and_unknown_ones_are_rejected() -> None:
    assert check_reply_facts("It worked.", "It failed.", ["numbers"]).findings == ()
    with pytest.raises(ConfigError, match=r"unknown fact checks \['tone'\]"):
        check_reply_facts("a", "b", ["tone"])


@given(st.text(max_size=200))
def test_a_reply_never_contradicts_itself(text: str) -> None:
    check = check_reply_facts(text, text)
    assert check.findings == ()
    assert check.covered_facts == check.gold_facts


@given(st.text(alphabet="0123456789 :.,$%-apmAPMkKg/", max_size=40))
def test_number_like_text_never_raises(text: str) -> None:
    assert isinstance(facts_in(text), tuple)


@pytest.mark.parametrize("text", ["The apartment has in-Unit laundry.", "It is on Place d'Anglas, Paris."])
def test_names_inside_hyphenated_or_apostrophe_words_are_the_same_words(text: str) -> None:
    assert check_reply_facts(text, text).findings == ()


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        # a phrase that denies without a negation cue faces the negation on the other side
        ("Your visa can't be renewed yet.", "It is too early to renew your visa."),
        ("The parcel can't be collected yet.", "It's too soon to collect the parcel."),
        ("The shop does not have the blue jacket in stock.", "The blue jacket is out of stock at the shop."),
        ("The clinic won't see patients this evening.", "It's too late for the clinic to see patients this evening."),
    ],
)
def test_a_denying_phrase_is_no_plain_statement_for_the_polarity_check(gold: str, predicted: str) -> None:
    assert not check_reply_facts(gold, predicted, ["polarity"]).findings
    assert not check_reply_facts(predicted, gold, ["polarity"]).findings


def test_a_negation_bound_elsewhere_leaves_a_plain_state_unsure() -> None:
    # "can't find any rooms available": the negation is read on "rooms", yet it denies "available" too
    gold, predicted = "I can't find any rooms available tonight.", "There are no rooms free tonight."
    assert not check_reply_facts(gold, predicted, ["states"]).findings
    assert not check_reply_facts(predicted, gold, ["states"]).findings
    # a plain pole with no negation beside it still faces a negated one
    assert check_reply_facts("Rooms are available tonight.", predicted, ["states"]).contradicted


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("No flat in the block allows pets.", "Every flat in the block is pet-free."),
        ("All ferries are suspended tomorrow.", "No ferries are sailing tomorrow."),
        ("Each guest may stay up to three nights.", "No guest may stay more than three nights."),
    ],
)
def test_no_and_every_with_the_predicate_flipped_are_left_open(gold: str, predicted: str) -> None:
    assert check_reply_facts(gold, predicted).findings == ()


def test_no_and_every_with_one_predicate_still_oppose() -> None:
    check = check_reply_facts("No flat in the block allows pets.", "Every flat in the block allows pets.")
    assert check.findings[0].detail == "flat vs gold not flat"


@pytest.mark.parametrize(
    ("gold", "predicted", "findings"),
    [
        ("Three of the six parcels have shipped.", "Half of the six parcels have shipped.", []),
        ("One of the two parcels has shipped.", "One parcel has shipped and the other is on hold.", []),
        (
            "One of the three parcels has shipped.",
            "One parcel has shipped and the other is on hold.",
            ["the other vs gold 3"],
        ),
    ],
)
def test_counts_in_other_words(gold: str, predicted: str, findings: list[str]) -> None:
    assert [f.detail for f in check_reply_facts(gold, predicted).findings] == findings
