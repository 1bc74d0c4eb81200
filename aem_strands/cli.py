"""The ``aem-strands`` command: a thin shell over the public API.

Exit codes follow the host's convention: 0 every dialog passes, 1 some dialog fails, 2 bad input
(a file or a dialog could not be read; the others are still scored), 3 runtime error; and 4 when no
dialog fails but some could not be judged (inconclusive: a scorer failed, e.g. the LLM judge without
credentials). Precedence: 2, then 1, then 4. 130 when interrupted (Ctrl-C), 141 when the reader of
the output went away (``| head -1``); both stop quietly and keep what was written.

Results stream: each record is written as soon as its dialog is scored. ``--out`` is checked before
any work (not an input, a writable folder), written to a temporary file beside it and renamed into
place when the run ends, also when it stops early, so it never holds a torn record.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from aem_strands.calibrate import add_calibrate_parser, run_calibrate
from aem_strands.compare.chain import Comparator, ComparisonRequest
from aem_strands.decode import MAX_DEPTH, MAX_NUMBER_CHARS, MAX_STRING_CHARS, find_flaw, read_records, require_utf8
from aem_strands.errors import AemError, ConfigError, InputError, Location, printable
from aem_strands.evaluate import make_comparator
from aem_strands.load import LoadedRecord, read_lines, records_or_error
from aem_strands.options import SCORER_CHOICES, EvalOptions, add_option_flags, options_from_args
from aem_strands.output import (
    AtomicFile,
    Stopped,
    Terminated,
    check_outputs,
    check_target,
    raise_if_stopped,
    terminated_as_interrupt,
)
from aem_strands.render import render_dialog, render_error, render_footer, rich_dialog
from aem_strands.report import add_report_parser, run_report
from aem_strands.report.words import counted, headline
from aem_strands.result import DialogResult, json_text, record_of
from aem_strands.trace.command import add_trace_parser, run_trace
from aem_strands.types import Comparison, ValueKind
from aem_strands.workers import ScoredText, isolated, score_chunk, scored_texts

EXIT_OK, EXIT_FAILURES, EXIT_BAD_INPUT, EXIT_RUNTIME, EXIT_INCONCLUSIVE = 0, 1, 2, 3, 4
EXIT_INTERRUPTED, EXIT_BROKEN_PIPE, EXIT_TERMINATED = 130, 141, 143
CHUNK_MAX = 64
"""Most dialogs scored in one batch (batches grow 1, 2, 4, ... so the first records come out at once)."""
EXIT_CODES_HELP = f"""exit codes:
  0  every dialog passes (or there was nothing to judge)
  1  some dialog fails
  2  bad input: a file, record or option could not be read (the other dialogs are still scored)
  3  runtime error
  4  inconclusive: no dialog fails, but some turn could not be judged (e.g. the LLM judge was unreachable)
  130  interrupted (Ctrl-C): the records written so far are kept
  141  the output pipe closed early (e.g. | head -1): stops quietly
  143  terminated (SIGTERM): as 130; no temporary file is left behind
precedence when several apply: 2, then 1, then 4
PATH may be - (stdin); .jsonl/.ndjson are JSONL, .json is JSON, any other name is read by its content
limits per record (beyond them the record is an error, the others are scored): nesting {MAX_DEPTH} levels,
number literals {MAX_NUMBER_CHARS} characters, strings {MAX_STRING_CHARS:,} characters of valid Unicode;
NaN and Infinity are refused"""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose help is plain text: the reST literal quotes of docstrings (````x````) are dropped."""

    def format_help(self) -> str:
        return re.sub(r"``(.+?)``", r"\1", super().format_help())

    def format_usage(self) -> str:
        return re.sub(r"``(.+?)``", r"\1", super().format_usage())


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="aem-strands",
        description=__doc__.splitlines()[0] if __doc__ else None,
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    score = commands.add_parser("score", help="score annotated dialog files")
    score.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="JSON or JSONL dialog files; - for stdin")
    add_option_flags(score, scoring=True)
    score.add_argument("--format", choices=("json", "jsonl", "table"), help="default: table on a terminal, else jsonl")
    score.add_argument("--out", type=Path, help="write results to this file instead of stdout")
    compare = commands.add_parser("compare", help="decide equivalence of value pairs")
    compare.add_argument(
        "--pairs", type=Path, required=True, help='JSONL of {"gold", "predicted", "kind"}; - for stdin'
    )
    add_option_flags(compare, scoring=False)
    compare.add_argument("--out", type=Path, help="write results to this file instead of stdout")
    add_calibrate_parser(commands)
    add_report_parser(commands)
    add_trace_parser(commands)
    _add_strands_parsers(commands)
    return parser


