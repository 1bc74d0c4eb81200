"""The comparison chain of issue 2: exact → normalisation → semantic scorer, batched."""

from __future__ import annotations

from typing import Any

import pytest

from aem_strands import Comparator, ComparisonRequest, ConfigError, Method, TableScorer, Thresholds, ValueKind


class CountingScorer(TableScorer):
    """A table scorer that records every batch it is asked for."""

    def __init__(self, table: Any = None) -> None:
        super().__init__(table)
        self.batches: list[list[tuple[str, str]]] = []

    def similarities(self, pairs: Any, kind: ValueKind) -> list[float | None]:
        self.batches.append(list(pairs))
        return super().similarities(pairs, kind)


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("New York", "new york"),  # case
        ("New  York ", "New York"),  # whitespace
        ("St. Louis!", "St Louis"),  # punctuation
        ("Ｃａｆé", "café"),  # unicode compatibility forms (full-width letters)
        (2, 2.0),
        (2, "2"),
        ("2.0", 2),
        ("1,000", 1000),
        ("two", 2),
        (True, "true"),
        (True, "yes"),
        (False, "False"),
        ([1, "a"], [1.0, "A"]),  # lists element by element
        ({"city": "NYC", "n": 2}, {"n": "2", "city": "nyc"}),  # dicts key by key
        ({"items": [{"qty": 1}]}, {"items": [{"qty": "1"}]}),  # nested
    ],
)
def test_normalisation_settles_without_the_scorer(gold: Any, predicted: Any) -> None:
    scorer = CountingScorer()
    result = Comparator(scorer).compare(gold, predicted)
    assert result.equivalent is True
    assert result.method in (Method.EXACT, Method.NORMALISED)
    assert scorer.batches == []


@pytest.mark.parametrize(
    ("gold", "predicted", "detail"),
    [
        (2, 3, "'3' differs from '2'"),
        (True, False, "'False' differs from 'True'"),
        ([1, 2], [1], "1 items where gold has 2"),
        ({"a": {"b": 1}}, {"a": {"b": 2}}, "a.b: '2' differs from '1'"),
        ({"a": 1}, {"a": 1, "c": 2}, "c: unexpected key"),
        ({"a": 1, "c": 2}, {"a": 1}, "c: key missing"),
        ("room 101", "room 102", "numbers in 'room 102' differ from 'room 101'"),
        ({"x": [1]}, {"x": 1}, "x: int where gold has list"),
    ],
)
def test_normalisation_rejects_and_names_the_failing_path(gold: Any, predicted: Any, detail: str) -> None:
    result = Comparator(CountingScorer()).compare(gold, predicted)
    assert result.equivalent is False
    assert result.detail == detail


def test_semantic_stage_uses_the_threshold_of_the_value_kind() -> None:
    scorer = TableScorer({("revenue", "profit"): 0.73, ("a b", "a c"): 0.78})
    comparator = Comparator(scorer, Thresholds(argument=0.80, response=0.75))
    assert comparator.compare("revenue", "profit").equivalent is False  # 0.73 < 0.80
    assert comparator.compare("a b", "a c", ValueKind.ARGUMENT).equivalent is False  # 0.78 < 0.80
    assert comparator.compare("a b", "a c", ValueKind.RESPONSE).equivalent is True  # 0.78 >= 0.75


def test_all_unsettled_pairs_go_to_the_scorer_in_one_batch_per_kind_each_pair_once() -> None:
    scorer = CountingScorer()
    comparator = Comparator(scorer)
    requests = [
        ComparisonRequest("car", "automobile"),
        ComparisonRequest({"to": "car"}, {"to": "automobile"}),  # the same leaf pair, nested
        ComparisonRequest("sofa", "couch"),
        ComparisonRequest(2, "2"),  # settled by normalisation
        ComparisonRequest("Hello there.", "Hi there.", ValueKind.RESPONSE),
    ]
    comparator.compare_many(requests)
    assert scorer.batches == [[("car", "automobile"), ("sofa", "couch")], [("Hello there.", "Hi there.")]]
    comparator.compare_many(requests)  # memoised: nothing new is asked
    assert len(scorer.batches) == 2


def test_thresholds_are_validated() -> None:
    with pytest.raises(ConfigError, match=r"threshold for argument values must be a number in \[0, 1\], got 1.5"):
        Thresholds(argument=1.5)


def test_table_scorer_rejects_scores_outside_unit_interval() -> None:
    with pytest.raises(ConfigError, match="must be in"):
        TableScorer({("a", "b"): 2.0})


def test_escalation_scorer_decides_the_uncertain_band_through_the_public_api() -> None:
    from aem_strands import evaluate_dialog
    from tests.conftest import action, paired

    dialog = [paired(1, action("t", "A", metric="revenue"), action("t", "A", metric="turnover"))]
    first = TableScorer({("revenue", "turnover"): 0.70})  # below 0.75, above the floor 0.49: uncertain
    judge = CountingScorer({("revenue", "turnover"): 1.0})  # the escalation says: same
    assert evaluate_dialog(dialog, scorer=first).test_pass is False  # conservative without escalation
    assert evaluate_dialog(dialog, scorer=first, escalation=judge).test_pass is True
    assert judge.batches == [[("revenue", "turnover")]]
