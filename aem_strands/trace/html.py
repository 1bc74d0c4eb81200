"""The HTML report of judged traces: one self-contained page, no script.

Each trace is a card: its status (with the veto when safety failed), the step strip (one box per step, in order:
the user's messages, tool calls, replies; a step with a finding is red, the first critical failure step is
ringed and starred, the steps it explains are amber), the replay report (first critical failure step and the
rule that chose it, hypothesis, layers, fix, downstream failures) and the nine dimensions with their findings.
The page is built from the same records the CLI writes (``aem_strands.trace.record``), so it shows what the JSON
says, redacted the same way; every value is HTML-escaped and nothing from a trace becomes markup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape
from typing import Any

from aem_strands.types import JsonValue

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1f24;background:#f6f7f9}
h1{font-size:20px}.summary{margin-bottom:16px}
.card{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:12px 16px;margin:12px 0}
.head{display:flex;gap:12px;align-items:baseline}.id{font-weight:600}
.badge{border-radius:10px;padding:1px 8px;font-size:12px;font-weight:600;color:#fff}
.pass{background:#1a7f37}.fail{background:#cf222e}.inconclusive{background:#9a6700}.veto{background:#6e2b9e}
.strip{display:flex;flex-wrap:wrap;gap:4px;margin:10px 0}
.step{border:1px solid #d0d7de;border-radius:4px;padding:2px 6px;font-size:12px;background:#f6f8fa}
.step.user{background:#ddf4ff}.step.response{background:#eef9ee}.step.bad{background:#ffebe9;border-color:#cf222e}
.step.down{background:#fff8c5;border-color:#bf8700}.step.critical{outline:3px solid #cf222e;font-weight:600}
table{border-collapse:collapse;margin-top:8px}td{padding:2px 10px 2px 0;vertical-align:top}
.finding{color:#57606a;font-size:12px}.na{color:#8c959f}
"""


def _text(value: JsonValue) -> str:
    return escape("" if value is None else str(value))


def _steps(record: Mapping[str, Any], trace_steps: Sequence[Mapping[str, Any]] | None) -> list[tuple[str, str, str]]:
    """(step id, kind, label) in order: from the trace when given (a tool call's label is its tool, else its kind),
    else from the step ids the findings name."""
    if trace_steps:
        out = []
        for step in trace_steps:
            kind = str(step.get("action_type", ""))
            out.append((str(step.get("step_id")), kind, str(step.get("tool_name") or kind)))
        return out
    named: list[tuple[str, str, str]] = []
    for verdict in (record.get("dimensions") or {}).values():
        for finding in verdict.get("findings", []):
            step = finding.get("step_id")
            if step is not None and all(step != s for s, _, _ in named):
                named.append((str(step), "", ""))
    return named


