"""Sentence embeddings without the ``sentence_transformers`` import, for the models whose pipeline is plain.

Importing ``sentence_transformers`` costs several seconds of CPU and ~100 MiB beyond torch and transformers
(it pulls in scikit-learn, ``scipy.stats``, pandas and pyarrow for its training and evaluation code, none of
which encoding needs). A sentence-transformers folder whose ``modules.json`` is exactly a Transformer, a
mean-tokens Pooling and optionally a Normalize (the packaged MiniLM is one) is encoded here with transformers
alone, by the same steps (tokenise with truncation at ``max_seq_length``, mean of the token states under the
attention mask, L2 normalisation): the vectors equal ``SentenceTransformer.encode``'s to float rounding
(``tests/test_host_lazy_imports.py`` checks it). Any other folder is loaded by ``SentenceTransformer``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_TRANSFORMER = "sentence_transformers.models.Transformer"
_POOLING = "sentence_transformers.models.Pooling"
_NORMALIZE = "sentence_transformers.models.Normalize"


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def plain_pipeline(folder: Path) -> int | None:
    """``max_seq_length`` when ``folder`` holds a Transformer → mean Pooling (→ Normalize) model, else ``None``."""
    modules = _read(folder / "modules.json")
    if not isinstance(modules, list) or not 2 <= len(modules) <= 3 or not all(isinstance(m, dict) for m in modules):
        return None
    types = [m.get("type") for m in modules]
    if types[:2] != [_TRANSFORMER, _POOLING] or types[2:] not in ([], [_NORMALIZE]) or modules[0].get("path"):
        return None
    pooling = _read(folder / str(modules[1].get("path", "")) / "config.json")
    modes = {k: v for k, v in (pooling or {}).items() if k.startswith("pooling_mode_")}
    if modes.pop("pooling_mode_mean_tokens", False) is not True or any(modes.values()):
        return None
    config = _read(folder / "sentence_bert_config.json")
    if not isinstance(config, dict) or config.get("do_lower_case") or not isinstance(config.get("max_seq_length"), int):
        return None
    return int(config["max_seq_length"])


class MeanPoolingEncoder:
    """A transformers model and its tokenizer, encoding as a plain sentence-transformers pipeline does."""

    def __init__(self, folder: str, max_seq_length: int, device: str = "cpu") -> None:
        from transformers import AutoModel, AutoTokenizer

        self._tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True)
        self._model = AutoModel.from_pretrained(folder, local_files_only=True).to(device).eval()
        self._device = device
        self._max = max_seq_length

    def encode(self, texts: Sequence[str], *, batch_size: int = 64, normalize_embeddings: bool = True, **_: Any) -> Any:
        """One row per text (a float32 numpy array), in the order given."""
        import numpy as np
        import torch

        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))  # similar lengths share a batch's padding
        rows: list[Any] = [None] * len(texts)
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                chosen = order[start : start + batch_size]
                batch = self._tokenizer([texts[i] for i in chosen], padding=True, truncation="longest_first",
                                        max_length=self._max, return_tensors="pt").to(self._device)  # fmt: skip
                states = self._model(**batch).last_hidden_state
                mask = batch["attention_mask"].unsqueeze(-1).to(states.dtype)
                vectors = (states * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                if normalize_embeddings:
                    vectors = torch.nn.functional.normalize(vectors, p=2, dim=1)
                for i, vector in zip(chosen, vectors.cpu().numpy(), strict=True):
                    rows[i] = vector
        return np.stack(rows) if rows else np.zeros((0, 0), dtype=np.float32)

    def state_dict(self) -> Any:
        return self._model.state_dict()


def load_encoder(folder: str, device: str = "cpu") -> Any:
    """An encoder for ``folder``: ``MeanPoolingEncoder`` for a plain pipeline, else a ``SentenceTransformer``."""
    path = Path(folder)
    length = plain_pipeline(path) if path.is_dir() else None
    if length is not None:
        return MeanPoolingEncoder(folder, length, device)
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(folder, device=device, local_files_only=True)
