"""The report: results of ``score`` (or Strands Evals reports) as one HTML page and a JSON summary.

Pipeline: ``load`` (files to dialog records) → ``summary`` (statistics from ``stats``) →
``html`` (page, plots from ``svg``); ``words`` says the root cause in words and gives the headline
that both the HTML page and ``score --format table`` start with; ``command`` is the CLI entry.
"""

from aem_strands.report.command import add_report_parser, run_report
from aem_strands.report.html import render_html
from aem_strands.report.load import Label, LoadedResults, load_labels, load_results
from aem_strands.report.summary import summarise
from aem_strands.report.words import headline, root_cause_in_words

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