def _add_strands_parsers(commands: Any) -> None:
    """``export-regression`` and ``trials``: Strands Evals files in, an experiment file out (the commands import
    ``strands_evals`` only when they run)."""
    export = commands.add_parser(
        "export-regression", help="write every failing case of Strands Evals reports as an experiment file"
    )
    export.add_argument("paths", nargs="+", type=Path, metavar="RESULTS", help="Strands Evals report files")
    export.add_argument("--out", type=Path, required=True, metavar="OUT.json", help="the experiment file to write")
    export.add_argument("--evaluator", metavar="NAME", help="the AEM evaluator whose verdicts count (default: first)")
    export.add_argument(
        "--scorer", choices=SCORER_CHOICES, help="the written AemSessionEvaluator's scorer (default: its own default)"
    )
    export.add_argument("--inputs", nargs="+", type=Path, default=[], metavar="FILES",
                        help="the dialog or trace files score / trace read, when RESULTS are their output")  # fmt: skip
    export.add_argument("--policy", type=Path, metavar="FILE", help="trace output: the policy it was judged under")
    export.add_argument("--gold", type=Path, metavar="FILE", help="trace output: the --gold file it was judged with")
    export.add_argument("--budget", action="append", default=[], metavar="NAME=VALUE", dest="budgets",
                        help="trace output: a --budget it was judged with (repeatable)")  # fmt: skip
    export.add_argument("--keep-pii", action="store_true",
                        help="trace output: write the traces' personal data as it is (default: redacted)")  # fmt: skip
    trials = commands.add_parser(
        "trials", help="expand an experiment file: each case K times, for pass^k (strands-evals run runs it)"
    )
    trials.add_argument("experiment", type=Path, metavar="EXPERIMENT.json", help="a Strands Evals experiment file")
    trials.add_argument("--trials", type=int, required=True, metavar="K", help="trials per case (>= 1)")
    trials.add_argument("--out", type=Path, required=True, metavar="OUT.json", help="the expanded experiment file")


INPUT_FILES = {"paths": "input", "experiment": "input", "pairs": "--pairs", "thresholds_file": "--thresholds",
               "thresholds": "--thresholds", "tools": "--tools", "policy": "--policy", "gold": "--gold",
               "labels": "--labels", "inputs": "--inputs"}  # fmt: skip
"""The arguments (by ``dest``) of every command that name a file it reads."""
INPUT_FOLDERS = {"embedding_model": "--embedding-model"}
"""The arguments that name a folder it reads (an output inside one would replace one of its files)."""
OUTPUT_FILES = {"out": "--out", "html": "--html", "json": "--json", "write_config": "--write-config"}
"""The arguments that name a file it writes."""


def check_outputs_of(args: argparse.Namespace) -> None:
    """Refuse, before any work, an output of the command that is one of its inputs, lies in an input folder or
    names the file of another output (``aem_strands.output.check_outputs``): an ``InputError``, exit 2."""

    def given(names: dict[str, str]) -> list[tuple[str, Path]]:
        found = []
        for dest, flag in names.items():
            value = getattr(args, dest, None)
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, (str, Path)):
                    found.append((flag, Path(item)))
        return found

    check_outputs(given(OUTPUT_FILES), given(INPUT_FILES), given(INPUT_FOLDERS))


