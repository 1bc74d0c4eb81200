"""Fit the pair model's stage in the reply chain: the pair head's logit and the pair model's, one logistic regression.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/pair_model_stage_fit.py [--per-case 600] [--write]

Fitting pairs: the ``dev`` split of ``build/pair_model_data/pairs.jsonl`` (``pair_model_data.py``: SGD
train dialogues and STS-B train rows the pair model never trained on, and that neither the pair head
nor its thresholds were fitted on), up to ``--per-case`` of each case drawn with a fixed seed, STS-B
equivalent when its score is >= 4, restricted to the pairs the facts and acts leave open
(``replies.settle_reply`` is ``None``): the stage only ever sees those. Each (source, label) group
weighs alike. Inputs: ``logit`` of the pair head's probability (``combiner.PairHead.probability``, its
act-group threshold moved to 0.5) and the pair model's logit (``pair_model.PairModel``).

Printed: balanced accuracy per source of the whole chain (the facts on the pairs they settle, the stage on the
open ones, each open pair weighed by its (source, label)'s share of all fitting pairs), for the pair head alone
at 0.5, one stage for every act group and a stage per act group (``combiner.PairGroup``), both at 0.5 and
5-fold cross-validated, and per group. ``--write`` stores the better of the two, fitted on all the open pairs, in
``aem_strands/compare/data/pair_model/stage.json``. Measured (issue 22, the pair model reading one pair per
run), whole chain, 5-fold: one stage for every group SGD 0.937, STS-B 0.819, hard 0.867; a stage per group SGD
0.93, STS-B 0.825, hard 0.867; one stage ships.
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
from aem_strands.compare.pair_model import PairModel, PairModelStage, StageWeights
from aem_strands.compare.replies import settle_reply
from aem_strands.compare.scorers import EmbeddingScorer
from aem_strands.output import write_atomically

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "build" / "pair_model_data" / "pairs.jsonl"
TUNING = ROOT / "data" / "replies" / "hard_pairs_v2.tuning.jsonl"
TARGET = ROOT / "aem_strands" / "compare" / "data" / "pair_model" / "stage.json"


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def _fitting_rows(data: Path, per_case: int) -> tuple[list[dict[str, object]], Counter[str], Counter[str]]:
    """Up to ``per_case`` dev pairs of each case (a fixed seed) and the tuning hard pairs: the open ones, how many
    pairs of each (source, label) there were before the facts settled the rest, and how many of those the facts
    settled right."""
    with open(data, encoding="utf-8") as handle:
        dev = [row for line in handle if (row := json.loads(line))["split"] == "dev"]
    rng = random.Random(11)
    rows: list[dict[str, object]] = []
    for case in sorted({str(r["case"]) for r in dev}):
        mine = [r for r in dev if r["case"] == case]
        rng.shuffle(mine)
        rows += [
            {**r, "equivalent": (r["score"] >= 4) if r["case"] == "stsb" else r["label"] >= 0.5}
            for r in mine[:per_case]
        ]
    with open(TUNING, encoding="utf-8") as handle:
        rows += [{**r, "source": "hard", "equivalent": bool(r["label"])} for line in handle if (r := json.loads(line))]
    totals = Counter(f"{r['source']}:{r['equivalent']}" for r in rows)
    settled = [settle_reply(str(r["gold"]), str(r["predicted"])) for r in rows]
    right = Counter(
        f"{r['source']}:{r['equivalent']}" for r, c in zip(rows, settled, strict=True)
        if c is not None and (c.equivalent is True) == r["equivalent"]
    )  # fmt: skip
    return [r for r, c in zip(rows, settled, strict=True) if c is None], totals, right


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--per-case", type=int, default=600)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    rows, totals, settled_right = _fitting_rows(args.data, args.per_case)
    pairs = [(str(r["gold"]), str(r["predicted"])) for r in rows]
    y = np.array([bool(r["equivalent"]) for r in rows])
    labels = [f"{r['source']}:{label}" for r, label in zip(rows, y, strict=True)]
    embedder = EmbeddingScorer(replies="cosine")
    vectors = embedder.vectors([t for pair in pairs for t in pair])
    head = default_head()
    head_logits = [_logit(head.probability(g, p, vectors[2 * i], vectors[2 * i + 1])) for i, (g, p) in enumerate(pairs)]
    model_logits = PairModel().logits(pairs)
    x = np.column_stack([head_logits, model_logits])
    acts = np.array([pair_group(*pair).value for pair in pairs])
    sources = np.array([label.split(":")[0] for label in labels])
    print(f"{len(rows)} open fitting pairs: {dict(sorted(Counter(labels).items()))} of {dict(sorted(totals.items()))}")
    print("balanced accuracy of the whole chain (facts on settled pairs, the stage on open ones):")

    def figures(passed: np.ndarray) -> dict[str, float]:
        """Balanced accuracy of the whole chain per source: the facts' settled verdicts and ``passed`` on the open."""
        out = {}
        for source in ("sgd", "stsb", "hard"):
            shares = []
            for label in (True, False):
                key = f"{source}:{label}"
                mine = (sources == source) & (y == label)
                shares.append((settled_right[key] + int((passed[mine] == label).sum())) / totals[key])
            out[source] = round(sum(shares) / 2, 3)
        return out

    shared_acts = np.array(["all"] * len(acts))
    per_group = _cross_validated(x, y, labels, acts, totals)
    shared = _cross_validated(x, y, labels, shared_acts, totals)
    print("pair head alone at 0.5:", figures(x[:, 0] >= 0))
    print("one stage for every act group at 0.5 (5-fold):", figures(shared))
    print("a stage per act group at 0.5 (5-fold):", figures(per_group))
    for group in PairGroup:
        mine = acts == group.value
        print(f"  {group.value}: {int(mine.sum())} pairs, head {figures_of(y[mine], x[mine, 0] >= 0)}, "
              f"one stage {figures_of(y[mine], shared[mine])}, "
              f"own stage {figures_of(y[mine], per_group[mine])}")  # fmt: skip
    choose_per_group = np.mean(list(figures(per_group).values())) > np.mean(list(figures(shared).values()))
    weights = {}
    for group in PairGroup:
        mine = acts == group.value if choose_per_group else np.ones(len(acts), dtype=bool)
        fitted = LogisticRegression().fit(
            x[mine], y[mine], sample_weight=_weights([labels[i] for i in np.flatnonzero(mine)], totals)
        )
        head_w, model_w = (float(f"{c:.6g}") for c in fitted.coef_[0])
        weights[group] = StageWeights(head_w, model_w, float(f"{fitted.intercept_[0]:.6g}"))
    print("chosen:", "a stage per act group" if choose_per_group else "one stage for every act group")
    stage = PairModelStage(weights)
    print(f"stage: {stage.to_dict()}")
    if args.write:
        write_atomically(TARGET, json.dumps(stage.to_dict(), indent=2) + "\n", "--write")
        print(f"wrote {TARGET}")


