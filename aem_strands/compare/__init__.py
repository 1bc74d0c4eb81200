"""Comparison of gold and predicted values: the only place a model is asked anything.

Pipeline: exact match → typed normalisation (``settle``: numbers, currency, percentages, booleans,
dates, times, durations, acronyms, place qualifiers) → semantic scorer with per-kind thresholds and
an uncertain band (``chain``) → optional escalation (``judge_scorer``). Replies also get
deterministic fact checks (``facts``). ``calibration`` measures all of it on labelled pairs.
"""

from aem_strands.compare.chain import Comparator, ComparisonRequest, Thresholds
from aem_strands.compare.config import load_thresholds, save_thresholds
from aem_strands.compare.judge_scorer import JUDGE_PROMPT_V0, JudgeScorer
from aem_strands.compare.scorers import (
    EmbeddingScorer,
    ExactScorer,
    SemanticScorer,
    TableScorer,
    make_scorer,
)

__all__ = [
    "JUDGE_PROMPT_V0",
    "Comparator",
    "ComparisonRequest",
    "EmbeddingScorer",
    "ExactScorer",
    "JudgeScorer",
    "SemanticScorer",
    "TableScorer",
    "Thresholds",
    "load_thresholds",
    "make_scorer",
    "save_thresholds",
]
