"""The dataset view of a run: rates with intervals, by metadata field, regressions, failure reasons,
chain-length buckets, latency, agreement with human labels, and pass^k over repeated trials (``passk``).
Pure: records in, a JSON-able dict out. Trace records (``aem-strands trace`` output, ``AemTraceEvaluator`` rows)
get their own view under ``traces`` (``trace_summary``: pass, veto and dimension rates, first critical steps, by
``--by`` value with the same regression test); their regressions join ``regressions``, and the headline names
dialogs and traces.

``SummaryTally`` takes the records one at a time and keeps only what the statistics need (a pass flag and
a score per dialog, counts, latency points, and the labelled dialogs' verdicts), so ``report`` reads a
results file of any size in flat memory; ``summarise`` is the same over a sequence. The summary holds no
NaN or infinity: an undefined number is ``null`` (``json_safe``).

The tests are stated in ``aem_strands.report.stats``; ``summarise(...)["tests"]`` repeats them for the
reader of the JSON and HTML output.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from aem_strands.report.load import Label
from aem_strands.report.passk import TrialTally
from aem_strands.report.stats import (
    change_vs_previous,
    correlation,
    kappa,
    mean_interval,
    mix_change,
    proportion_interval,
    regressions,
)
from aem_strands.report.trace_summary import TraceTally
from aem_strands.report.trace_words import is_trace_record
from aem_strands.report.words import NONE_VALUE, HeadlineTally, Record, field_value, natural_key

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
    "pass_hat_k": (
        "repeated trials: per case C(c, k) / C(n, k) for c passes in n trials (scipy.special.comb), averaged over "
        "the cases with at least k trials; percentile bootstrap 95% interval over cases"
    ),
}


def json_safe(value: Any) -> Any:
    """``value`` with every NaN or infinite float replaced by ``None`` (JSON has neither)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def _dict(value: Any) -> Any:
    return None if value is None else value.to_dict()


def _score(record: Record) -> float | None:
    score = record.get("score")
    return float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else None


def _turns(record: Record) -> Iterable[Record]:
    return record.get("turns") or ()


class _Totals:
    """The rates of a set of dialogs (all, or one group): a pass flag and a score per dialog, and counts."""

    def __init__(self) -> None:
        self.passes: array[float] = array("d")
        self.scores: array[float] = array("d")
        self.root_reasons: Counter[str] = Counter()
        self.failing = self.unscored = self.root_causes = self.cascades = 0

    def add(self, record: Record) -> None:
        passed = bool(record.get("test_pass"))
        self.passes.append(float(passed))
        self.failing += not passed
        score = _score(record)
        if score is None:
            self.unscored += 1
        else:
            self.scores.append(score)
        self.root_causes += int(record.get("root_cause_count") or 0)
        self.cascades += int(record.get("cascading_count") or 0)
        self.root_reasons.update(str(t.get("own_reason")) for t in _turns(record) if t.get("role") == "root_cause")

    def to_dict(self) -> dict[str, Any]:
        return {
            "dialogs": len(self.passes),
            "failing": self.failing,
            "unscored": self.unscored,
            "root_causes": self.root_causes,
            "cascades": self.cascades,
            "pass_rate": _dict(mean_interval(self.passes)),
            "mean_score": _dict(mean_interval(self.scores)),
        }


