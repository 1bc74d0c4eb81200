"""Replies with the shipped model: the default embedding scorer (MiniLM, offline) and the reply combiner."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sklearn.metrics import balanced_accuracy_score

from aem_strands import Comparator, EmbeddingScorer, ValueKind, evaluate_dialog
from aem_strands.compare.chain import ComparisonRequest
from aem_strands.compare.combiner import FEATURES, ReplyCombiner, default_combiner
from aem_strands.errors import ConfigError
from aem_strands.evaluate import default_embedding_scorer

from .conftest import ROOT, paired, reply

pytestmark = pytest.mark.slow

FAITHFUL = [
    ("Which region should the report cover?", "Sure, which region would you like the report for?"),
    ("What date would you like to leave?", "Could you tell me your departure date?"),
    ("Your table for 2 is booked at 7 pm.", "Booked: a table for two at 19:00."),
    ("EU revenue for Q3 was 4.2 million.", "Q3 revenue in the EU came to 4,200,000."),
    ("The company was sold for $356 million.", "The company was sold for $356M."),
    ("Anything else I can do for you today?", "Is there anything else I can help you with?"),
]


@pytest.fixture(scope="module")
def comparator() -> Comparator:
    scorer = default_embedding_scorer()  # the process-wide scorer: the model loads once for every test
    assert isinstance(scorer, EmbeddingScorer)
    return Comparator(scorer)


def test_a_dialog_of_faithful_paraphrases_passes_completely(comparator: Comparator) -> None:
    dialog = [paired(n, reply(g), reply(p)) for n, (g, p) in enumerate(FAITHFUL, start=1)]
    result = evaluate_dialog(dialog, comparator=comparator)
    assert [t.verdict.problems for t in result.turns] == [()] * len(FAITHFUL)
    assert result.composition.score == 1.0  # 6 of 6 turns pass


def test_hand_made_hard_reply_pairs_reach_the_target(comparator: Comparator) -> None:
    with open(ROOT / "data" / "replies" / "hard_pairs.jsonl", encoding="utf-8") as handle:
        rows: list[dict[str, Any]] = [json.loads(line) for line in handle]
    results = comparator.compare_many([ComparisonRequest(r["gold"], r["predicted"], ValueKind.RESPONSE) for r in rows])
    verdicts = [c.equivalent is True for c in results]
    # issue 7: hand-made hard reply pairs >= 0.90 (docs/EQUIVALENCE.md has the measured figure)
    assert balanced_accuracy_score([r["label"] for r in rows], verdicts) >= 0.90
    passed = [c for c in results if c.equivalent]
    assert all(c.detail for c in passed)  # every pass says how it was decided


def test_a_reply_pass_by_the_model_names_its_cosine_and_facts(comparator: Comparator) -> None:
    gold, predicted = "Your table for 2 is at 7 pm.", "Your table for two has been set for 19:00."  # no act settles it
    result = comparator.compare(gold, predicted, ValueKind.RESPONSE)
    assert result.equivalent is True
    assert "combiner of cosine" in result.detail
    assert result.detail.endswith("facts agree: 2, 7 pm")


def test_the_shipped_combiner_reads_back_and_is_validated() -> None:
    combiner = default_combiner()
    assert ReplyCombiner.from_dict(combiner.to_dict()) == combiner
    assert len(combiner.coefficients) == len(FEATURES)
    with pytest.raises(ConfigError, match="coefficients must have"):
        ReplyCombiner((1.0,), 0.0)
    with pytest.raises(ConfigError, match="features must be"):
        ReplyCombiner.from_dict({"features": ["cosine"], "coefficients": [1.0], "intercept": 0.0})
