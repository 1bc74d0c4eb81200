"""The HTML pieces every section of the report page is built from: an interval as text, a table, summary cards."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any


def interval_text(value: dict[str, Any] | None, percent: bool = False) -> str:
    """``0.750 [0.500, 1.000]`` (or ``75.0% [...]`` with ``percent``); ``n/a`` when there is no estimate."""
    if not value or value.get("estimate") is None:
        return "n/a"

    def f(x: float) -> str:
        return f"{100 * x:.1f}%" if percent else f"{x:.3f}"

    if value.get("low") is None:
        return f(value["estimate"])
    return f"{f(value['estimate'])} [{f(value['low'])}, {f(value['high'])}]"


def table(head: Sequence[str], rows: Sequence[Sequence[str]], cls: str = "") -> str:
    """A table; ``head`` is text (escaped here), the cells are HTML (escaped by the caller)."""
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def cards(items: Sequence[tuple[str, str]]) -> str:
    """Summary cards: a name over a value, both text (escaped here)."""
    inner = "".join(
        f'<div class="card"><div class="k">{escape(k)}</div><div class="v">{escape(v)}</div></div>' for k, v in items
    )
    return f'<div class="cards">{inner}</div>'


def regression_verdict(called: Sequence[str]) -> str:
    """The line above a by-group table: the groups whose change is a called regression, or that none is."""
    if called:
        return f'<p class="bad">Regression called: {escape(", ".join(called))}</p>'
    return "<p>No regression called.</p>"


def regression_flag(change: dict[str, Any]) -> str:
    """How a group's row names its change against the group before it (a regression in bold)."""
    return '<b class="bad">REGRESSION</b> ' if change.get("regression") else "no regression "
