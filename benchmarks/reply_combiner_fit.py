"""Fit the learned reply stage on calibration data only, candidates side by side.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/reply_combiner_fit.py [--cache-dir DIR] [--write] \
        [--repeats 3] [--write-combiner FILE]

Training pairs: ``data/replies/sgd_pairs.calibration.jsonl`` and the STS-B rows of
``data/calibration/responses.calibration.jsonl`` (equivalent when the human score >= 4), restricted
to the pairs the facts and acts leave open (``replies.settle_reply`` is ``None``): the learned stage
only ever sees those. Each (source, label) group of the open pairs weighs alike, so that neither SGD
nor STS-B, neither class, dominates. Candidates, all logistic regressions (scikit-learn, L2, on
standardised inputs, regularisation strength ``C``):

- ``cosine``: the MiniLM cosine alone;
- ``six features``: ``combiner.FEATURES`` (cosine, word overlap, facts, acts), the combiner shipped
  before the pair head;
- ``six features + alignment``: plus ``combiner.ALIGNMENT`` (each reply's sentences matched to the other
  reply's best sentence by cosine: the worst and the mean match, both ways);
- ``pair head``: the embedding pair vector ``[u*v, |u-v|]`` of the two 384-d embeddings, plus the six
  features (``combiner.PairHead``), one ``C`` for all, or a ``C`` of its own for the 768 pair-vector
  columns (``pair vector C``, much smaller: they are many, the six features few);
- ``pair head + alignment``.

Printed per candidate, by 5-fold cross-validation on the calibration part: balanced accuracy on the
open pairs per source, and the whole chain's accuracy per case on the calibration part (pairs the
facts and acts settle keep their verdict, open pairs get the fold's prediction at 0.5). The folds are
stratified by source and label and keep pairs that share a reply text together (one utterance is in
several SGD pairs; with plain folds the pair head partly recognises the utterance, which made it look
better on SGD than it is); the same folds for every candidate, repeated ``--repeats`` times with other
folds (the figures are the means). Last, the band floor the pair head's out-of-fold scores suggest
(the highest score under which >= 95 % of the open pairs are different), and the head's decision
threshold per act group (``combiner.PairGroup``: a pair that asks, dialog statements, plain
statements; ``group_thresholds``): from the kept head's out-of-fold probabilities, the thresholds
that raise the chain's worst SGD per-case figure on the calibration part the most while its STS-B
balanced accuracy stays within 0.005 of the single 0.5 threshold's.
``--write`` refits the pair head whose regularisation gave the best mean of the two sources'
balanced accuracies on every open calibration pair and stores it, with those thresholds, in
``aem_strands/compare/reply_pair_head.json``; ``--write-combiner FILE`` stores the
six-feature combiner refitted the same way (a candidate for ``reply_report.py --candidate``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import StratifiedGroupKFold
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler

from aem_strands.cache import ModelCache
from aem_strands.compare.combiner import (
    FEATURES,
    PairGroup,
    PairHead,
    ReplyCombiner,
    alignment_features,
    pair_group,
    reply_features,
    sentences,
)
from aem_strands.compare.replies import settle_reply
from aem_strands.compare.scorers import EmbeddingScorer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reply_report import load_sets  # a sibling script, importable once its folder is on the path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "aem_strands" / "compare" / "reply_pair_head.json"
Row = dict[str, Any]


def calibration_rows() -> list[Row]:
    sets = load_sets()
    return sets["sgd calibration"] + sets["sts-b calibration"]


SGD_DIR = ROOT.parent / "shared" / "external_data" / "sgd"
PERTURBED = 700
"""How many perturbed calibration replies ``perturbed_rows`` keeps."""


def perturbed_rows() -> list[Row]:
    """Replies of the calibration dialogues (``reply_pairs.split_of``) perturbed as the SGD benchmark
    perturbs them (``aem_bench.perturb_dialogs``, seed 0, rate 0.3: a reply swapped for another reply of
    the set, or a number in it changed), ``PERTURBED`` of them drawn with a fixed seed; each should
    fail. Not used to fit the head: the act-group thresholds must not pass more of them than one 0.5
    threshold does (``group_thresholds``)."""
    from aem_bench import load_sgd_dialogs, perturb_dialogs
    from reply_pairs import split_of

    from aem_strands.types import Reply

    dialogs = [d for d in load_sgd_dialogs(SGD_DIR) if split_of(d.dialog_id) == "calibration"]
    rows: list[Row] = []
    for dialog in perturb_dialogs(dialogs, seed=0, rate=0.3):
        for turn in dialog.turns:
            gold, predicted = turn.gold, turn.predicted
            if isinstance(gold, Reply) and isinstance(predicted, Reply) and gold.response != predicted.response:
                rows.append({"gold": gold.response, "predicted": predicted.response, "label": False})
    random.Random(7).shuffle(rows)
    return rows[:PERTURBED]


def training_rows(rows: list[Row] | None = None) -> list[Row]:
    """The pairs of ``rows`` (default: the calibration part) that the facts and acts leave open."""
    every = calibration_rows() if rows is None else rows
    return [r for r in every if settle_reply(str(r["gold"]), str(r["predicted"])) is None]


def _source(row: Row) -> str:
    return "sgd" if row.get("case") in ("paraphrase", "contradiction", "other_request") else "stsb"


def _weights(groups: list[str]) -> np.ndarray:
    """Each (source, label) group weighs the same in all: SGD replies and STS-B sentences, equivalent
    and different, count alike whatever their sizes."""
    counts = Counter(groups)
    weights = np.array([1.0 / counts[g] for g in groups])
    return weights * len(groups) / weights.sum()  # mean 1: the regularisation keeps its usual strength


class Inputs:
    """Every candidate's input columns for a list of pairs, from one embedding scorer."""

    def __init__(self, embedder: EmbeddingScorer, pairs: list[tuple[str, str]]) -> None:
        texts = [t for pair in pairs for t in pair]
        embedder.embed(texts + [s for t in texts for s in sentences(t)])
        gold = embedder.vectors([g for g, _ in pairs])
        predicted = embedder.vectors([p for _, p in pairs])
        cosines = np.clip(np.einsum("ij,ij->i", gold, predicted), 0.0, 1.0)
        self.features = np.array([reply_features(g, p, float(c)) for (g, p), c in zip(pairs, cosines, strict=True)])
        self.pair = np.hstack([gold * predicted, np.abs(gold - predicted)])
        self.alignment = np.array(
            [alignment_features(embedder.vectors(sentences(g)), embedder.vectors(sentences(p))) for g, p in pairs]
        )

    def columns(self, name: str) -> np.ndarray:
        parts = {
            "cosine": [self.features[:, :1]],
            "six features": [self.features],
            "six features + alignment": [self.features, self.alignment],
            "pair head": [self.pair, self.features],
            "pair head + alignment": [self.pair, self.features, self.alignment],
        }[name]
        return np.hstack(parts)


