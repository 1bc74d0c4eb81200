"""The learned reply stage, for reply pairs the facts and acts left open: a pair head over the embeddings.

The semantic stage for replies is not one cosine. The shipped model is ``PairHead``: a logistic
regression over the two replies' embedding pair vector ``[u*v, |u-v|]`` (384 + 384 numbers for
MiniLM) and a handful of features of the pair, ``FEATURES``:

| feature | meaning |
|---|---|
| ``cosine`` | cosine of the two replies' MiniLM embeddings |
| ``overlap`` | Jaccard overlap of their content-word stems |
| ``extra_facts`` | facts only the prediction states (capped at 3, divided by 3) |
| ``matched_facts`` | facts both state (capped at 3, divided by 3) |
| ``partial_topics`` | both request information, the topics overlap only in part |
| ``shared_states`` | state words of one group with the same pole on both sides (``booked`` / ``reserved``) |

Its weights live in ``reply_pair_head.json`` beside this module (numbers, not a pickle), fitted by
``benchmarks/reply_combiner_fit.py`` on the calibration part of the SGD reply pairs and STS-B dev
only (``data/replies``); the held-out dialogues never took part. ``ReplyCombiner`` (a logistic
regression over ``FEATURES`` alone, ``reply_combiner.json``) is the stage shipped before it; it scores the
replies of an embedding model other than the packaged one (the head's weights fit only the packaged model's
vectors); ``alignment_features`` (sentence-by-sentence matching) was measured and not kept.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from typing import TYPE_CHECKING

from aem_strands.compare.acts import ActKind, dialog_act, same_topics
from aem_strands.compare.facts import check_reply_facts
from aem_strands.compare.reply_signals import facts_in
from aem_strands.compare.reply_words import GOVERNED_SKIP, stem
from aem_strands.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np

FEATURES = ("cosine", "overlap", "extra_facts", "matched_facts", "partial_topics", "shared_states")
ALIGNMENT = ("gold_worst_match", "gold_mean_match", "predicted_worst_match", "predicted_mean_match")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def sentences(text: str) -> list[str]:
    """The sentences of a reply (split after ``.``, ``!`` or ``?``); the whole text when it has none."""
    return [s for s in _SENTENCE_END.split(text.strip()) if s] or [text]


def alignment_features(gold: np.ndarray, predicted: np.ndarray) -> tuple[float, ...]:
    """``ALIGNMENT`` of two replies from their sentences' normalised embeddings (one row per sentence):
    each sentence's best cosine with the other reply's sentences, the worst and the mean, both ways."""
    similarity = gold @ predicted.T
    gold_best, predicted_best = similarity.max(axis=1), similarity.max(axis=0)
    return (
        float(gold_best.min()),
        float(gold_best.mean()),
        float(predicted_best.min()),
        float(predicted_best.mean()),
    )


def _content(text: str) -> set[str]:
    return {stem(w) for w in _WORD.findall(text.casefold()) if w not in GOVERNED_SKIP}


def reply_features(gold: str, predicted: str, cosine: float) -> tuple[float, ...]:
    """The feature vector of a reply pair, in ``FEATURES`` order."""
    a, b = _content(gold), _content(predicted)
    check = check_reply_facts(gold, predicted)
    stated = [f for f in facts_in(predicted) if not f.group.startswith(("state:", "negation"))]
    gold_act, predicted_act = dialog_act(gold), dialog_act(predicted)
    partial = bool(gold_act.requests and predicted_act.requests) and (
        same_topics(gold_act.requests, predicted_act.requests) is None
    )
    return (
        cosine,
        len(a & b) / len(a | b) if a | b else 1.0,
        min(max(0, len(stated) - len(check.matched)), 3) / 3,
        min(len(check.matched), 3) / 3,
        float(partial),
        float(bool(_states(gold) & _states(predicted))),
    )


def _states(text: str) -> set[tuple[str, str]]:
    return {(f.group, f.key) for f in facts_in(text) if f.group.startswith("state:")}


@dataclass(frozen=True)
class ReplyCombiner:
    """Logistic regression over ``FEATURES``: ``coefficients`` in that order, and an ``intercept``."""

    coefficients: tuple[float, ...]
    intercept: float

    def __post_init__(self) -> None:
        if len(self.coefficients) != len(FEATURES):
            raise ConfigError(
                f"ReplyCombiner: coefficients must have {len(FEATURES)} values ({', '.join(FEATURES)}), "
                f"got {len(self.coefficients)}"
            )

    def probability(self, gold: str, predicted: str, cosine: float) -> float:
        """The probability that the two replies say the same, given their cosine."""
        features = reply_features(gold, predicted, cosine)
        z = self.intercept + sum(w * x for w, x in zip(self.coefficients, features, strict=True))
        return 1.0 / (1.0 + math.exp(-z))

    def to_dict(self) -> dict[str, object]:
        return {"features": list(FEATURES), "coefficients": list(self.coefficients), "intercept": self.intercept}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> ReplyCombiner:
        if data.get("features") != list(FEATURES):
            raise ConfigError(f"ReplyCombiner: features must be {list(FEATURES)}, got {data.get('features')!r}")
        coefficients, intercept = data.get("coefficients"), data.get("intercept")
        if not isinstance(coefficients, list) or not isinstance(intercept, (int, float)):
            raise ConfigError("ReplyCombiner: expected a list of coefficients and a numeric intercept")
        return cls(tuple(float(c) for c in coefficients), float(intercept))


@functools.lru_cache(maxsize=1)
def default_combiner() -> ReplyCombiner:
    """The six-feature combiner (``reply_combiner.json``): replies of an embedding model other than the packaged
    one, whose vectors the pair head's weights do not fit (and the stage shipped before the pair head)."""
    text = resources.files("aem_strands.compare").joinpath("reply_combiner.json").read_text(encoding="utf-8")
    return ReplyCombiner.from_dict(json.loads(text))


