"""Train the dialog act heads of ``aem_strands.compare.dialog_acts`` on SGD train; report them on SGD test.

Every user and system turn of the SGD train dialogs (the snapshot ``fetch`` brings: ``--sgd-git``, as
``benchmarks/pair_model_data.py`` reads it) is a training row; its labels are the acts of its frames
(``frames[].actions[].act``) mapped as the module says (user: agree / refuse / request / ask / inform; agent:
confirm / offer / offer_intent; a user turn's context is the act SGD gives the system turn before it). One logistic
regression per label (scikit-learn, ``C`` below) over the module's own hashed features, so training and run time
see the same vectors. SGD test (``--sgd-test``, the project's copy) is never trained on: the script prints each
label's precision, recall and F1 there, at 0.5 and at the consent check's confident band
(``aem_strands.trace.checks.consent.CONFIDENT``). ``--write`` stores the weights (float16) in
``aem_strands/compare/data/dialog_acts.npz``, atomically.

    PYTHONPATH=$PWD python benchmarks/train_dialog_acts.py --write

SGD is CC BY-SA 4.0 (Rastogi et al., 2020); the shipped weights say so beside them (``dialog_acts.README.md``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pair_model_data import SGD_GIT, git_show, head_commit, listed, write_weights  # noqa: E402

from aem_strands.compare.dialog_acts import BUCKETS, LABELS, WEIGHTS, Speaker, features  # noqa: E402

SGD_TEST = ROOT.parent / "shared" / "external_data" / "sgd" / "test"
ACTS = {
    Speaker.USER: {
        "agree": {"AFFIRM", "AFFIRM_INTENT", "SELECT"},
        "refuse": {"NEGATE", "NEGATE_INTENT"},
        "request": {"INFORM_INTENT"},
        "ask": {"REQUEST"},
        "inform": {"INFORM"},
    },
    Speaker.AGENT: {"confirm": {"CONFIRM"}, "offer": {"OFFER"}, "offer_intent": {"OFFER_INTENT"}},
}
"""SGD acts of each label (a turn is positive for a label when one of its frames' actions has one of them)."""
C = 4.0
"""Inverse regularisation of each label's regression (a first choice, not tuned)."""


def train_dialogs(git_dir: Path, missing: list[str]) -> Iterator[dict[str, Any]]:
    """The SGD train dialogs of the snapshot; files it lacks (a snapshot may leave its largest out) are noted in
    ``missing`` and skipped."""
    for path in listed(git_dir, "train"):
        text = git_show(git_dir, path)
        if text is None:
            missing.append(path)
            continue
        yield from json.loads(text)


def test_dialogs(folder: Path) -> Iterator[dict[str, Any]]:
    for path in sorted(folder.glob("dialogues_*.json*")):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as handle:
            yield from json.load(handle)


Turns = tuple[list[str], list[set[str]], list[str | None]]


def _context(acts: set[str] | None) -> str:
    """A user turn's context from the SGD acts of the system turn before it (``None``: there is none)."""
    if acts is None:
        return "none"
    return next((label for act, label in CONTEXT_OF if act in acts), "other")


CONTEXT_OF = (("CONFIRM", "confirm"), ("OFFER_INTENT", "offer_intent"), ("OFFER", "offer"))


def turns(dialogs: Iterator[dict[str, Any]]) -> dict[Speaker, Turns]:
    """Per speaker: the utterances, each one's SGD acts, and each one's context (``None`` for agent turns)."""
    out: dict[Speaker, Turns] = {s: ([], [], []) for s in Speaker}
    for dialog in dialogs:
        previous: set[str] | None = None
        for turn in dialog["turns"]:
            speaker = Speaker.USER if turn["speaker"] == "USER" else Speaker.AGENT
            acts = {a["act"] for f in turn["frames"] for a in f["actions"]}
            out[speaker][0].append(turn["utterance"])
            out[speaker][1].append(acts)
            out[speaker][2].append(_context(previous) if speaker is Speaker.USER else None)
            if speaker is Speaker.AGENT:
                previous = acts
    return out


def matrix(texts: list[str], contexts: list[str | None]) -> csr_matrix:
    rows, cols, vals = [], [], []
    for i, (text, context) in enumerate(zip(texts, contexts, strict=True)):
        for bucket, value in features(text, context).items():
            rows.append(i)
            cols.append(bucket)
            vals.append(value)
    return csr_matrix((vals, (rows, cols)), shape=(len(texts), BUCKETS), dtype=np.float32)


def targets(speaker: Speaker, acts: list[set[str]]) -> np.ndarray[Any, Any]:
    return np.array([[bool(a & ACTS[speaker][label]) for label in LABELS[speaker]] for a in acts], dtype=np.int8)


def scores(y: np.ndarray[Any, Any], p: np.ndarray[Any, Any], threshold: float) -> tuple[float, float, float]:
    predicted = p >= threshold
    tp = float((predicted & (y == 1)).sum())
    precision = tp / max(1.0, float(predicted.sum()))
    recall = tp / max(1.0, float((y == 1).sum()))
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sgd-git", type=Path, default=SGD_GIT)
    parser.add_argument("--sgd-test", type=Path, default=SGD_TEST)
    parser.add_argument("--write", action="store_true", help="store the weights in the package")
    args = parser.parse_args()
    from aem_strands.trace.checks.consent import CONFIDENT

    started = time.time()
    missing: list[str] = []
    train = turns(train_dialogs(args.sgd_git, missing))
    test = turns(test_dialogs(args.sgd_test))
    print(f"SGD train {head_commit(args.sgd_git)[:12]} ({len(missing)} train files absent from the snapshot, skipped)")
    print(f"SGD test {args.sgd_test}")
    stored: dict[str, np.ndarray[Any, Any]] = {}
    for speaker in Speaker:
        x_train, y_train = matrix(train[speaker][0], train[speaker][2]), targets(speaker, train[speaker][1])
        x_test, y_test = matrix(test[speaker][0], test[speaker][2]), targets(speaker, test[speaker][1])
        weights, biases = [], []
        print(f"{speaker.value}: {x_train.shape[0]} train turns, {x_test.shape[0]} test turns")
        for j, label in enumerate(LABELS[speaker]):
            model = LogisticRegression(C=C, max_iter=2000, solver="liblinear")
            model.fit(x_train, y_train[:, j])
            weights.append(model.coef_[0])
            biases.append(model.intercept_[0])
            p = model.predict_proba(x_test)[:, 1]
            at_half = scores(y_test[:, j], p, 0.5)
            confident = scores(y_test[:, j], p, CONFIDENT)
            print(
                f"  {label:13s} positives {int(y_test[:, j].sum()):6d}  at 0.5: P {at_half[0]:.3f} R {at_half[1]:.3f} "
                f"F1 {at_half[2]:.3f}  at {CONFIDENT}: P {confident[0]:.3f} R {confident[1]:.3f} F1 {confident[2]:.3f}"
            )
        stored[f"{speaker.value}_weights"] = np.asarray(weights, dtype=np.float16)
        stored[f"{speaker.value}_bias"] = np.asarray(biases, dtype=np.float16)
    print(f"trained in {time.time() - started:.0f} s")
    if args.write:
        write_weights(WEIGHTS, stored)
        print(f"wrote {WEIGHTS} ({WEIGHTS.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
