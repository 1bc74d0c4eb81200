"""Issue 29: the grounding index reads a repeated text once and remembers words; what it finds is unchanged."""

from __future__ import annotations

from aem_strands.trace.grounding_index import ValueIndex
from aem_strands.trace.value_tokens import _read_word, _word_tokens, tokens


def _same(a: object, b: object, name: str) -> bool:
    return a == b


def test_a_text_indexed_again_keeps_its_first_source() -> None:
    index = ValueIndex(_same)
    observation = {"results": [{"city": "San Jose", "rating": "4.5 stars", "date": "March 3rd"}]}
    index.add_json(observation, "observation of step s2")
    index.add_text("Anything in San Jose on March 3rd?", "user message (step s3)")
    index.add_json(observation, "observation of step s5")
    # typed (a date), by tokens (a run of words), by identifier: each found where it was first said or seen
    found = index.find("2019-03-03")
    assert found is not None
    assert found.source == "observation of step s2", found
    found = index.find("jose")
    assert found is not None
    assert found.source == "observation of step s2", found
    index.add_text("Book 4.5 for me", "user message (step s6)")
    found = index.find(4.5)
    assert found is not None
    assert found.source == "observation of step s2", found
    assert index.find("Tokyo") is None


def test_a_longer_phrase_reading_of_a_text_seen_as_a_value_is_still_read() -> None:
    # A string value is read for phrases of up to three words; the same words as a user message for six:
    # "half past five in the evening" (six words) is 17:30 only in the longer reading.
    index = ValueIndex(_same)
    index.add_json({"note": "we open at half past five in the evening"}, "observation of step s2")
    assert index.find("17:30") is None
    index.add_text("we open at half past five in the evening", "user message (step s3)")
    found = index.find("17:30")
    assert found is not None
    assert found.source == "user message (step s3)", found


def test_remembered_word_tokens_equal_a_fresh_reading() -> None:
    for word in ("$40.00", "C-3003", "13th", "12,34", "1,250", "P.F.", "Ünïcödé", "ORDER_123"):
        for joinable in (True, False):
            assert _word_tokens(word, joinable) == tuple(_read_word(word, joinable))
    assert [t.key for t in tokens("I paid $40.00, order C-3003.")] == ["i", "paid", "#40", "order", "~c3003"]
