"""Trace records in the report: which records are traces, a trace's score, the order of traces (failing first) and
their headline.

A trace record is the JSON record of a judged trace (``aem_strands.trace.record``): a line of ``aem-strands trace``
output, or the ``metadata`` of an ``AemTraceEvaluator`` row of a Strands Evals report (with the host's ``score``).
Light on purpose (no statistics stack): the evaluator imports ``trace_score`` for every case.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aem_strands.report.words import Record, counted


def is_trace_record(value: Any) -> bool:
    """Whether ``value`` is a trace record (``trace_id`` and ``dimensions``, no dialog ``turns``)."""
    return isinstance(value, Mapping) and "trace_id" in value and "dimensions" in value and "turns" not in value


def trace_score(record: Record) -> float:
    """The share of the trace's applicable dimensions that pass; 0.0 under a safety veto; 1.0 when no dimension
    applies (nothing was found wrong). ``AemTraceEvaluator`` gives the same number as its row's score."""
    if record.get("veto"):
        return 0.0
    dimensions = record.get("dimensions")
    verdicts = [v for v in dimensions.values() if isinstance(v, Mapping)] if isinstance(dimensions, Mapping) else []
    applicable = [v for v in verdicts if v.get("applicable")]
    return sum(v.get("pass") is True for v in applicable) / len(applicable) if applicable else 1.0


def score_of(record: Record) -> float:
    """The record's own ``score`` (a Strands row carries the host's), else ``trace_score``."""
    score = record.get("score")
    return float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else trace_score(record)


def critical_rule(record: Record) -> str | None:
    """The rule that chose the first critical step (``earliest_failure``...), without its explanation."""
    return str(record.get("critical_rule") or "").split(":", 1)[0] or None


def failing_trace_key(record: Record) -> tuple[int, float, str]:
    """Sort key of the trace list: vetoed traces first, then failing, inconclusive, passing; lowest score; id."""
    status = record.get("status")
    rank = 0 if record.get("veto") else 1 if status == "fail" else 2 if status == "inconclusive" else 3
    return (rank, score_of(record), str(record.get("trace_id")))


def step_in_words(record: Record) -> str:
    """``step s5 (earliest_failure): <the root-cause hypothesis>``; a trace that passes or is inconclusive says so."""
    status = record.get("status")
    if status == "pass" or record.get("test_pass"):
        return "passes every applicable dimension"
    if status == "inconclusive" and not record.get("first_critical_failure_step"):
        undecided = [str(name) for name, v in (record.get("dimensions") or {}).items()
                     if isinstance(v, Mapping) and str(v.get("reason") or "").startswith("inconclusive")]  # fmt: skip
        return f"inconclusive: could not decide {', '.join(undecided) or 'a question no rule settles'}"
    step = record.get("first_critical_failure_step")
    where = f"step {step} ({critical_rule(record) or 'no rule'})" if step is not None else "no step named"
    hypothesis = record.get("root_cause_hypothesis")
    return f"{where}: {hypothesis}" if hypothesis else where


class TraceHeadline:
    """The headline over trace records added one at a time; only the first failing trace (by ``failing_trace_key``)
    is kept."""

    def __init__(self) -> None:
        self.traces = self.failing = self.vetoed = self.inconclusive = 0
        self._first: tuple[tuple[int, float, str], Record] | None = None

    def add(self, record: Record) -> None:
        self.traces += 1
        if record.get("test_pass"):
            return
        self.failing += 1
        self.vetoed += bool(record.get("veto"))
        self.inconclusive += record.get("status") == "inconclusive"
        key = failing_trace_key(record)
        if self._first is None or key < self._first[0]:
            self._first = (key, record)

    def text(self) -> str:
        """``1 of 2 traces fails (0 vetoed, 0 inconclusive). First: refund-no-identity step s5 (...): ...``."""
        if not self.traces:
            return "no traces judged"
        if self._first is None:
            return "the one trace passes" if self.traces == 1 else f"all {counted(self.traces, 'trace')} pass"
        first = self._first[1]
        verb = "does not pass" if self.failing == 1 else "do not pass"
        return (
            f"{self.failing} of {counted(self.traces, 'trace')} {verb} ({self.vetoed} vetoed, "
            f"{self.inconclusive} inconclusive). First: {first.get('trace_id')} {step_in_words(first)}"
        )