def figures_of(y: np.ndarray, passed: np.ndarray) -> float:
    return round(float(balanced_accuracy_score(y, passed)), 3) if len(set(y)) == 2 else float("nan")


def _weights(labels: list[str], totals: Counter[str]) -> np.ndarray:
    """Each open pair weighs 1 / the number of fitting pairs of its (source, label) before the facts settled any: the
    loss is then the balanced error of the whole chain on each source, which the settled pairs share at a fixed
    value (an open pair of a label the facts mostly settle weighs no more than the others of its label)."""
    return np.array([1.0 / totals[g] for g in labels]) * len(totals)


def _cross_validated(
    x: np.ndarray, y: np.ndarray, labels: list[str], acts: np.ndarray, totals: Counter[str]
) -> np.ndarray:
    """Out-of-fold verdicts at 0.5 of one logistic regression per value of ``acts``, up to 5 folds stratified by
    (source, label); a part too small to fold keeps the head's verdict."""
    passed = x[:, 0] >= 0
    for part in sorted(set(acts)):
        index = np.flatnonzero(acts == part)
        mine = [labels[i] for i in index]
        folds = min(5, min(Counter(mine).values()))
        if len(set(y[index])) < 2 or folds < 2:
            continue
        for train, test in StratifiedKFold(folds, shuffle=True, random_state=0).split(index, mine):
            fitted = LogisticRegression().fit(
                x[index[train]], y[index[train]], sample_weight=_weights([mine[i] for i in train], totals)
            )
            passed[index[test]] = fitted.predict_proba(x[index[test]])[:, 1] >= 0.5
    return passed


if __name__ == "__main__":
    main()