def _scale_columns(x: np.ndarray, columns: int, factor: float) -> np.ndarray:
    """``x`` with its first ``columns`` columns multiplied by ``factor``."""
    scaled = np.array(x, dtype=float)
    scaled[:, :columns] *= factor
    return scaled


def _logistic(c: float, c_pair: float | None = None, pair_columns: int = 0) -> Pipeline:
    """Standardise, then logistic regression at ``C=c``; with ``c_pair``, the first ``pair_columns`` columns
    are penalised as at ``C=c_pair`` (scaled by sqrt(c_pair / c) after standardising)."""
    if c_pair is None:
        return make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=5000))
    scale = FunctionTransformer(_scale_columns, kw_args={"columns": pair_columns, "factor": (c_pair / c) ** 0.5})
    return make_pipeline(StandardScaler(), scale, LogisticRegression(C=c, max_iter=5000))


def _shared_text_groups(rows: list[Row]) -> list[str]:
    """One group per set of pairs linked by a shared reply text (union-find over the texts)."""
    parent: dict[str, str] = {}

    def root(text: str) -> str:
        while parent.setdefault(text, text) != text:
            text = parent[text]
        return text

    for row in rows:
        parent[root(str(row["gold"]))] = root(str(row["predicted"]))
    return [root(str(row["gold"])) for row in rows]


