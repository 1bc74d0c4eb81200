"""Reproduce the figures behind the default thresholds of the embedding scorer (issue 2).

Prints the cosine of the reference argument pairs (the default argument threshold must fail
revenue/profit and pass the aliases) and, for responses, the balanced accuracy of cosine
thresholds on STS-B dev (MSR rows removed; a pair counts as equivalent when its human score is
>= 4). Needs ../shared/external_data/stsb for the second part (skipped when absent).

Run: python benchmarks/default_thresholds.py [--stsb PATH]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from aem_strands import EmbeddingScorer, ValueKind
from aem_strands.compare.chain import DEFAULT_ARGUMENT_THRESHOLD, DEFAULT_RESPONSE_THRESHOLD

ARGUMENT_PAIRS = [
    ("revenue", "profit", False),
    ("EU", "US", False),
    ("NYC", "New York City", True),
    ("LA", "Los Angeles", True),
    ("San Francisco", "SF", True),
    ("EU", "Europe", True),
]
STSB = Path(__file__).resolve().parents[2] / "shared" / "external_data" / "stsb" / "sts-dev.no-msr.csv"


def balanced_accuracy(scores: list[float], labels: list[bool], threshold: float) -> float:
    positives = [s for s, y in zip(scores, labels, strict=True) if y]
    negatives = [s for s, y in zip(scores, labels, strict=True) if not y]
    recall = sum(s >= threshold for s in positives) / len(positives)
    specificity = sum(s < threshold for s in negatives) / len(negatives)
    return (recall + specificity) / 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--stsb", type=Path, default=STSB)
    args = parser.parse_args()
    scorer = EmbeddingScorer()
    scores = scorer.similarities([(a, b) for a, b, _ in ARGUMENT_PAIRS], ValueKind.ARGUMENT)
    print(f"argument threshold {DEFAULT_ARGUMENT_THRESHOLD:.2f}")
    for (gold, predicted, same), score in zip(ARGUMENT_PAIRS, scores, strict=True):
        assert score is not None
        decided = score >= DEFAULT_ARGUMENT_THRESHOLD
        mark = "ok" if decided == same else "WRONG"
        print(
            f"  {gold!r:>16} vs {predicted!r:<16} cosine {score:.3f} -> {'same' if decided else 'different'} [{mark}]"
        )
    if not args.stsb.exists():
        print(f"STS-B not found at {args.stsb}; skipping the response part")
        return 0
    rows = [line.rstrip("\n").split("\t") for line in args.stsb.read_text(encoding="utf-8").splitlines()]
    pairs = [(row[5], row[6]) for row in rows]
    labels = [float(row[4]) >= 4.0 for row in rows]
    cosines = [s or 0.0 for s in scorer.similarities(pairs, ValueKind.RESPONSE)]
    grid = [round(0.50 + 0.01 * i, 2) for i in range(48)]
    best = max(grid, key=lambda t: balanced_accuracy(cosines, labels, t))
    print(f"STS-B dev (no MSR): {len(pairs)} pairs, {sum(labels)} with human score >= 4")
    for threshold in sorted({best, DEFAULT_RESPONSE_THRESHOLD, 0.80, 0.85, 0.87}):
        note = " (best)" if threshold == best else " (default)" if threshold == DEFAULT_RESPONSE_THRESHOLD else ""
        print(
            f"  cosine >= {threshold:.2f}: balanced accuracy {balanced_accuracy(cosines, labels, threshold):.3f}{note}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
