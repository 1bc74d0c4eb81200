"""The dataset view of a run: rates with intervals, by metadata field, regressions, failure reasons,
chain-length buckets, latency and agreement with human labels. Pure: records in, a JSON-able dict out.

The tests are stated in ``aem_strands.report.stats``; ``summarise(...)["tests"]`` repeats them for the
reader of the JSON and HTML output.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from aem_strands.report.load import Label
from aem_strands.report.stats import (
    correlation,
    difference_interval,
    is_regression,
    kappa,
    mean_interval,
    mix_change,
    proportion_interval,
)
from aem_strands.report.words import Record, headline

SUB_METRICS = ("structure", "completeness", "truthfulness")
BUCKETS = ("single", "two_step", "three_plus")
TESTS = {
    "interval": "percentile bootstrap 95% interval (scipy.stats.bootstrap, 2,000 resamples, seed 0)",
    "regression": (
        "a version regresses when the 95% bootstrap interval of (its mean - the previous version's mean), "
        "of the pass rate or of the score, lies entirely below 0"
    ),
    "turn_rates": "Wilson score 95% interval (scipy.stats.binomtest)",
    "reason_mix": "chi-square test of homogeneity of root-cause reason counts (scipy.stats.chi2_contingency)",
    "correlation": "Pearson r with Fisher-z 95% interval (scipy.stats.pearsonr); Spearman rho with bootstrap interval",
    "agreement": "Cohen's kappa (sklearn.metrics.cohen_kappa_score), asymptotic 95% interval (statsmodels)",
}
NONE_VALUE = "(none)"


def field_value(record: Record, field: str) -> str:
    """The record's ``metadata[field]`` (or top-level ``field``) as text; ``(none)`` when absent."""
    metadata = record.get("metadata") or {}
    value = metadata.get(field, record.get(field))
    return NONE_VALUE if value is None else str(value)


def natural_key(text: str) -> tuple[Any, ...]:
    """Order ``v2`` before ``v10`` and ``1.9`` before ``1.10``; ``(none)`` last."""
    parts = re.split(r"(\d+)", text)
    return (text == NONE_VALUE, tuple((0, int(p)) if p.isdigit() else (1, p) for p in parts))


def _passes(records: Sequence[Record]) -> list[float]:
    return [float(bool(r.get("test_pass"))) for r in records]


def _scores(records: Sequence[Record]) -> list[float]:
    return [float(r["score"]) for r in records if isinstance(r.get("score"), (int, float))]


def _dict(value: Any) -> Any:
    return None if value is None else value.to_dict()


def _root_reasons(records: Iterable[Record]) -> Counter[str]:
    return Counter(
        str(t.get("own_reason")) for r in records for t in r.get("turns") or () if t.get("role") == "root_cause"
    )


def reasons(records: Sequence[Record]) -> dict[str, dict[str, int]]:
    """Per own failure reason of a failed turn: how many were root causes and how many cascades."""
    out: dict[str, dict[str, int]] = {}
    for record in records:
        for t in record.get("turns") or ():
            role = t.get("role")
            if role in ("root_cause", "cascade"):
                entry = out.setdefault(str(t.get("own_reason")), {"root_cause": 0, "cascade": 0})
                entry[role] += 1
    return dict(sorted(out.items(), key=lambda kv: (-kv[1]["root_cause"] - kv[1]["cascade"], kv[0])))


def overall(records: Sequence[Record]) -> dict[str, Any]:
    return {
        "dialogs": len(records),
        "failing": sum(1 for r in records if not r.get("test_pass")),
        "unscored": sum(1 for r in records if not isinstance(r.get("score"), (int, float))),
        "root_causes": sum(int(r.get("root_cause_count") or 0) for r in records),
        "cascades": sum(int(r.get("cascading_count") or 0) for r in records),
        "pass_rate": _dict(mean_interval(_passes(records))),
        "mean_score": _dict(mean_interval(_scores(records))),
    }


def groups(records: Sequence[Record], field: str) -> list[dict[str, Any]]:
    """Per value of ``field`` (natural order): rates, root-cause reasons and the comparison with the previous value."""
    by_value: dict[str, list[Record]] = {}
    for record in records:
        by_value.setdefault(field_value(record, field), []).append(record)
    out: list[dict[str, Any]] = []
    previous: list[Record] | None = None
    for value in sorted(by_value, key=natural_key):
        members = by_value[value]
        entry = {"value": value, **overall(members), "reasons": dict(_root_reasons(members))}
        if previous is not None:
            pass_diff = difference_interval(_passes(previous), _passes(members))
            score_diff = difference_interval(_scores(previous), _scores(members))
            change = mix_change(_root_reasons(previous), _root_reasons(members))
            entry["vs_previous"] = {
                "previous": out[-1]["value"],
                "pass_rate_change": _dict(pass_diff),
                "score_change": _dict(score_diff),
                "regression": is_regression(pass_diff) or is_regression(score_diff),
                "reason_mix_change": _dict(change),
            }
        out.append(entry)
        previous = members
    return out


