"""The cheap gates in front of the time parser's costly steps change no reading.

Each gate claims that a text it turns away is one the guarded step rejects anyway; these tests check that claim on
random texts built from the words the parsers care about (and on the examples the gates were made for).
"""

from __future__ import annotations

from datetime import datetime

import pytest
from dateutil import parser as dateutil_parser  # type: ignore[import-untyped]  # no stubs installed
from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.compare import parse_time
from aem_strands.compare.settle import typed_value
from aem_strands.compare.values import CalendarDate, Moment, ParseContext, Text

_WORDS = (
    "jan", "march", "Sept", "may", "of", "the", "on", "at", "and", "in", "a", "am", "pm", "p", "m", "h", "t", "s",
    "th", "st", "rd", "utc", "UTC", "EST", "z", "friday", "mon", "hours", "seconds", "portland", "cha", "leave",
    "1", "3rd", "12", "2019", "19:00", "7pm", "1/3/2019", "2024-03-01", "-", "/", ",", ".", "'", "+", "(", ")",
    "é", "café", "t12", "5h30",
)  # fmt: skip
_TEXTS = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=6).flatmap(
    lambda words: st.sampled_from((" ".join(words), "".join(words), ", ".join(words)))
)


def _dateutil_reads(text: str) -> bool:
    try:
        dateutil_parser.parse(text, default=datetime(2000, 1, 1))
    except (ValueError, OverflowError):
        return False
    return True


@settings(max_examples=600, deadline=None)
@given(_TEXTS)
def test_dateutil_gate_turns_away_only_texts_dateutil_rejects(text: str) -> None:
    if not parse_time._dateutil_may_read(text):
        assert not _dateutil_reads(text)


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_moment_gate_turns_away_only_texts_without_a_clock_part(text: str) -> None:
    folded = text.casefold()
    if parse_time._MOMENT_CLOCK.search(folded) is None:
        assert parse_time._MOMENT_SPLIT.fullmatch(folded) is None


@pytest.mark.parametrize(
    ("text", "reads"),
    [
        ("march 3rd in portland", False),  # "in", "portland": words dateutil does not know
        ("leave on march 10th from", False),
        ("friday, 1 march 2019", True),
        ("jan of cha", True),  # dateutil skips the word after "<month> of": tried, and it reads January
        ("march 1st at 5 EST", True),  # capitals may be a time-zone name
        ("1er mars café", True),  # not ASCII: always tried
    ],
)
def test_dateutil_gate_examples(text: str, reads: bool) -> None:
    assert parse_time._dateutil_may_read(text) is reads
    if not reads:
        assert parse_time._dateutil(text) is None
        assert not _dateutil_reads(text)


def test_readings_through_the_gated_steps() -> None:
    # Each guarded step still reads what it read: a month date through dateutil, "of" kept, a moment, a duration.
    assert typed_value("Friday, 1 March 2019") == CalendarDate(frozenset({(2019, 3, 1)}))
    assert typed_value("jan of cha") == CalendarDate(frozenset({(None, 1, None)}))
    assert isinstance(typed_value("March 3rd in Portland"), Text)
    context = ParseContext(reference_date=datetime(2019, 3, 1).date())
    moment = typed_value("March 3rd at 5 pm", context)
    assert isinstance(moment, Moment)
    assert moment.day == CalendarDate(frozenset({(2019, 3, 3)}))
    assert not isinstance(typed_value("March 3rd at 5"), Moment)  # no clock part: no moment
    assert typed_value("1 h 30 min") == parse_time.parse_duration("1 h 30 min") is not None
    assert parse_time.parse_duration("have 2 for dinner") is None
