"""``aem-strands report RESULTS... [--html OUT.html] [--json OUT.json] [--by FIELD] [--labels FILE]``.

Reads ``score`` output and Strands Evals report files, prints the headline (and the regressions
called, with ``--by``), writes the HTML page and the JSON summary. On a terminal stdout gets text;
piped, it gets the JSON summary. Exit codes: 0 ok, 1 a regression was called, 2 some input could
not be read (the rest is reported), 3 runtime error (handled by the main command).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

EXIT_OK, EXIT_REGRESSION, EXIT_BAD_INPUT = 0, 1, 2


def add_report_parser(commands: Any) -> argparse.ArgumentParser:
    """Register the ``report`` subcommand on the main parser's subparsers."""
    report: argparse.ArgumentParser = commands.add_parser(
        "report", help="HTML/JSON report over score output or Strands Evals reports"
    )
    report.add_argument("paths", nargs="+", type=Path, metavar="RESULTS", help="score JSON/JSONL or Strands reports")
    report.add_argument("--html", type=Path, metavar="OUT.html", help="write the self-contained HTML report here")
    report.add_argument("--json", type=Path, metavar="OUT.json", help="write the JSON summary here")
    report.add_argument("--by", metavar="FIELD", help="group by this metadata field (e.g. version, model)")
    report.add_argument(
        "--labels", type=Path, metavar="FILE", help='human labels, JSONL {"dialog_id", "turn_no"?, "label"}'
    )
    report.add_argument("--title", default="AEM correctness report", help="title of the HTML page")
    return report


@contextmanager
def _steps(stream: IO[str], total: int) -> Iterator[Callable[[str], None]]:
    """A progress bar of ``total`` steps on a terminal (``step(description)`` advances it); nothing when piped."""
    if not stream.isatty():
        yield lambda description: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(file=stream), transient=True) as progress:
        task = progress.add_task("reading results", total=total)
        yield lambda description: progress.update(task, advance=1, description=description)


def _each(step: Callable[[str], None]) -> Callable[[Iterable[Any]], Iterable[Any]]:
    def wrap(items: Iterable[Any]) -> Iterator[Any]:
        for item in items:
            yield item
            step(f"read {item}")

    return wrap


def _text(summary: dict[str, Any]) -> str:
    o = summary["overall"]
    lines = [summary["headline"]]
    rate = o["pass_rate"] or {}
    if rate.get("low") is not None:
        lines.append(f"pass rate {rate['estimate']:.3f} [95% CI {rate['low']:.3f}, {rate['high']:.3f}]")
    for group in summary.get("groups") or ():
        change = group.get("vs_previous")
        if change and change["regression"]:
            diff = change["pass_rate_change"] or {}
            lines.append(
                f"REGRESSION {summary['by']} {group['value']} vs {change['previous']}: "
                f"pass rate change {diff.get('estimate')} [95% CI {diff.get('low')}, {diff.get('high')}]"
            )
    return "\n".join(lines) + "\n"


def run_report(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    """Run ``report`` with parsed ``args``; returns the exit code."""
    # Imported here: the statistics stack (scipy.stats, scikit-learn, statsmodels) takes seconds to import,
    # and every other command of the CLI would pay for it at start-up.
    from aem_strands.report.html import render_html
    from aem_strands.report.load import load_labels, load_results
    from aem_strands.report.summary import summarise

    with _steps(stderr, len(args.paths) + 2) as step:
        loaded = load_results(args.paths, progress=_each(step))
        labels = load_labels(args.labels) if args.labels else None
        summary = summarise(loaded.records, by=args.by, labels=labels)
        step("statistics computed")
        page = None
        if args.html:
            page = render_html(loaded.records, summary, title=args.title, sources=[str(p) for p in args.paths])
        step("page rendered")
    for error in loaded.errors:
        print(f"aem-strands: {error}", file=stderr)
    if args.html and page is not None:
        args.html.write_text(page, encoding="utf-8")
        print(f"aem-strands: wrote {args.html} ({args.html.stat().st_size:,} bytes)", file=stderr)
    document = json.dumps(summary, indent=2, ensure_ascii=False) + "\n"
    if args.json:
        args.json.write_text(document, encoding="utf-8")
    stdout.write(_text(summary) if stdout.isatty() else document)
    if loaded.errors:
        return EXIT_BAD_INPUT
    return EXIT_REGRESSION if summary.get("regressions") else EXIT_OK
