"""``aem-strands report RESULTS... [--html OUT.html] [--json OUT.json] [--by FIELD] [--labels FILE]``.

Reads ``score`` output and Strands Evals report files one record at a time (memory stays flat: only the
statistics' inputs and, with ``--html``, each dialog's compact row are kept), prints the headline (and the
regressions called, with ``--by``) to stdout, writes the HTML page and the JSON summary, and names the files
written on stderr. ``--json -`` writes the JSON summary to stdout instead of the text.

Outputs are checked before the work (not an input, not each other, in a folder we can write) and written
whole or not at all (``aem_strands.output``). A record or a ``--labels`` line that cannot be read is named on
stderr (file, line, dialog, field) and left out; the rest is reported. Exit codes: 0 ok, 1 a regression was
called, 2 some input could not be read (the rest is reported), 3 runtime error (handled by the main command).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Any

from aem_strands.errors import InputError, Location, printable
from aem_strands.output import AtomicFile, check_target, same_file
from aem_strands.report.words import counted
from aem_strands.result import json_text

EXIT_OK, EXIT_REGRESSION, EXIT_BAD_INPUT = 0, 1, 2


def add_report_parser(commands: Any) -> argparse.ArgumentParser:
    """Register the ``report`` subcommand on the main parser's subparsers."""
    report: argparse.ArgumentParser = commands.add_parser(
        "report", help="HTML/JSON report over score output or Strands Evals reports"
    )
    report.add_argument("paths", nargs="+", type=Path, metavar="RESULTS", help="score JSON/JSONL or Strands reports")
    report.add_argument("--html", type=Path, metavar="OUT.html", help="write the self-contained HTML report here")
    report.add_argument("--json", type=Path, metavar="OUT.json", help="write the JSON summary here; - for stdout")
    report.add_argument("--by", metavar="FIELD", help="group by this metadata field (e.g. version, model)")
    report.add_argument(
        "--labels", type=Path, metavar="FILE", help='human labels, JSONL {"dialog_id", "turn_no"?, "label"}'
    )
    report.add_argument("--title", default="AEM correctness report", help="title of the HTML page")
    report.add_argument(
        "--evaluator", metavar="NAME",
        help="Strands reports: the AEM evaluator to report (default: the first; named when there are several)",
    )  # fmt: skip
    return report


@contextmanager
def _steps(stream: IO[str], total: int) -> Iterator[Callable[[str], None]]:
    """A progress bar of ``total`` steps on a terminal (``step(description)`` advances it); nothing when piped."""
    if not stream.isatty():
        yield lambda description: None
        return
    from rich.console import Console
    from rich.markup import escape as markup_escape
    from rich.progress import Progress

    with Progress(console=Console(file=stream), transient=True) as progress:
        task = progress.add_task("reading results", total=total)
        # a path is shown as text: escaped for the terminal and for rich's markup ("[b]" in a name)
        yield lambda text: progress.update(task, advance=1, description=markup_escape(printable(text)))


def _each(step: Callable[[str], None]) -> Callable[[Iterable[Any]], Iterable[Any]]:
    def wrap(items: Iterable[Any]) -> Iterator[Any]:
        for item in items:
            yield item
            step(f"read {item}")

    return wrap


def _estimate(value: dict[str, Any]) -> str:
    if value.get("estimate") is None:
        return "n/a"
    if value.get("low") is None:
        return f"{value['estimate']:.3f}"
    return f"{value['estimate']:.3f} [{value['low']:.3f}, {value['high']:.3f}]"


def trial_lines(trials: dict[str, Any], prefix: str = "") -> list[str]:
    """pass^k for each k with its 95% interval, then the flaky and the never-passing cases, as text lines."""
    ks = ", ".join(f"pass^{row['k']} {_estimate(row)}" for row in trials["pass_hat_k"])
    cases = counted(trials["cases"], "case")
    lines = [f"{prefix}{cases}, {counted(trials['trials'], 'trial')}: {ks}"]
    for key, what in (("flaky", "flaky (passed sometimes)"), ("never_passed", "never passed")):
        count = trials[f"{key}_count"]
        if count:
            shown = ", ".join(trials[key]) + (" ..." if count > len(trials[key]) else "")
            lines.append(f"{prefix}{what}: {counted(count, 'case')}: {shown}")
    return lines


