"""The request parse skips the pipes nothing reads (attribute ruler, lemmatizer), reads forms of *do* from the
words, and parses a text once: the readings that lean on *do* keep both outcomes."""

from __future__ import annotations

import pytest

from aem_strands.trace.checks import requests


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Cancel order 123, please.", True),
        ("Do I have an order to cancel?", False),  # a question about a fact: "do" before the subject
        ("Does cancelling order 123 cost anything?", False),
        ("I don't want you to cancel order 123.", False),
    ],
)
def test_forms_of_do_are_read_without_the_lemmatizer(text: str, asks: bool) -> None:
    assert requests.asks_for(text, "cancel_order") is asks


@pytest.mark.parametrize(
    ("text", "refuses"),
    [("Please don't.", True), ("No, I didn't.", True), ("I did.", False), ("Do it.", False)],
)
def test_a_negated_do_standing_for_the_action_refuses(text: str, refuses: bool) -> None:
    assert requests.refuses_by_ellipsis(text) is refuses


def test_a_text_is_parsed_once_without_the_unread_pipes() -> None:
    requests._parse.cache_clear()
    first = requests._parse("Cancel order 123, please.")
    assert requests._parse("Cancel order 123, please.") is first
    assert requests._parse.cache_info().hits == 1
    assert all(token.lemma_ == "" for token in first)  # the lemmatizer did not run
    assert first[0].tag_ == "VB"  # the tagger did
