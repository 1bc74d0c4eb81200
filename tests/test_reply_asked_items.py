"""Two things asked or offered against one of them (``compare.asked_items``)."""

from __future__ import annotations

import pytest

from aem_strands.compare.asked_items import dropped_item


@pytest.mark.parametrize(
    ("gold", "predicted", "dropped"),
    [
        ("Can I have your flight number and seat?", "Can I have your flight number?", "seat"),
        ("Should I water the plants?", "Should I water the plants and feed the cat?", "feed the cat"),
        ("Can I have your flight number and seat?", "Can I have your flight number and seat?", None),
        ("Can I have your flight number and seat?", "What's your booking code?", None),  # nothing shared
        ("Shall I book it?", "Shall I go ahead and book it?", None),  # an idiom
        ("Do you like Simon and Garfunkel?", "Do you like Simon?", None),  # a name
        ("Tea, coffee and juice?", "Tea?", "juice"),  # the last item of a list is left out
        ("Sure. Can I have your flight number and seat?", "Can I have your flight number?", None),  # two sentences
    ],
)
def test_dropped_item(gold: str, predicted: str, dropped: str | None) -> None:
    assert dropped_item(gold, predicted) == dropped
