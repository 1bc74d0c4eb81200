"""The report: results of ``score`` (or Strands Evals reports) as one HTML page and a JSON summary.

Pipeline: ``load`` (files to dialog records) → ``summary`` (statistics from ``stats``) →
``html`` (page, plots from ``svg``); ``words`` says the root cause in words and gives the headline
that both the HTML page and ``score --format table`` start with; ``command`` is the CLI entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aem_strands.lazy import lazy_attributes

_HOMES = {
    "add_report_parser": "aem_strands.report.command",
    "run_report": "aem_strands.report.command",
    "render_html": "aem_strands.report.html",
    "Label": "aem_strands.report.load",
    "LoadedResults": "aem_strands.report.load",
    "load_labels": "aem_strands.report.load",
    "load_results": "aem_strands.report.load",
    "summarise": "aem_strands.report.summary",
    "headline": "aem_strands.report.words",
    "root_cause_in_words": "aem_strands.report.words",
}
"""Where each name lives; imported on first use, so the CLI does not import the statistics stack to start."""

__all__ = [
    "Label",
    "LoadedResults",
    "add_report_parser",
    "headline",
    "load_labels",
    "load_results",
    "render_html",
    "root_cause_in_words",
    "run_report",
    "summarise",
]


__getattr__ = lazy_attributes(__name__, _HOMES, globals())


if TYPE_CHECKING:
    from aem_strands.report.command import add_report_parser, run_report
    from aem_strands.report.html import render_html
    from aem_strands.report.load import Label, LoadedResults, load_labels, load_results
    from aem_strands.report.summary import summarise
    from aem_strands.report.words import headline, root_cause_in_words