def _metric_values(item: Record, is_turn: bool) -> dict[str, float]:
    if is_turn:
        scores = item.get("sub_scores") or {}
        return {k: float(v) for k, v in scores.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    score = _score(item)
    out = {"score": score} if score is not None else {}
    for name, rate in (item.get("sub_metrics") or {}).items():
        if isinstance(rate, dict) and isinstance(rate.get("rate"), (int, float)):
            out[name] = float(rate["rate"])
    return out


def _passed(item: Record, is_turn: bool) -> bool | None:
    if is_turn:
        verdict = item.get("verdict")
        return None if verdict == "not_applicable" else verdict == "pass"
    return bool(item.get("test_pass"))


_View = tuple[bool | None, dict[str, float]]
"""What agreement needs of a labelled dialog or turn: the metric's pass/fail and its values."""


class SummaryTally:
    """The summary of records added one at a time (see the module docstring); ``by`` groups by a metadata field,
    ``labels`` adds the agreement with human labels."""

    def __init__(self, *, by: str | None = None, labels: Sequence[Label] | None = None) -> None:
        self.by, self.labels = by, labels
        self.headline = HeadlineTally()
        self.overall = _Totals()
        self.groups: dict[str, _Totals] = {}
        self.trials = TrialTally()
        self.group_trials: dict[str, TrialTally] = {}
        self.reasons: dict[str, dict[str, int]] = {}
        self.chains = {bucket: [0, 0] for bucket in BUCKETS}  # turns, passed
        self.points: list[tuple[float, float, str]] = []
        self._wanted: dict[str, set[int | None]] = {}
        for label in labels or ():
            self._wanted.setdefault(label.dialog_id, set()).add(label.turn_no)
        self._views: dict[str, dict[int | None, _View]] = {}
        self.traces = TraceTally(by)

    def add(self, record: Record) -> None:
        if is_trace_record(record):
            self.traces.add(record)
            return
        self.headline.add(record)
        self.overall.add(record)
        self.trials.add(record)
        if self.by:
            value = field_value(record, self.by)
            self.groups.setdefault(value, _Totals()).add(record)
            self.group_trials.setdefault(value, TrialTally()).add(record)
        latency = 0.0
        timed = False
        for t in _turns(record):
            role = t.get("role")
            if role in ("root_cause", "cascade"):
                entry = self.reasons.setdefault(str(t.get("own_reason")), {"root_cause": 0, "cascade": 0})
                entry[role] += 1
            ms = t.get("latency_ms")
            if isinstance(ms, (int, float)) and not isinstance(ms, bool):
                latency, timed = latency + ms, True
        chains = record.get("chains") or {}
        for bucket, counts in self.chains.items():
            found = chains.get(bucket) or {}
            counts[0] += int(found.get("turns") or 0)
            counts[1] += int(found.get("passed") or 0)
        score = _score(record)
        if timed and score is not None:
            self.points.append((float(latency), score, str(record.get("dialog_id"))))
        wanted = self._wanted.get(str(record.get("dialog_id")))
        if wanted is not None:
            views: dict[int | None, _View] = {}
            if None in wanted:
                views[None] = (_passed(record, False), _metric_values(record, False))
            for t in _turns(record):
                number = t.get("turn_no")
                if number in wanted and number not in views:
                    views[number] = (_passed(t, True), _metric_values(t, True))
            self._views[str(record.get("dialog_id"))] = views  # a repeated id: the last record counts

    def _groups(self) -> list[dict[str, Any]]:
        """Per value of ``by`` (natural order): rates, root-cause reasons, and the comparison with the previous
        value; ``(none)`` (no value) comes last and is compared with nothing: it is not a version."""
        out: list[dict[str, Any]] = []
        previous: _Totals | None = None
        for value in sorted(self.groups, key=natural_key):
            members = self.groups[value]
            entry = {"value": value, **members.to_dict(), "reasons": dict(members.root_reasons)}
            trials = self.group_trials[value].summary()
            if trials is not None:
                entry["trials"] = trials
            if previous is not None and value != NONE_VALUE:
                change = mix_change(previous.root_reasons, members.root_reasons)
                entry["vs_previous"] = {
                    **change_vs_previous(
                        out[-1]["value"], (previous.passes, members.passes), (previous.scores, members.scores)
                    ),
                    "reason_mix_change": _dict(change),
                }
            out.append(entry)
            previous = members
        return out

    def _latency(self) -> dict[str, Any] | None:
        if not self.points:
            return None
        found = correlation([p[0] for p in self.points], [p[1] for p in self.points])
        return {"n": len(self.points), "correlation": _dict(found), "points": self.points}

    def _agreement(self) -> dict[str, Any]:
        """Agreement of the metric with human labels, separately for dialog and turn labels.

        Pass/fail: Cohen's kappa of the label (a number counts as pass from 0.5) with the verdict.
        Per sub-metric (and the dialog score): Pearson and Spearman of the label with the value.
        """
        out: dict[str, Any] = {"unmatched": 0}
        for level, is_turn in (("dialog", False), ("turn", True)):
            human: list[float] = []
            metric: list[bool] = []
            values: dict[str, list[tuple[float, float]]] = {}
            disagreements: list[dict[str, Any]] = []
            for label in self.labels or ():
                if (label.turn_no is not None) != is_turn:
                    continue
                passed, found = self._views.get(label.dialog_id, {}).get(label.turn_no, (None, {}))
                if passed is None:
                    out["unmatched"] += 1
                    continue
                human.append(label.value)
                metric.append(passed)
                for name, value in found.items():
                    values.setdefault(name, []).append((label.value, value))
                if (label.value >= 0.5) != passed:
                    disagreements.append(
                        {"dialog_id": label.dialog_id, "turn_no": label.turn_no, "label": label.value,
                         "metric_pass": passed}
                    )  # fmt: skip
            if not human:
                continue
            found_c = {
                name: correlation([p[0] for p in pairs], [p[1] for p in pairs]) for name, pairs in values.items()
            }
            out[level] = {
                "n": len(human),
                "kappa": _dict(kappa([h >= 0.5 for h in human], metric)),
                "correlations": {name: _dict(c) for name, c in sorted(found_c.items())},
                "disagreements": disagreements,
            }
        return out

    def summary(self) -> dict[str, Any]:
        """Everything the report shows about the dataset (not the per-dialog details), JSON-safe."""
        traces = self.traces.summary() if self.traces else None
        headline = self.headline.text()
        if traces is not None:
            headline = traces["headline"] if not self.headline.dialogs else f"{headline}; traces: {traces['headline']}"
        out: dict[str, Any] = {
            "headline": headline,
            "overall": self.overall.to_dict(),
            "reasons": dict(
                sorted(self.reasons.items(), key=lambda kv: (-kv[1]["root_cause"] - kv[1]["cascade"], kv[0]))
            ),
            "chains": {
                bucket: {"turns": turns, "passed": passed, "pass_rate": _dict(proportion_interval(passed, turns))}
                for bucket, (turns, passed) in self.chains.items()
            },
            "latency": self._latency(),
            "tests": TESTS,
        }
        trials = self.trials.summary()
        if trials is not None:
            out["trials"] = trials
        if self.by:
            out["by"] = self.by
            out["groups"] = self._groups()
            out["regressions"] = regressions(out["groups"])
            if traces is not None:
                out["regressions"] += [f"traces {called}" for called in traces["regressions"]]
        if traces is not None:
            out["traces"] = traces
        if self.labels is not None:
            out["labels"] = self._agreement()
        return json_safe(out)  # type: ignore[no-any-return]  # a dict stays a dict


def summarise(
    records: Iterable[Record], *, by: str | None = None, labels: Sequence[Label] | None = None
) -> dict[str, Any]:
    """Everything the report shows about the dataset (not the per-dialog details); see ``SummaryTally``."""
    tally = SummaryTally(by=by, labels=labels)
    for record in records:
        tally.add(record)
    return tally.summary()
