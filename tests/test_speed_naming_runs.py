"""Issue 29: a sentence's remembered runs of words (``naming._cached_runs``, grown a word at a time) are the runs
``naming._runs`` joins one by one, in its order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.trace.checks.naming import _cached_runs, _runs, ngrams
from aem_strands.trace.checks.observed import MAX_NAME_WORDS


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["united", "airlines", "w2291", "", "corte madera", "é"]), max_size=20))
def test_remembered_runs_are_the_runs_joined_one_by_one(words: list[str]) -> None:
    assert _cached_runs(tuple(words)) == tuple(_runs(tuple(words)))


def test_runs_of_a_sentence_stop_at_the_longest_name() -> None:
    words = tuple(f"w{i}" for i in range(MAX_NAME_WORDS + 2))
    runs = list(ngrams(words))
    # each of the n words starts runs of 1 to MAX_NAME_WORDS words, fewer near the end: 8+8+8+7+...+1 for 10 words
    assert len(runs) == sum(min(MAX_NAME_WORDS, len(words) - i) for i in range(len(words)))
    assert runs[:2] == ["w0", "w0 w1"]
    assert " ".join(words[:MAX_NAME_WORDS]) in runs
    assert " ".join(words[: MAX_NAME_WORDS + 1]) not in runs