def chains(records: Sequence[Record]) -> dict[str, Any]:
    """Turn pass rate per action-chain length bucket, with Wilson intervals."""
    out: dict[str, Any] = {}
    for bucket in BUCKETS:
        turns = sum(int(((r.get("chains") or {}).get(bucket) or {}).get("turns") or 0) for r in records)
        passed = sum(int(((r.get("chains") or {}).get(bucket) or {}).get("passed") or 0) for r in records)
        out[bucket] = {"turns": turns, "passed": passed, "pass_rate": _dict(proportion_interval(passed, turns))}
    return out


def cumulative_latency(record: Record) -> float | None:
    """Sum of the turns' ``latency_ms`` (``None`` when no turn has one)."""
    values = [t["latency_ms"] for t in record.get("turns") or () if isinstance(t.get("latency_ms"), (int, float))]
    return float(sum(values)) if values else None


def latency(records: Sequence[Record]) -> dict[str, Any] | None:
    """Correlation of each dialog's score with its cumulative latency, and the points to plot."""
    points = [
        (ms, float(r["score"]), str(r.get("dialog_id")))
        for r in records
        if (ms := cumulative_latency(r)) is not None and isinstance(r.get("score"), (int, float))
    ]
    if not points:
        return None
    found = correlation([p[0] for p in points], [p[1] for p in points])
    return {"n": len(points), "correlation": _dict(found), "points": points}


def _metric_values(item: Record, is_turn: bool) -> dict[str, float]:
    if is_turn:
        return {k: float(v) for k, v in (item.get("sub_scores") or {}).items() if isinstance(v, (int, float))}
    out = {"score": float(item["score"])} if isinstance(item.get("score"), (int, float)) else {}
    for name, rate in (item.get("sub_metrics") or {}).items():
        if isinstance(rate, dict) and isinstance(rate.get("rate"), (int, float)):
            out[name] = float(rate["rate"])
    return out


def _passed(item: Record, is_turn: bool) -> bool | None:
    if is_turn:
        verdict = item.get("verdict")
        return None if verdict == "not_applicable" else verdict == "pass"
    return bool(item.get("test_pass"))


def agreement(records: Sequence[Record], labels: Sequence[Label]) -> dict[str, Any]:
    """Agreement of the metric with human labels, separately for dialog and turn labels.

    Pass/fail: Cohen's kappa of the label (a number counts as pass from 0.5) with the verdict.
    Per sub-metric (and the dialog score): Pearson and Spearman of the label with the value.
    """
    by_id = {str(r.get("dialog_id")): r for r in records}
    out: dict[str, Any] = {"unmatched": 0}
    for level, is_turn in (("dialog", False), ("turn", True)):
        human: list[float] = []
        metric: list[bool] = []
        values: dict[str, list[tuple[float, float]]] = {}
        disagreements: list[dict[str, Any]] = []
        for label in labels:
            if (label.turn_no is not None) != is_turn:
                continue
            record = by_id.get(label.dialog_id)
            item: Record | None = record
            if record is not None and is_turn:
                item = next((t for t in record.get("turns") or () if t.get("turn_no") == label.turn_no), None)
            passed = None if item is None else _passed(item, is_turn)
            if item is None or passed is None:
                out["unmatched"] += 1
                continue
            human.append(label.value)
            metric.append(passed)
            for name, value in _metric_values(item, is_turn).items():
                values.setdefault(name, []).append((label.value, value))
            if (label.value >= 0.5) != passed:
                disagreements.append(
                    {
                        "dialog_id": label.dialog_id,
                        "turn_no": label.turn_no,
                        "label": label.value,
                        "metric_pass": passed,
                    }
                )
        if not human:
            continue
        found = {name: correlation([p[0] for p in pairs], [p[1] for p in pairs]) for name, pairs in values.items()}
        out[level] = {
            "n": len(human),
            "kappa": _dict(kappa([h >= 0.5 for h in human], metric)),
            "correlations": {name: _dict(c) for name, c in sorted(found.items())},
            "disagreements": disagreements,
        }
    return out


def summarise(
    records: Sequence[Record], *, by: str | None = None, labels: Sequence[Label] | None = None
) -> dict[str, Any]:
    """Everything the report shows about the dataset (not the per-dialog details)."""
    out: dict[str, Any] = {
        "headline": headline(records),
        "overall": overall(records),
        "reasons": reasons(records),
        "chains": chains(records),
        "latency": latency(records),
        "tests": TESTS,
    }
    if by:
        out["by"] = by
        out["groups"] = groups(records, by)
        out["regressions"] = [
            f"{g['value']} vs {g['vs_previous']['previous']}"
            for g in out["groups"]
            if g.get("vs_previous", {}).get("regression")
        ]
    if labels is not None:
        out["labels"] = agreement(records, labels)
    return out
