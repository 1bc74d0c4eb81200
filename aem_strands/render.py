"""A plain-text report a person can read at a glance: which turn broke, what cascaded."""

from __future__ import annotations

from collections.abc import Sequence

from aem_strands.errors import InputError
from aem_strands.result import DialogResult, TurnResult
from aem_strands.types import FailureReason, Method


def _score(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _turn_line(t: TurnResult) -> str:
    status = t.verdict.verdict.value.upper()
    line = f"  turn {t.turn.turn_no:>3}  {t.turn.kind.value:<8}  {status:<14}"
    if t.failure_reason is not None:
        line += f"  {t.failure_reason.value}"
        if (
            t.attribution is not None
            and t.attribution.caused_by is not None
            and t.attribution.caused_by != t.turn.turn_no
        ):
            line += f" <- turn {t.attribution.caused_by} ({t.attribution.evidence})"
    if t.verdict.problems and t.verdict.failed:
        p = t.verdict.problems[0]
        if p.method is Method.FACTS:
            line += f"\n{'':>34}{p.field}: {p.detail}"
        elif p.reason is FailureReason.MISSING_PARAMETERS:
            line += f"\n{'':>34}{p.field}: missing, gold {p.gold!r}"
        elif p.reason is FailureReason.EXTRA_PARAMETERS:
            line += f"\n{'':>34}{p.field}: {p.predicted!r}, not in gold"
        else:
            line += f"\n{'':>34}{p.field}: {p.predicted!r} vs gold {p.gold!r}"
            if p.detail:
                line += f" [{p.detail}]"
    if t.verdict.note:
        line += f"  ({t.verdict.note})"
    return line


def render_table(results: Sequence[DialogResult], errors: Sequence[InputError] = ()) -> str:
    """Render results (and input errors) as text."""
    lines: list[str] = []
    for r in results:
        verdict = "PASS" if r.test_pass else "FAIL"
        lines.append(
            f"{r.dialog_id}: {verdict}  score {_score(r.score)} ({r.composer})  success_rate {_score(r.success_rate)}  "
            f"root causes {len(r.root_causes)}  cascading {len(r.cascades)}"
        )
        lines.append(f"  {r.reason()}")
        rates = ", ".join(
            f"{m.value} {_score(rate.rate)}" for m, rate in r.composition.sub_metrics.items() if rate.total
        )
        lines.append(f"  sub-metrics: {rates}")
        lines.extend(_turn_line(t) for t in r.turns)
        lines.append("")
    for error in errors:
        lines.append(f"ERROR {error}")
    passed = sum(r.test_pass for r in results)
    lines.append(
        f"{len(results)} dialogs scored, {passed} pass, {len(results) - passed} fail, {len(errors)} not readable"
    )
    return "\n".join(line.rstrip() for line in lines) + "\n"
