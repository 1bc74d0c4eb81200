"""Calibration: how well each stage of the comparison chain agrees with labelled pairs.

Stages measured on the same pairs:

- ``exact``: the raw values are identical (the fast path alone);
- ``normalised``: the chain without a model (typed parsing and text rules; unsettled pairs are
  "not equivalent");
- ``cosine@T``: plain cosine of the raw strings, no normalisation, at threshold T (0.5 is the
  reference write-up's default; ``cosine@best`` is the best threshold on these pairs);
- ``chain``: the shipped chain at the configured thresholds; for replies the chain also includes the
  fact checks of ``facts`` (a reply with a fact finding is not equivalent, as in turn judging);
- ``chain@best``: the shipped chain with the threshold of best balanced accuracy on these pairs.

Thresholds are swept over each stage's continuous score; the recommended threshold is the best one.
The scorer is injected, so this module never loads a model itself.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from aem_strands.compare.chain import Comparator, ComparisonRequest, Thresholds
from aem_strands.compare.metrics import (
    Agreement,
    SweepPoint,
    agreement,
    auc,
    band_floor,
    best_point,
    recommended_point,
    sweep,
)
from aem_strands.compare.normalise import display
from aem_strands.compare.scorers import ExactScorer, SemanticScorer
from aem_strands.errors import InputError, Location
from aem_strands.types import Comparison, JsonValue, ValueKind

SWEEP = tuple(round(0.30 + 0.01 * i, 2) for i in range(70))
"""Thresholds tried: 0.30, 0.31, ..., 0.99."""


@dataclass(frozen=True)
class LabelledPair:
    """One labelled pair: ``label`` is True when the values are equivalent."""

    gold: JsonValue
    predicted: JsonValue
    label: bool
    kind: ValueKind = ValueKind.ARGUMENT
    reference_date: date | None = None

    def request(self) -> ComparisonRequest:
        return ComparisonRequest(self.gold, self.predicted, self.kind, self.reference_date)


def _parse_line(row: Any, kind: ValueKind, cutoff: float, where: Location) -> LabelledPair:
    if not isinstance(row, dict) or "gold" not in row or "predicted" not in row:
        raise InputError('expected an object with "gold", "predicted" and "label" or "score"', where)
    if isinstance(row.get("label"), bool):
        label = bool(row["label"])
    elif isinstance(row.get("score"), (int, float)) and not isinstance(row.get("score"), bool):
        label = float(row["score"]) >= cutoff
    else:
        raise InputError(f'"label" must be true or false, or "score" a number; got {row.get("label")!r}', where)
    try:
        pair_kind = ValueKind(row["kind"]) if "kind" in row else kind
        reference = date.fromisoformat(row["reference_date"]) if row.get("reference_date") else None
    except (ValueError, TypeError) as error:
        raise InputError(str(error), where) from None
    return LabelledPair(row["gold"], row["predicted"], label, pair_kind, reference)


def load_pairs(path: Path, kind: ValueKind = ValueKind.ARGUMENT, cutoff: float = 4.0) -> list[LabelledPair]:
    """Read labelled pairs from JSONL (``label`` true/false, or an STS-style ``score`` >= ``cutoff``)."""
    try:
        lines = path.read_text(encoding="utf-8").split("\n")  # JSONL: "\n" ends a record, not U+2028
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", Location(file=str(path))) from None
    out = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = Location(file=f"{path}:{number}")
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError(f"not JSON: {error.msg}", where) from None
        out.append(_parse_line(row, kind, cutoff, where))
    if not out:
        raise InputError("no pairs", Location(file=str(path)))
    return out


@dataclass(frozen=True)
class StageResult:
    """One stage: its decisions' agreement with the labels, and its score's AUC."""

    name: str
    agreement: Agreement
    auc: float | None
    threshold: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"stage": self.name, **self.agreement.to_dict()}
        out["auc"] = None if self.auc is None else round(self.auc, 4)
        out["threshold"] = self.threshold
        return out


@dataclass(frozen=True)
class CalibrationReport:
    """Every stage, the chain's threshold sweep, and the recommended thresholds."""

    kind: ValueKind
    pairs: int
    positives: int
    stages: tuple[StageResult, ...]
    sweep: tuple[SweepPoint, ...] = field(default=())
    recommended_threshold: float | None = None
    recommended_floor: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "pairs": self.pairs,
            "equivalent_pairs": self.positives,
            "stages": [s.to_dict() for s in self.stages],
            "sweep": [{"threshold": p.threshold, **p.agreement.to_dict()} for p in self.sweep],
            "recommended": {"threshold": self.recommended_threshold, "floor": self.recommended_floor},
        }