def trace_lines(traces: dict[str, Any], by: str | None) -> list[str]:
    """The trace view as text lines: pass, veto and score rates, each dimension's passes, the critical rules, the
    rates per ``--by`` value and the regressions called."""
    o = traces["overall"]
    lines = [
        f"traces: {counted(o['traces'], 'trace')}, pass rate {_estimate(o['pass_rate'] or {})}, veto rate "
        f"{_estimate(o['veto_rate'] or {})}, mean score {_estimate(o['mean_score'] or {})}, "
        f"{o['inconclusive']} inconclusive"
    ]
    for name, counts in traces["dimensions"].items():
        if counts["applicable"]:
            lines.append(f"  {name}: {counts['passed']} of {counts['applicable']} pass")
    if traces["critical_rules"]:
        rules = ", ".join(f"{rule} {n}" for rule, n in traces["critical_rules"].items())
        lines.append(f"  first critical steps chosen by: {rules}")
    for group in traces.get("groups") or ():
        rates = f"pass rate {_estimate(group['pass_rate'] or {})}, veto rate {_estimate(group['veto_rate'] or {})}"
        lines.append(f"  {by}={group['value']}: {counted(group['traces'], 'trace')}, {rates}")
        lines += _regression_line(f"traces {by}", group)
    return lines


def _regression_line(label: str, group: dict[str, Any]) -> list[str]:
    """The REGRESSION line of a group whose change against the one before it is a regression, else none."""
    change = group.get("vs_previous")
    if not change or not change["regression"]:
        return []
    diff = change["pass_rate_change"] or {}
    return [
        f"REGRESSION {label} {group['value']} vs {change['previous']}: "
        f"pass rate change {diff.get('estimate')} [95% CI {diff.get('low')}, {diff.get('high')}]"
    ]


def _text(summary: dict[str, Any]) -> str:
    o = summary["overall"]
    lines = [summary["headline"]]
    rate = o["pass_rate"] or {}
    if rate.get("low") is not None:
        lines.append(f"pass rate {rate['estimate']:.3f} [95% CI {rate['low']:.3f}, {rate['high']:.3f}]")
    if summary.get("traces"):
        lines += trace_lines(summary["traces"], summary.get("by"))
    if summary.get("trials"):
        lines += trial_lines(summary["trials"], "trials: ")
        for group in summary.get("groups") or ():
            if group.get("trials"):
                lines += trial_lines(group["trials"], f"trials {summary['by']}={group['value']}: ")
    for group in summary.get("groups") or ():
        lines += _regression_line(str(summary["by"]), group)
    return "".join(printable(line) + "\n" for line in lines)  # dialog ids and values from the input, escaped


def _targets(args: argparse.Namespace) -> list[tuple[Path, str]]:
    """The files to write, each checked (not an input, not the other output, a folder that exists)."""
    inputs = [*args.paths, args.labels]
    targets = [
        (path, flag) for path, flag in ((args.html, "--html"), (args.json, "--json")) if path and str(path) != "-"
    ]
    for path, flag in targets:
        check_target(path, inputs, flag)
    if len(targets) == 2 and same_file(targets[0][0], targets[1][0]):
        raise InputError("names the same file as --html", Location(str(targets[1][0]), field="--json"))
    return targets


def _noter(stderr: IO[str]) -> Callable[[str], None]:
    def note(text: str) -> None:
        print(f"aem-strands: {printable(text)}", file=stderr)

    return note


def run_report(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    """Run ``report`` with parsed ``args``; returns the exit code."""
    # Imported here: the statistics stack (scipy.stats, scikit-learn, statsmodels) takes seconds to import,
    # and every other command of the CLI would pay for it at start-up.
    from aem_strands.report.html import DialogRows, render_html
    from aem_strands.report.load import iter_results, load_labels
    from aem_strands.report.summary import SummaryTally

    targets = _targets(args)
    errors = 0
    with ExitStack() as outputs:
        files = {flag: outputs.enter_context(AtomicFile(path, flag)) for path, flag in targets}  # writable, or exit 2
        note = _noter(stderr)
        unread: list[InputError] = []  # bad label lines: named, skipped, and the exit code says so
        labels = load_labels(args.labels, on_error=unread.append) if args.labels else None
        for error in unread:
            note(str(error))
        errors += len(unread)
        tally = SummaryTally(by=args.by, labels=labels)
        rows = DialogRows(args.by) if args.html else None
        with _steps(stderr, len(args.paths) + 2) as step:
            for path in _each(step)(args.paths):
                for item in iter_results(path, evaluator=args.evaluator, note=note):
                    if isinstance(item, InputError):
                        errors += 1
                        note(str(item))
                        continue
                    tally.add(item)
                    if rows is not None:
                        rows.add(item)
            summary = tally.summary()
            step("statistics computed")
            if rows is not None:
                files["--html"].write(
                    render_html(rows, summary, title=args.title, sources=[str(p) for p in args.paths])
                )
            step("page rendered")
        document = json_text(summary, 2) + "\n"  # the summary holds no NaN (json_safe); C1 controls escaped
        if "--json" in files:
            files["--json"].write(document)
    written = [f"{printable(str(path))} ({counted(path.stat().st_size, 'byte')})" for path, _ in targets]
    if written:
        print(f"aem-strands: wrote {', '.join(written)}", file=stderr)
    stdout.write(document if args.json is not None and str(args.json) == "-" else _text(summary))
    if errors:
        return EXIT_BAD_INPUT
    return EXIT_REGRESSION if summary.get("regressions") else EXIT_OK
