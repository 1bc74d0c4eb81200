"""Dialog acts of a turn, read by a small model trained on the SGD corpus's labelled acts.

Two heads over one cheap text representation (no torch, no scikit-learn at run time):

- a **user** turn gets the probability of each of ``agree`` (SGD ``AFFIRM``, ``AFFIRM_INTENT``, ``SELECT``),
  ``refuse`` (``NEGATE``, ``NEGATE_INTENT``), ``request`` (``INFORM_INTENT``: the user asks for an action),
  ``ask`` (``REQUEST``: the user asks for information) and ``inform`` (``INFORM``: the user gives a value),
  given the act of the agent turn it answers (its *context*: ``confirm``, ``offer``, ``offer_intent``,
  ``other``, or ``none`` for no agent turn before it);
- an **agent** turn gets the probability of each of ``confirm`` (``CONFIRM``), ``offer`` (``OFFER``) and
  ``offer_intent`` (``OFFER_INTENT``: "Would you like to book it?").

A turn may carry several acts ("That suits me well. Can you tell me if they feature live music?" is ``AFFIRM``
and ``REQUEST``), so each label is its own logistic regression (one against the rest). The features are hashed
(CRC-32, ``BUCKETS`` buckets) word unigrams and bigrams and character 2- to 5-grams inside words, of the
case-folded text with every digit read as ``0``, and for a user turn its context and the context crossed with each
word; counts are log-scaled and the vector has unit length.

The weights (``data/dialog_acts.npz``, float16) are read on first use only, so importing this module costs
nothing; ``benchmarks/train_dialog_acts.py`` re-trains them from the SGD train dialogs and prints each label's
precision, recall and F1 on SGD test. The weights derive from the Schema-Guided Dialogue dataset (Rastogi et al.,
2020, https://github.com/google-research-datasets/dstc8-schema-guided-dialogue), CC BY-SA 4.0; see
``data/dialog_acts.README.md``.
"""

from __future__ import annotations

import functools
import math
import re
import zlib
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

BUCKETS = 1 << 16
"""Hash buckets of the features; the weights are ``len(labels) x BUCKETS``."""

WEIGHTS = Path(__file__).with_name("data") / "dialog_acts.npz"

_TOKEN = re.compile(r"[a-z0']+|[0-9]+|[^\sa-z0-9]")


class Speaker(str, Enum):
    """Whose turn a text is: the user's or the agent's (the two heads)."""

    USER = "user"
    AGENT = "agent"


USER_LABELS = ("agree", "refuse", "request", "ask", "inform")
AGENT_LABELS = ("confirm", "offer", "offer_intent")
LABELS = {Speaker.USER: USER_LABELS, Speaker.AGENT: AGENT_LABELS}


CONTEXTS = ("confirm", "offer", "offer_intent", "other", "none")
"""The context of a user turn: the act of the agent turn before it."""


def features(text: str, context: str | None = None) -> dict[int, float]:
    """The hashed feature vector of a text (bucket → weight, unit length; see the module docstring); ``context``
    (one of ``CONTEXTS``) for a user turn, ``None`` for an agent turn."""
    folded = re.sub(r"[0-9]", "0", text.casefold().replace("\u2019", "'"))
    tokens = _TOKEN.findall(folded)
    grams = [f"w {t}" for t in tokens]
    grams += [f"b {a} {b}" for a, b in zip(["<s>", *tokens], [*tokens, "</s>"], strict=True)]
    if context is not None:
        grams += [f"x {context}", *(f"x {context} {t}" for t in tokens)]
    for token in tokens:
        padded = f" {token} "
        for n in range(2, 6):
            grams += [f"c {padded[i : i + n]}" for i in range(len(padded) - n + 1)]
    return hashed_grams(grams)


def hashed_grams(grams: list[str], buckets: int = BUCKETS) -> dict[int, float]:
    """Features ``grams`` hashed into ``buckets`` (CRC-32), each count log-scaled (``1 + log n``), the vector scaled
    to unit length: the feature vector of this module's heads and of ``success_acts``."""
    counts: dict[int, float] = {}
    for gram in grams:
        bucket = zlib.crc32(gram.encode("utf-8")) % buckets
        counts[bucket] = counts.get(bucket, 0.0) + 1.0
    scaled = {k: 1.0 + math.log(v) for k, v in counts.items()}
    norm = math.sqrt(sum(v * v for v in scaled.values())) or 1.0
    return {k: v / norm for k, v in scaled.items()}


@dataclass(frozen=True)
class _Head:
    labels: tuple[str, ...]
    weights: Any  # numpy array, labels x BUCKETS
    bias: Any  # numpy array, labels


@functools.lru_cache(maxsize=1)
def _heads() -> dict[Speaker, _Head]:
    import numpy as np  # only when a turn is first read

    if not WEIGHTS.is_file():
        raise FileNotFoundError(f"the dialog act weights {WEIGHTS} are missing; run benchmarks/train_dialog_acts.py")
    with np.load(WEIGHTS) as data:
        return {
            speaker: _Head(
                LABELS[speaker],
                data[f"{speaker.value}_weights"].astype(np.float32),
                data[f"{speaker.value}_bias"].astype(np.float32),
            )
            for speaker in Speaker
        }


def sigmoid(x: float) -> float:
    """The logistic function, without overflow for a large negative ``x``: the probability of a model's score (this
    module's heads, ``success_acts``, ``value_paraphrase``)."""
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


@functools.lru_cache(maxsize=4096)
def act_probabilities(text: str, speaker: Speaker, context: str | None = None) -> dict[str, float]:
    """Each label's probability for ``text`` as a turn of ``speaker`` (``USER_LABELS`` / ``AGENT_LABELS``); a user
    turn's ``context`` is the act of the agent turn before it, one of ``CONTEXTS`` (``None``: as ``none``)."""
    head = _heads()[speaker]
    vector = features(text, (context or "none") if speaker is Speaker.USER else None)
    buckets = list(vector)
    values = [vector[b] for b in buckets]
    scores = head.weights[:, buckets] @ _array(values) + head.bias
    return {label: sigmoid(float(score)) for label, score in zip(head.labels, scores, strict=True)}


def _array(values: list[float]) -> np.ndarray[Any, Any]:
    import numpy as np

    return np.asarray(values, dtype=np.float32)
