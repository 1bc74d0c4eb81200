"""A persistent, content-addressed cache of model work, opt-in (``EvalOptions.cache_dir``, ``--cache-dir``,
``AEM_CACHE_DIR`` read by the CLI only).

Two stores in one ``diskcache`` folder (SQLite-indexed, safe across processes, so ``--workers`` share it):

- embeddings: the vector of a string, keyed by the SHA-256 of the model id and the text, so re-scoring a
  dataset after a small change embeds only the strings that are new (``EmbeddingScorer(cache=...)``);
- judge verdicts: a scorer's score for one pair, keyed by the scorer's identity (for the LLM judge: its
  prompt version, system prompt and model id), the value kind and the pair (``CachedScorer``). A pair the
  scorer could not score is not stored: it is asked again next time.

A cached value is the one the model gave, so results are identical with and without the cache.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from aem_strands.types import Method, ValueKind


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


class ModelCache:
    """The on-disk store (``diskcache.Cache`` in ``directory``, created when missing)."""

    def __init__(self, directory: str | Path) -> None:
        import diskcache  # type: ignore[import-untyped]  # diskcache ships no type information

        self.directory = Path(directory)
        self._store = diskcache.Cache(str(self.directory))

    def vectors(self, model_id: str, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The stored vectors among ``texts`` for ``model_id``."""
        found = {}
        for text in texts:
            vector = self._store.get(("embedding", _digest(model_id, text)))
            if vector is not None:
                found[text] = np.frombuffer(vector, dtype=np.float32)
        return found

    def store_vectors(self, model_id: str, vectors: Mapping[str, np.ndarray]) -> None:
        with self._store.transact():
            for text, vector in vectors.items():
                self._store.set(("embedding", _digest(model_id, text)), np.asarray(vector, dtype=np.float32).tobytes())

    def scores(self, scorer_id: str, kind: ValueKind, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], float]:
        found = {}
        for pair in pairs:
            score = self._store.get(("score", _digest(scorer_id, kind.value, *pair)))
            if score is not None:
                found[pair] = float(score)
        return found

    def store_scores(self, scorer_id: str, kind: ValueKind, scores: Mapping[tuple[str, str], float]) -> None:
        with self._store.transact():
            for pair, score in scores.items():
                self._store.set(("score", _digest(scorer_id, kind.value, *pair)), float(score))

    def close(self) -> None:
        self._store.close()


def scorer_identity(scorer: Any) -> str:
    """What makes a scorer's verdicts reusable: its name and, when it offers one, its ``provenance()`` (the
    judge's prompt version and model id) and system prompt."""
    parts: dict[str, Any] = {"name": scorer.name}
    provenance = getattr(scorer, "provenance", None)
    if callable(provenance):
        parts["provenance"] = provenance()
    prompt = getattr(scorer, "system_prompt", None)
    if isinstance(prompt, str):
        parts["system_prompt"] = _digest(prompt)
    return json.dumps(parts, sort_keys=True, default=str)


class CachedScorer:
    """A scorer whose scores are looked up in a ``ModelCache`` first; only the pairs not found reach it.

    Everything else (``failure_reason``, ``describe``, ...) is the wrapped scorer's.
    """

    def __init__(self, scorer: Any, cache: ModelCache) -> None:
        self.scorer = scorer
        self.cache = cache
        self._identity = scorer_identity(scorer)

    @property
    def name(self) -> str:
        return str(self.scorer.name)

    @property
    def method(self) -> Method:
        method: Method = self.scorer.method
        return method

    def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        known: dict[tuple[str, str], float | None] = dict(self.cache.scores(self._identity, kind, pairs))
        asked = list(dict.fromkeys(p for p in pairs if p not in known))
        if asked:
            answered = dict(zip(asked, self.scorer.similarities(asked, kind), strict=True))
            finite = {p: s for p, s in answered.items() if s is not None and np.isfinite(s)}
            self.cache.store_scores(self._identity, kind, finite)
            known.update(answered)
        return [known[p] for p in pairs]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.scorer, name)
