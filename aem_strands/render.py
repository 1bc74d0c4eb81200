"""A report a person can read at a glance: which turn broke, what cascaded.

Plain text (``render_table``, or block by block with ``render_dialog`` / ``render_error`` / ``render_footer``
while results stream) when the output is a file or a pipe; a ``rich`` table (``rich_dialog``) on a terminal.
Every value read from the input (dialog ids, argument values, details) passes through ``printable``, so a
``\\r`` or an ANSI escape in a dialog id shows as text instead of rewriting a line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aem_strands.errors import InputError, printable
from aem_strands.report.words import counted
from aem_strands.result import DialogResult, TurnResult
from aem_strands.types import FailureReason, Method

if TYPE_CHECKING:
    from rich.console import RenderableType


def _score(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


@dataclass(frozen=True)
class _TurnCells:
    status: str
    reason: str
    detail: str
    note: str


def _cells(t: TurnResult) -> _TurnCells:
    reason = detail = ""
    if t.failure_reason is not None:
        reason = t.failure_reason.value
        a = t.attribution
        if a is not None and a.caused_by is not None and a.caused_by != t.turn.turn_no:
            reason += f" <- turn {a.caused_by} ({a.evidence})"
    if t.verdict.problems and t.verdict.failed:
        p = t.verdict.problems[0]
        if p.method is Method.FACTS:
            detail = f"{p.field}: {p.detail}"
        elif p.reason is FailureReason.MISSING_PARAMETERS:
            detail = f"{p.field}: missing, gold {p.gold!r}"
        elif p.reason is FailureReason.EXTRA_PARAMETERS:
            detail = f"{p.field}: {p.predicted!r}, not in gold"
        else:
            detail = f"{p.field}: {p.predicted!r} vs gold {p.gold!r}" + (f" [{p.detail}]" if p.detail else "")
    note = t.verdict.note or ""
    return _TurnCells(t.verdict.verdict.value.upper(), printable(reason), printable(detail), printable(note))


def _turn_line(t: TurnResult) -> str:
    cells = _cells(t)
    line = f"  turn {t.turn.turn_no:>3}  {t.turn.kind.value:<8}  {cells.status:<14}"
    if cells.reason:
        line += f"  {cells.reason}"
    if cells.detail:
        line += f"\n{'':>34}{cells.detail}"
    if cells.note:
        line += f"  ({cells.note})"
    return line


def _figures(r: DialogResult) -> str:
    return (
        f"score {_score(r.score)} ({r.composer})  success_rate {_score(r.success_rate)}  "
        f"root causes {len(r.root_causes)}  cascading {len(r.cascades)}"
    )


def _headline(r: DialogResult) -> str:
    return f"{printable(r.dialog_id)}: {'PASS' if r.test_pass else 'FAIL'}  {_figures(r)}"


def _sub_metrics(r: DialogResult) -> str:
    return ", ".join(f"{m.value} {_score(rate.rate)}" for m, rate in r.composition.sub_metrics.items() if rate.total)


def _lines(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.split("\n")) + "\n"


def render_dialog(r: DialogResult) -> str:
    """One dialog's block of the plain table, ending with a blank line."""
    lines = [_headline(r), f"  {printable(r.reason())}", f"  sub-metrics: {_sub_metrics(r)}"]
    lines.extend(_turn_line(t) for t in r.turns)
    return _lines("\n".join(lines)) + "\n"


def render_error(error: InputError) -> str:
    """One input error's line of the plain table."""
    return _lines(f"ERROR {printable(str(error))}")


def render_footer(scored: int, passed: int, unreadable: int) -> str:
    """The closing count line of the plain table."""
    return f"{counted(scored, 'dialog')} scored, {passed} pass, {scored - passed} fail, {unreadable} not readable\n"


def render_table(results: Sequence[DialogResult], errors: Sequence[InputError] = ()) -> str:
    """Render results (and input errors) as plain text."""
    blocks = [render_dialog(r) for r in results] + [render_error(e) for e in errors]
    return "".join(blocks) + render_footer(len(results), sum(r.test_pass for r in results), len(errors))


def rich_dialog(r: DialogResult) -> RenderableType:
    """One dialog as a ``rich`` renderable for a terminal: a headline and a table of its turns."""
    # rich is imported here, for a terminal only: files and pipes get plain text without its import time.
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    style = "bold green" if r.test_pass else "bold red"
    head = Text(f"{printable(r.dialog_id)}: ", style="bold")
    head.append("PASS" if r.test_pass else "FAIL", style=style)
    head.append(f"  {_figures(r)}")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=False)
    for name, justify in (("turn", "right"), ("kind", "left"), ("verdict", "left"), ("why", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]  # rich's JustifyMethod literal
    for t in r.turns:
        cells = _cells(t)
        colour = {"PASS": "green", "FAIL": "red"}.get(cells.status, "yellow")
        why = "\n".join(part for part in (cells.reason, cells.detail, f"({cells.note})" if cells.note else "") if part)
        table.add_row(str(t.turn.turn_no), t.turn.kind.value, Text(cells.status, style=colour), Text(why))
    details = Text(f"  {printable(r.reason())}\n  sub-metrics: {_sub_metrics(r)}", style="dim")
    return Group(head, details, table)
