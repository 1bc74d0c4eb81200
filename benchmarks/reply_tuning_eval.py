"""Reply verdicts on the pairs rules may be written from: the tuning hard pairs and the calibration pairs.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/reply_tuning_eval.py [SET ...] [--misses]

Sets: ``tuning`` (``data/replies/hard_pairs_v2.tuning.jsonl``), ``tuning3`` (``hard_pairs_v3.tuning.jsonl``),
``sgd_cal`` (``sgd_pairs.calibration.jsonl``), ``stsb_cal`` (the STS-B rows of
``data/calibration/responses.calibration.jsonl``, equivalent when scored >= 4) and ``hard_v1``
(``hard_pairs.jsonl``); ``sgd_dev_split``, the SGD paraphrases, value and slot changes of the development split of
``build/pair_model_data/pairs.jsonl`` (SGD *train* dialogues kept aside; built by ``pair_model_data.py``), only
when named. All but that one by default. Printed per set: balanced accuracy of the shipped chain (``Comparator``
over the default embedding scorer), how many pairs the facts settled and how many of those wrongly, and for the
hard pairs the share right per case; ``--misses`` adds every pair judged wrongly with its method and reason.
The held-out files (``*.heldout.jsonl``) are never read here: ``reply_heldout_eval.py`` measures them.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from sklearn.metrics import balanced_accuracy_score

from aem_strands.compare.chain import Comparator, ComparisonRequest
from aem_strands.compare.scorers import EmbeddingScorer
from aem_strands.types import Method, ValueKind

DATA = Path(__file__).resolve().parents[1] / "data"
Row = dict[str, Any]


def _rows(path: Path) -> list[Row]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _stsb(path: Path) -> list[Row]:
    kept = [r for r in _rows(path) if str(r.get("source", "")).startswith("stsb")]
    return [{**r, "label": r["score"] >= 4, "case": r["source"]} for r in kept]


def _sgd_development() -> list[Row]:
    path = Path(__file__).resolve().parents[1] / "build" / "pair_model_data" / "pairs.jsonl"
    if not path.is_file():
        raise SystemExit(f"{path} is missing: build it with benchmarks/pair_model_data.py (SGD and STS-B snapshots)")
    cases = ("paraphrase", "value_change", "slot_change")
    return [
        {**r, "label": r["label"] == 1.0}
        for r in _rows(path)
        if r["split"] == "dev" and r["source"] == "sgd" and r["case"] in cases
    ]


SETS = {
    "tuning": lambda: _rows(DATA / "replies" / "hard_pairs_v2.tuning.jsonl"),
    "tuning3": lambda: _rows(DATA / "replies" / "hard_pairs_v3.tuning.jsonl"),
    "sgd_cal": lambda: _rows(DATA / "replies" / "sgd_pairs.calibration.jsonl"),
    "stsb_cal": lambda: _stsb(DATA / "calibration" / "responses.calibration.jsonl"),
    "hard_v1": lambda: _rows(DATA / "replies" / "hard_pairs.jsonl"),
    "sgd_dev_split": _sgd_development,
}
BY_CASE = ("tuning", "tuning3", "sgd_dev_split")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", metavar="SET", help=f"some of {', '.join(SETS)} (default: all)")
    parser.add_argument("--misses", action="store_true", help="print every pair judged wrongly")
    args = parser.parse_args()
    unknown = sorted(set(args.sets) - set(SETS))
    if unknown:
        parser.error(f"unknown sets {unknown}; expected some of {list(SETS)}")
    comparator = Comparator(EmbeddingScorer())
    for name in args.sets or [n for n in SETS if n != "sgd_dev_split"]:
        rows = SETS[name]()
        results = comparator.compare_many(
            [ComparisonRequest(r["gold"], r["predicted"], ValueKind.RESPONSE) for r in rows]
        )
        truth = [bool(r["label"]) for r in rows]
        passed = [c.equivalent is True for c in results]
        settled = [(t, p) for t, p, c in zip(truth, passed, results, strict=True) if c.method is Method.FACTS]
        wrong = sum(t != p for t, p in settled)
        balanced = balanced_accuracy_score(truth, passed)
        print(f"{name}: {len(rows)} pairs, balanced {balanced:.3f}; facts settled {len(settled)}, {wrong} wrongly")
        if name in BY_CASE:
            cases: dict[str, list[bool]] = defaultdict(list)
            for row, t, p in zip(rows, truth, passed, strict=True):
                cases[row["case"]].append(t == p)
            for case, right in sorted(cases.items()):
                print(f"  {case}: {sum(right) / len(right):.3f} of {len(right)}")
        if args.misses:
            for row, t, p, c in zip(rows, truth, passed, results, strict=True):
                if t != p:
                    print(f"  MISS [{row.get('case')}] label {t}, {c.method.value} {c.score:.2f}: {c.detail[:200]}")
                    print(f"    gold: {row['gold']}\n    predicted: {row['predicted']}")


if __name__ == "__main__":
    main()