def _cross_validated(
    model: Pipeline, x: np.ndarray, y: np.ndarray, groups: list[str], texts: list[str], w: np.ndarray, seed: int
) -> np.ndarray:
    """Out-of-fold probabilities, 5 folds stratified by (source, label), pairs sharing a text together."""
    probability = np.zeros(len(y))
    for train, test in StratifiedGroupKFold(5, shuffle=True, random_state=seed).split(x, groups, texts):
        fitted = clone(model).fit(x[train], y[train], logisticregression__sample_weight=w[train])
        probability[test] = fitted.predict_proba(x[test])[:, 1]
    return probability


def _open_scores(y: np.ndarray, passed: np.ndarray, groups: list[str]) -> dict[str, float]:
    sources = np.array([g.split(":")[0] for g in groups])
    return {s: round(float(balanced_accuracy_score(y[sources == s], passed[sources == s])), 3) for s in ("sgd", "stsb")}


def _chain_scores(every: list[Row], settled: dict[int, bool], passed: dict[int, bool]) -> dict[str, float]:
    """Per case, the share the whole chain gets right on the calibration part: SGD cases, STS-B classes."""
    hits: dict[str, list[bool]] = defaultdict(list)
    for i, row in enumerate(every):
        verdict = settled[i] if i in settled else passed[i]
        hits[_case(row)].append(verdict == bool(row["label"]))
    return {case: round(sum(h) / len(h), 3) for case, h in sorted(hits.items())}


def _unscaled(model: Pipeline) -> tuple[np.ndarray, float]:
    """A fitted ``_logistic`` pipeline as weights and intercept on the raw inputs."""
    scaler: StandardScaler = model.named_steps["standardscaler"]
    logistic: LogisticRegression = model.named_steps["logisticregression"]
    factors = np.ones(len(scaler.scale_))
    if "functiontransformer" in model.named_steps:
        scaling = model.named_steps["functiontransformer"].kw_args
        factors[: scaling["columns"]] = scaling["factor"]
    weights = logistic.coef_[0] * factors / scaler.scale_
    return weights, float(logistic.intercept_[0] - weights @ scaler.mean_)


