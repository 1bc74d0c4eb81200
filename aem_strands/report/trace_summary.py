"""The dataset view of judged traces: pass, veto and dimension rates with intervals, the rules that chose the first
critical steps, each failing trace's first critical step, and the same rates per metadata value (``--by``) with the
regression test dialogs get. Pure: trace records in, a JSON-able dict out.

``TraceTally`` takes the records one at a time and keeps a pass flag, a veto flag and a score per trace, counts,
and one short line per failing trace (its first critical step), so ``report`` stays flat in memory whatever the
number of passing traces. The tests are those of ``aem_strands.report.stats`` (``summary.TESTS``): a rate's 95%
interval is a percentile bootstrap, a dimension's pass rate a Wilson interval, and a version regresses when the
95% interval of (its mean - the previous version's mean), of the pass rate or of the score, lies below 0.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Mapping
from typing import Any

from aem_strands.report.stats import change_vs_previous, mean_interval, proportion_interval, regressions
from aem_strands.report.trace_words import TraceHeadline, critical_rule, failing_trace_key, score_of, step_in_words
from aem_strands.report.words import NONE_VALUE, Record, field_value, natural_key

MAX_HYPOTHESIS = 300
"""A failing trace's hypothesis is cut at this length in the summary (the trace records keep it whole)."""


def _dict(value: Any) -> Any:
    return None if value is None else value.to_dict()


class _Rates:
    """The rates of a set of traces (all, or one group)."""

    def __init__(self) -> None:
        self.passes: array[float] = array("d")
        self.vetoes: array[float] = array("d")
        self.scores: array[float] = array("d")
        self.inconclusive = 0

    def add(self, record: Record) -> None:
        self.passes.append(float(bool(record.get("test_pass"))))
        self.vetoes.append(float(bool(record.get("veto"))))
        self.scores.append(score_of(record))
        self.inconclusive += record.get("status") == "inconclusive"

    def to_dict(self) -> dict[str, Any]:
        return {
            "traces": len(self.passes),
            "failing": len(self.passes) - int(sum(self.passes)),
            "vetoed": int(sum(self.vetoes)),
            "inconclusive": self.inconclusive,
            "pass_rate": _dict(mean_interval(self.passes)),
            "veto_rate": _dict(mean_interval(self.vetoes)),
            "mean_score": _dict(mean_interval(self.scores)),
        }


class TraceTally:
    """The trace part of the report's summary, records added one at a time (see the module docstring)."""

    def __init__(self, by: str | None = None) -> None:
        self.by = by
        self.headline = TraceHeadline()
        self.overall = _Rates()
        self.groups: dict[str, _Rates] = {}
        self.dimensions: dict[str, list[int]] = {}  # applicable, passed, failed
        self.rules: Counter[str] = Counter()
        self.steps: list[tuple[tuple[int, float, str], dict[str, Any]]] = []

    def __bool__(self) -> bool:
        return self.headline.traces > 0

    def add(self, record: Record) -> None:
        self.headline.add(record)
        self.overall.add(record)
        group = field_value(record, self.by) if self.by else None
        if group is not None:
            self.groups.setdefault(group, _Rates()).add(record)
        for name, verdict in (record.get("dimensions") or {}).items():
            counts = self.dimensions.setdefault(str(name), [0, 0, 0])
            if isinstance(verdict, Mapping) and verdict.get("applicable"):
                counts[0] += 1
                counts[1] += verdict.get("pass") is True
                counts[2] += verdict.get("pass") is False
        if record.get("test_pass"):
            return
        rule = critical_rule(record)
        if rule is not None:
            self.rules[rule] += 1
        hypothesis = str(record.get("root_cause_hypothesis") or "")
        cut = hypothesis if len(hypothesis) <= MAX_HYPOTHESIS else hypothesis[: MAX_HYPOTHESIS - 1] + "…"
        entry = {
            "trace_id": record.get("trace_id"), "status": record.get("status"), "veto": bool(record.get("veto")),
            "score": round(score_of(record), 4), "step": record.get("first_critical_failure_step"), "rule": rule,
            "hypothesis": cut or step_in_words(record),
            **({"group": group} if group is not None else {}),
        }  # fmt: skip
        self.steps.append((failing_trace_key(record), entry))

    def _groups(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        previous: _Rates | None = None
        for value in sorted(self.groups, key=natural_key):
            members = self.groups[value]
            entry = {"value": value, **members.to_dict()}
            if previous is not None and value != NONE_VALUE:
                entry["vs_previous"] = change_vs_previous(
                    out[-1]["value"], (previous.passes, members.passes), (previous.scores, members.scores)
                )
            out.append(entry)
            previous = members
        return out

    def summary(self) -> dict[str, Any]:
        """The trace view: ``headline``, ``overall`` rates, ``dimensions`` (applicable, passed, failed, pass rate),
        ``critical_rules``, ``first_critical_steps`` (failing first) and, with ``by``, ``groups`` and
        ``regressions``."""
        self.steps.sort(key=lambda item: item[0])
        out: dict[str, Any] = {
            "headline": self.headline.text(),
            "overall": self.overall.to_dict(),
            "dimensions": {
                name: {"applicable": a, "passed": p, "failed": f, "pass_rate": _dict(proportion_interval(p, a))}
                for name, (a, p, f) in self.dimensions.items()
            },
            "critical_rules": dict(sorted(self.rules.items(), key=lambda kv: (-kv[1], kv[0]))),
            "first_critical_steps": [entry for _, entry in self.steps],
        }
        if self.by:
            out["by"] = self.by
            out["groups"] = self._groups()
            out["regressions"] = regressions(out["groups"])
        return out
