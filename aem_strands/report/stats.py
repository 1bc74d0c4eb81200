"""The report's statistics, each one call into scipy.stats or scikit-learn (no hand-written formulas).

- means and rates: percentile bootstrap 95% interval (``scipy.stats.bootstrap``, seeded);
- a regression between two versions: the percentile bootstrap 95% interval of the difference of
  means (later minus earlier, the two samples resampled independently) lies entirely below 0;
- a proportion of turns: Wilson score interval (``scipy.stats.binomtest(...).proportion_ci``);
- a change in the failure-reason mix: chi-square test of homogeneity (``scipy.stats.chi2_contingency``);
- correlation: Pearson r with its Fisher-z interval (``scipy.stats.pearsonr``), Spearman rho (``scipy.stats.spearmanr``)
  with a paired percentile bootstrap interval of the rank correlation;
- agreement on pass/fail: Cohen's kappa (``sklearn.metrics.cohen_kappa_score``) with its
  asymptotic interval (``statsmodels.stats.inter_rater.cohens_kappa``).

A statistic that is undefined on the data (too few values, a constant sample) is ``None`` with no
warning, never a made-up number.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats
from sklearn.metrics import cohen_kappa_score, confusion_matrix
from statsmodels.stats.inter_rater import cohens_kappa

CONFIDENCE = 0.95
RESAMPLES = 2000
"""Bootstrap resamples: enough for two-decimal 95% limits, and quick for 10,000 dialogs."""
SEED = 0
BATCH_VALUES = 5_000_000
"""Most resampled values a bootstrap holds at once (40 MB of floats): beyond that the resamples are drawn in
batches (``scipy.stats.bootstrap(batch=...)``), so memory stays flat however many dialogs there are."""


def _batch(size: int, n_resamples: int) -> int | None:
    """Resamples per batch for a sample of ``size`` values (``None``: all at once, as for any smaller sample)."""
    return None if size * n_resamples <= BATCH_VALUES else max(1, BATCH_VALUES // size)


@dataclass(frozen=True)
class Interval:
    """An estimate and its 95% interval (``low``/``high`` are ``None`` when it cannot be computed)."""

    estimate: float
    low: float | None
    high: float | None
    n: int

    def to_dict(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(float(x), 4)

        return {"estimate": r(self.estimate), "low": r(self.low), "high": r(self.high), "n": self.n}


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def mean_interval(values: Sequence[float], *, seed: int = SEED, n_resamples: int = RESAMPLES) -> Interval | None:
    """Mean with a percentile bootstrap interval; a constant sample has a zero-width interval."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return None
    mean = float(np.mean(data))
    if data.size < 2 or np.all(data == data[0]):
        return Interval(mean, mean if data.size > 1 else None, mean if data.size > 1 else None, int(data.size))
    result = stats.bootstrap(
        (data,), np.mean, n_resamples=n_resamples, method="percentile", confidence_level=CONFIDENCE, rng=_rng(seed),
        batch=_batch(data.size, n_resamples),
    )  # fmt: skip
    ci = result.confidence_interval
    return Interval(mean, float(ci.low), float(ci.high), int(data.size))


def _difference(earlier: Any, later: Any, axis: int = -1) -> Any:
    return np.mean(later, axis=axis) - np.mean(earlier, axis=axis)


def difference_interval(
    earlier: Sequence[float], later: Sequence[float], *, seed: int = SEED, n_resamples: int = RESAMPLES
) -> Interval | None:
    """``mean(later) - mean(earlier)`` with a percentile bootstrap interval (independent samples)."""
    a, b = np.asarray(earlier, dtype=float), np.asarray(later, dtype=float)
    if a.size < 2 or b.size < 2:
        return None
    estimate = float(_difference(a, b))
    if np.all(a == a[0]) and np.all(b == b[0]):
        return Interval(estimate, estimate, estimate, int(a.size + b.size))
    result = stats.bootstrap(
        (a, b), _difference, n_resamples=n_resamples, method="percentile", confidence_level=CONFIDENCE,
        vectorized=True, rng=_rng(seed), batch=_batch(a.size + b.size, n_resamples),
    )  # fmt: skip
    ci = result.confidence_interval
    return Interval(estimate, float(ci.low), float(ci.high), int(a.size + b.size))


def is_regression(difference: Interval | None) -> bool:
    """Called when the whole 95% interval of (later - earlier) is below zero."""
    return difference is not None and difference.high is not None and difference.high < 0


def change_vs_previous(
    previous: str,
    passes: tuple[Sequence[float], Sequence[float]],
    scores: tuple[Sequence[float], Sequence[float]],
) -> dict[str, Any]:
    """How a group's pass rate and mean score moved from the group before it (``(earlier, later)`` samples each), and
    whether either fell: the ``vs_previous`` entry of a by-group summary, for dialogs and traces alike."""
    pass_diff = difference_interval(*passes)
    score_diff = difference_interval(*scores)
    return {
        "previous": previous,
        "pass_rate_change": None if pass_diff is None else pass_diff.to_dict(),
        "score_change": None if score_diff is None else score_diff.to_dict(),
        "regression": is_regression(pass_diff) or is_regression(score_diff),
    }


