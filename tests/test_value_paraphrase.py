"""Values said in other words, grounded by the paraphrase model trained on SGD (``compare.value_paraphrase``):
the phrases it reads, its confident readings, and the arguments check on traces of both outcomes (a value the user
named in other words is grounded; another value of the same slot stays open, never a finding)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from aem_strands.compare.value_paraphrase import CONFIDENT, grounding_phrase, pair_features, phrases, probabilities
from aem_strands.trace.checks.arguments import check_arguments
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.types import ActionType, DimensionVerdict, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues

CTX = TraceContext(ComparatorValues())


def test_phrases_are_short_runs_that_neither_start_nor_end_with_a_stop_word() -> None:
    found = phrases("I want some Diner style food in Fremont.")
    assert "Diner" in found and "Diner style food" in found and "Fremont" in found
    assert "I want" not in found and "food in" not in found and "in Fremont" not in found
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
        ("I'm looking for some burgers in Fremont.", "American", "burgers"),
        ("Find me a place that serves pizza and pasta.", "Italian", "pizza"),
    ],
)
def test_a_value_said_in_other_words_is_read_confidently(said: str, value: str, phrase: str) -> None:
    found = grounding_phrase(value, [said])
    assert found is not None and phrase in found.phrase and found.probability >= CONFIDENT


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("I'm looking for some burgers in Fremont.", "Italian"),
        ("Find me a place that serves pizza and pasta.", "Mexican"),
        ("I'm looking for some burgers in Fremont.", "Vegetarian"),
    ],
)
def test_another_value_of_the_slot_is_not(said: str, value: str) -> None:
    assert grounding_phrase(value, [said]) is None


def _trace(said: str, **arguments: Any) -> Trace:
    steps = (
        Step("u", 0, ActionType.USER, content=said),
        Step("c", 1, ActionType.TOOL_CALL, "FindRestaurants", arguments, []),
    )
    return Trace("t", steps)


def _outcome(verdict: DimensionVerdict) -> str:
    return "finding" if verdict.findings else "undecided" if verdict.undecided else "grounded"


@pytest.mark.parametrize(("value", "expected"), [("American", "grounded"), ("Italian", "undecided")])
def test_the_arguments_check_grounds_a_value_said_in_other_words_only(value: str, expected: str) -> None:
    verdict = check_arguments(
        _trace("I'm looking for some burgers in Fremont.", city="Fremont", cuisine=value), Environment(), CTX
    )
    assert _outcome(verdict) == expected
    if expected == "grounded":  # the evidence names the user's words and the probability
        assert "grounded by meaning" in verdict.checked and "'burgers'" in verdict.checked
