"""One self-contained HTML file: the headline, the dataset view, and every dialog, failing first.

No network: styles, script, data and plots are inline. The dataset view is static HTML; the dialog
list is a compact JSON block that a small script pages, sorts and filters (50 rows a page), so the
file stays small and opens fast for 10,000 dialogs. ``DialogRows`` keeps each dialog in that compact form as
it is read, so the records themselves need not stay in memory. The JSON block escapes ``<``, ``>``, ``&``
and U+2028/U+2029 (``\\u003c``...), so no text in a dialog can end or change the script block, and holds no
NaN or infinity. Clicking a dialog shows its turn strip, each
failed turn's problems (gold vs predicted, method, score), the cascade links with their evidence,
skipped optional turns and the latency per turn. ``#q=TEXT&status=fail|pass&reason=R`` in the
address pre-sets the filters.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from html import escape
from importlib.resources import files
from typing import Any

from aem_strands.report.cells import cards, interval_text, regression_flag, regression_verdict, table
from aem_strands.report.summary import json_safe
from aem_strands.report.svg import count_bars, rate_bars, scatter
from aem_strands.report.trace_html import trace_section
from aem_strands.report.trace_words import is_trace_record
from aem_strands.report.words import (
    Record,
    counted,
    failing_first_key,
    field_value,
    problem_in_words,
    roots_in_words,
)

MAX_TEXT = 160
"""Gold and predicted values longer than this are cut in the dialog details (the JSON output keeps them whole)."""


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def turn_status(turn: Record) -> str:
    """``pass``, ``root``, ``cascade``, ``missing``, ``extra`` or ``na`` (not judged)."""
    verdict = turn.get("verdict")
    if verdict == "pass":
        return "pass"
    if verdict == "not_applicable":
        return "na"
    if turn.get("own_reason") == "missing_turn":
        return "missing"
    if turn.get("own_reason") == "extra_turn":
        return "extra"
    return "cascade" if turn.get("role") == "cascade" else "root"


def _turn(turn: Record) -> list[Any]:
    """A turn for the script; a passing turn without latency or note is only ``[turn_no, "a"|"r"]``."""
    failed = turn.get("verdict") == "fail"
    if turn.get("verdict") == "pass" and turn.get("latency_ms") is None and not turn.get("note"):
        return [turn.get("turn_no"), "a" if turn.get("kind") == "action" else "r"]
    problems = [
        [p.get("field"), _short(p.get("gold")), _short(p.get("predicted")), p.get("method"), p.get("score")]
        for p in (turn.get("problems") or [])
    ]
    return [
        turn.get("turn_no"),
        turn_status(turn),
        turn.get("kind"),
        turn.get("failure_reason"),
        turn.get("caused_by"),
        turn.get("evidence"),
        problem_in_words(turn) if failed else None,
        problems if failed else [],
        turn.get("latency_ms"),
        turn.get("note"),
    ]


def dialog_row(record: Record, by: str | None) -> dict[str, Any]:
    """The compact form of one dialog the page's script reads."""
    metadata = record.get("metadata") or {}
    alignment = metadata.get("alignment")
    alignment = alignment if isinstance(alignment, dict) else {}
    return {
        "id": str(record.get("dialog_id")),
        "pass": bool(record.get("test_pass")),
        "score": record.get("score"),
        "roots": int(record.get("root_cause_count") or 0),
        "cascades": int(record.get("cascading_count") or 0),
        "first": record.get("first_failure_turn"),
        "reason": record.get("root_cause"),
        "group": None if by is None else field_value(record, by),
        "words": roots_in_words(record),
        "skipped": list(alignment.get("skipped_optional_gold") or []),
        "turns": [_turn(t) for t in record.get("turns") or ()],
    }


def _overview(summary: dict[str, Any]) -> str:
    o = summary["overall"]
    items = [
        ("dialogs", f"{o['dialogs']:,}"),
        ("failing", f"{o['failing']:,}"),
        ("pass rate", interval_text(o["pass_rate"], percent=True)),
        ("mean score", interval_text(o["mean_score"])),
        ("root causes", f"{o['root_causes']:,}"),
        ("inherited failures", f"{o['cascades']:,}"),
    ]
    return cards(items)


