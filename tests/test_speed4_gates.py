"""The word check of ``parse_time`` (``_readers_may_read``) never rejects a text a time reader takes.

Each test reads texts on both sides of the gate: where the gate says no reader takes a text, ``read_time`` (the
ungated readers) must find nothing under any context; the gate must also let real times through.
"""

from __future__ import annotations

from datetime import date

import pytest
from aem_bench.trace_sets import SGD_DIR, sgd_traces
from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.compare.parse_time import (
    _DATEUTIL_WORDS,
    _DURATION_UNITS,
    _WEEKDAYS,
    MONTHS,
    TimeParser,
    _digits,
    _fold,
    _readers_may_read,
    may_be_time,
    read_time,
)
from aem_strands.compare.values import ParseContext

_CONTEXTS = [
    ParseContext(None),
    ParseContext(date(2019, 3, 1)),
    ParseContext(date(2019, 3, 1), day_first=True),
    ParseContext(None, day_first=False),
]
_WORDS = sorted(
    {*MONTHS, *_WEEKDAYS, *_DURATION_UNITS, *(w for w in _DATEUTIL_WORDS if w.isalpha())}
    | {"o'clock", "half", "quarter", "fiscal", "past", "to", "after", "in", "the", "this", "next", "coming", "week",
       "month", "of", "later", "today", "tomorrow", "noon", "midday", "midnight", "morning", "night", "am", "pm",
       "a.m.", "fy", "q", "pt", "an", "and", "3rd", "1st", "twenty", "seven", "hotel", "room", "check", "tuesdays",
       "nex", "ofx", "xof", "mart", "has", "path", "book", "star", "table", "street", "per", "am's", "é", "\uff41"}
)  # fmt: skip
_NUMBERS = ["3", "12", "2019", "05", "7:30", "10:00:00", "2019-03-01", "1/3/2019", "4.5", "10h30", "q3", "t10:00"]
_GLUE = st.sampled_from([" ", " ", " ", "", ",", ", ", ".", "-", "/", ":", "t"])
_texts = st.lists(st.tuples(st.sampled_from(_WORDS + _NUMBERS), _GLUE), min_size=1, max_size=6).map(
    lambda parts: "".join(word + glue for word, glue in parts)
)
_REAL = [
    "1:15 pm", "on march 1st at 5:15", "14th of march", "2019-03-01", "march at", "tuesday next week",
    "tomorrow morning", "half past 11 in the morning", "a quarter to midnight", "PT2H30M", "Q3 2024",
    "third quarter of 2024", "Friday, 1 March 2019", "March 3rd in Portland", "2019-03-01T10:00:00Z and more",
    "5 o'clock pm", "an hour and a half", "in alameda for 11:30 am", "359 crown street", "to book 1 room",
    "room cost is $90 per night", "check in on the 8th for", "around 8 in the night should", "at +44 20 7581",
    "10 hotels in new york", "1 h 30 m", "ten in the night", "5-past-7", "half 5 pm", "march 9th check-in",
]  # fmt: skip


def _ungated_reads(folded: str) -> list[object]:
    return [read_time(folded, context) for context in _CONTEXTS]


@settings(max_examples=1500, deadline=None)
@given(text=_texts | st.text(max_size=20))
def test_a_text_the_word_check_rejects_reads_as_no_time(text: str) -> None:
    folded = _digits(_fold(text))
    if folded and not _readers_may_read(folded):
        assert _ungated_reads(folded) == [None] * len(_CONTEXTS), folded


def test_real_phrases_read_the_same_through_the_gate() -> None:
    parser = TimeParser()
    for text in _REAL:
        folded = _digits(_fold(text))
        for context in _CONTEXTS:
            ungated = read_time(folded, context) if folded and len(folded) <= 60 and may_be_time(folded) else None
            assert parser.parse(text, context) == ungated, text


def test_the_word_check_keeps_times_and_drops_plain_phrases() -> None:
    for kept in ("half past 11 in the morning", "pt2h30m", "q3 fy2024", "2019-03-01t10:00", "5 oclockpm", "10h30"):
        assert _readers_may_read(kept), kept
    for dropped in ("359 crown street", "to book 1 room", "10 hotels in new york"):
        assert not _readers_may_read(dropped), dropped
    # where a reader takes unknown words, the check always lets the text through
    assert _readers_may_read("march of zzz 3")  # dateutil skips the word after "<month> of"
    assert _readers_may_read("2019-03-01 10:00:00 local time")  # a moment drops what follows the seconds
    assert _readers_may_read("3 mars à 10h")  # not ASCII


@pytest.mark.skipif(not (SGD_DIR / "test").is_dir(), reason=f"SGD data not found at {SGD_DIR}")
def test_the_word_check_rejects_no_time_in_real_sgd_phrases() -> None:
    # Every phrase of up to four words of the first SGD dialogs (tuning half), as the grounding index types them.
    texts = {
        " ".join(words[start : start + size])
        for trace in sgd_traces(split="tuning", limit=15)
        for step in trace["steps"]
        if isinstance(step.get("content"), str)
        for words in [step["content"].split()]
        for size in range(1, 5)
        for start in range(len(words))
    }
    assert len(texts) > 1000
    for text in texts:
        folded = _digits(_fold(text))
        if folded and not _readers_may_read(folded):
            assert _ungated_reads(folded) == [None] * len(_CONTEXTS), folded