def head_from(model: Pipeline, dimensions: int) -> PairHead:
    """The shipped form of a fitted pair-head pipeline (six significant digits are plenty)."""
    weights, intercept = _unscaled(model)
    as_floats = [float(f"{w:.6g}") for w in weights]
    return PairHead(
        tuple(as_floats[:dimensions]),
        tuple(as_floats[dimensions : 2 * dimensions]),
        tuple(as_floats[2 * dimensions :]),
        float(f"{intercept:.6g}"),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache-dir", type=Path, help="a persistent embedding cache (aem_strands.cache)")
    parser.add_argument("--repeats", type=int, default=3, help="cross-validation repeats, each with other folds")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--write-combiner", type=Path, help="store the refitted six-feature combiner here")
    args = parser.parse_args()
    every = calibration_rows()
    verdicts = {i: settle_reply(str(r["gold"]), str(r["predicted"])) for i, r in enumerate(every)}
    settled = {i: c.equivalent is True for i, c in verdicts.items() if c is not None}
    open_index = [i for i, c in verdicts.items() if c is None]
    rows = [every[i] for i in open_index]
    embedder = EmbeddingScorer(replies="cosine", cache=ModelCache(args.cache_dir) if args.cache_dir else None)
    inputs = Inputs(embedder, [(str(r["gold"]), str(r["predicted"])) for r in rows])
    y = np.array([bool(r["label"]) for r in rows])
    groups = [f"{_source(r)}:{bool(r['label'])}" for r in rows]
    texts = _shared_text_groups(rows)
    weights = _weights(groups)
    pair_columns = inputs.pair.shape[1]
    print(f"{len(every)} calibration pairs, {len(rows)} open ({int(y.sum())} equivalent)")
    candidates: list[tuple[str, float, float | None]] = [
        ("cosine", 1.0, None),
        ("six features", 1.0, None),
        ("six features + alignment", 1.0, None),
    ]
    candidates += [("pair head", c, None) for c in (0.003, 0.01, 0.03)]
    candidates += [("pair head", 0.3, c_pair) for c_pair in (0.006, 0.012, 0.02)]
    candidates += [("pair head + alignment", 0.3, 0.012)]
    best: tuple[float, float, float | None] = (0.0, 1.0, None)  # (mean balanced accuracy, C, pair vector C)
    for name, c, c_pair in candidates:
        model = _logistic(c, c_pair, pair_columns if name.startswith("pair head") else 0)
        runs = [
            _cross_validated(model, inputs.columns(name), y, groups, texts, weights, s) for s in range(args.repeats)
        ]
        opened = _mean([_open_scores(y, p >= 0.5, groups) for p in runs])
        chain = _mean(
            [_chain_scores(every, settled, dict(zip(open_index, (p >= 0.5).tolist(), strict=True))) for p in runs]
        )
        strength = f"C={c}" + ("" if c_pair is None else f", pair vector C={c_pair}")
        print(f"{name} ({strength}): open pairs {opened}; chain per case {chain}", flush=True)
        if name == "pair head" and (score := (opened["sgd"] + opened["stsb"]) / 2) > best[0]:
            best = (score, c, c_pair)
    _, c, c_pair = best
    model = _logistic(c, c_pair, pair_columns)
    model.fit(inputs.columns("pair head"), y, logisticregression__sample_weight=weights)
    runs = [
        _cross_validated(model, inputs.columns("pair head"), y, groups, texts, weights, s) for s in range(args.repeats)
    ]
    acts = [pair_group(str(r["gold"]), str(r["predicted"])) for r in rows]
    thresholds = group_thresholds(every, settled, open_index, runs, acts, _perturbed(embedder, model))
    head = replace(head_from(model, pair_columns // 2), thresholds=thresholds)
    chosen = np.array([thresholds[g] for g in acts])
    chain = _mean(
        [_chain_scores(every, settled, dict(zip(open_index, (p >= chosen).tolist(), strict=True))) for p in runs]
    )
    print(f"kept: pair head (C={c}, pair vector C={c_pair}), the best mean of SGD and STS-B; band floor it suggests:")
    print(f"  {_floor(runs[0], y):.2f}; feature weights {dict(zip(FEATURES, head.features, strict=True))}")
    print(f"  act-group thresholds { ({g.value: t for g, t in thresholds.items()}) }: chain per case {chain}")
    if args.write:
        TARGET.write_text(json.dumps(head.to_dict()) + "\n", encoding="utf-8")
        print(f"wrote {TARGET}")
    if args.write_combiner:
        six, intercept = _unscaled(_logistic(1.0).fit(inputs.features, y, logisticregression__sample_weight=weights))
        combiner = ReplyCombiner(tuple(float(c) for c in six), intercept)
        args.write_combiner.write_text(json.dumps(combiner.to_dict(), indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.write_combiner}")


GRID = tuple(round(0.05 * step, 2) for step in range(1, 20))
"""The decision thresholds tried for each act group (0.05 to 0.95)."""
SGD_CASES = ("contradiction", "other_request", "paraphrase")
STSB_SLACK = 0.005
"""How much the calibration STS-B balanced accuracy may fall below the single 0.5 threshold's."""


def group_thresholds(
    every: list[Row],
    settled: dict[int, bool],
    open_index: list[int],
    runs: list[np.ndarray],
    acts: list[PairGroup],
    perturbed: list[tuple[PairGroup, float]],
) -> dict[PairGroup, float]:
    """The head's threshold per act group (``combiner.PairGroup``), from the out-of-fold probabilities
    ``runs`` (figures averaged over the repeats; ``settled``: the verdicts of the pairs the facts and acts
    settle), every combination of ``GRID`` thresholds tried:
    the one whose worst SGD per-case figure of the chain on the calibration part (paraphrases passed,
    contradictions and other requests failed) is highest, among those whose STS-B balanced accuracy
    (the mean of its two classes' figures) is at most ``STSB_SLACK`` under the one 0.5 threshold's, and
    that fail as many ``perturbed`` replies (each with its group and the fitted head's probability; 1.0
    for one the facts and acts pass, 0.0 for one they fail) as the one 0.5 threshold, up to the same slack.
    Within one pair of that worst case (1 / its size) of the best, the tie goes to the highest mean
    of all five per-case figures, then to thresholds nearest 0.5."""
    sizes = Counter(_case(row) for row in every)
    settled_right = Counter(_case(every[i]) for i, verdict in settled.items() if verdict == bool(every[i]["label"]))
    labels = np.array([bool(every[i]["label"]) for i in open_index])
    cases = [_case(every[i]) for i in open_index]
    groups = [g for g in PairGroup if g in acts]
    # right[group][threshold][case]: open pairs of that group and case decided right, mean over the repeats
    right = {
        g: {
            t: Counter(
                {
                    c: float(np.mean([sum(((p[k] >= t) == labels[k]) for k in members) for p in runs]))
                    for c in sizes
                    if (members := [k for k, (a, kc) in enumerate(zip(acts, cases, strict=True)) if a is g and kc == c])
                }
            )
            for t in GRID
        }
        for g in groups
    }

    def figures(thresholds: tuple[float, ...]) -> dict[str, float]:
        hits = Counter({c: float(n) for c, n in settled_right.items()})
        for g, t in zip(groups, thresholds, strict=True):
            hits.update(right[g][t])
        return {c: hits[c] / sizes[c] for c in sizes}

    def stsb(f: dict[str, float]) -> float:
        return float(np.mean([v for c, v in f.items() if c.startswith("sts-b")]))

    def failed(thresholds: tuple[float, ...]) -> float:
        limit = dict(zip(groups, thresholds, strict=True))
        return sum(p < limit.get(g, 0.5) for g, p in perturbed) / len(perturbed)

    floor = stsb(figures(tuple(0.5 for _ in groups))) - STSB_SLACK
    perturbed_floor = failed(tuple(0.5 for _ in groups)) - STSB_SLACK
    allowed = [
        (combo, f)
        for combo in itertools.product(GRID, repeat=len(groups))
        if stsb(f := figures(combo)) >= floor and failed(combo) >= perturbed_floor
    ]
    worst = {combo: min(f[c] for c in SGD_CASES) for combo, f in allowed}
    best = max(worst.values())
    tie = 1.0 / max(sizes[c] for c in SGD_CASES)
    combo, f = max(
        ((combo, f) for combo, f in allowed if worst[combo] >= best - tie),
        key=lambda item: (round(float(np.mean(list(item[1].values()))), 9), -sum(abs(t - 0.5) for t in item[0])),
    )
    print(
        f"  act-group thresholds chosen: worst SGD case {min(f[c] for c in SGD_CASES):.3f} (best {best:.3f}); "
        f"perturbed replies failed {failed(combo):.3f} (one 0.5 threshold: {perturbed_floor + STSB_SLACK:.3f})"
    )
    return dict(zip(groups, combo, strict=True))


def _perturbed(embedder: EmbeddingScorer, model: Pipeline) -> list[tuple[PairGroup, float]]:
    """``perturbed_rows`` as (group, probability): the fitted head's for the open ones, 1.0 / 0.0 for
    those the facts and acts pass / fail."""
    out: list[tuple[PairGroup, float]] = []
    open_pairs: list[tuple[str, str]] = []
    for row in perturbed_rows():
        pair = (str(row["gold"]), str(row["predicted"]))
        verdict = settle_reply(*pair)
        if verdict is None:
            open_pairs.append(pair)
        else:
            out.append((pair_group(*pair), 1.0 if verdict.equivalent else 0.0))
    probability = model.predict_proba(Inputs(embedder, open_pairs).columns("pair head"))[:, 1]
    out += [(pair_group(*pair), float(p)) for pair, p in zip(open_pairs, probability, strict=True)]
    print(f"  {len(out)} perturbed calibration replies, {len(open_pairs)} open")
    return out


def _case(row: Row) -> str:
    return str(row["case"]) if _source(row) == "sgd" else f"sts-b {row['case']}"


def _mean(scores: list[dict[str, float]]) -> dict[str, float]:
    """Per key, the mean over the repeats (each repeat: other folds)."""
    return {key: round(float(np.mean([s[key] for s in scores])), 3) for key in scores[0]}


def _floor(probability: np.ndarray, y: np.ndarray) -> float:
    """The highest score (in steps of 0.01) under which at least 95 % of the pairs are different."""
    floors = [t / 100 for t in range(1, 100) if (probability < t / 100).any()]
    return max((t for t in floors if (~y[probability < t]).mean() >= 0.95), default=0.0)


if __name__ == "__main__":
    main()
