"""The readings result use remembers per text read the same as the unremembered ones (issue 29: speed only)."""

from __future__ import annotations

import re

from aem_strands.compare.identifiers import identifier_key
from aem_strands.trace.checks import codes, naming, observed
from aem_strands.trace.value_tokens import CACHED_TEXT

SENTENCE = "P.f. Chang's at 5 Main St. has table T-12 for 2 on March 1st; call AB12 or mail a@b.co."
LONG = " ".join([SENTENCE] * (CACHED_TEXT // len(SENTENCE) + 2))


def _plain_runs(words: tuple[str, ...]) -> list[str]:
    return [
        " ".join(words[start:end])
        for start in range(len(words))
        for end in range(start + 1, min(len(words), start + observed.MAX_NAME_WORDS) + 1)
    ]


def test_runs_of_words_are_every_run_in_order_short_and_long() -> None:
    short = observed.name_words(SENTENCE)
    long = observed.name_words(LONG)
    assert len(long) > 200  # read lazily, not remembered
    assert list(naming.ngrams(short)) == _plain_runs(short)
    assert list(naming.ngrams(short)) == list(naming.ngrams(short))  # a second reading from the cache
    assert list(naming.ngrams(long)) == _plain_runs(long)


def test_name_words_read_the_same_remembered_or_not() -> None:
    assert observed.name_words(SENTENCE) == ("p", "f", "chang's", "at", "5", "main", "st", "has", "table", "t", "12",
                                             "for", "2", "on", "march", "1st", "call", "ab12", "or", "mail", "a",
                                             "b", "co")  # fmt: skip
    assert observed.name_words(LONG) == observed.name_words(SENTENCE) * (len(observed.name_words(LONG)) // 23)


def test_stated_keys_are_the_keys_of_each_token() -> None:
    words = re.findall(r"[\w@.#-]+", SENTENCE)
    written = {identifier_key(w) for w in words}
    bare = {identifier_key(w.strip(".-#")) for w in words}
    assert codes.token_keys(SENTENCE) == codes.TokenKeys(frozenset(written), frozenset(bare))
    assert codes.token_keys(LONG) == codes.token_keys(SENTENCE)  # read unremembered, the same
    ticket = codes.token_keys("ticket #4471")
    assert ticket.written == {"ticket", "#4471"}
    assert ticket.bare == {"ticket", "4471"}  # the codes take both, result use's grounding the written ones
    assert {"t12", "ab12", "pf", "chang"} <= written | bare
    stated = codes.StatedCodes()
    stated.state(SENTENCE)
    assert stated.tokens == written | bare
