"""The cheap looks that spare the reply readers a text never skip a text the full reading would find something in."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from aem_strands.compare import reply_signals, scopes
from aem_strands.compare.parse_time import MONTHS

_PIECES = [
    *MONTHS, "May", "SEPT", "Dec.", "dollars", "USD", "Euros", "bucks", "yen", "percent", "per cent", "Percent", "%",
    "$", "US$", "£", "hours", "hr", "Minutes", "min", "day", "nights", "weeks", "Month", "year", "second", "out of",
    "Out Of", "/", "-", "of", "the", "and", "a", "half", "an", "hour", "at", "on", "1", "2", "3", "12", "30", "2019",
    "10", "5", "1,250", "4.5", "7", "pm", "st", "th",
]  # fmt: skip
_GLUE = st.sampled_from([" ", " ", " ", "", ",", ", ", ".", "-", "/", ":"])
_texts = st.lists(st.tuples(st.sampled_from(_PIECES), _GLUE), min_size=1, max_size=8).map(
    lambda parts: "".join(word + glue for word, glue in parts)
)


@settings(max_examples=800)
@given(text=_texts)
@example("Rated 4/5, or 3 out of 10")
@example("US$ 5, $6, €5, £4, ¥300, ₹90; 20 Dollars, 5 bucks, 3 USD, 4 eur, 9 pounds, 7 GBP, 100 yen, 50 rupees, 3 CAD")
@example("4 AUD, 8 Per Cent, 8 percent, 8%")
@example("2 Hours and 10 Minutes, 3 nights, 2 weeks, 1 month, 3 years, 5 seconds, 4 hr, 2 days, 20 min")
def test_each_match_of_a_hinted_pattern_holds_one_of_its_hints(text: str) -> None:
    for scan in reply_signals.SCANS:
        for match in scan.pattern.finditer(text) if scan.hints else ():
            assert any(hint in match.group().casefold() for hint in scan.hints), (scan.pattern.pattern, match.group())
        if scan.gate is not None and scan.pattern.search(text):
            assert scan.gate.search(text), (scan.pattern.pattern[:40], text)


def test_the_hinted_readers_still_read_their_facts() -> None:
    text = "It costs 20 dollars, up 8 percent, for 2 hours."
    read = {(f.group, f.key) for f in reply_signals.facts_in(text)}
    # 20 dollars = USD 20; 8 percent with its direction; 2 hours = 7200 s
    assert {("money", "USD 20"), ("percent", "8% up"), ("duration", "7200 s")} <= read
    assert ("percent", "80%") in {(f.group, f.key) for f in reply_signals.facts_in("Rated 4 out of 5.")}  # 4/5


_SCOPE_PIECES = [
    "all", "All", "but", "every", "each", "both", "whole", "in full", "full", "refund", "most", "popular", "some",
    "a few", "several", "one", "two", "of", "the", "them", "hotels", "part", "half", "only", "not", "just", "none",
    "neither", "nobody", "no", "either", "whichever", "at", "least", "more", "or", "up", "to", "also", "as", "well",
    "too", "set", "that's", "except", "other", "than", "3",
]  # fmt: skip
_scope_texts = st.lists(st.tuples(st.sampled_from(_SCOPE_PIECES), _GLUE), min_size=1, max_size=8).map(
    lambda parts: "".join(word + glue for word, glue in parts)
)


@settings(max_examples=800)
@given(text=_scope_texts)
def test_the_one_scope_search_finds_a_text_each_class_search_finds(text: str) -> None:
    folded = text.casefold()
    each = any(re.search(pattern, folded) for _, pattern in scopes.SCOPES)
    assert each == (scopes._ANY_SCOPE.search(folded) is not None), folded
    if not each:
        assert scopes.scopes_in(text) == frozenset()


def test_a_denied_universal_is_read_before_the_one_scope_search() -> None:
    # "not all" becomes "some" first; "all for now" alone is no scope word, so a search before the rewrite finds none
    assert scopes.scopes_in("That is not all for now.") == frozenset(["some"])
    assert scopes.scopes_in("That is all for now.") == frozenset()
