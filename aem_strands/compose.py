"""Composition of per-turn verdicts into one dialog score (SPEC §6), chosen by name.

Turns that could not be judged (``not_applicable``) are left out of every denominator.

- ``mean`` (default): passed turns / judged turns. ``test_pass``: every judged turn passed.
- ``weighted``: sum of the weights of passed turns / sum of the weights of judged turns.
  ``test_pass`` as for ``mean``.
- ``gated``: the ``mean`` score, capped at ``cap`` (default 0.5) when a turn marked ``critical``
  failed. ``test_pass`` as for ``mean``.
- ``thresholds``: the ``mean`` score; ``test_pass`` when each sub-metric's pass rate reaches its
  threshold (default 1.0 for every sub-metric; a sub-metric with no applicable turn passes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from aem_strands.errors import ConfigError
from aem_strands.types import SubMetric, Turn, TurnVerdict, Verdict

ComposerName = Literal["mean", "weighted", "gated", "thresholds"]
COMPOSER_NAMES: tuple[str, ...] = ("mean", "weighted", "gated", "thresholds")


@dataclass(frozen=True)
class SubMetricRate:
    passed: int
    total: int

    @property
    def rate(self) -> float | None:
        return self.passed / self.total if self.total else None


@dataclass(frozen=True)
class Composition:
    """A composed score (``None`` when no turn could be judged) and whether the dialog passes."""

    score: float | None
    test_pass: bool
    explanation: str
    sub_metrics: dict[SubMetric, SubMetricRate] = field(default_factory=dict)


class Composer(Protocol):
    @property
    def name(self) -> str: ...

    def compose(self, turns: Sequence[Turn], verdicts: Sequence[TurnVerdict]) -> Composition: ...


_METRICS = tuple(SubMetric)
"""The sub-metrics in their order (iterating the enum class itself is a Python-level call per member)."""


def sub_metric_rates(verdicts: Sequence[TurnVerdict]) -> dict[SubMetric, SubMetricRate]:
    """Per sub-metric: of the judged turns it applies to, how many passed it."""
    passed = dict.fromkeys(_METRICS, 0)
    applicable = dict.fromkeys(_METRICS, 0)
    for verdict in verdicts:  # one pass over the turns, not one per sub-metric
        if verdict.verdict is not Verdict.NOT_APPLICABLE:
            for metric, ok in verdict.sub_passed.items():
                applicable[metric] += 1
                passed[metric] += ok
    return {metric: SubMetricRate(passed[metric], applicable[metric]) for metric in _METRICS}


def _judged(turns: Sequence[Turn], verdicts: Sequence[TurnVerdict]) -> list[tuple[Turn, TurnVerdict]]:
    return [(t, v) for t, v in zip(turns, verdicts, strict=True) if v.verdict is not Verdict.NOT_APPLICABLE]


NOTHING_TO_JUDGE = "nothing to judge: no required turn, nothing missing, nothing extra"


def undecided_note(turns: Sequence[Turn], verdicts: Sequence[TurnVerdict]) -> str:
    """Why a dialog is inconclusive ("" when every turn was judged)."""
    undecided = [t.turn_no for t, v in zip(turns, verdicts, strict=True) if v.verdict is Verdict.NOT_APPLICABLE]
    if not undecided:
        return ""
    listed = ", ".join(map(str, undecided))
    return f"inconclusive: {len(undecided)} turn{'s' if len(undecided) > 1 else ''} could not be judged ({listed})"


def _empty(turns: Sequence[Turn], verdicts: Sequence[TurnVerdict]) -> Composition | None:
    """The composition of a dialog with no turn at all (a pass) or none that could be judged (inconclusive)."""
    if not turns:
        return Composition(1.0, True, NOTHING_TO_JUDGE, sub_metric_rates(verdicts))
    if not _judged(turns, verdicts):
        return Composition(None, False, undecided_note(turns, verdicts), sub_metric_rates(verdicts))
    return None


def _mean(turns: Sequence[Turn], verdicts: Sequence[TurnVerdict]) -> tuple[float | None, bool, str]:
    """Score, pass and explanation of the plain mean. A turn that could not be judged never lets the dialog
    pass (fail closed): the dialog is inconclusive, and its score is that of the judged turns."""
    if not turns:
        return 1.0, True, NOTHING_TO_JUDGE
    outcomes = [v.verdict for v in verdicts]
    if len(outcomes) == len(turns) and Verdict.NOT_APPLICABLE not in outcomes:  # every turn judged (the usual)
        passed = outcomes.count(Verdict.PASS)
        return passed / len(outcomes), passed == len(outcomes), f"{passed}/{len(outcomes)} turns pass"
    judged = _judged(turns, verdicts)
    passed = sum(v.success for _, v in judged)
    note = undecided_note(turns, verdicts)
    if not judged:
        return None, False, note
    why = f"{passed}/{len(judged)} turns pass" + (f"; {note}" if note else "")
    return passed / len(judged), passed == len(judged) and not note, why


@dataclass(frozen=True)
class MeanComposer:
    name: str = "mean"

    def compose(self, turns: Sequence[Turn], verdicts: Sequence[TurnVerdict]) -> Composition:
        score, ok, why = _mean(turns, verdicts)
        return Composition(score, ok, why, sub_metric_rates(verdicts))


@dataclass(frozen=True)
class WeightedComposer:
    name: str = "weighted"

    def compose(self, turns: Sequence[Turn], verdicts: Sequence[TurnVerdict]) -> Composition:
        empty = _empty(turns, verdicts)
        if empty is not None:
            return empty
        judged = _judged(turns, verdicts)
        total = sum(t.weight for t, _ in judged)
        won = sum(t.weight for t, v in judged if v.success)
        note = undecided_note(turns, verdicts)
        ok = all(v.success for _, v in judged) and not note
        why = f"weight {won:g}/{total:g} passes" + (f"; {note}" if note else "")
        return Composition(won / total, ok, why, sub_metric_rates(verdicts))


@dataclass(frozen=True)
class GatedComposer:
    cap: float = 0.5
    name: str = "gated"

    def __post_init__(self) -> None:
        if not 0.0 <= self.cap <= 1.0:
            raise ConfigError(f"gated composer: cap must be in [0, 1], got {self.cap!r}")

    def compose(self, turns: Sequence[Turn], verdicts: Sequence[TurnVerdict]) -> Composition:
        score, ok, why = _mean(turns, verdicts)
        critical = [t.turn_no for t, v in zip(turns, verdicts, strict=True) if t.critical and v.failed]
        if score is not None and critical:
            capped = min(score, self.cap)
            why += f"; critical turn {critical[0]} failed: capped at {self.cap:g}"
            score = capped
        return Composition(score, ok, why, sub_metric_rates(verdicts))


@dataclass(frozen=True)
class ThresholdComposer:
    thresholds: Mapping[str, float] = field(default_factory=dict)
    name: str = "thresholds"

    def __post_init__(self) -> None:
        known = {m.value for m in SubMetric}
        for metric, value in self.thresholds.items():
            if metric not in known:
                raise ConfigError(
                    f"thresholds composer: unknown sub-metric {metric!r}; expected one of {sorted(known)}"
                )
            if not 0.0 <= value <= 1.0:
                raise ConfigError(f"thresholds composer: threshold for {metric} must be in [0, 1], got {value!r}")

    def compose(self, turns: Sequence[Turn], verdicts: Sequence[TurnVerdict]) -> Composition:
        score, _, why = _mean(turns, verdicts)
        rates = sub_metric_rates(verdicts)
        below = []
        for metric, rate in rates.items():
            needed = self.thresholds.get(metric.value, 1.0)
            if rate.rate is not None and rate.rate < needed:
                below.append(f"{metric.value} {rate.rate:.2f} < {needed:g}")
        ok = score is not None and not below and not undecided_note(turns, verdicts)
        return Composition(score, ok, why + ("; " + ", ".join(below) if below else ""), rates)


def make_composer(name: str, *, cap: float | None = None, thresholds: Mapping[str, float] | None = None) -> Composer:
    """A composer by name; ``cap`` applies to ``gated``, ``thresholds`` to ``thresholds``."""
    if name == "mean":
        return MeanComposer()
    if name == "weighted":
        return WeightedComposer()
    if name == "gated":
        return GatedComposer() if cap is None else GatedComposer(cap=cap)
    if name == "thresholds":
        return ThresholdComposer(dict(thresholds or {}))
    raise ConfigError(f"unknown composer {name!r}; expected one of {', '.join(COMPOSER_NAMES)}")
