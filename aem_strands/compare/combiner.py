"""A small learned combiner for reply pairs the facts left open: cosine plus what the facts and acts say.

The semantic stage for replies is not one cosine. ``ReplyCombiner.probability`` is a logistic
regression over a handful of features of the pair:

| feature | meaning |
|---|---|
| ``cosine`` | cosine of the two replies' MiniLM embeddings |
| ``overlap`` | Jaccard overlap of their content-word stems |
| ``extra_facts`` | facts only the prediction states (capped at 3, divided by 3) |
| ``matched_facts`` | facts both state (capped at 3, divided by 3) |
| ``partial_topics`` | both request information, the topics overlap only in part |
| ``shared_states`` | state words of one group with the same pole on both sides (``booked`` / ``reserved``) |

The coefficients live in ``reply_combiner.json`` beside this module (a few numbers, not a pickle),
fitted by ``benchmarks/reply_combiner_fit.py`` on the calibration part of the SGD reply pairs and
STS-B dev only (``data/replies``); the held-out dialogues never took part.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from importlib import resources

from aem_strands.compare.acts import dialog_act, same_topics
from aem_strands.compare.facts import check_reply_facts
from aem_strands.compare.reply_signals import facts_in
from aem_strands.compare.reply_words import GOVERNED_SKIP, stem
from aem_strands.errors import ConfigError

FEATURES = ("cosine", "overlap", "extra_facts", "matched_facts", "partial_topics", "shared_states")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


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
    """The shipped combiner (``reply_combiner.json``)."""
    text = resources.files("aem_strands.compare").joinpath("reply_combiner.json").read_text(encoding="utf-8")
    return ReplyCombiner.from_dict(json.loads(text))