def _error_line(error: InputError) -> str:
    return f"aem-strands: {printable(str(error))}"


class _Output:
    """Where records go, one at a time: stdout, or ``--out`` through a temporary file renamed into place at the end.

    Opening checks ``--out`` (not an input, not a folder, in a folder we can write) before any work is done.
    ``--out`` is published only when the run ends, or when it is interrupted (Ctrl-C, ``SIGTERM``: the records
    so far, each whole); on any other failure (a full disk) the temporary file is removed and an existing
    ``--out`` is left as it was.
    """

    def __init__(self, target: Path | None, inputs: Iterable[Path | None], stdout: IO[str], fmt: str | None) -> None:
        self.target, self.count = target, 0
        self._file: AtomicFile | None = None
        if target is not None:
            check_target(target, inputs, "--out")
            self._file = AtomicFile(target, "--out")
            self.stream: IO[str] = self._file.stream
        else:
            self.stream = stdout
        self.format = fmt or ("table" if self.stream.isatty() else "jsonl")
        self._rich = self.format == "table" and self.stream.isatty()
        # The table opens with the headline over every dialog (aem_strands.report.words.headline), so its
        # blocks are held until the run ends (or is interrupted); JSON and JSONL records stream.
        self._held: list[DialogResult | InputError] = []

    def __enter__(self) -> _Output:
        return self

    def write(self, item: DialogResult | InputError | ScoredText | dict[str, Any]) -> None:
        """Write one result, input error, result a worker wrote or (``compare``) plain record, and flush it."""
        if self.format == "table" and isinstance(item, (DialogResult, InputError)):
            self._held.append(item)
            self.count += 1
            return
        if isinstance(item, ScoredText):
            text = item.text
        else:
            text = json_text(item if isinstance(item, dict) else record_of(item), 2 if self.format == "json" else None)
        if self.format == "json":
            self.stream.write(("[\n" if self.count == 0 else ",\n") + text)
        else:
            self.stream.write(text + "\n")
        self.count += 1
        self.stream.flush()

    def _write_table(self) -> None:
        held, self._held = self._held, []
        top = printable(headline([r for r in held if isinstance(r, DialogResult)]))
        if self._rich:
            self._print_rich(top, held)
        else:
            self.stream.write(top + "\n\n")
            for item in held:
                self.stream.write(render_dialog(item) if isinstance(item, DialogResult) else render_error(item))
        self.stream.flush()

    def _print_rich(self, top: str, held: list[DialogResult | InputError]) -> None:
        # rich is imported for a terminal only: its import costs a tenth of a second or more
        from rich.console import Console
        from rich.text import Text

        console = Console(file=self.stream, markup=False, emoji=False, highlight=False)
        console.print(Text(top, style="bold"))
        console.print()
        for item in held:
            console.print(rich_dialog(item) if isinstance(item, DialogResult) else Text(render_error(item), "red"))

    def footer(self, text: str) -> None:
        if self.format == "table":
            self._write_table()
            self.stream.write(text)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        interrupted = kind is not None and issubclass(kind, KeyboardInterrupt)
        broken = kind is not None and issubclass(kind, BrokenPipeError)
        try:
            if self._held and interrupted:
                self._write_table()  # interrupted: what was scored so far, under its own headline
            if self.format == "json" and not broken:
                self.stream.write("[]\n" if self.count == 0 else "\n]\n")
            if self._file is None:
                if not broken:
                    self.stream.flush()
                return
            if kind is None or (interrupted and self.count):
                self._file.commit()
        finally:
            if self._file is not None:
                self._file.discard()  # nothing once committed; else the temporary file goes, --out stays as it was


def _loaded(paths: Sequence[Path], options: EvalOptions, stdin: IO[Any] | None) -> Iterator[LoadedRecord]:
    align = options.align_options()
    for path in paths:
        yield from records_or_error(path, align=align, stdin=stdin)


