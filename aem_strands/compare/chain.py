"""The value-comparison chain: exact match, then normalisation, then a semantic scorer.

``Comparator.compare_many`` takes every comparison a run needs at once, settles what it can
without a model, and sends the remaining distinct string pairs to the scorer in one batch per value
kind. Lists are compared position by position and dicts key by key; a nested difference reports
the path that failed (``args.filters[0].region``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from aem_strands.compare.normalise import Text, canonical, display
from aem_strands.compare.scorers import SemanticScorer
from aem_strands.errors import ConfigError
from aem_strands.types import Comparison, JsonValue, Method, ValueKind

DEFAULT_ARGUMENT_THRESHOLD = 0.80
"""Default similarity an argument value needs. Chosen on the packaged MiniLM model: it fails
``revenue``/``profit`` (0.733) and passes ``NYC``/``New York City`` (0.918), ``LA``/``Los Angeles``
(0.842), ``San Francisco``/``SF`` (0.811); reproduced by ``benchmarks/default_thresholds.py``."""

DEFAULT_RESPONSE_THRESHOLD = 0.75
"""Default similarity a reply needs. On STS-B dev (MSR rows removed, pairs with human score >= 4 as
equivalent) cosine 0.75 gives balanced accuracy 0.855, within 0.01 of the best threshold (0.74);
reproduced by ``benchmarks/default_thresholds.py``."""


@dataclass(frozen=True)
class Thresholds:
    """Similarity a semantic score must reach for equivalence, per value kind."""

    argument: float = DEFAULT_ARGUMENT_THRESHOLD
    response: float = DEFAULT_RESPONSE_THRESHOLD

    def __post_init__(self) -> None:
        for name in ("argument", "response"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= value <= 1.0:
                raise ConfigError(f"threshold for {name} values must be a number in [0, 1], got {value!r}")

    def for_kind(self, kind: ValueKind) -> float:
        return self.argument if kind is ValueKind.ARGUMENT else self.response


@dataclass(frozen=True)
class ComparisonRequest:
    """One gold/predicted value pair to compare, and which kind of value it is."""

    gold: JsonValue
    predicted: JsonValue
    kind: ValueKind = ValueKind.ARGUMENT

    def key(self) -> str:
        return _json_key((self.gold, self.predicted, self.kind.value))


def _json_key(value: JsonValue) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _at(path: str, text: str) -> str:
    return f"{path}: {text}" if path else text


def _numbers_disagree(gold: Text, predicted: Text) -> bool:
    g, p = sorted(_DIGITS.findall(gold.value)), sorted(_DIGITS.findall(predicted.value))
    return bool(g) and bool(p) and g != p


_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class _Leaf:
    path: str
    settled: Comparison | None
    pending: tuple[str, str] | None = None


def _leaves(gold: JsonValue, predicted: JsonValue, path: str, kind: ValueKind) -> list[_Leaf]:
    if type(gold) is type(predicted) and _json_key(gold) == _json_key(predicted):
        return [_Leaf(path, Comparison(True, 1.0, Method.EXACT))]
    if isinstance(gold, dict) and isinstance(predicted, dict):
        out: list[_Leaf] = []
        for key in gold:
            sub = f"{path}.{key}" if path else str(key)
            if key not in predicted:
                out.append(_Leaf(sub, Comparison(False, 0.0, Method.NORMALISED, f"{sub}: key missing")))
            else:
                out.extend(_leaves(gold[key], predicted[key], sub, kind))
        for key in predicted:
            if key not in gold:
                sub = f"{path}.{key}" if path else str(key)
                out.append(_Leaf(sub, Comparison(False, 0.0, Method.NORMALISED, f"{sub}: unexpected key")))
        return out
    if isinstance(gold, list) and isinstance(predicted, list):
        if len(gold) != len(predicted):
            detail = _at(path, f"{len(predicted)} items where gold has {len(gold)}")
            return [_Leaf(path, Comparison(False, 0.0, Method.NORMALISED, detail))]
        out = []
        for index, (g, p) in enumerate(zip(gold, predicted, strict=True)):
            out.extend(_leaves(g, p, f"{path}[{index}]", kind))
        return out
    if isinstance(gold, (dict, list)) or isinstance(predicted, (dict, list)):
        detail = _at(path, f"{type(predicted).__name__} where gold has {type(gold).__name__}")
        return [_Leaf(path, Comparison(False, 0.0, Method.NORMALISED, detail))]
    g, p = canonical(gold), canonical(predicted)
    if g == p:
        return [_Leaf(path, Comparison(True, 1.0, Method.NORMALISED))]
    if kind is ValueKind.ARGUMENT and isinstance(g, Text) and isinstance(p, Text) and _numbers_disagree(g, p):
        # Identifiers and quantities inside an argument ("ds-7731", "room 101") must agree digit for digit.
        detail = _at(path, f"numbers in {display(predicted)!r} differ from {display(gold)!r}")
        return [_Leaf(path, Comparison(False, 0.0, Method.NORMALISED, detail))]
    if isinstance(g, Text) or isinstance(p, Text):
        return [_Leaf(path, None, (display(gold), display(predicted)))]
    return [
        _Leaf(
            path,
            Comparison(
                False, 0.0, Method.NORMALISED, _at(path, f"{display(predicted)!r} differs from {display(gold)!r}")
            ),
        )
    ]


class Comparator:
    """Decides value equivalence with the chain exact → normalised → semantic scorer.

    Results are memoised per comparator, so a value pair seen again (in another turn or dialog)
    costs nothing.
    """

    def __init__(self, scorer: SemanticScorer, thresholds: Thresholds | None = None) -> None:
        self.scorer = scorer
        self.thresholds = thresholds or Thresholds()
        self._memo: dict[str, Comparison] = {}

    def compare(self, gold: JsonValue, predicted: JsonValue, kind: ValueKind = ValueKind.ARGUMENT) -> Comparison:
        return self.compare_many([ComparisonRequest(gold, predicted, kind)])[0]

    def compare_request(self, request: ComparisonRequest) -> Comparison:
        return self.compare_many([request])[0]

    def compare_many(self, requests: Sequence[ComparisonRequest]) -> list[Comparison]:
        """Compare every request, asking the scorer once per value kind for all unsettled pairs."""
        todo = {r.key(): r for r in requests if r.key() not in self._memo}
        planned = {key: _leaves(r.gold, r.predicted, "", r.kind) for key, r in todo.items()}
        for kind in ValueKind:
            pairs = list(
                dict.fromkeys(
                    leaf.pending
                    for key, leaves in planned.items()
                    if todo[key].kind is kind
                    for leaf in leaves
                    if leaf.pending is not None
                )
            )
            scores = dict(zip(pairs, self.scorer.similarities(pairs, kind), strict=True)) if pairs else {}
            for key, leaves in planned.items():
                if todo[key].kind is kind:
                    self._memo[key] = self._combine(leaves, scores, kind)
        return [self._memo[r.key()] for r in requests]

    def _decide(self, leaf: _Leaf, scores: dict[tuple[str, str], float | None], kind: ValueKind) -> Comparison:
        if leaf.settled is not None:
            return leaf.settled
        assert leaf.pending is not None  # a leaf is either settled or pending, by construction
        score = scores.get(leaf.pending)
        if score is None or not math.isfinite(score):
            return Comparison(
                None, 0.0, self.scorer.method, _at(leaf.path, f"{self.scorer.name} could not score the pair")
            )
        threshold = self.thresholds.for_kind(kind)
        relation = ">=" if score >= threshold else "<"
        detail = _at(leaf.path, f"{self.scorer.name} {score:.3f} {relation} {threshold:.2f}")
        return Comparison(score >= threshold, score, self.scorer.method, detail)

    def _combine(self, leaves: list[_Leaf], scores: dict[tuple[str, str], float | None], kind: ValueKind) -> Comparison:
        decided = [self._decide(leaf, scores, kind) for leaf in leaves]
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


_METHOD_RANK = [Method.EXACT, Method.NORMALISED, Method.TEST, Method.EMBEDDING, Method.JUDGE]
