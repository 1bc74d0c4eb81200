"""Readings made cheaper read the same (issue 29: speed only): ``values_in`` is ``facts_in`` without the names, states
and negations, which are read last; the one search for a statement's cues matches where one of its kinds does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.compare import acts, reply_signals
from aem_strands.compare.reply_signals import facts_in, values_in

_LAST = ("entity", "negation")
"""The groups read after every value (and ``state:*``)."""

_WRITTEN = [
    "Order ORDER_190667 is processing.",
    "Dr. Anne Han booked table T-12 for 2 at 7 pm on March 3rd at 1532 20th Street; call +1 416-350-2000.",
    "The Grand Central Station shuttle isn't available; it costs $28 and takes 2 hours and 10 minutes.",
    "Half of the 4 tickets are gone, one is open and the other is not confirmed. Pleasant Hill, CA on Friday.",
    "No smoking is allowed. It's 5 kg, up 8% on the 12/11/2020 reading; mail a@b.co by noon.",
    "processing",
    "",
]
_PIECES = [
    "Order", "ORDER_12", "not", "available", "$40", "7 pm", "March", "3", "Friday", "Bank", "of", "America", "is",
    "on", "off", "the", "other", "one", "5 kg", "#4471", "Hill", ".", ",", "two", "isn't", "confirmed",
]  # fmt: skip


def _without_last(text: str) -> tuple[object, ...]:
    return tuple(f for f in facts_in(text) if f.group not in _LAST and not f.group.startswith("state:"))


def test_values_are_the_facts_but_names_states_and_negations() -> None:
    for text in _WRITTEN:
        assert values_in(text) == _without_last(text), text
    groups = {f.group for text in _WRITTEN for f in facts_in(text)}
    # the texts exercise both kinds: values and what is read after them
    assert {"identifier", "time", "date", "money", "number", "address", "phone", "weekday"} <= groups
    assert {"entity", "negation"} <= groups
    assert any(g.startswith("state:") for g in groups)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=10).map(" ".join))
def test_values_in_any_text_are_its_facts_but_the_last_read(text: str) -> None:
    assert values_in(text) == _without_last(text)


_ACT_PIECES = [
    "I", "was", "unable", "to", "book", "it", "has", "been", "booked", "there", "are", "3", "results", "anything",
    "else", "goodbye", "have", "a", "nice", "day", "sorry", "the", "order", "is", "shipped", "cancelled", "found",
    "couldn't", "successfully", "can", "help", "with", "more", ",", ".", "!",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_ACT_PIECES), max_size=10).map(" ".join))
def test_the_union_of_the_statement_cues_matches_where_one_of_them_does(sentence: str) -> None:
    one = any(pattern.search(sentence) for _, pattern in acts._STATEMENT_KINDS)
    assert one == (acts._ANY_STATEMENT_KIND.search(sentence) is not None), sentence


def test_each_calendar_word_holds_a_calendar_hint() -> None:
    assert all(any(hint in word for hint in reply_signals._CALENDAR_HINTS) for word in reply_signals._CALENDAR_WORDS)
    # hand-checked: a weekday, a possessive and a month are read past the look, a text with none is not
    read = [(f.group, f.key) for f in values_in("See you Friday's at 5, or on Mondays in June.")]
    assert ("weekday", "fri") in read  # "Friday's": the day, its possessive left out
    assert ("month", "6") in read