def chain_outcomes(pairs: Sequence[LabelledPair], comparator: Comparator) -> list[Comparison]:
    """The shipped chain's comparison per pair (replies: facts and acts first, as in turn judging)."""
    return comparator.compare_many([p.request() for p in pairs])


def _plain_scores(scorer: SemanticScorer, pairs: Sequence[LabelledPair], kind: ValueKind) -> list[float]:
    """The scorer's raw similarity; for replies from the embedding scorer, the plain cosine (its reply
    score is the combiner's, which already uses the facts)."""
    texts = [(display(p.gold), display(p.predicted)) for p in pairs]
    cosine = getattr(scorer, "cosine", None)
    if kind is ValueKind.RESPONSE and callable(cosine):
        return [float(cosine(g, p)) for g, p in texts]
    return [0.0 if s is None else s for s in scorer.similarities(texts, kind)]


def _stage(name: str, labels: list[bool], decisions: list[bool | None], scores: list[float]) -> StageResult:
    return StageResult(name, agreement(labels, decisions), auc(labels, scores))


def _swept(name: str, labels: list[bool], scores: list[float], threshold: float) -> StageResult:
    return StageResult(name, agreement(labels, [s >= threshold for s in scores]), auc(labels, scores), threshold)


def calibrate(
    pairs: Sequence[LabelledPair],
    scorer: SemanticScorer,
    thresholds: Thresholds | None = None,
    *,
    kind: ValueKind = ValueKind.ARGUMENT,
    tolerance: float = 0.01,
    escalation: SemanticScorer | None = None,
) -> CalibrationReport:
    """Measure every stage on ``pairs`` (all of one kind) and recommend a threshold for the chain:
    the highest one within ``tolerance`` balanced accuracy of the best (see ``recommended_point``).
    ``escalation`` (e.g. the judge) decides the chain's uncertain band, as in ``Comparator``."""
    thresholds = thresholds or Thresholds()
    labels = [p.label for p in pairs]
    exact = [p.gold == p.predicted and type(p.gold) is type(p.predicted) for p in pairs]
    normalised = chain_outcomes(pairs, Comparator(ExactScorer(), thresholds))
    cosine = _plain_scores(scorer, pairs, kind)
    chain = chain_outcomes(pairs, Comparator(scorer, thresholds, escalation=escalation))
    chain_scores = [c.score for c in chain]  # settled: 1.0 or 0.0; a fact finding: 0.0; else the similarity
    cosine_best = best_point(sweep(labels, cosine, SWEEP))
    chain_sweep = sweep(labels, chain_scores, SWEEP)
    chain_best = best_point(chain_sweep)
    chosen = recommended_point(chain_sweep, tolerance)
    stages = (
        _stage("exact", labels, list(exact), [1.0 if e else 0.0 for e in exact]),
        _stage(
            "normalised", labels, [c.equivalent for c in normalised], [1.0 if c.equivalent else 0.0 for c in normalised]
        ),
        _swept("cosine@0.5", labels, cosine, 0.5),
        _swept("cosine@best", labels, cosine, cosine_best.threshold),
        StageResult(
            "chain",
            agreement(labels, [c.equivalent for c in chain]),
            auc(labels, chain_scores),
            thresholds.for_kind(kind),
        ),
        _swept("chain@best", labels, chain_scores, chain_best.threshold),
    )
    return CalibrationReport(
        kind, len(pairs), sum(labels), stages, tuple(chain_sweep), chosen.threshold,
        band_floor(labels, chain_scores, chosen.threshold),
    )  # fmt: skip
