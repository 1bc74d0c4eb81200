"""The cheap checks that spare the typed parsers a text never reject a text the parser would read."""

from __future__ import annotations

import sys
import unicodedata
from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.compare.identifiers import EmailParser
from aem_strands.compare.parse_numbers import _CURRENCY_MENTION, has_digit, has_letter, priced
from aem_strands.compare.parse_time import MONTHS, _digits, _fold, may_be_time, read_time
from aem_strands.compare.values import ParseContext

_TIME_PIECES = [
    *MONTHS, "monday", "fri", "next", "this", "week", "the", "of", "on", "at", "today", "tomorrow", "tonight",
    "later", "day", "after", "noon", "midnight", "midday", "half", "quarter", "past", "to", "an", "a", "hour",
    "hours", "min", "m", "h", "d", "s", "and", "pm", "am", "morning", "evening", "q", "fy", "st", "th", "pt",
    "seven", "twenty", "third", "eighth", "o'clock", "month", "in", "window", "seat", "p",
]  # fmt: skip
_GLUE = st.sampled_from([" ", " ", " ", "", ",", ", ", ".", "-", "/", ":"])
_time_texts = st.lists(st.tuples(st.sampled_from(_TIME_PIECES), _GLUE), min_size=1, max_size=5).map(
    lambda parts: "".join(word + glue for word, glue in parts)
)
_contexts = st.sampled_from([ParseContext(None), ParseContext(date(2019, 3, 1))])


@settings(max_examples=600, deadline=None)
@given(text=_time_texts, context=_contexts)
def test_a_text_the_time_check_rejects_reads_as_no_time(text: str, context: ParseContext) -> None:
    folded = _digits(_fold(text))
    if not may_be_time(folded):
        assert read_time(folded, context) is None, folded


def test_the_time_check_keeps_time_words_without_digits() -> None:
    kept = ["noon", "an hour", "half an hour", "monday next week", "march", "tomorrow", "seven pm"]
    assert all(may_be_time(_digits(_fold(text))) for text in kept)
    assert not may_be_time(_digits(_fold("window seat")))


_CURRENCY_PIECES = ["$", "us$", "€", "usd", "dollars", "bucks", "eur", "euro", "pounds", "yen", "rupees", "rs",
                    "price", "5", "1,200", "4.50", "million", "k", "about", "us", "eu", "cash", "d"]  # fmt: skip
_currency_texts = st.lists(st.tuples(st.sampled_from(_CURRENCY_PIECES), st.sampled_from(["", " "])), max_size=4).map(
    lambda parts: "".join(word + glue for word, glue in parts)
)


@settings(max_examples=400, deadline=None)
@given(text=_currency_texts | st.text(max_size=12))
def test_a_text_naming_no_currency_is_no_amount(text: str) -> None:
    if not _CURRENCY_MENTION.search(text):
        assert priced(text) is None


def test_only_three_characters_normalise_to_an_at_sign() -> None:
    # EmailParser looks for these before normalising: "@", fullwidth and small commercial at.
    found = {chr(c) for c in range(sys.maxunicode + 1) if "@" in unicodedata.normalize("NFKC", chr(c))}
    assert found == {"@", "\uff20", "\ufe6b"}
    assert EmailParser().parse("a\uff20b.com", ParseContext(None)) is not None


@settings(max_examples=500, deadline=None)
@given(text=st.text(max_size=20) | st.text(st.sampled_from("aZ09 .%²½Ⅻ١é"), max_size=8))
def test_letter_and_digit_checks_are_the_character_tests(text: str) -> None:
    assert has_letter(text) == any(c.isalpha() for c in text)
    assert has_digit(text) == any(c.isdigit() for c in text)
