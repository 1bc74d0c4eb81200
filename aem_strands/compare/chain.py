"""The value-comparison chain: exact match, typed normalisation, then a semantic scorer with bands.

``Comparator.compare_many`` takes every comparison a run needs at once, settles what it can without
a model (``walk`` and ``settle``), and sends the remaining distinct string pairs to the scorer in one
batch per value kind. A semantic score is decided per kind by ``Thresholds``:

- ``score >= threshold``: equivalent;
- ``score < floor`` (the floor defaults to the threshold, i.e. no band): not equivalent;
- ``floor <= score < threshold``, the *uncertain band*: the pair goes to the ``escalation`` scorer
  (e.g. the LLM judge; all band pairs in one batch), whose score >= 0.5 means equivalent; without an
  escalation scorer the pair is decided conservatively, as not equivalent. The band and the method
  that decided are written into ``Comparison.detail``.

A comparison settled by normalisation never reaches a scorer, so it never loads a model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from aem_strands.compare.replies import explain_passes, settle_replies
from aem_strands.compare.scorers import SemanticScorer
from aem_strands.compare.values import ParseContext
from aem_strands.compare.walk import Leaf, json_key, plan_leaves
from aem_strands.errors import ConfigError
from aem_strands.types import Comparison, JsonValue, Method, ValueKind

DEFAULT_ARGUMENT_THRESHOLD = 0.75
"""Default similarity an argument value needs, measured with ``aem-strands calibrate`` on
``data/calibration/arguments.calibration.jsonl`` (``benchmarks/calibrate_report.py``): the highest
threshold within 0.01 balanced accuracy of the best. It fails ``revenue``/``profit`` (0.733);
``NYC``/``New York City`` is settled before any model (acronym)."""

DEFAULT_ARGUMENT_FLOOR = 0.49
"""Below this an argument similarity is "clearly different": on the calibration part at least 95 %
of the pairs under it are labelled different. Between it and the threshold lies the uncertain band."""

DEFAULT_RESPONSE_THRESHOLD = 0.5
"""Default score a reply needs. For replies the embedding scorer gives the learned combiner's
probability (``compare/combiner.py``: cosine, word overlap, facts and acts), fitted with each source
and class weighted alike on the calibration part of ``data/replies`` and STS-B dev, so 0.5 is its
decision point (``benchmarks/reply_combiner_fit.py``). Facts and dialog acts decide before any score
(``compare/replies.py``)."""

DEFAULT_RESPONSE_FLOOR = 0.09
"""Below this a reply score is "clearly different" (95 % of the open calibration pairs under it are)."""

ESCALATION_THRESHOLD = 0.5
"""An escalation scorer (the judge answers 1.0 or 0.0) says equivalent at this score or above."""


@dataclass(frozen=True)
class Thresholds:
    """Per value kind: the similarity that means equivalent, and the floor of the uncertain band.

    A floor of ``None`` means no band (the floor equals the threshold).
    """

    argument: float = DEFAULT_ARGUMENT_THRESHOLD
    response: float = DEFAULT_RESPONSE_THRESHOLD
    argument_floor: float | None = DEFAULT_ARGUMENT_FLOOR
    response_floor: float | None = DEFAULT_RESPONSE_FLOOR

    def __post_init__(self) -> None:
        for name in ("argument", "response", "argument_floor", "response_floor"):
            value = getattr(self, name)
            if value is None and name.endswith("_floor"):
                continue
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= value <= 1.0:
                raise ConfigError(
                    f"threshold for {name.replace('_', ' ')} values must be a number in [0, 1], got {value!r}"
                )
        for kind in ("argument", "response"):
            floor = getattr(self, f"{kind}_floor")
            if floor is not None and floor > getattr(self, kind):
                raise ConfigError(f"{kind}_floor must not exceed {kind} ({getattr(self, kind)}), got {floor}")

    def for_kind(self, kind: ValueKind) -> float:
        return self.argument if kind is ValueKind.ARGUMENT else self.response

    def floor_for(self, kind: ValueKind) -> float:
        floor = self.argument_floor if kind is ValueKind.ARGUMENT else self.response_floor
        return self.for_kind(kind) if floor is None else floor


@dataclass(frozen=True)
class ComparisonRequest:
    """One gold/predicted value pair to compare, and which kind of value it is.

    ``reference_date`` ("today" in the dialog, e.g. from its metadata) lets relative dates parse;
    ``unordered`` compares lists in the values as multisets (when the tool schema says order does
    not matter); ``day_first`` says whether numeric dates put the day first (``ParseContext``).
    """

    gold: JsonValue
    predicted: JsonValue
    kind: ValueKind = ValueKind.ARGUMENT
    reference_date: date | None = None
    unordered: bool = False
    day_first: bool | None = None

    def key(self) -> str:
        extra = (self.reference_date.isoformat() if self.reference_date else None, self.unordered, self.day_first)
        return json_key((self.gold, self.predicted, self.kind.value, *extra))


class Comparator:
    """Decides value equivalence with the chain exact → normalised → semantic scorer (→ escalation).

    Results are memoised per comparator, so a value pair seen again (in another turn or dialog)
    costs nothing.
    """

    def __init__(
        self,
        scorer: SemanticScorer,
        thresholds: Thresholds | None = None,
        *,
        escalation: SemanticScorer | None = None,
    ) -> None:
        self.scorer = scorer
        self.thresholds = thresholds or Thresholds()
        self.escalation = escalation
        self._memo: dict[str, Comparison] = {}

    def compare(self, gold: JsonValue, predicted: JsonValue, kind: ValueKind = ValueKind.ARGUMENT) -> Comparison:
        return self.compare_many([ComparisonRequest(gold, predicted, kind)])[0]

    def compare_request(self, request: ComparisonRequest) -> Comparison:
        found = self._memo.get(request.key())  # the common case after a batch: already decided
        return found if found is not None else self.compare_many([request])[0]

    def compare_many(self, requests: Sequence[ComparisonRequest]) -> list[Comparison]:
        """Compare every request, asking the scorer once per value kind for all unsettled pairs."""
        keys = [r.key() for r in requests]  # serialised once: this is the hot path of every judged turn
        todo = {key: r for key, r in zip(keys, requests, strict=True) if key not in self._memo}
        planned = {
            key: plan_leaves(r.gold, r.predicted, "", r.kind, ParseContext(r.reference_date, r.day_first), r.unordered)
            for key, r in todo.items()
        }
        for kind in ValueKind:
            mine = {key: leaves for key, leaves in planned.items() if todo[key].kind is kind}
            pairs = list(dict.fromkeys(leaf.pending for leaves in mine.values() for leaf in leaves if leaf.pending))
            held = {leaf.pending: leaf.held for ls in mine.values() for leaf in ls if leaf.pending and leaf.held}
            # Replies: facts and dialog acts first; only what they leave open reaches the scorer.
            decided = settle_replies(pairs) if kind is ValueKind.RESPONSE else {}
            decided.update(self._decide_pairs([pair for pair in pairs if pair not in decided], kind, held))
            if kind is ValueKind.RESPONSE:
                decided = explain_passes(decided, self.scorer)
            for key, leaves in mine.items():
                self._memo[key] = _combine([_outcome(leaf, decided) for leaf in leaves], leaves)
        return [self._memo[key] for key in keys]

    def _decide_pairs(
        self, pairs: list[tuple[str, str]], kind: ValueKind, held: dict[tuple[str, str], str] | None = None
    ) -> dict[tuple[str, str], Comparison]:
        """Decide pairs by their scores; a ``held`` pair (``walk.Leaf.held``: similarity may not pass it)
        at or above the threshold goes to the escalation scorer, as the uncertain band does."""
        held = held or {}
        if not pairs:
            return {}
        scores = self.scorer.similarities(pairs, kind)
        threshold, floor = self.thresholds.for_kind(kind), self.thresholds.floor_for(kind)
        name, method = self.scorer.name, self.scorer.method
        out: dict[tuple[str, str], Comparison] = {}
        band: list[tuple[tuple[str, str], float]] = []
        for pair, score in zip(pairs, scores, strict=True):
            if score is None or not math.isfinite(score):
                reason = _failure_reason(self.scorer, pair)
                suffix = f": {reason}" if reason else ""
                out[pair] = Comparison(None, 0.0, method, f"{name} could not score the pair{suffix}")
            elif score >= threshold and pair not in held:
                out[pair] = Comparison(True, score, method, f"{name} {score:.3f} >= {threshold:.2f}")
            elif score < floor:
                out[pair] = Comparison(False, score, method, f"{name} {score:.3f} < {floor:.2f}")
            else:
                band.append((pair, score))
        out.update(self._decide_band(band, kind, floor, threshold, held))
        return out

    def _decide_band(
        self,
        band: list[tuple[tuple[str, str], float]],
        kind: ValueKind,
        floor: float,
        threshold: float,
        held: dict[tuple[str, str], str],
    ) -> dict[tuple[str, str], Comparison]:
        bounds = f"[{floor:.2f}, {threshold:.2f})"
        name, method = self.scorer.name, self.scorer.method
        if not band:
            return {}
        if self.escalation is None:
            why = f"(uncertain band {bounds}, no escalation scorer: not equivalent, conservative)"
            over = "(no escalation scorer: not equivalent, conservative)"
            return {
                p: Comparison(False, s, method, f"{name} {s:.3f} >= {threshold:.2f} but {held[p]} {over}")
                if p in held and s >= threshold
                else Comparison(False, s, method, f"{name} {s:.3f} < {threshold:.2f} {why}")
                for p, s in band
            }
        judged = self.escalation.similarities([pair for pair, _ in band], kind)
        out: dict[tuple[str, str], Comparison] = {}
        for (pair, score), verdict in zip(band, judged, strict=True):
            where = f"{name} {score:.3f} in uncertain band {bounds} → {self.escalation.name}"
            if pair in held and score >= threshold:
                where = f"{name} {score:.3f} >= {threshold:.2f} but {held[pair]} → {self.escalation.name}"
            if verdict is None or not math.isfinite(verdict):
                reason = _failure_reason(self.escalation, pair) or "no reason given"
                out[pair] = Comparison(None, score, self.escalation.method, f"{where} could not decide: {reason}")
            else:
                same = verdict >= ESCALATION_THRESHOLD
                text = "equivalent" if same else "not equivalent"
                out[pair] = Comparison(same, score, self.escalation.method, f"{where} {verdict:.2f}: {text}")
        return out


def _failure_reason(scorer: SemanticScorer, pair: tuple[str, str]) -> str | None:
    """The reason a scorer gives for not scoring ``pair`` (scorers may offer ``failure_reason``)."""
    explain = getattr(scorer, "failure_reason", None)
    reason = explain(pair) if callable(explain) else None
    return str(reason) if reason else None


def _outcome(leaf: Leaf, decided: dict[tuple[str, str], Comparison]) -> Comparison:
    if leaf.settled is not None:
        return leaf.settled
    assert leaf.pending is not None  # a leaf is either settled or pending, by construction
    return decided[leaf.pending]


def _combine(decided: list[Comparison], leaves: list[Leaf]) -> Comparison:
    """One comparison for a whole value: its first failing leaf decides, with every failing path."""
    decided = [_with_path(c, leaf.path) for c, leaf in zip(decided, leaves, strict=True)]
    if len(decided) == 1:
        return decided[0]
    failing = [c for c in decided if c.equivalent is False]
    undecided = [c for c in decided if c.equivalent is None]
    worst = min(decided, key=lambda c: c.score)
    if failing:
        return Comparison(False, worst.score, failing[0].method, "; ".join(c.detail for c in failing))
    if undecided:
        return Comparison(None, worst.score, undecided[0].method, "; ".join(c.detail for c in undecided))
    methods = {c.method for c in decided}
    method = Method.EXACT if methods == {Method.EXACT} else max(methods, key=_METHOD_RANK.index)
    return Comparison(True, worst.score, method, "; ".join(c.detail for c in decided if c.detail))


def _with_path(comparison: Comparison, path: str) -> Comparison:
    if comparison.method in (Method.EXACT, Method.NORMALISED) or not path or not comparison.detail:
        return comparison
    return Comparison(comparison.equivalent, comparison.score, comparison.method, f"{path}: {comparison.detail}")


_METHOD_RANK = [Method.EXACT, Method.NORMALISED, Method.TEST, Method.EMBEDDING, Method.JUDGE]
