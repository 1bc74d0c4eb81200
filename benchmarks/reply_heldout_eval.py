"""Reply verdicts on pairs nobody here tuned on: SGD dev act pairs, STS-B test, the held-out hard pairs.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/reply_heldout_eval.py [--sgd-git DIR] [--stsb-git DIR] [--json]

One script for issue 22's figures, all balanced accuracy of the shipped chain (``Comparator`` with
the default embedding scorer and thresholds):

- **SGD dev act pairs**: built from the ``dev/`` dialogues of a fetched snapshot of
  ``google-research-datasets/dstc8-schema-guided-dialogue`` exactly as the training pairs are built
  from ``train/`` (``pair_model_data.sgd_dev_pairs``: up to 700 each of ``paraphrase``,
  ``value_change`` and ``slot_change``, seed 7); the share of paraphrases passed and of changes
  failed is printed beside the balanced accuracy;
- **STS-B test**: ``stsbenchmark/sts-test.csv`` of a fetched snapshot of ``aivilmo/textual-similarity``;
  a pair is equivalent when its human score is >= 4 and not equivalent otherwise (every pair counts,
  as in ``reply_report.py``); figures for all rows, for the rows outside the MSR genres, and for the
  clear rows only (``score >= 4`` equivalent, ``score <= 2`` not, the pairs between left out); and, for
  reference, MiniLM's cosine alone at the threshold best on these very rows (optimistic);
- **hard held-out**: ``data/replies/hard_pairs_v2.heldout.jsonl`` and, written later by another hand,
  ``hard_pairs_v3.heldout.jsonl``, each when present (only the figures are
  printed, never the pairs);
- **compare ≡ score**: every pair also goes through dialog scoring (``evaluate_dialogs``, one
  one-turn dialog per pair, its own ``Comparator`` over the same scorer); the number of pairs whose
  turn verdict (pass) differs from the ``compare`` verdict (equivalent) is printed, with examples.

Also printed: how many pairs the facts and acts settled, and the pair model's share of the run's time
(``pair_model.default_pair_model().seconds``) when it ran.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.metrics import balanced_accuracy_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pair_model_data import MSR_GENRES, SGD_GIT, STSB_GIT, sgd_dev_pairs, stsb_rows  # a sibling script

from aem_strands.compare.chain import Comparator, ComparisonRequest
from aem_strands.compare.scorers import EmbeddingScorer
from aem_strands.evaluate import evaluate_dialogs
from aem_strands.types import Method, ValueKind

ROOT = Path(__file__).resolve().parents[1]
HARD_HELDOUT = {
    "hard held-out": ROOT / "data" / "replies" / "hard_pairs_v2.heldout.jsonl",
    "hard held-out v3": ROOT / "data" / "replies" / "hard_pairs_v3.heldout.jsonl",
}
Row = dict[str, Any]


def _sets(sgd_git: Path, stsb_git: Path) -> dict[str, list[Row]]:
    sgd, missing = sgd_dev_pairs(sgd_git)
    if missing:
        print(f"SGD dev files missing from the snapshot (over 4 MiB): {len(missing)}", file=sys.stderr)
    stsb = [
        {
            "gold": r["gold"],
            "predicted": r["predicted"],
            "label": r["score"] >= 4,
            "case": r["genre"],
            "score": r["score"],
        }
        for r in stsb_rows(stsb_git, "stsbenchmark/sts-test.csv")
    ]
    sets = {"sgd dev": sgd, "sts-b test": stsb}
    for name, path in HARD_HELDOUT.items():
        if path.is_file():
            with open(path, encoding="utf-8") as handle:
                sets[name] = [json.loads(line) for line in handle if line.strip()]
    return sets


def _pair_model() -> Any:
    """The packaged pair model's counters; ``None`` for a checkout without one (``--package`` of an older
    commit, to measure before the pair model)."""
    try:
        from aem_strands.compare.pair_model import default_pair_model
    except ImportError:
        return None
    return default_pair_model()


def _figures(rows: list[Row], passed: list[bool]) -> dict[str, Any]:
    labels = [bool(r["label"]) for r in rows]
    out: dict[str, Any] = {"pairs": len(rows), "balanced_accuracy": round(balanced_accuracy_score(labels, passed), 3)}
    by_case: dict[str, list[bool]] = {}
    for row, verdict in zip(rows, passed, strict=True):
        by_case.setdefault(str(row.get("case", "?")), []).append(verdict == bool(row["label"]))
    out["right_per_case"] = {case: round(sum(h) / len(h), 3) for case, h in sorted(by_case.items())}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sgd-git", type=Path, default=SGD_GIT)
    parser.add_argument("--stsb-git", type=Path, default=STSB_GIT)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    args = parser.parse_args()
    sets = _sets(args.sgd_git, args.stsb_git)
    scorer = EmbeddingScorer()
    cosine = EmbeddingScorer(replies="cosine")
    report: dict[str, Any] = {}
    started = time.perf_counter()
    mismatches: list[str] = []
    settled = total = 0
    for name, rows in sets.items():
        requests = [ComparisonRequest(r["gold"], r["predicted"], ValueKind.RESPONSE) for r in rows]
        compared = Comparator(scorer).compare_many(requests)
        passed = [c.equivalent is True for c in compared]
        settled += sum(c.method is Method.FACTS for c in compared)
        total += len(rows)
        report[name] = _figures(rows, passed)
        if name == "sts-b test":
            keep = [i for i, r in enumerate(rows) if r["case"] not in MSR_GENRES]
            report["sts-b test without MSR genres"] = _figures([rows[i] for i in keep], [passed[i] for i in keep])
            cosines = np.array([cosine.cosine(r["gold"], r["predicted"]) for r in rows])
            labels = np.array([bool(r["label"]) for r in rows])
            best = max(balanced_accuracy_score(labels, cosines >= t) for t in np.unique(np.round(cosines, 3)))
            report["sts-b test, MiniLM cosine alone at its best threshold (chosen on these rows)"] = round(
                float(best), 3
            )
            clear = [i for i, r in enumerate(rows) if not 2 < r["score"] < 4]
            report["sts-b test, 2 < score < 4 left out"] = _figures(
                [rows[i] for i in clear], [passed[i] for i in clear]
            )
        if name == "sgd dev":
            paraphrases = [p for p, r in zip(passed, rows, strict=True) if r["case"] == "paraphrase"]
            changes = [not p for p, r in zip(passed, rows, strict=True) if r["case"] != "paraphrase"]
            report[name]["paraphrases_passed"] = round(sum(paraphrases) / len(paraphrases), 3)
            report[name]["changes_failed"] = round(sum(changes) / len(changes), 3)
        dialogs = [
            {"dialog_id": f"{name}:{i}", "turns": [{"turn_no": 1, "turn": "Agent", "gold_turn": {"response": r["gold"]},
                                                   "predict_turn": {"response": r["predicted"]}}]}
            for i, r in enumerate(rows)
        ]  # fmt: skip
        results = evaluate_dialogs(dialogs, comparator=Comparator(scorer))
        for i, (result, verdict) in enumerate(zip(results, passed, strict=True)):
            if result.turns[0].verdict.success != verdict:
                mismatches.append(f"{name} pair {i}: compare {verdict}, score {result.turns[0].verdict.success}")
    elapsed = time.perf_counter() - started
    model = _pair_model()
    report["compare_vs_score_mismatches"] = len(mismatches)
    report["mismatch_examples"] = mismatches[:5]
    report["run"] = {
        "pairs": total,
        "settled_by_facts_and_acts": settled,
        "pair_model_pairs": model.scored // 2 if model else 0,  # each open pair: once by compare, once by score
        "pair_model_seconds": round(model.seconds, 1) if model else 0.0,
        "seconds": round(elapsed, 1),
        "pair_model_share_of_time": round(model.seconds / elapsed, 3) if model else 0.0,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for name, figures in report.items():
        print(f"{name}: {figures}")


if __name__ == "__main__":
    main()
