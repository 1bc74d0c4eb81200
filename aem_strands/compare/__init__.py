"""Comparison of gold and predicted values: the only place a model is asked anything."""

from aem_strands.compare.chain import Comparator, ComparisonRequest, Thresholds
from aem_strands.compare.scorers import (
    EmbeddingScorer,
    ExactScorer,
    SemanticScorer,
    TableScorer,
    make_scorer,
)

__all__ = [
    "Comparator",
    "ComparisonRequest",
    "EmbeddingScorer",
    "ExactScorer",
    "SemanticScorer",
    "TableScorer",
    "Thresholds",
    "make_scorer",
]