def _card(record: Mapping[str, Any], trace_steps: Sequence[Mapping[str, Any]] | None) -> str:
    status = str(record.get("status", ""))
    badges = f'<span class="badge {escape(status)}">{escape(status.upper())}</span>'
    if record.get("veto"):
        badges += ' <span class="badge veto">VETO</span>'
    dimensions: Mapping[str, Any] = record.get("dimensions") or {}
    bad = {str(f.get("step_id")) for v in dimensions.values() for f in v.get("findings", []) if f.get("step_id")}
    critical = record.get("first_critical_failure_step")
    down = {str(d.get("step_id")) for d in record.get("downstream_failures") or [] if d.get("step_id")}
    boxes = []
    for step_id, kind, label in _steps(record, trace_steps):
        classes = ["step", escape(kind)]
        classes += ["bad"] if step_id in bad else []
        classes += ["down"] if step_id in down and step_id not in bad else []
        classes += ["critical"] if step_id == str(critical) else []
        star = "&#9733; " if step_id == str(critical) else ""
        shown = f"{escape(step_id)} <small>{escape(label)}</small>" if label else escape(step_id)
        boxes.append(f'<span class="{" ".join(classes)}" title="{escape(kind)}">{star}{shown}</span>')
    rows = []
    for name, verdict in dimensions.items():
        passed = verdict.get("pass")
        mark = '<span class="na">n/a</span>' if passed is None else "pass" if passed else "<b>FAIL</b>"
        gate = _text(verdict.get("gate"))
        findings = "".join(
            f'<div class="finding">{_text(f.get("step_id") or "trace")}: {_text(f.get("rule"))}: '
            f"{_text(f.get('message'))}</div>"
            for f in verdict.get("findings", [])
        )
        note = _text(verdict.get("reason")) if passed is None else ""
        rows.append(f"<tr><td>{escape(str(name))}</td><td>{mark}</td><td>{gate}</td><td>{findings}{note}</td></tr>")
    report = ""
    if critical is not None:
        layers = ", ".join(str(x) for x in record.get("affected_layers") or [])
        report = (
            f"<p><b>First critical failure step:</b> {_text(critical)} ({_text(record.get('critical_rule'))})<br>"
            f"<b>Root cause:</b> {_text(record.get('root_cause_hypothesis'))}<br>"
            f"<b>Layers:</b> {escape(layers)}<br><b>Fix:</b> {_text(record.get('suggested_fix'))}<br>"
            f"<b>Explains:</b> {len(record.get('downstream_failures') or [])} later finding(s)</p>"
        )
    return (
        f'<div class="card" id="trace-{_text(record.get("trace_id"))}"><div class="head">'
        f'<span class="id">{_text(record.get("trace_id"))}</span>{badges}'
        f"<span>{_text(record.get('steps'))} steps</span></div>"
        f'<div class="strip">{"".join(boxes)}</div>{report}<table>{"".join(rows)}</table></div>'
    )


def _redacted_steps(
    steps: Mapping[str, Sequence[Mapping[str, Any]]], redact: Callable[[JsonValue], JsonValue]
) -> dict[str, list[dict[str, Any]]]:
    """The strips with trace ids, step ids and tool names redacted, keyed as the redacted records name their
    trace (the same redactor gives the same token), so a trace whose id held a value keeps its strip."""
    return {
        str(redact(trace_id)): [
            {**step, **{k: redact(step[k]) for k in ("step_id", "tool_name") if isinstance(step.get(k), str)}}
            for step in strip
        ]
        for trace_id, strip in steps.items()
    }


def render_traces_html(
    records: Iterable[Mapping[str, Any]],
    steps: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    redact: Callable[[JsonValue], JsonValue] | None = None,
) -> str:
    """The page for trace records (error records are listed apart); ``steps`` maps a trace id to its steps
    (``{"step_id", "action_type", "tool_name"}``) for the strip, as read from the traces: with ``redact`` (the
    records' own redaction, records already redacted by it) their ids and tool names are redacted the same way."""
    if steps and redact is not None:
        steps = _redacted_steps(steps, redact)
    cards, errors = [], []
    counts = {"pass": 0, "fail": 0, "inconclusive": 0}
    vetoes = 0
    for record in records:
        if "error" in record:
            error = record["error"] or {}
            errors.append(f"<li>{_text(error.get('file'))} line {_text(error.get('line'))}: "
                          f"{_text(error.get('message'))}</li>")  # fmt: skip
            continue
        status = str(record.get("status"))
        counts[status] = counts.get(status, 0) + 1
        vetoes += bool(record.get("veto"))
        cards.append(_card(record, (steps or {}).get(str(record.get("trace_id")))))
    summary = (
        f"{len(cards)} traces: {counts['pass']} pass, {counts['fail']} fail ({vetoes} vetoed), "
        f"{counts['inconclusive']} inconclusive, {len(errors)} unreadable"
    )
    error_list = f"<h2>Unreadable traces</h2><ul>{''.join(errors)}</ul>" if errors else ""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>aem-strands traces</title>'
        f"<style>{_CSS}</style></head><body><h1>Trajectory evaluation</h1>"
        f'<div class="summary">{escape(summary)}</div>{"".join(cards)}{error_list}</body></html>\n'
    )
