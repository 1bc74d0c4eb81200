"""The learned reply stage: the pair head (``combiner.PairHead``), its shipped weights and the sentence helpers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from aem_strands.compare.chain import Comparator
from aem_strands.compare.combiner import (
    FEATURES,
    PairGroup,
    PairHead,
    ReplyCombiner,
    alignment_features,
    default_head,
    pair_group,
    reply_features,
    sentences,
)
from aem_strands.compare.pair_model import default_pair_model, default_stage
from aem_strands.compare.scorers import EmbeddingScorer
from aem_strands.errors import ConfigError
from aem_strands.types import Method, ValueKind

GOLD, PREDICTED = "Your table is ready.", "The table is ready for you."


def _head(product: tuple[float, ...], distance: tuple[float, ...], intercept: float = 0.0) -> PairHead:
    return PairHead(product, distance, (0.0,) * len(FEATURES), intercept)


def test_the_pair_head_is_the_logistic_of_its_weighted_pair_vector() -> None:
    head = _head((2.0, 0.0), (0.0, -1.0), intercept=-0.5)
    u, v = np.array([1.0, 0.0]), np.array([0.6, 0.8])
    # u*v = (0.6, 0), |u-v| = (0.4, 0.8): z = -0.5 + 2*0.6 - 1*0.8 = -0.1
    assert head.probability(GOLD, PREDICTED, u, v) == pytest.approx(1 / (1 + math.exp(0.1)))


def test_with_no_vector_weights_the_pair_head_is_the_six_feature_combiner() -> None:
    weights = (4.0, 3.0, -2.0, 1.5, 0.5, 1.0)
    head = PairHead((0.0, 0.0), (0.0, 0.0), weights, -4.0)
    combiner = ReplyCombiner(weights, -4.0)
    u, v = np.array([1.0, 0.0]), np.array([0.6, 0.8])  # cosine 0.6
    assert head.probability(GOLD, PREDICTED, u, v) == pytest.approx(combiner.probability(GOLD, PREDICTED, 0.6))
    assert reply_features(GOLD, PREDICTED, 0.6)[0] == 0.6  # the cosine is the first feature


def test_the_pair_head_is_validated_and_reads_back() -> None:
    head = _head((0.5, -0.25), (1.0, 2.0), intercept=0.125)
    assert PairHead.from_dict(head.to_dict()) == head
    with pytest.raises(ConfigError, match="one weight per embedding dimension"):
        _head((1.0,), (1.0, 2.0))
    with pytest.raises(ConfigError, match="features must have 6 weights"):
        PairHead((1.0,), (1.0,), (1.0,), 0.0)
    with pytest.raises(ConfigError, match="kind must be 'pair_head'"):
        PairHead.from_dict({**head.to_dict(), "kind": "combiner"})
    with pytest.raises(ConfigError, match="distance must be a list of numbers"):
        PairHead.from_dict({**head.to_dict(), "distance": ["x"]})
    with pytest.raises(ConfigError, match=r"expected two embeddings of 2 dimensions, got shapes \(3,\)"):
        head.probability(GOLD, PREDICTED, np.zeros(3), np.zeros(2))


def test_the_shipped_pair_head_fits_minilm_and_reads_back() -> None:
    head = default_head()
    assert head.dimensions == 384  # all-MiniLM-L6-v2
    assert PairHead.from_dict(head.to_dict()) == head
    assert all(math.isfinite(w) for w in head.product + head.distance + head.features + (head.intercept,))


def test_sentences_split_after_end_marks_only() -> None:
    assert sentences("Sure. What time? 7 p.m. works!") == ["Sure.", "What time?", "7 p.m.", "works!"]
    assert sentences("  no end mark ") == ["no end mark"]
    assert sentences("") == [""]  # an empty reply is one empty sentence, never none


def test_alignment_features_take_each_sentences_best_match() -> None:
    gold = np.array([[1.0, 0.0], [0.0, 1.0]])  # two sentences
    predicted = np.array([[0.6, 0.8]])  # one sentence: cosines 0.6 and 0.8 with gold's
    # gold's best matches 0.6 and 0.8 (worst 0.6, mean 0.7); predicted's best match 0.8
    assert alignment_features(gold, predicted) == pytest.approx((0.6, 0.7, 0.8, 0.8))


def test_the_embedding_scorer_scores_open_replies_with_the_shipped_head_and_says_so() -> None:
    scorer = EmbeddingScorer()
    gold, predicted = "A man is playing a guitar.", "Someone plays an instrument on a stage."  # nothing settles it
    u, v = scorer.vectors([gold, predicted])
    (score,) = scorer.similarities([(gold, predicted)], ValueKind.RESPONSE)
    head = default_head().probability(gold, predicted, u, v)
    stage = default_stage()
    weights = stage.weights(gold, predicted) if stage is not None else None
    if weights is None:  # a group the pair model's stage does not serve keeps the head's probability
        assert score == pytest.approx(head)
    else:  # the head's probability weighed with the pair model's logit
        (logit,) = default_pair_model().logits([(gold, predicted)])
        assert score == pytest.approx(weights.probability(head, logit))
    result = Comparator(scorer).compare(gold, predicted, ValueKind.RESPONSE)
    assert (result.method, result.score) == (Method.EMBEDDING, pytest.approx(score))
    assert f"embedding {score:.3f}" in result.detail  # the probability and its threshold
    assert f"pair-head combiner of cosine {float(u @ v):.3f}" in result.detail
    threshold = default_head().threshold(PairGroup.OTHER)
    assert f"act group other: head threshold {threshold:.2f} moved to 0.5" in result.detail


def test_the_fitted_pipeline_folds_into_weights_on_the_raw_inputs() -> None:
    from reply_combiner_fit import _logistic, _unscaled  # benchmarks/ is on the test path

    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 4 + len(FEATURES))) * rng.uniform(0.01, 5.0, size=4 + len(FEATURES))
    y = x[:, 0] + x[:, 5] > 0
    for model in (_logistic(0.3), _logistic(0.3, 0.012, pair_columns=4)):  # one C, and a C of its own for 4 columns
        model.fit(x, y)
        weights, intercept = _unscaled(model)
        assert x @ weights + intercept == pytest.approx(model.decision_function(x))


def test_another_embedding_model_scores_replies_with_the_six_feature_combiner() -> None:
    import numpy as np

    from aem_strands.compare.combiner import default_combiner
    from aem_strands.compare.scorers import EmbeddingScorer
    from aem_strands.types import ValueKind

    other = EmbeddingScorer("/models/another-model")  # never loaded: its vectors are given below
    gold, predicted = "Your table is booked.", "The reservation is confirmed."
    rng = np.random.default_rng(0)
    for text in (gold, predicted):  # 8 dimensions: the pair head's 384 weights cannot apply
        vector = rng.normal(size=8)
        other._vectors[text] = vector / np.linalg.norm(vector)
    [score] = other.similarities([(gold, predicted)], ValueKind.RESPONSE)
    assert score == default_combiner().probability(gold, predicted, other.cosine(gold, predicted))
    assert other.describe((gold, predicted), ValueKind.RESPONSE).startswith("combiner of cosine")


@pytest.mark.parametrize(
    ("gold", "predicted", "group"),
    [
        ("What date would you like to leave?", "When do you want to go?", PairGroup.ASKS),  # two requests
        ("Please tell me the city.", "Which city?", PairGroup.ASKS),  # a stated request asks too
        ("Would you like me to buy tickets?", "Where are you going?", PairGroup.OTHER),  # an offer, a request
        ("What date would you like to leave?", "Your flight leaves at 7 pm.", PairGroup.OTHER),  # one side asks
        ("Your table is booked.", "The table has been reserved for you.", PairGroup.DIALOG),  # two successes
        ("Your table is booked.", "The cab is booked. It costs $21.", PairGroup.OTHER),  # success beside inform
        ("A man is playing a guitar.", "Someone plays an instrument.", PairGroup.OTHER),  # plain statements
    ],
)
def test_pairs_are_grouped_by_what_their_replies_do(gold: str, predicted: str, group: PairGroup) -> None:
    assert pair_group(gold, predicted) is group
    assert pair_group(predicted, gold) is group  # symmetric


def test_a_group_threshold_moves_the_head_probability_to_the_chain_threshold() -> None:
    gold, predicted = "Which city?", "Where to?"  # PairGroup.ASKS: two requests
    u, v = np.array([1.0, 0.0]), np.array([0.6, 0.8])
    plain = _head((2.0, 0.0), (0.0, -1.0), intercept=-1.0)  # z = -1 + 1.2 - 0.8 = -0.6: probability 0.354
    moved = PairHead(plain.product, plain.distance, plain.features, plain.intercept, {PairGroup.ASKS: 0.25})
    raw = plain.probability(gold, predicted, u, v)
    assert raw == pytest.approx(1 / (1 + math.exp(0.6)))  # 0.354 < 0.5: would fail at 0.5
    # logit(score) = logit(0.354) - logit(0.25) = -0.6 + 1.0986 = 0.4986: 0.622 >= 0.5, so it passes
    assert moved.probability(gold, predicted, u, v) == pytest.approx(1 / (1 + math.exp(0.6 - math.log(3))))
    assert moved.probability(GOLD, PREDICTED, u, v) == pytest.approx(raw)  # another group: 0.5, unchanged
    assert moved.threshold(PairGroup.OTHER) == 0.5


def test_group_thresholds_are_validated_and_read_back() -> None:
    head = PairHead((0.5,), (1.0,), (0.0,) * len(FEATURES), 0.0, {PairGroup.ASKS: 0.25, PairGroup.DIALOG: 0.1})
    again = PairHead.from_dict(head.to_dict())
    assert again.thresholds == head.thresholds
    assert PairHead.from_dict({k: v for k, v in head.to_dict().items() if k != "thresholds"}).thresholds == {}
    with pytest.raises(ConfigError, match="strictly between 0 and 1"):
        PairHead((0.5,), (1.0,), (0.0,) * len(FEATURES), 0.0, {PairGroup.ASKS: 1.0})
    with pytest.raises(ConfigError, match=r"thresholds must map act groups \(asks, dialog, other\)"):
        PairHead.from_dict({**head.to_dict(), "thresholds": {"questions": 0.2}})


def test_the_shipped_head_names_a_threshold_for_every_group() -> None:
    head = default_head()
    assert set(head.thresholds) == set(PairGroup)
    assert all(0.0 < t < 1.0 for t in head.thresholds.values())
