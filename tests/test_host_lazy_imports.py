"""Issue 29: load what a run needs, when it needs it.

``score --scorer exact`` and ``trace`` never import sentence_transformers or torch's model stack (the default
scorer runs the packaged MiniLM with numpy (``aem_strands.compare.minilm``, equal vectors), and any other model
folder with sentence_transformers, when a run needs it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import EXAMPLES, ROOT

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
