"""Fit the pair model's stage in the reply chain: the pair head's logit and the pair model's, one logistic regression.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/pair_model_stage_fit.py [--per-case 600] [--write]

Fitting pairs: the ``dev`` split of ``build/pair_model_data/pairs.jsonl`` (``pair_model_data.py``: SGD
train dialogues and STS-B train rows the pair model never trained on, and that neither the pair head
nor its thresholds were fitted on), up to ``--per-case`` of each case drawn with a fixed seed, STS-B
equivalent when its score is >= 4, restricted to the pairs the facts and acts leave open
(``replies.settle_reply`` is ``None``): the stage only ever sees those. Each (source, label) group
weighs alike. Inputs: ``logit`` of the pair head's probability (``combiner.PairHead.probability``, its
act-group threshold moved to 0.5) and the pair model's logit (``pair_model.PairModel``).

Printed: balanced accuracy per source on the open fitting pairs, for the head alone at 0.5, the pair
model alone at its best threshold, the stage on every open pair, and the stage on the ``asks`` and
``dialog`` act groups only (``combiner.PairGroup``; other pairs keep the head), both at 0.5 and 5-fold
cross-validated. ``--write`` stores the group stage, fitted on all the open pairs of those groups, in
``aem_strands/compare/data/pair_model/stage.json``. Measured (issue 22): head SGD 0.505, STS-B 0.81;
stage on every pair SGD 0.723, STS-B 0.782; group stage SGD 0.708, STS-B 0.81, so the group stage ships.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections import Counter
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import StratifiedKFold

from aem_strands.compare.combiner import PairGroup, default_head, pair_group
from aem_strands.compare.pair_model import PairModel, PairModelStage
from aem_strands.compare.replies import settle_reply
from aem_strands.compare.scorers import EmbeddingScorer

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "build" / "pair_model_data" / "pairs.jsonl"
TARGET = ROOT / "aem_strands" / "compare" / "data" / "pair_model" / "stage.json"


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def _cross_validated(x: np.ndarray, y: np.ndarray, weights: np.ndarray, groups: list[str]) -> np.ndarray:
    """Out-of-fold verdicts at 0.5 of a logistic regression, 5 folds stratified by (source, label)."""
    passed = np.zeros(len(y), dtype=bool)
    for train, test in StratifiedKFold(5, shuffle=True, random_state=0).split(x, groups):
        fitted = LogisticRegression().fit(x[train], y[train], sample_weight=weights[train])
        passed[test] = fitted.predict_proba(x[test])[:, 1] >= 0.5
    return passed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--per-case", type=int, default=600)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    with open(args.data, encoding="utf-8") as handle:
        dev = [row for line in handle if (row := json.loads(line))["split"] == "dev"]
    rng = random.Random(11)
    rows = []
    for case in ("paraphrase", "value_change", "slot_change", "stsb"):
        mine = [r for r in dev if r["case"] == case]
        rng.shuffle(mine)
        rows += mine[: args.per_case]
    rows = [r for r in rows if settle_reply(r["gold"], r["predicted"]) is None]
    pairs = [(str(r["gold"]), str(r["predicted"])) for r in rows]
    y = np.array([(r["score"] >= 4) if r["source"] == "stsb" else r["label"] >= 0.5 for r in rows])
    groups = [f"{r['source']}:{label}" for r, label in zip(rows, y, strict=True)]
    counts = Counter(groups)
    weights = np.array([len(groups) / (len(counts) * counts[g]) for g in groups])
    embedder = EmbeddingScorer(replies="cosine")
    vectors = embedder.vectors([t for pair in pairs for t in pair])
    head = default_head()
    head_logits = [_logit(head.probability(g, p, vectors[2 * i], vectors[2 * i + 1])) for i, (g, p) in enumerate(pairs)]
    model_logits = PairModel().logits(pairs)
    x = np.column_stack([head_logits, model_logits])
    print(f"{len(rows)} open fitting pairs: {dict(sorted(counts.items()))}")
    sources = np.array([g.split(":")[0] for g in groups])

    def figures(passed: np.ndarray) -> dict[str, float]:
        return {
            s: round(float(balanced_accuracy_score(y[sources == s], passed[sources == s])), 3) for s in ("sgd", "stsb")
        }

    print("pair head at 0.5:", figures(x[:, 0] >= 0))
    best = max(np.unique(x[:, 1]), key=lambda t: float(np.mean(list(figures(x[:, 1] >= t).values()))))
    print(f"pair model alone at its best logit {best:.2f} (optimistic):", figures(x[:, 1] >= best))
    print("stage on every open pair at 0.5 (5-fold):", figures(_cross_validated(x, y, weights, groups)))
    chosen_groups = frozenset({PairGroup.ASKS, PairGroup.DIALOG})
    chosen = np.array([i for i, pair in enumerate(pairs) if pair_group(*pair) in chosen_groups])
    passed = x[:, 0] >= 0
    passed[chosen] = _cross_validated(x[chosen], y[chosen], weights[chosen], [groups[i] for i in chosen])
    print(f"stage on {len(chosen)} asks and dialog pairs at 0.5 (5-fold), the head elsewhere:", figures(passed))
    fitted = LogisticRegression().fit(x[chosen], y[chosen], sample_weight=weights[chosen])
    stage = PairModelStage(
        float(f"{fitted.coef_[0][0]:.6g}"),
        float(f"{fitted.coef_[0][1]:.6g}"),
        float(f"{fitted.intercept_[0]:.6g}"),
        chosen_groups,
    )
    print(f"stage: {stage}")
    if args.write:
        TARGET.write_text(json.dumps(stage.to_dict(), indent=2) + "\n", encoding="utf-8")
        print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
