"""Agreement of equivalence decisions with labels: precision, recall, F1, balanced accuracy, AUC.

Pure functions over plain lists. "Positive" means *equivalent*. An undecided prediction (``None``)
counts as "not equivalent" (it does not pass a turn) and is counted separately.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sklearn.metrics import confusion_matrix, roc_auc_score


@dataclass(frozen=True)
class Agreement:
    """How a set of decisions agrees with the labels."""

    pairs: int
    positives: int
    true_positives: int
    false_positives: int
    true_negatives: int
    false_negatives: int
    undecided: int = 0

    @property
    def precision(self) -> float:
        predicted = self.true_positives + self.false_positives
        return self.true_positives / predicted if predicted else 0.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.positives if self.positives else 0.0

    @property
    def specificity(self) -> float:
        negatives = self.pairs - self.positives
        return self.true_negatives / negatives if negatives else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def balanced_accuracy(self) -> float:
        return (self.recall + self.specificity) / 2

    def to_dict(self) -> dict[str, float | int]:
        return {
            "pairs": self.pairs,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "balanced_accuracy": round(self.balanced_accuracy, 4),
            "undecided": self.undecided,
        }


def agreement(labels: Sequence[bool], decisions: Sequence[bool | None]) -> Agreement:
    """Count the confusion matrix of ``decisions`` against ``labels`` (``sklearn.metrics.confusion_matrix``)."""
    if len(labels) != len(decisions):
        raise ValueError(f"{len(labels)} labels but {len(decisions)} decisions")
    said = [d is True for d in decisions]
    matrix = confusion_matrix([bool(y) for y in labels], said, labels=[False, True])
    (tn, fp), (fn, tp) = matrix.tolist()
    undecided = sum(1 for d in decisions if d is None)
    return Agreement(len(labels), sum(bool(y) for y in labels), tp, fp, tn, fn, undecided)


def auc(labels: Sequence[bool], scores: Sequence[float]) -> float | None:
    """Area under the ROC curve (``sklearn.metrics.roc_auc_score``); ``None`` when one class is absent."""
    if len(set(map(bool, labels))) < 2:
        return None
    return float(roc_auc_score([bool(y) for y in labels], list(scores)))


@dataclass(frozen=True)
class SweepPoint:
    threshold: float
    agreement: Agreement


def sweep(labels: Sequence[bool], scores: Sequence[float], thresholds: Sequence[float]) -> list[SweepPoint]:
    """Decide ``score >= threshold`` for each threshold and measure it."""
    return [SweepPoint(t, agreement(labels, [s >= t for s in scores])) for t in thresholds]


def best_point(points: Sequence[SweepPoint]) -> SweepPoint:
    """The point of highest balanced accuracy; ties go to the higher F1, then the higher threshold."""
    if not points:
        raise ValueError("no sweep points")
    return max(points, key=lambda p: (round(p.agreement.balanced_accuracy, 6), round(p.agreement.f1, 6), p.threshold))


def recommended_point(points: Sequence[SweepPoint], tolerance: float = 0.01) -> SweepPoint:
    """The highest threshold whose balanced accuracy is within ``tolerance`` of the best.

    Among near-equal thresholds the higher one is preferred: it trades a little recall for
    precision, and a false "equivalent" hides the very error a correctness metric exists to catch.
    """
    best = best_point(points).agreement.balanced_accuracy
    return max(
        (p for p in points if p.agreement.balanced_accuracy >= best - tolerance - 1e-12), key=lambda p: p.threshold
    )


def band_floor(labels: Sequence[bool], scores: Sequence[float], threshold: float, npv: float = 0.95) -> float | None:
    """The highest floor below ``threshold`` under which at least ``npv`` of the pairs are truly
    different (scores below it are "clearly different"); ``None`` when no floor reaches it."""
    candidates = sorted({round(s, 2) for s in scores if s < threshold}, reverse=True)
    for floor in candidates:
        below = [y for y, s in zip(labels, scores, strict=True) if s < floor]
        if below and sum(1 for y in below if not y) / len(below) >= npv:
            return floor
    return None
