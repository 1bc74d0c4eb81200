"""Every statistic of the report against a direct scipy / scikit-learn call on known data."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import cohen_kappa_score, confusion_matrix
from statsmodels.stats.inter_rater import cohens_kappa

from aem_strands.report.stats import (
    RESAMPLES,
    correlation,
    difference_interval,
    is_regression,
    kappa,
    mean_interval,
    mix_change,
    proportion_interval,
)

PASSES = [1.0] * 14 + [0.0] * 6  # 14 of 20 pass
X = np.arange(12.0)
Y = np.array([0.1, 0.0, 0.3, 0.2, 0.5, 0.4, 0.6, 0.9, 0.7, 0.8, 1.0, 0.95])


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


def test_mean_interval_is_scipys_percentile_bootstrap() -> None:
    found = mean_interval(PASSES)
    direct = stats.bootstrap((np.array(PASSES),), np.mean, n_resamples=RESAMPLES, method="percentile", rng=rng())
    assert found is not None
    assert found.estimate == pytest.approx(0.7)  # 14 / 20
    assert (found.low, found.high) == pytest.approx((direct.confidence_interval.low, direct.confidence_interval.high))
    assert found.low < 0.7 < found.high


def test_mean_interval_of_a_constant_sample_has_zero_width_and_of_nothing_is_none() -> None:
    assert mean_interval([1.0, 1.0, 1.0]) is not None
    assert mean_interval([1.0, 1.0, 1.0]).to_dict() == {"estimate": 1.0, "low": 1.0, "high": 1.0, "n": 3}  # type: ignore[union-attr]
    assert mean_interval([]) is None


def test_difference_interval_is_scipys_two_sample_bootstrap_and_calls_a_clear_drop() -> None:
    earlier, later = [1.0] * 45 + [0.0] * 5, [1.0] * 25 + [0.0] * 25  # 90% then 50%
    found = difference_interval(earlier, later)
    direct = stats.bootstrap(
        (np.array(earlier), np.array(later)),
        lambda a, b, axis: np.mean(b, axis=axis) - np.mean(a, axis=axis),
        n_resamples=RESAMPLES,
        method="percentile",
        rng=rng(),
    )
    assert found is not None
    assert found.estimate == pytest.approx(-0.4)  # 0.5 - 0.9
    assert (found.low, found.high) == pytest.approx((direct.confidence_interval.low, direct.confidence_interval.high))
    assert is_regression(found)


def test_no_regression_when_the_interval_straddles_zero() -> None:
    found = difference_interval([1.0] * 45 + [0.0] * 5, [1.0] * 44 + [0.0] * 6)  # 90% then 88%
    assert found is not None
    assert found.low is not None
    assert found.high is not None
    assert found.low < 0 < found.high
    assert not is_regression(found)
    assert not is_regression(None)


def test_proportion_interval_is_the_wilson_interval() -> None:
    found = proportion_interval(3, 10)
    direct = stats.binomtest(3, 10).proportion_ci(confidence_level=0.95, method="wilson")
    assert found is not None
    assert found.estimate == 0.3
    assert (found.low, found.high) == pytest.approx((direct.low, direct.high))
    assert proportion_interval(0, 0) is None


def test_mix_change_is_the_chi_square_test_of_homogeneity() -> None:
    earlier, later = {"tool_mismatch": 2, "missing_parameters": 10}, {"tool_mismatch": 12, "missing_parameters": 3}
    found = mix_change(earlier, later)
    direct = stats.chi2_contingency(np.array([[10, 2], [3, 12]]))  # columns sorted: missing_parameters, tool_mismatch
    assert found is not None
    assert (found.statistic, found.p_value, found.dof) == pytest.approx((direct.statistic, direct.pvalue, 1))
    assert found.p_value < 0.05
    assert mix_change({"a": 3}, {"a": 5}) is None  # one category: nothing to compare


def test_correlation_is_pearson_with_fisher_interval_and_spearman_with_paired_bootstrap() -> None:
    found = correlation(X, Y, n_resamples=500)
    pearson = stats.pearsonr(X, Y)
    ci = pearson.confidence_interval(0.95)
    spearman = stats.bootstrap(
        (X, Y),
        lambda a, b: stats.spearmanr(a, b).statistic,  # one resample at a time: slow, but plainly Spearman
        n_resamples=500,
        method="percentile",
        paired=True,
        vectorized=False,
        rng=rng(),
    )
    assert found is not None
    assert found.pearson is not None
    assert found.spearman is not None
    assert found.pearson.estimate == pytest.approx(pearson.statistic)
    assert (found.pearson.low, found.pearson.high) == pytest.approx((ci.low, ci.high))
    assert found.spearman.estimate == pytest.approx(stats.spearmanr(X, Y).statistic)
    assert (found.spearman.low, found.spearman.high) == pytest.approx(
        (spearman.confidence_interval.low, spearman.confidence_interval.high)
    )


def test_correlation_of_a_constant_or_tiny_sample_is_none() -> None:
    assert correlation([1.0, 2.0, 3.0, 4.0], [0.5, 0.5, 0.5, 0.5]) is None
    assert correlation([1.0, 2.0], [0.0, 1.0]) is None


def test_kappa_is_sklearns_with_the_statsmodels_asymptotic_interval() -> None:
    human = [True] * 20 + [False] * 20
    metric = [True] * 17 + [False] * 3 + [False] * 16 + [True] * 4
    found = kappa(human, metric)
    direct = cohens_kappa(confusion_matrix(human, metric, labels=[False, True]))
    assert found is not None
    # agreement po = 33/40; chance pe = 0.5*0.525 + 0.5*0.475 = 0.5; kappa = (0.825-0.5)/0.5 = 0.65
    assert found.estimate == pytest.approx(0.65)
    assert found.estimate == pytest.approx(cohen_kappa_score(human, metric))
    assert (found.low, found.high) == pytest.approx((direct.kappa_low, direct.kappa_upp))
    assert found.low < 0.65 < found.high


def test_kappa_of_one_shared_verdict_is_undefined() -> None:
    assert kappa([True, True, True], [True, True, True]) is None
