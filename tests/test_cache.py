"""The persistent cache (``aem_strands.cache``): vectors and scores come back exactly as the model gave them,
only what is new reaches the model, a score the model could not give is asked again, and results with the
cache equal results without it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from aem_strands import EvalOptions, evaluate_dialogs, load_dialogs
from aem_strands.cache import CachedScorer, ModelCache, scorer_identity
from aem_strands.compare.judge_scorer import JudgeScorer
from aem_strands.compare.scorers import EmbeddingScorer
from aem_strands.errors import ConfigError
from aem_strands.types import Method, ValueKind
from tests.conftest import EXAMPLES


class CountingScorer:
    """A deterministic scorer that records every pair it is asked about; ``None`` for pairs with ``?``."""

    name = "counting"
    method = Method.TEST

    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        self.asked.extend(pairs)
        return [None if "?" in g else len(g) / (len(g) + len(p)) for g, p in pairs]


def test_vectors_round_trip_exactly(tmp_path: Path) -> None:
    vector = np.random.default_rng(0).standard_normal(384).astype(np.float32)
    ModelCache(tmp_path).store_vectors("model-a", {"hello": vector})
    again = ModelCache(tmp_path)
    assert np.array_equal(again.vectors("model-a", ["hello", "new"])["hello"], vector)
    assert again.vectors("model-b", ["hello"]) == {}  # keyed by model id and text


def test_only_new_pairs_reach_the_scorer_and_failures_are_asked_again(tmp_path: Path) -> None:
    first = CountingScorer()
    pairs = [("abc", "abcd"), ("why?", "x")]
    before = CachedScorer(first, ModelCache(tmp_path)).similarities(pairs, ValueKind.ARGUMENT)
    assert before == [3 / 7, None]  # len 3 / (3 + 4)
    second = CountingScorer()
    after = CachedScorer(second, ModelCache(tmp_path)).similarities([*pairs, ("ab", "a")], ValueKind.ARGUMENT)
    assert after == [*before, 2 / 3]
    assert second.asked == [("why?", "x"), ("ab", "a")]  # the scored pair came from the cache
    other_kind = CountingScorer()
    CachedScorer(other_kind, ModelCache(tmp_path)).similarities(pairs[:1], ValueKind.RESPONSE)
    assert other_kind.asked == pairs[:1]  # the value kind is part of the key


def test_judge_identity_names_prompt_version_and_model() -> None:
    v0, v1 = JudgeScorer(prompt_version="v0"), JudgeScorer(prompt_version="v1")
    assert scorer_identity(v0) != scorer_identity(v1)
    assert scorer_identity(JudgeScorer(model="model-x")) != scorer_identity(JudgeScorer(model="model-y"))
    assert scorer_identity(v1) == scorer_identity(JudgeScorer(prompt_version="v1"))


def test_a_rerun_embeds_only_new_strings(tmp_path: Path) -> None:
    texts = ["Paris", "the capital of France", "New York City"]
    first = EmbeddingScorer(cache=ModelCache(tmp_path))
    scores = first.similarities([(texts[0], texts[1]), (texts[2], "NYC")], ValueKind.ARGUMENT)
    assert first.encoded_count == 4
    second = EmbeddingScorer(cache=ModelCache(tmp_path))
    again = second.similarities([(texts[0], texts[1]), (texts[2], "NYC"), ("Rome", "Paris")], ValueKind.ARGUMENT)
    assert second.encoded_count == 1  # only "Rome" is new
    assert again[:2] == scores


def test_results_with_the_cache_equal_results_without(tmp_path: Path) -> None:
    dialogs = load_dialogs(EXAMPLES / "data" / "sales_report_two_roots.json").dialogs
    plain = [r.to_dict() for r in evaluate_dialogs(dialogs, scorer="embedding")]
    options = EvalOptions(scorer="embedding", cache_dir=str(tmp_path / "cache"))
    cold = [r.to_dict() for r in evaluate_dialogs(dialogs, options)]
    warm = [r.to_dict() for r in evaluate_dialogs(dialogs, options)]
    assert cold == plain
    assert warm == plain
    assert any((tmp_path / "cache").iterdir())


def test_cache_dir_is_validated() -> None:
    with pytest.raises(ConfigError, match="cache_dir must be a folder path"):
        EvalOptions(cache_dir="")
