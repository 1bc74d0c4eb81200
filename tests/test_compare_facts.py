"""Reply fact checks: numbers, polarity, named entities, questions; and the signals behind them."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aem_strands import ConfigError
from aem_strands.compare.facts import check_reply_facts
from aem_strands.compare.reply_signals import asks, entities_in, numbers_in, polarity
from aem_strands.types import FailureReason, SubMetric


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("EU revenue was 4,200,000 EUR in 2024.", {4_200_000.0: 1, 2024.0: 1}),
        ("Your table is at 7 pm.", {1900.0: 1}),  # a time of day is one value: 19:00
        ("Your table is at 19:00.", {1900.0: 1}),
        ("See you on the 8th.", {8.0: 1}),
        ("It costs twenty dollars.", {20.0: 1}),
        ("No numbers here.", {}),
    ],
)
def test_numbers_in(text: str, numbers: dict[float, int]) -> None:
    assert numbers_in(text) == Counter(numbers)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Your reservation is confirmed.", "positive"),
        ("Sorry, the reservation failed.", "negative"),
        ("I can book that for you.", "positive"),
        ("I cannot book that for you.", "negative"),
        ("That isn't available.", "negative"),
        ("No problem, it is booked.", "positive"),  # "no problem" is not a negation
    ],
)
def test_polarity(text: str, expected: str) -> None:
    assert polarity(text) == expected


def test_entities_skip_sentence_starts_and_title_case() -> None:
    assert entities_in("Flights to Paris leave from Heathrow. Shall I book one?") == {"paris", "heathrow"}
    assert entities_in("Two Blasts Hit Syria Capital") == set()  # a headline: no usable signal


def test_asks() -> None:
    assert asks("Which region?")
    assert asks("Please tell me the region.")
    assert not asks("Which region.")


def test_polarity_flip_is_inconsistent() -> None:
    check = check_reply_facts("Your reservation is confirmed.", "Sorry, the reservation failed.")
    assert [(f.reason, f.sub_metric) for f in check.findings] == [
        (FailureReason.INCONSISTENT_RESPONSE, SubMetric.TRUTHFULNESS)
    ]
    assert check.findings[0].detail == "polarity: the prediction is negative where gold is positive"


def test_a_substituted_name_is_inconsistent_but_a_variant_is_not() -> None:
    swapped = check_reply_facts("Your flight to London is booked.", "Your flight to Paris is booked.")
    assert [f.detail for f in swapped.findings] == ["names paris where gold names london"]
    variant = check_reply_facts(
        "Two blasts hit the capital of Syria today.", "Two blasts hit the Syrian capital today."
    )
    assert variant.findings == ()  # Syria / Syrian share their first four letters


def test_times_in_two_forms_are_the_same_fact() -> None:
    check = check_reply_facts("Your table for 2 is booked at 7 pm.", "Booked: a table for 2 at 19:00.")
    assert check.findings == ()
    assert (check.gold_facts, check.covered_facts) == (2, 2)  # 2 and 19:00, both given


def test_numbers_drive_inconsistent_and_incomplete() -> None:
    check = check_reply_facts("EU revenue for 2024 was 4,200,000 EUR.", "EU profit for 2024 was 1,150,000 EUR.")
    reasons = [(f.reason, f.detail) for f in check.findings]
    assert reasons == [
        (FailureReason.INCONSISTENT_RESPONSE, "states 1150000, which gold does not state"),
        (FailureReason.INCOMPLETE_RESPONSE, "omits 4200000, which gold states"),
    ]
    assert check.coverage == pytest.approx(1 / 2)  # gold facts 2024 and 4200000; 2024 covered


def test_checks_can_be_selected_and_unknown_ones_are_rejected() -> None:
    assert check_reply_facts("It worked.", "It failed.", ["numbers"]).findings == ()
    with pytest.raises(ConfigError, match=r"unknown fact checks \['tone'\]"):
        check_reply_facts("a", "b", ["tone"])


@given(st.text(max_size=200))
def test_a_reply_never_contradicts_itself(text: str) -> None:
    check = check_reply_facts(text, text)
    assert check.findings == ()
    assert check.covered_facts == check.gold_facts


@pytest.mark.parametrize("text", ["The apartment has in-Unit laundry.", "It is on Place d'Anglas, Paris."])
def test_names_inside_hyphenated_or_apostrophe_words_are_the_same_words(text: str) -> None:
    assert check_reply_facts(text, text).findings == ()