class PairGroup(str, Enum):
    """Which operating point of the pair head a reply pair gets, by what the two replies do
    (``pair_group``)."""

    ASKS = "asks"
    """Both replies ask the user something, and their main acts are the same kinds (two requests, two
    confirmations, two offers ...)."""
    DIALOG = "dialog"
    """Both are statements of the same main act kinds, beyond plain inform (two success notifications,
    two counts ...)."""
    OTHER = "other"
    """Anything else: plain statements (every STS-B sentence but a few), or replies doing different things
    (``Would you like me to buy tickets?`` / ``Where are you going?``)."""


def pair_group(gold: str, predicted: str) -> PairGroup:
    """The ``PairGroup`` of a reply pair, from the dialog acts of its two replies."""
    mine, theirs = dialog_act(gold), dialog_act(predicted)
    if not mine.core or mine.core != theirs.core:
        return PairGroup.OTHER
    if mine.asks and theirs.asks:
        return PairGroup.ASKS
    if not (mine.asks or theirs.asks) and mine.core - {ActKind.INFORM}:
        return PairGroup.DIALOG
    return PairGroup.OTHER


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


@dataclass(frozen=True)
class PairHead:
    """Logistic regression over the embedding pair vector of two replies and ``FEATURES``.

    With ``u`` and ``v`` the two replies' normalised embeddings, the score is the logistic of
    ``intercept + product·(u*v) + distance·|u-v| + features·reply_features(...)``: the classic
    sentence-pair classifier head over a frozen encoder, a few thousand numbers
    (``reply_pair_head.json``), symmetric in the two replies' vectors.

    ``thresholds`` holds the head's decision threshold for each ``PairGroup`` (chosen by
    cross-validation on the calibration part, ``benchmarks/reply_combiner_fit.py``; 0.5 for a group
    not given). ``probability`` returns the head's probability moved on the logit scale so that the
    pair's group threshold lands at 0.5, the comparison chain's reply threshold: ``logit(score) =
    logit(head) - logit(threshold)``. A pair of questions whose head probability is 0.30 against an
    ``asks`` threshold of 0.25 scores 0.56 and passes.
    """

    product: tuple[float, ...]
    distance: tuple[float, ...]
    features: tuple[float, ...]
    intercept: float
    thresholds: dict[PairGroup, float] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if len(self.product) != len(self.distance) or not self.product:
            raise ConfigError(
                f"PairHead: product and distance must have one weight per embedding dimension each, got "
                f"{len(self.product)} and {len(self.distance)}"
            )
        if len(self.features) != len(FEATURES):
            raise ConfigError(
                f"PairHead: features must have {len(FEATURES)} weights ({', '.join(FEATURES)}), "
                f"got {len(self.features)}"
            )
        for group, threshold in self.thresholds.items():
            if not isinstance(group, PairGroup) or not 0.0 < threshold < 1.0:
                raise ConfigError(
                    f"PairHead: thresholds must map act groups ({', '.join(g.value for g in PairGroup)}) to numbers "
                    f"strictly between 0 and 1, got {group!r}: {threshold!r}"
                )

    def threshold(self, group: PairGroup) -> float:
        """The head's decision threshold for pairs of ``group``."""
        return self.thresholds.get(group, 0.5)

    @property
    def dimensions(self) -> int:
        return len(self.product)

    def probability(self, gold: str, predicted: str, gold_vector: np.ndarray, predicted_vector: np.ndarray) -> float:
        """The probability that the two replies say the same, from their embeddings (``dimensions`` each)."""
        import numpy as np

        if gold_vector.shape != (self.dimensions,) or predicted_vector.shape != (self.dimensions,):
            raise ConfigError(
                f"PairHead: expected two embeddings of {self.dimensions} dimensions, got shapes "
                f"{gold_vector.shape} and {predicted_vector.shape}"
            )
        cosine = min(1.0, max(0.0, float(gold_vector @ predicted_vector)))
        features = np.array(reply_features(gold, predicted, cosine))
        z = (
            self.intercept
            + float(np.asarray(self.product) @ (gold_vector * predicted_vector))
            + float(np.asarray(self.distance) @ np.abs(gold_vector - predicted_vector))
            + float(np.asarray(self.features) @ features)
            - _logit(self.threshold(pair_group(gold, predicted)))
        )
        return 1.0 / (1.0 + math.exp(-z))

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": "pair_head",
            "features": list(FEATURES),
            "product": list(self.product),
            "distance": list(self.distance),
            "feature_weights": list(self.features),
            "intercept": self.intercept,
            "thresholds": {group.value: self.thresholds[group] for group in PairGroup if group in self.thresholds},
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> PairHead:
        if data.get("kind") != "pair_head":
            raise ConfigError(f"PairHead: kind must be 'pair_head', got {data.get('kind')!r}")
        if data.get("features") != list(FEATURES):
            raise ConfigError(f"PairHead: features must be {list(FEATURES)}, got {data.get('features')!r}")
        numbers: dict[str, tuple[float, ...]] = {}
        for name in ("product", "distance", "feature_weights"):
            value = data.get(name)
            if not isinstance(value, list) or not all(isinstance(x, (int, float)) for x in value):
                raise ConfigError(f"PairHead: {name} must be a list of numbers, got {value!r:.60}")
            numbers[name] = tuple(float(x) for x in value)
        intercept = data.get("intercept")
        if not isinstance(intercept, (int, float)):
            raise ConfigError(f"PairHead: intercept must be a number, got {intercept!r}")
        given = data.get("thresholds", {})
        known = {g.value: g for g in PairGroup}
        if not isinstance(given, dict) or not all(
            k in known and isinstance(v, (int, float)) and not isinstance(v, bool) for k, v in given.items()
        ):
            raise ConfigError(
                f"PairHead: thresholds must map act groups ({', '.join(known)}) to numbers, got {given!r:.80}"
            )
        thresholds = {known[k]: float(v) for k, v in given.items()}
        return cls(numbers["product"], numbers["distance"], numbers["feature_weights"], float(intercept), thresholds)


@functools.lru_cache(maxsize=1)
def default_head() -> PairHead:
    """The shipped pair head (``reply_pair_head.json``)."""
    text = resources.files("aem_strands.compare").joinpath("reply_pair_head.json").read_text(encoding="utf-8")
    return PairHead.from_dict(json.loads(text))