def _scored(records: Iterable[LoadedRecord], options: EvalOptions) -> Iterator[DialogResult | InputError]:
    """Each record's result or error, in input order, as soon as its batch is scored (batches grow to
    ``--batch-size``, default CHUNK_MAX; with ``--workers`` batches of that size go to worker processes, with
    ``--engine ray`` to Ray actors)."""
    if options.engine == "ray":
        from aem_strands.distributed import scored_on_ray

        yield from scored_on_ray(records, options)
        return
    comparator = make_comparator(options)
    if options.workers > 1:
        yield from _scored_by_workers(records, options, comparator)
        return
    for chunk in _record_chunks(records, options.batch_size or CHUNK_MAX, first=1):
        yield from score_chunk(chunk, options, comparator)


def _scored_by_workers(
    records: Iterable[LoadedRecord], options: EvalOptions, comparator: Comparator
) -> Iterator[DialogResult | InputError]:
    """``_scored`` with worker processes; a batch that fails there is scored again here, dialog by dialog."""
    from aem_strands.workers import scored_in_workers

    size = options.batch_size or CHUNK_MAX
    batches = ((chunk, [r.dialog for r in chunk if r.dialog is not None]) for chunk in _record_chunks(records, size))
    for chunk, future in scored_in_workers(batches, options):
        try:
            results = iter(future.result())
        except Exception as failure:
            if not isolated(failure):
                raise
            yield from score_chunk(chunk, options, comparator)
            continue
        for record in chunk:
            if record.error is not None:
                yield record.error
            elif record.dialog is not None:
                yield next(results)


def _record_chunks(
    records: Iterable[LoadedRecord], size: int, first: int | None = None
) -> Iterator[list[LoadedRecord]]:
    """``records`` in runs of ``size`` dialogs (the errors between them ride along); with ``first``, the runs start
    at ``first`` dialogs and double up to ``size``, so the first records come out at once."""
    chunk: list[LoadedRecord] = []
    dialogs, target = 0, first or size
    for record in records:
        chunk.append(record)
        dialogs += record.dialog is not None
        if dialogs >= target:
            yield chunk
            chunk, dialogs, target = [], 0, min(2 * target, size)
    if chunk:
        yield chunk


def _options(args: argparse.Namespace) -> EvalOptions:
    if getattr(args, "thresholds_file", None) is not None:
        require_utf8(args.thresholds_file, "--thresholds")
    return options_from_args(args)


@contextlib.contextmanager
def _progress(stderr: IO[str]) -> Iterator[Callable[[], None]]:
    """A live count of scored dialogs on a terminal (rich; gone when the run ends); nothing when piped."""
    if not stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns = (SpinnerColumn(), TextColumn("scored {task.fields[done]}"), TimeElapsedColumn())
    with Progress(*columns, console=Console(file=stderr), transient=True) as progress:
        task = progress.add_task("score", total=None, done=counted(0, "dialog"))
        done = 0

        def tick() -> None:
            nonlocal done
            done += 1
            progress.update(task, advance=1, done=counted(done, "dialog"))

        yield tick


def _score(args: argparse.Namespace, stdout: IO[str], stderr: IO[str], stdin: IO[Any] | None) -> int:
    options = _options(args)
    # What the exit code needs, not every result (memory stays flat): one failing dialog, the inconclusive ones.
    notable: list[DialogResult | ScoredText] = []
    scored = passed = 0
    failed = False
    errors: list[InputError] = []
    inputs = [*args.paths, getattr(args, "thresholds_file", None), getattr(args, "tools", None)]
    with _Output(args.out, inputs, stdout, args.format) as output, _progress(stderr) as tick:
        for item in _results(args.paths, options, output.format, stdin):
            tick()
            if isinstance(item, InputError):
                errors.append(item)
                print(_error_line(item), file=stderr)
            else:
                scored, passed = scored + 1, passed + item.test_pass
                if (item.status == "fail" and not failed) or item.status == "inconclusive":
                    notable.append(item)
                failed = failed or item.status == "fail"
            output.write(item)
            raise_if_stopped()  # a stop whose exception a __del__ swallowed
        output.footer(render_footer(scored, passed, len(errors)))
    return exit_code(notable, errors, stderr)


