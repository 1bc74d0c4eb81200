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
    requests.clear_parses()
    first = requests._parse("Cancel order 123, please.")
    assert requests._parse("Cancel order 123, please.") is first
    assert all(token.lemma_ == "" for token in first)  # the lemmatizer did not run
    assert first[0].tag_ == "VB"  # the tagger did


def test_texts_parsed_in_one_batch_read_as_each_parsed_alone() -> None:
    texts = ["Please cancel order 123.", "I'd rather you didn't.", "Do I have a meeting today?", "Yes, book it."]
    requests.clear_parses()
    alone = [[(t.text, t.tag_, t.dep_, t.head.i) for t in requests._parse(text)] for text in texts]
    requests.clear_parses()
    requests.parse_texts(texts)
    docs = [requests._parse(text) for text in texts]
    requests.parse_texts(texts)  # parsed already: the same parses kept
    assert [requests._parse(text) for text in texts] == docs
    assert [[(t.text, t.tag_, t.dep_, t.head.i) for t in doc] for doc in docs] == alone
