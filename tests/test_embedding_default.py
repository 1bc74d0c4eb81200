"""The default embedding scorer: real packaged MiniLM model, offline, loaded only when needed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from aem_strands import Comparator, EmbeddingScorer, ValueKind, evaluate_dialogs
from tests.conftest import ROOT, action, paired

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def scorer() -> EmbeddingScorer:
    return EmbeddingScorer()


def test_defaults_fail_revenue_vs_profit_and_pass_nyc_vs_new_york_city(scorer: EmbeddingScorer) -> None:
    comparator = Comparator(scorer)
    assert comparator.compare("revenue", "profit").equivalent is False
    assert comparator.compare("NYC", "New York City").equivalent is True
    # The raw cosines behind the default argument threshold 0.80 (SPEC §4): revenue/profit ≈ 0.73 < 0.80,
    # NYC/New York City ≈ 0.92 >= 0.80, so the embedding stage alone also decides both correctly.
    wrong, alias = scorer.similarities([("revenue", "profit"), ("NYC", "New York City")], ValueKind.ARGUMENT)
    assert wrong == pytest.approx(0.73, abs=0.02)
    assert alias == pytest.approx(0.92, abs=0.02)


def test_each_distinct_string_is_embedded_once_across_dialogs() -> None:
    scorer = EmbeddingScorer()
    one = [paired(1, action("t", "A", item="car"), action("t", "A", item="automobile"))]
    two = [
        paired(1, action("t", "A", item="car"), action("t", "A", item="automobile")),
        paired(2, action("t", "B", item="car"), action("t", "B", item="vehicle")),
    ]
    evaluate_dialogs([one, two], scorer=scorer)
    assert scorer.embedded_count == 3  # car, automobile, vehicle


def test_normalisation_settled_comparisons_never_import_torch() -> None:
    dialog = [paired(1, action("t", "A", n=2, city="New York"), action("t", "A", n="2.0", city="new york"))]
    code = (
        "import json, sys\n"
        "import aem_strands\n"
        f"result = aem_strands.evaluate_dialog(json.loads({json.dumps(json.dumps(dialog))}))\n"
        "print(result.test_pass, 'torch' in sys.modules, 'sentence_transformers' in sys.modules)\n"
    )
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    assert done.stdout.split() == ["True", "False", "False"]


@pytest.mark.slow
def test_loading_the_model_prints_no_progress_bar() -> None:
    # The model's "Loading weights" bar would land in the output of strands-evals and aem-strands runs.
    code = (
        "from aem_strands.compare.scorers import EmbeddingScorer\n"
        "from aem_strands.types import ValueKind\n"
        "print(EmbeddingScorer().similarities([('car', 'automobile')], ValueKind.ARGUMENT)[0] > 0.5)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "HF_HUB_DISABLE_PROGRESS_BARS"} | {"HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    assert done.stdout.split() == ["True"]
    assert "Loading weights" not in done.stderr
