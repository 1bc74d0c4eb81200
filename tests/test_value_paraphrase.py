"""Values said in other words, read by the paraphrase model trained on SGD (``compare.value_paraphrase``): the
phrases it reads, its confident readings (a value the user named in other words), and what it does not read (another
value of the same slot, typed values, a phrase naming the value in part). The arguments check does not use it yet:
see the module docstring."""

from __future__ import annotations

import numpy as np
import pytest

from aem_strands.compare.value_paraphrase import (
    CONFIDENT,
    grounding_phrase,
    pair_features,
    phrases,
    probabilities,
    reads,
    shares_word,
)


def test_phrases_are_short_runs_that_neither_start_nor_end_with_a_stop_word() -> None:
    found = phrases("I want some Diner style food in Fremont.")
    assert {"Diner", "Diner style food", "Fremont"} <= set(found)
    assert not {"I want", "food in", "in Fremont"} & set(found)
    assert all(1 <= len(p.split()) <= 3 for p in found)


def test_pair_features_are_the_cosine_the_product_and_the_difference() -> None:
    a = np.array([[0.6, 0.8]], dtype=np.float32)
    b = np.array([[1.0, 0.0]], dtype=np.float32)
    # cosine 0.6*1 + 0.8*0 = 0.6; product (0.6, 0); |difference| (0.4, 0.8)
    assert pair_features(a, b)[0].tolist() == pytest.approx([0.6, 0.6, 0.0, 0.4, 0.8])


def test_no_phrase_no_probability() -> None:
    assert probabilities("American", []) == []
    assert grounding_phrase("American", ["I want it."]) is None  # "I want it." has no phrase: all stop words


@pytest.mark.parametrize(
    ("said", "value", "phrase"),
    [
        ("I want sushi in Fremont.", "Japanese", "sushi"),
        ("Find me some tacos.", "Mexican", "tacos"),
        ("I want to see a scary movie", "Horror", "scary"),
        ("Something to do in SF", "San Francisco", "SF"),
    ],
)
def test_a_value_said_in_other_words_is_read_confidently(said: str, value: str, phrase: str) -> None:
    found = grounding_phrase(value, [said])
    assert found is not None
    assert (found.phrase, found.probability >= CONFIDENT) == (phrase, True)


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("I want sushi in Fremont.", "Chinese"),  # another cuisine: the changed value of a planted fault
        ("Find me some tacos.", "Italian"),
        ("I want to see a scary movie", "Comedy"),
        ("I'd like some Ramen in Fremont.", "Italian"),
        ("Find me a movie in the Play genre", "Drama"),  # not confident: left to the judge
    ],
)
def test_another_value_of_the_slot_is_not(said: str, value: str) -> None:
    assert grounding_phrase(value, [said]) is None


def test_only_word_values_are_read() -> None:
    assert reads("Japanese")
    assert not reads("2019-03-13")  # typed values are the typed equivalence's
    assert not reads("Room 12")
    assert not reads("a value of four words")
    assert grounding_phrase("2019-03-13", ["the thirteenth of March"]) is None


def test_a_phrase_that_shares_a_word_with_the_value_names_it_in_part_and_is_not_read() -> None:
    assert shares_word("Airport", "Orly International Airport")
    assert not shares_word("Ramen", "Japanese")
    assert grounding_phrase("Orly International Airport", ["Take me to the Airport."]) is None