def _groups(summary: dict[str, Any]) -> str:
    groups = summary.get("groups")
    if not groups:
        return ""
    rows = []
    for g in groups:
        vs = g.get("vs_previous") or {}
        call = ""
        if vs:
            change = vs.get("reason_mix_change")
            mix = "" if not change else f"; reason mix p={change['p_value']:.3g}"
            flag = regression_flag(vs)
            call = (
                f"{flag}vs {escape(vs['previous'])}: pass rate {interval_text(vs['pass_rate_change'])}, "
                f"score {interval_text(vs['score_change'])}{mix}"
            )
        top = ", ".join(f"{escape(k)} {v}" for k, v in sorted(g["reasons"].items(), key=lambda kv: -kv[1])[:3])
        rows.append(
            [
                escape(g["value"]),
                f"{g['dialogs']:,}",
                interval_text(g["pass_rate"], percent=True),
                interval_text(g["mean_score"]),
                top or "-",
                call,
            ]
        )
    by = escape(summary["by"])
    head = [by, "dialogs", "pass rate [95% CI]", "mean score [95% CI]", "top root causes", "change"]
    plot = rate_bars([(g["value"], g["pass_rate"]) for g in groups], title=f"pass rate by {summary['by']}")
    regressions = summary.get("regressions") or []
    return (
        f"<section><h2>By {by}</h2>{regression_verdict(regressions)}{table(head, rows)}"
        f'<div class="plot">{plot}</div></section>'
    )


def _trials(summary: dict[str, Any]) -> str:
    """pass^k per value of ``--by`` (one row each; else one row for all), with a chart, and the flaky cases."""
    overall = summary.get("trials")
    if not overall:
        return ""
    by = summary.get("by")
    rows_of = [(g["value"], g["trials"]) for g in summary.get("groups") or () if g.get("trials")] or [("all", overall)]
    most = max(t["max_trials"] for _, t in rows_of)
    head = [by or "cases", "cases", "trials", *(f"pass^{k} [95% CI]" for k in range(1, most + 1))]
    head += ["flaky (passed sometimes)", "never passed"]
    rows, bars = [], []
    for value, trials in rows_of:
        found = {row["k"]: row for row in trials["pass_hat_k"]}
        cells = [interval_text(found.get(k), percent=True) if k in found else "-" for k in range(1, most + 1)]
        listed = [
            escape(", ".join(trials[key])) + (" …" if trials[f"{key}_count"] > len(trials[key]) else "")
            for key in ("flaky", "never_passed")
        ]
        flaky = f"{trials['flaky_count']:,}: {listed[0] or '-'}"
        never = f"{trials['never_passed_count']:,}: {listed[1] or '-'}"
        rows.append([escape(value), f"{trials['cases']:,}", f"{trials['trials']:,}", *cells, flaky, never])
        bars += [(f"{value} pass^{row['k']}", row) for row in trials["pass_hat_k"]]
    plot = rate_bars(bars, title="pass^k: every one of k trials passes")
    return f'<section><h2>Repeated trials: pass^k</h2>{table(head, rows)}<div class="plot">{plot}</div></section>'


def _reasons(summary: dict[str, Any]) -> str:
    reasons = summary["reasons"]
    if not reasons:
        return ""
    rows = [[escape(k), str(v["root_cause"]), str(v["cascade"])] for k, v in reasons.items()]
    plot = count_bars([(k, v["root_cause"], v["cascade"]) for k, v in reasons.items()], title="failure reasons")
    shown = table(["own reason", "root causes", "cascades"], rows)
    return f'<section><h2>Failure reasons</h2>{shown}<div class="plot">{plot}</div></section>'


def _chains(summary: dict[str, Any]) -> str:
    items = summary["chains"]
    if not any(v["turns"] for v in items.values()):
        return ""
    rows = [[k, f"{v['turns']:,}", interval_text(v["pass_rate"], percent=True)] for k, v in items.items()]
    plot = rate_bars([(k, v["pass_rate"]) for k, v in items.items()], title="turn pass rate by chain length")
    shown = table(["action chain", "turns", "pass rate [95% Wilson CI]"], rows)
    return f'<section><h2>By action-chain length</h2>{shown}<div class="plot">{plot}</div></section>'


def _correlation_text(c: dict[str, Any] | None) -> str:
    if not c:
        return "n/a (too few values, or a constant one)"
    return f"Pearson r {interval_text(c['pearson'])}, Spearman rho {interval_text(c['spearman'])}, n={c['n']}"


def _latency(summary: dict[str, Any]) -> str:
    found = summary.get("latency")
    if not found:
        return ""
    plot = scatter(found["points"], title="score vs latency", x_label="cumulative latency (ms)", y_label="score")
    text = escape(_correlation_text(found["correlation"]))
    return f'<section><h2>Correctness vs cumulative latency</h2><p>{text}</p><div class="plot">{plot}</div></section>'


