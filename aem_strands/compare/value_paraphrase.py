"""Whether a user's phrase names a value in other words ("Ramen" for the cuisine ``Japanese``, "SF" for ``San
Francisco``), read by a small model trained on the SGD corpus's own mappings.

SGD labels what a user said for a slot (``frames[].state.slot_values``: ``['Barbecue']``) and the value the back
end was called with (``service_call.parameters``: ``'American'``). ``benchmarks/train_value_paraphrase.py`` trains
one hidden layer of 64 ReLU units and a logistic output on such pairs (SGD train) against the same phrase with other
values the slot takes, values of other slots and other phrases of the user's turns, and reports it on SGD test. Its
features, for a phrase ``p`` and a value ``v`` with MiniLM sentence vectors ``e(p)`` and ``e(v)`` (unit length,
``compare.scorers.EmbeddingScorer``): the cosine ``e(p)·e(v)``, the elementwise product ``e(p)*e(v)`` and the
absolute difference ``|e(p)-e(v)|``.

``grounding_phrase(value, texts)`` is the most likely of the short phrases of ``texts`` (``phrases``: word runs
of one to three words that do not start or end with a stop word; none that shares a word with the value, which
would name it in part: ``shares_word``) and its probability, when that probability reaches ``CONFIDENT``; else
``None``. Only values of the kind it was trained on are read (``reads``: words, no typed reading). ``CONFIDENT``
(0.97) is the lowest threshold at which, on SGD dev values said in other words against the same calls with another
value of the slot, precision is at least 98% (98.2%, recall 27.7%, 195 of each); on SGD test there precision is
100% and recall 24.7% (215 of each; the training script prints both curves).

Not wired into the arguments check: wired there (grounding by meaning what the rules leave undecided), it grounded,
on a held-out fresh trace labelled failing, a value the rules had left undecided (a wrong pass, which the precision
contract forbids), so whether and where to use it is left open. Weights (``data/value_paraphrase.npz``, float16)
and the sentence model load on first use only. The weights derive from the Schema-Guided Dialogue dataset (Rastogi
et al., 2020), CC BY-SA 4.0; see ``data/value_paraphrase.README.md``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aem_strands.compare.dialog_acts import sigmoid

if TYPE_CHECKING:
    import numpy as np

WEIGHTS = Path(__file__).with_name("data") / "value_paraphrase.npz"
CONFIDENT = 0.97
"""The probability from which a phrase grounds a value: the lowest threshold with precision >= 98% on SGD dev
whole values (the module docstring)."""
LONGEST = 3
"""The most words a candidate phrase has."""

Encode = Callable[[Sequence[str]], "np.ndarray[Any, Any]"]
"""Unit-length sentence vectors of texts, one row each (``EmbeddingScorer.vectors``)."""

_WORD = re.compile(r"[^\W_]+(?:['\u2019&-][^\W_]+)*")


@functools.cache
def _stop_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS  # spaCy's English list, only when a phrase is first cut

    return frozenset(STOP_WORDS)


def phrases(text: str) -> list[str]:
    """The candidate phrases of a text: runs of one to ``LONGEST`` words (letters, digits, inner ``'&-``) that
    neither start nor end with a stop word (spaCy's English list), in order, each once."""
    stop = _stop_words()
    words = _WORD.findall(text)
    out: dict[str, None] = {}
    for i in range(len(words)):
        for n in range(1, LONGEST + 1):
            run = words[i : i + n]
            if len(run) < n or run[0].casefold() in stop or run[-1].casefold() in stop:
                continue
            out.setdefault(" ".join(run))
    return list(out)


def reads(value: str) -> bool:
    """Whether a value is of the kind the model was trained on: words (no digit, at most ``LONGEST`` words) with no
    typed reading (no date, time, amount, identifier...: the typed equivalence settles those)."""
    from aem_strands.compare.settle import typed_value
    from aem_strands.compare.values import Text

    words = value.split()
    return 0 < len(words) <= LONGEST and not any(ch.isdigit() for ch in value) and isinstance(typed_value(value), Text)


def shares_word(phrase: str, value: str) -> bool:
    """Whether a phrase and a value have a word in common (case aside): then the phrase may name the value in part
    ("Airport" for ``Orly International Airport``), which is no reading in other words and not this model's to
    settle."""
    return bool({w.casefold() for w in _WORD.findall(phrase)} & {w.casefold() for w in _WORD.findall(value)})


def pair_features(phrases_: np.ndarray[Any, Any], values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The feature rows of phrase and value vectors paired row by row (see the module docstring)."""
    import numpy as np

    cosine = (phrases_ * values).sum(axis=1, keepdims=True)
    return np.hstack([cosine, phrases_ * values, np.abs(phrases_ - values)]).astype(np.float32)


@dataclass(frozen=True)
class _Model:
    weights: Any  # numpy float32 vector: one weight per feature, or per hidden unit
    bias: float
    hidden: tuple[Any, Any] | None  # (features x units matrix, units bias) of a hidden ReLU layer, if any

    def scores(self, rows: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        import numpy as np

        if self.hidden is not None:
            rows = np.maximum(rows @ self.hidden[0] + self.hidden[1], np.float32(0.0))
        out: np.ndarray[Any, Any] = rows @ self.weights + np.float32(self.bias)
        return out


@functools.lru_cache(maxsize=1)
def _model() -> _Model:
    import numpy as np  # only when a value first needs it

    if not WEIGHTS.is_file():
        raise FileNotFoundError(f"the value paraphrase weights {WEIGHTS} are missing; run "
                                "benchmarks/train_value_paraphrase.py --write")  # fmt: skip
    with np.load(WEIGHTS) as data:
        hidden = None
        if "hidden_weights" in data:
            hidden = (data["hidden_weights"].astype(np.float32), data["hidden_bias"].astype(np.float32))
        return _Model(data["weights"].astype(np.float32), float(data["bias"].astype(np.float32)), hidden)


@functools.cache
def _encode() -> Encode:
    from aem_strands.compare.scorers import EmbeddingScorer  # the sentence model loads only when a value needs it

    return EmbeddingScorer().vectors


def probabilities(value: str, candidates: Sequence[str], encode: Encode | None = None) -> list[float]:
    """The probability that each candidate phrase names ``value`` in other words."""
    if not candidates:
        return []
    vectors = (encode or _encode())([value, *candidates])
    scores = _model().scores(pair_features(vectors[1:], vectors[:1].repeat(len(candidates), axis=0)))
    return [sigmoid(float(s)) for s in scores]


@dataclass(frozen=True)
class Paraphrase:
    """The phrase that names a value in other words, and the model's probability that it does."""

    phrase: str
    probability: float


def grounding_phrase(value: str, texts: Sequence[str], encode: Encode | None = None) -> Paraphrase | None:
    """The phrase of ``texts`` most likely to name ``value`` in other words, when the model is confident of it
    (``CONFIDENT``); else ``None``, and ``None`` for a value the model does not read (``reads``)."""
    if not reads(value):
        return None
    candidates = list(dict.fromkeys(p for text in texts for p in phrases(text) if not shares_word(p, value)))
    scored = probabilities(value, candidates, encode)
    if not scored:
        return None
    best = max(range(len(scored)), key=scored.__getitem__)
    return Paraphrase(candidates[best], scored[best]) if scored[best] >= CONFIDENT else None


__all__ = [
    "CONFIDENT",
    "WEIGHTS",
    "Paraphrase",
    "grounding_phrase",
    "pair_features",
    "phrases",
    "probabilities",
    "reads",
    "shares_word",
]
