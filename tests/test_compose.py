"""Composers, each checked against a hand calculation."""

from __future__ import annotations

import pytest

from aem_strands import ConfigError, evaluate_dialog, make_composer
from tests.conftest import action, paired

# Four turns: 1 passes (weight 1), 2 fails (weight 3, critical), 3 passes (weight 2), 4 fails (weight 1).
# Turns 2 and 4 are separate root causes (replies between them break the action chain).
DIALOG = [
    paired(1, action("t", "A", x=1), action("t", "A", x=1), weight=1),
    paired(2, action("t", "B", y="a"), action("t", "B", y="b"), weight=3, critical=True),
    paired(3, {"response": "ok"}, {"response": "ok"}, weight=2),
    paired(4, action("t", "C"), action("t", "C", extra=1), weight=1),
]


def test_mean_is_fraction_of_passing_turns() -> None:
    result = evaluate_dialog(DIALOG, scorer="exact", composer="mean")
    assert result.score == pytest.approx(2 / 4)  # turns 1 and 3 pass
    assert result.test_pass is False


def test_weighted_mean() -> None:
    result = evaluate_dialog(DIALOG, scorer="exact", composer="weighted")
    assert result.score == pytest.approx((1 + 2) / (1 + 3 + 2 + 1))  # 3/7


def test_gated_caps_when_a_critical_turn_fails() -> None:
    assert evaluate_dialog(DIALOG, scorer="exact", composer="gated").score == pytest.approx(0.5)  # min(2/4, 0.5)
    capped = evaluate_dialog(DIALOG, scorer="exact", composer=make_composer("gated", cap=0.1))
    assert capped.score == pytest.approx(0.1)  # min(2/4, 0.1)
    without_critical = [dict(t, critical=False) for t in DIALOG]
    free = evaluate_dialog(without_critical, scorer="exact", composer=make_composer("gated", cap=0.1))
    assert free.score == pytest.approx(0.5)


def test_thresholds_composer_decides_pass_by_sub_metric_rates() -> None:
    # structure: 3/3 action turns; completeness: turns 1, 2, 3 pass it, turn 4 (extra key) does not = 3/4;
    # truthfulness: turn 2 fails it = 3/4.
    lenient = make_composer("thresholds", thresholds={"completeness": 0.75, "truthfulness": 0.75})
    strict = make_composer("thresholds", thresholds={"completeness": 0.75, "truthfulness": 0.8})
    result = evaluate_dialog(DIALOG, scorer="exact", composer=lenient)
    assert result.score == pytest.approx(0.5)
    assert result.test_pass is True
    rates = result.to_dict()["sub_metrics"]
    assert rates["completeness"] == {"passed": 3, "total": 4, "rate": 0.75}
    assert rates["truthfulness"] == {"passed": 3, "total": 4, "rate": 0.75}
    assert rates["structure"] == {"passed": 3, "total": 3, "rate": 1.0}
    assert evaluate_dialog(DIALOG, scorer="exact", composer=strict).test_pass is False


def test_bad_composer_parameters_are_named() -> None:
    with pytest.raises(ConfigError, match="unknown composer 'median'"):
        make_composer("median")
    with pytest.raises(ConfigError, match=r"cap must be in \[0, 1\], got 2"):
        make_composer("gated", cap=2)
    with pytest.raises(ConfigError, match="unknown sub-metric 'speed'"):
        make_composer("thresholds", thresholds={"speed": 0.5})
