"""The success act model (``compare.success_acts``): the shipped weights load and read a reply reporting an action
done apart from replies that ask, offer, confirm or report a failure."""

from __future__ import annotations

import pytest

from aem_strands.compare.success_acts import CONFIDENT, UNSURE, WEIGHTS, success_probability


def test_the_weights_ship_with_the_package_and_the_band_is_ordered() -> None:
    assert WEIGHTS.is_file()
    assert 0.0 < UNSURE < CONFIDENT < 1.0


@pytest.mark.parametrize(
    "reply",
    [
        "Your reservation has been made.",
        "I have booked your hotel room.",
        "Your booking is now confirmed!",
        "That one worked! It's booked!",
    ],
)
def test_a_report_of_an_action_done_reads_as_success(reply: str) -> None:
    assert success_probability(reply) >= CONFIDENT


@pytest.mark.parametrize(
    "reply",
    [
        "Please confirm: a table for 2 at Benissimo at 12 pm.",  # SGD's CONFIRM
        "Sorry, I could not book it. Would you like to try 12:30 pm?",  # NOTIFY_FAILURE, OFFER
        "I found 3 restaurants in Oakland. How about Lotus Thai?",  # INFORM_COUNT, OFFER
        "Would you like me to book a table there?",  # OFFER_INTENT
        "Kindly ensure that, you wish to go to 7880 Wren Avenue. Regular ride has been booked for 3 persons.",
    ],
)
def test_a_reply_that_asks_offers_confirms_or_fails_does_not(reply: str) -> None:
    assert success_probability(reply) < UNSURE
