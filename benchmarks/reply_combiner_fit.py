"""Fit the reply combiner (``aem_strands/compare/reply_combiner.json``) on calibration data only.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/reply_combiner_fit.py [--write]

Training pairs: ``data/replies/sgd_pairs.calibration.jsonl`` and the STS-B rows of
``data/calibration/responses.calibration.jsonl`` (equivalent when the human score >= 4), restricted
to the pairs the facts and acts leave open (``replies.settle_reply`` is ``None``): the combiner only
ever sees those. Logistic regression (scikit-learn, L2), each (source, label) group of the open
pairs weighted alike so that neither SGD nor STS-B, neither class, dominates. ``--case-weights``
fits the candidate that was tried and not kept (docs/EQUIVALENCE.md): SGD and STS-B weigh half each
and within a source every case weighs by its size in the *whole* calibration part, open or settled
(more SGD paraphrases pass; STS-B and other requests lose). A gradient-boosting model is fitted beside
it for comparison (not shipped: it is not "a few parameters"). Prints each model's balanced
accuracy per source by 5-fold cross-validation on the calibration part; ``--write`` stores the
logistic coefficients.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import StratifiedKFold

from aem_strands.compare.combiner import FEATURES, ReplyCombiner, reply_features
from aem_strands.compare.replies import settle_reply
from aem_strands.compare.scorers import EmbeddingScorer
from aem_strands.types import ValueKind

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reply_report import load_sets  # a sibling script, importable once its folder is on the path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "aem_strands" / "compare" / "reply_combiner.json"


def calibration_rows() -> list[dict[str, object]]:
    sets = load_sets()
    return sets["sgd calibration"] + sets["sts-b calibration"]


def training_rows(rows: list[dict[str, object]] | None = None) -> list[dict[str, object]]:
    """The pairs of ``rows`` (default: the calibration part) that the facts and acts leave open."""
    every = calibration_rows() if rows is None else rows
    return [r for r in every if settle_reply(str(r["gold"]), str(r["predicted"])) is None]


def _cosines(pairs: list[tuple[str, str]]) -> list[float | None]:
    return EmbeddingScorer(replies="cosine").similarities(pairs, ValueKind.RESPONSE)


def _source(row: dict[str, object]) -> str:
    return "sgd" if row.get("case") in ("paraphrase", "contradiction", "other_request") else "stsb"


def _weights(groups: list[str]) -> np.ndarray:
    """Each (source, label) group weighs the same in all: SGD replies and STS-B sentences, equivalent
    and different, count alike whatever their sizes."""
    counts = Counter(groups)
    weights = np.array([1.0 / counts[g] for g in groups])
    return weights * len(groups) / weights.sum()  # mean 1: the regularisation keeps its usual strength


def _case(row: dict[str, object]) -> tuple[str, str]:
    return _source(row), str(row.get("case"))


def case_weights(rows: list[dict[str, object]], every: list[dict[str, object]]) -> np.ndarray:
    """Per row of ``rows`` (the open pairs): 1 / (pairs of its case in ``every``, the whole calibration
    part), scaled so that each source weighs half and its cases alike (see the module docstring)."""
    sizes = Counter(_case(r) for r in every)
    cases = Counter(source for source, _ in sizes)  # cases per source
    weights = np.array([0.5 / cases[_case(r)[0]] / sizes[_case(r)] for r in rows])
    return weights * len(rows) / weights.sum()  # mean 1: the regularisation keeps its usual strength


def _cross_validated(
    model: Any, x: np.ndarray, y: np.ndarray, groups: list[str], weights: np.ndarray
) -> dict[str, float]:
    """Balanced accuracy per source over the open pairs, 5-fold, stratified by (source, label)."""
    predicted = np.zeros(len(y), dtype=bool)
    for train, test in StratifiedKFold(5, shuffle=True, random_state=0).split(x, groups):
        fitted = clone(model).fit(x[train], y[train], sample_weight=weights[train])
        predicted[test] = fitted.predict(x[test])
    sources = np.array([g.split(":")[0] for g in groups])
    return {
        s: round(float(balanced_accuracy_score(y[sources == s], predicted[sources == s])), 3) for s in ("sgd", "stsb")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--case-weights", action="store_true", help="the candidate weighting not kept")
    args = parser.parse_args()
    every = calibration_rows()
    rows = training_rows(every)
    pairs = [(str(r["gold"]), str(r["predicted"])) for r in rows]
    cosines = _cosines(pairs)
    x = np.array([reply_features(g, p, c or 0.0) for (g, p), c in zip(pairs, cosines, strict=True)])
    y = np.array([bool(r["label"]) for r in rows])
    groups = [f"{_source(r)}:{bool(r['label'])}" for r in rows]
    weights = case_weights(rows, every) if args.case_weights else _weights(groups)
    print(f"{len(rows)} open calibration pairs, {int(y.sum())} equivalent")
    logistic = LogisticRegression(C=1.0, max_iter=1000)
    boosting = HistGradientBoostingClassifier(max_depth=3, random_state=0)
    for name, model, data in (
        ("cosine alone (logistic)", LogisticRegression(max_iter=1000), x[:, :1]),
        ("logistic regression", logistic, x),
        ("gradient boosting", boosting, x),
    ):
        print(f"{name}: 5-fold balanced accuracy by source {_cross_validated(model, data, y, groups, weights)}")
    logistic.fit(x, y, sample_weight=weights)
    combiner = ReplyCombiner(tuple(float(c) for c in logistic.coef_[0]), float(logistic.intercept_[0]))
    print(json.dumps(dict(zip(FEATURES, combiner.coefficients, strict=True)), indent=2))
    if args.write:
        TARGET.write_text(json.dumps(combiner.to_dict(), indent=2) + "\n", encoding="utf-8")
        print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