def proportion_interval(passed: int, total: int) -> Interval | None:
    """``passed / total`` with a Wilson score 95% interval."""
    if total <= 0:
        return None
    ci = stats.binomtest(passed, total).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return Interval(passed / total, float(ci.low), float(ci.high), total)


@dataclass(frozen=True)
class MixChange:
    """Chi-square test of homogeneity of two count distributions over the same categories."""

    statistic: float
    p_value: float
    dof: int

    def to_dict(self) -> dict[str, Any]:
        return {"test": "chi2_contingency", "chi2": round(self.statistic, 4), "p_value": self.p_value, "dof": self.dof}


def mix_change(earlier: Mapping[str, int], later: Mapping[str, int]) -> MixChange | None:
    """Whether the share of each category changed; ``None`` with fewer than two used categories."""
    categories = sorted(k for k in set(earlier) | set(later) if earlier.get(k, 0) + later.get(k, 0) > 0)
    if len(categories) < 2 or sum(earlier.values()) == 0 or sum(later.values()) == 0:
        return None
    table = np.array([[earlier.get(k, 0) for k in categories], [later.get(k, 0) for k in categories]])
    result = stats.chi2_contingency(table)
    return MixChange(float(result.statistic), float(result.pvalue), int(result.dof))


@dataclass(frozen=True)
class Correlation:
    """Pearson and Spearman correlation of two paired samples, with 95% intervals."""

    pearson: Interval | None
    spearman: Interval | None
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "pearson": None if self.pearson is None else self.pearson.to_dict(),
            "spearman": None if self.spearman is None else self.spearman.to_dict(),
            "n": self.n,
        }


def _spearman(x: Any, y: Any, axis: int = -1) -> Any:
    """Spearman's rho along ``axis``: Pearson's r of the ranks (vectorised over bootstrap resamples)."""
    return stats.pearsonr(stats.rankdata(x, axis=axis), stats.rankdata(y, axis=axis), axis=axis).statistic


def _varies(*samples: Any) -> bool:
    return all(np.unique(s).size > 1 for s in samples)


def correlation(
    x: Sequence[float], y: Sequence[float], *, seed: int = SEED, n_resamples: int = RESAMPLES
) -> Correlation | None:
    """Pearson (Fisher-z interval, needs 4 pairs) and Spearman (paired bootstrap interval)."""
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.size < 3 or not _varies(a, b):
        return None
    pearson_result = stats.pearsonr(a, b)
    ci = pearson_result.confidence_interval(CONFIDENCE) if a.size > 3 else None
    pearson = Interval(
        float(pearson_result.statistic), None if ci is None else float(ci.low), None if ci is None else float(ci.high),
        int(a.size),
    )  # fmt: skip
    rho = float(stats.spearmanr(a, b).statistic)
    boot = _paired_bootstrap(a, b, seed=seed, n_resamples=n_resamples)
    spearman = Interval(rho, *boot, int(a.size))
    return Correlation(pearson, spearman, int(a.size))


def _paired_bootstrap(a: Any, b: Any, *, seed: int, n_resamples: int) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of Spearman's rho (``None`` limits where a resample is constant)."""
    with warnings.catch_warnings():
        # A constant resample has no rank correlation: the interval is NaN, reported as None below.
        warnings.simplefilter("ignore", stats.ConstantInputWarning)
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)
        result = stats.bootstrap(
            (a, b), _spearman, n_resamples=n_resamples, method="percentile", confidence_level=CONFIDENCE,
            paired=True, vectorized=True, rng=_rng(seed), batch=_batch(2 * a.size, n_resamples),
        )  # fmt: skip
    low, high = float(result.confidence_interval.low), float(result.confidence_interval.high)
    return (None, None) if np.isnan(low) or np.isnan(high) else (low, high)


def kappa(first: Sequence[bool], second: Sequence[bool]) -> Interval | None:
    """Cohen's kappa of two pass/fail raters (scikit-learn) with its asymptotic 95% interval (statsmodels)."""
    a, b = np.asarray(first, dtype=int), np.asarray(second, dtype=int)
    if a.size < 2 or np.unique(np.concatenate([a, b])).size < 2:
        return None  # both raters give one and the same verdict: kappa is undefined
    estimate = float(cohen_kappa_score(a, b, labels=[0, 1]))
    if not np.isfinite(estimate):
        return None
    table = confusion_matrix(a, b, labels=[0, 1])
    with warnings.catch_warnings():
        # One rater constant (every label "fail"): the asymptotic variance divides by zero; no interval then.
        warnings.simplefilter("ignore", RuntimeWarning)
        found = cohens_kappa(table)  # its limits are the 95% two-sided interval (alpha 0.025 a side)
    low, high = float(found.kappa_low), float(found.kappa_upp)
    if not (np.isfinite(low) and np.isfinite(high)):
        return Interval(estimate, None, None, int(a.size))
    return Interval(estimate, low, high, int(a.size))


def regressions(groups: Sequence[Mapping[str, Any]]) -> list[str]:
    """``"<value> vs <previous>"`` for each group whose change against the group before it is a regression."""
    return [
        f"{g['value']} vs {g['vs_previous']['previous']}" for g in groups if g.get("vs_previous", {}).get("regression")
    ]