def _results(
    paths: Sequence[Path], options: EvalOptions, fmt: str, stdin: IO[Any] | None
) -> Iterator[DialogResult | InputError | ScoredText]:
    """Each record's result or error, in input order. With JSON or JSONL output, ``--workers`` processes or
    ``--engine ray`` actors read, score and write their share of the input (``aem_strands.workers.scored_texts``,
    ``aem_strands.distributed.scored_texts_on_ray``)."""
    indent = 2 if fmt == "json" else None
    if options.engine == "ray" and fmt in ("json", "jsonl"):
        from aem_strands.distributed import scored_texts_on_ray

        return scored_texts_on_ray(paths, options, indent, stdin)
    if options.workers > 1 and fmt in ("json", "jsonl"):
        return scored_texts(paths, options, indent, options.batch_size or CHUNK_MAX, stdin)
    return _scored(_loaded(paths, options, stdin), options)


def exit_code(results: Sequence[DialogResult | ScoredText], errors: Sequence[InputError], stderr: IO[str]) -> int:
    """The exit code of a scoring run (see ``EXIT_CODES_HELP``); names the inconclusive dialogs on stderr."""
    inconclusive = [r.dialog_id for r in results if r.status == "inconclusive"]
    if inconclusive:
        shown = ", ".join(inconclusive[:5]) + (" ..." if len(inconclusive) > 5 else "")
        why = "some turn could not be judged"
        print(f"aem-strands: {counted(len(inconclusive), 'dialog')} inconclusive ({why}): {shown}", file=stderr)
    if errors:
        return EXIT_BAD_INPUT
    if any(r.status == "fail" for r in results):
        return EXIT_FAILURES
    return EXIT_INCONCLUSIVE if inconclusive else EXIT_OK


def _pair(value: Any, where: Location) -> ComparisonRequest | InputError:
    flaw = find_flaw(value)
    if flaw is not None:
        return InputError(flaw.message, replace(where, field=flaw.path or None))
    missing = [k for k in ("gold", "predicted") if not isinstance(value, dict) or k not in value]
    if missing:
        return InputError("missing field", replace(where, field=missing[0]))
    kind = value.get("kind", "argument")
    if kind not in ("argument", "response"):
        return InputError(f"kind must be 'argument' or 'response', got {kind!r}", replace(where, field="kind"))
    return ComparisonRequest(value["gold"], value["predicted"], ValueKind(kind))


def _read_pairs(path: Path, stdin: IO[Any] | None) -> Iterator[ComparisonRequest | InputError]:
    """One request (or error) per non-blank JSONL line of ``path`` (``-``: stdin), lazily."""
    for record in read_records(read_lines(path, stdin), str(path), "jsonl"):
        where = Location(str(path), line=record.line)
        yield InputError(record.error, where) if record.error is not None else _pair(record.value, where)


def _compare_chunk(comparator: Comparator, requests: list[ComparisonRequest]) -> list[Comparison | InputError]:
    try:
        return list(comparator.compare_many(requests))
    except Exception as failure:
        if not isolated(failure):
            raise
    out: list[Comparison | InputError] = []
    for request in requests:
        try:
            out.append(comparator.compare_request(request))
        except Exception as single:
            if not isolated(single):
                raise
            out.append(InputError(f"could not be compared: {printable(f'{type(single).__name__}: {single}')}"))
    return out


