"""The traces of the report page: their rates, each dimension's pass rate, the rates per ``--by`` value with the
regression called, and every failing trace's first critical step (failing first). Static HTML from the summary's
``traces`` view (``trace_summary``); every value from the input is escaped."""

from __future__ import annotations

from html import escape
from typing import Any

from aem_strands.report.cells import cards, interval_text, regression_flag, regression_verdict, table
from aem_strands.report.svg import rate_bars
from aem_strands.report.words import counted

MAX_ROWS = 1000
"""Failing traces listed on the page (the JSON summary lists every one)."""


def _groups(traces: dict[str, Any]) -> str:
    groups = traces.get("groups")
    if not groups:
        return ""
    rows = []
    for g in groups:
        vs = g.get("vs_previous") or {}
        call = ""
        if vs:
            flag = regression_flag(vs)
            call = (
                f"{flag}vs {escape(vs['previous'])}: pass rate {interval_text(vs['pass_rate_change'])}, "
                f"score {interval_text(vs['score_change'])}"
            )
        rows.append([escape(g["value"]), f"{g['traces']:,}", interval_text(g["pass_rate"], percent=True),
                     interval_text(g["veto_rate"], percent=True), interval_text(g["mean_score"]), call])  # fmt: skip
    by = escape(traces["by"])
    head = [traces["by"], "traces", "pass rate [95% CI]", "veto rate [95% CI]", "mean score [95% CI]", "change"]
    plot = rate_bars([(g["value"], g["pass_rate"]) for g in groups], title=f"trace pass rate by {traces['by']}")
    called = traces.get("regressions") or []
    return f'<h3>Traces by {by}</h3>{regression_verdict(called)}{table(head, rows)}<div class="plot">{plot}</div>'


def _steps(traces: dict[str, Any]) -> str:
    steps = traces["first_critical_steps"]
    if not steps:
        return ""
    grouped = any("group" in s for s in steps)
    head = ["trace", "status", *(["group"] if grouped else []), "score", "first critical step", "rule", "hypothesis"]
    rows = [
        [escape(str(s["trace_id"])), escape(f"{s['status']}{' (veto)' if s['veto'] else ''}"),
         *([escape(str(s.get("group")))] if grouped else []), f"{s['score']:.3f}", escape(str(s["step"] or "-")),
         escape(str(s["rule"] or "-")), escape(str(s["hypothesis"]))]
        for s in steps[:MAX_ROWS]
    ]  # fmt: skip
    more = (
        f"<p>{counted(len(steps) - MAX_ROWS, 'more trace')} in the JSON summary.</p>" if len(steps) > MAX_ROWS else ""
    )
    return f"<h3>Failing traces, first critical step</h3>{table(head, rows)}{more}"


def trace_section(summary: dict[str, Any]) -> str:
    """The traces' section of the page ('' when the report holds no trace)."""
    traces = summary.get("traces")
    if not traces:
        return ""
    o = traces["overall"]
    overview = cards([
        ("traces", f"{o['traces']:,}"), ("not passing", f"{o['failing']:,}"), ("vetoed", f"{o['vetoed']:,}"),
        ("inconclusive", f"{o['inconclusive']:,}"), ("pass rate", interval_text(o["pass_rate"], percent=True)),
        ("mean score", interval_text(o["mean_score"])),
    ])  # fmt: skip
    dimensions = traces["dimensions"]
    rows = [[escape(name), f"{d['applicable']:,}", f"{d['passed']:,}", f"{d['failed']:,}",
             interval_text(d["pass_rate"], percent=True)] for name, d in dimensions.items()]  # fmt: skip
    head = ["dimension", "applicable", "passed", "failed", "pass rate [95% Wilson CI]"]
    plot = rate_bars([(n, d["pass_rate"]) for n, d in dimensions.items() if d["applicable"]],
                     title="pass rate per dimension (traces it applied to)")  # fmt: skip
    rules = traces["critical_rules"]
    chosen = (
        "<p>First critical steps chosen by: " + escape(", ".join(f"{rule} ({n})" for rule, n in rules.items())) + "</p>"
        if rules
        else ""
    )
    return (
        f'<section id="traces"><h2>Traces</h2><p>{escape(traces["headline"])}</p>{overview}'
        f'<h3>Dimensions</h3>{table(head, rows)}<div class="plot">{plot}</div>{chosen}'
        f"{_groups(traces)}{_steps(traces)}</section>"
    )