def _labels(summary: dict[str, Any]) -> str:
    found = summary.get("labels")
    if found is None:
        return ""
    unmatched = counted(found["unmatched"], "label")
    parts = [f"<section><h2>Agreement with human labels</h2><p>{unmatched} matched no result.</p>"]
    for level in ("dialog", "turn"):
        entry = found.get(level)
        if not entry:
            continue
        rows = [["pass/fail (Cohen's kappa)", escape(interval_text(entry["kappa"]))]]
        rows += [[escape(name), escape(_correlation_text(c))] for name, c in entry["correlations"].items()]
        parts.append(f"<h3>{level} labels (n={entry['n']})</h3>" + table(["metric", "agreement [95% CI]"], rows))
        disagreements = [
            [escape(d["dialog_id"]), "" if d["turn_no"] is None else str(d["turn_no"]), f"{d['label']:g}",
             "pass" if d["metric_pass"] else "fail"]
            for d in entry["disagreements"]
        ]  # fmt: skip
        if disagreements:
            head = ["dialog", "turn", "human label", "metric verdict"]
            review = counted(len(disagreements), "disagreement")
            parts.append(f"<h4>To review: {review}</h4>" + table(head, disagreements))
    return "".join(parts) + "</section>"


_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def script_json(value: Any) -> str:
    """``value`` as JSON that can stand inside a ``<script>`` block: nothing in it can close or re-open the
    block, and NaN or infinity becomes ``null``."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        text = json.dumps(json_safe(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.translate(_SCRIPT_SAFE)


class DialogRows:
    """The dialog list of the page, one dialog added at a time (``dialog_row`` as script-safe JSON), failing first."""

    def __init__(self, by: str | None) -> None:
        self.by = by
        self._rows: list[tuple[tuple[int, float, int, str], str]] = []

    def add(self, record: Record) -> None:
        if is_trace_record(record):  # traces have their own section (trace_html), from the summary
            return
        self._rows.append((failing_first_key(record), script_json(dialog_row(record, self.by))))

    def __len__(self) -> int:
        return len(self._rows)

    def data(self) -> str:
        """The page's data block: ``{"by": ..., "dialogs": [...]}``."""
        self._rows.sort(key=lambda row: row[0])
        return '{"by":' + script_json(self.by) + ',"dialogs":[' + ",".join(row[1] for row in self._rows) + "]}"


def _asset(name: str) -> str:
    return files("aem_strands.report").joinpath(name).read_text(encoding="utf-8")


def _dialog_part(data: str, summary: dict[str, Any]) -> str:
    """The dialogs' overview, their paged list (its data block and script) and their sections."""
    by = summary.get("by")
    group_head = f'<th data-key="group">{escape(by)}</th>' if by else ""
    return f"""{_overview(summary)}
<section id="dialogs"><h2>Dialogs, failing first</h2>
<div class="controls">
<input id="q" type="search" placeholder="filter: dialog id, reason, text…" aria-label="filter">
<select id="status" aria-label="status"><option value="">all</option><option value="fail">failing</option>
<option value="pass">passing</option></select>
<select id="reason" aria-label="root cause"><option value="">any root cause</option></select>
<span id="count"></span>
</div>
<table id="dialog-table"><thead><tr>
<th data-key="pass">verdict</th><th data-key="id">dialog</th><th data-key="score">score</th>
<th data-key="roots">roots</th><th data-key="cascades">inherited</th>{group_head}
<th>turns</th><th>root cause in words</th></tr></thead><tbody></tbody></table>
<div class="pager"><button id="prev">&lsaquo; previous</button><span id="page"></span>
<button id="next">next &rsaquo;</button></div>
</section>
{_groups(summary)}{_trials(summary)}{_reasons(summary)}{_chains(summary)}{_latency(summary)}{_labels(summary)}
<script type="application/json" id="data">{data}</script>
<script>{_asset("report.js")}</script>
"""


def render_html(
    records: Iterable[Record] | DialogRows,
    summary: dict[str, Any],
    *,
    title: str = "AEM correctness report",
    sources: Sequence[str] = (),
) -> str:
    """The whole report page (see the module docstring); ``records`` may be the dialog rows already gathered. A
    report of traces only has no dialog part; traces get their section (``trace_html``)."""
    rows = records if isinstance(records, DialogRows) else DialogRows(summary.get("by"))
    if not isinstance(records, DialogRows):
        for record in records:
            rows.add(record)
    dialogs = _dialog_part(rows.data(), summary) if len(rows) or not summary.get("traces") else ""
    tests = "".join(f"<li><b>{escape(k)}</b>: {escape(v)}</li>" for k, v in summary["tests"].items())
    origin = f'<p class="src">From {escape(", ".join(sources))}</p>' if sources else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title><style>{_asset("report.css")}</style></head>
<body>
<header><h1 id="headline">{escape(summary["headline"])}</h1>{origin}</header>
{dialogs}{trace_section(summary)}
<section><h2>How the numbers are computed</h2><ul>{tests}</ul></section>
</body></html>
"""