def _compare(args: argparse.Namespace, stdout: IO[str], stderr: IO[str], stdin: IO[Any] | None) -> int:
    comparator = make_comparator(_options(args))
    compared = bad = 0
    elapsed = 0.0
    with _Output(args.out, [args.pairs, getattr(args, "thresholds_file", None)], stdout, "jsonl") as output:
        items = _read_pairs(args.pairs, stdin)
        size = 1
        while True:
            chunk: list[ComparisonRequest | InputError] = []
            for item in items:
                chunk.append(item)
                if sum(isinstance(i, ComparisonRequest) for i in chunk) >= size:
                    break
            if not chunk:
                break
            size = min(2 * size, 1024)
            requests = [i for i in chunk if isinstance(i, ComparisonRequest)]
            started = time.perf_counter()
            done = iter(_compare_chunk(comparator, requests))
            elapsed += time.perf_counter() - started
            for item in chunk:
                outcome = next(done) if isinstance(item, ComparisonRequest) else item
                if isinstance(outcome, InputError):
                    bad += 1
                    print(_error_line(outcome), file=stderr)
                    output.write({"error": outcome.to_dict()})
                else:
                    compared += 1
                    record = {"equivalent": outcome.equivalent, "score": round(outcome.score, 4)}
                    output.write({**record, "method": outcome.method.value})
            raise_if_stopped()
    embedded = getattr(comparator.scorer, "embedded_count", None)
    summary = f"aem-strands: compared {counted(compared, 'pair')} in {elapsed:.2f} s"
    if compared and elapsed >= 0.01:  # a rate over less than a hundredth of a second says nothing
        summary += f" ({compared / elapsed:,.0f} pairs/s)"
    if embedded is not None:
        summary += f"; {counted(embedded, 'distinct string')} embedded"
    print(summary, file=stderr)
    return EXIT_BAD_INPUT if bad else EXIT_OK


def _quiet_stdout(stream: IO[str]) -> None:
    """After a broken pipe: point stdout at /dev/null so the interpreter's last flush cannot complain."""
    if stream is sys.stdout:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass


def _run(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[Any] | None) -> int:
    check_outputs_of(args)
    if args.command == "score":
        return _score(args, out, err, stdin)
    if args.command == "calibrate":
        return run_calibrate(args, out, err)
    if args.command == "report":
        return run_report(args, out, err)
    if args.command == "trace":
        return run_trace(args, out, err, stdin)
    if args.command == "export-regression":
        from aem_strands.strands.regression import run_export

        return run_export(args, out, err)
    if args.command == "trials":
        from aem_strands.strands.trials import run_trials

        return run_trials(args, out, err)
    return _compare(args, out, err, stdin)


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
    stdin: IO[Any] | None = None,
) -> int:
    """Run the command; returns the exit code (``SystemExit`` only from ``--help`` and usage errors).

    ``stdin`` is what ``-`` reads (default ``sys.stdin``).
    """
    out, err = stdout or sys.stdout, stderr or sys.stderr
    # The model loads from the installed package; its progress bars would only clutter stderr.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    args = build_parser().parse_args(argv)
    try:
        with terminated_as_interrupt():
            return _run(args, out, err, stdin)
    except KeyboardInterrupt as stop:
        kept = "the records already written are kept" if args.command in ("score", "compare") else "nothing written"
        terminated = isinstance(stop, Terminated)
        if isinstance(stop, Stopped):  # the command said what it kept
            kept, terminated = stop.kept, stop.terminated
        if terminated:
            print(f"aem-strands: terminated; {kept}", file=err)
            return EXIT_TERMINATED
        print(f"aem-strands: interrupted; {kept}", file=err)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _quiet_stdout(out)
        return EXIT_BROKEN_PIPE
    except InputError as error:
        print(_error_line(error), file=err)
        return EXIT_BAD_INPUT
    except AemError as error:
        print(f"aem-strands: {printable(str(error))}", file=err)
        return EXIT_BAD_INPUT if isinstance(error, ConfigError) else EXIT_RUNTIME
    except Exception as error:  # a crash must still give the runtime exit code and a readable line
        print(f"aem-strands: runtime error: {printable(f'{type(error).__name__}: {error}')}", file=err)
        return EXIT_RUNTIME


if __name__ == "__main__":
    sys.exit(main())
