"""``aem-strands trace``: the trajectory evaluation of trace files, with the exit codes, streaming, ``--workers`` and
fail-closed rules of ``score``.

Each trace's record is written as soon as it is judged (``--format jsonl``, the default when piped; ``json`` an
array; ``table`` one block a trace, the default on a terminal). Records are redacted (``aem_strands.trace.pii``:
e-mail, phone, card, government id, address, secrets become stable tokens such as ``<EMAIL_1>``) unless
``--keep-pii``; the checks see the real values. A trace that cannot be read is reported on stderr with its file,
line, trace, step and field, written as an error record, and skipped; every other trace is judged.

Inputs (``--input``): ``trace`` files (JSON, JSONL, YAML; ``aem_strands.trace.load``), annotated ``dialog`` files
(``aem_strands.trace.convert.trace_from_dialog``: the predicted side, with the gold side as gold), or OpenTelemetry
``spans`` exports (``aem_strands.strands.trace_adapter.traces_from_spans``).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import IO, Any

from aem_strands.errors import ConfigError, InputError, Location, printable
from aem_strands.options import EvalOptions, options_from_args
from aem_strands.output import AtomicFile, Stopped, Terminated, check_target, raise_if_stopped
from aem_strands.report.words import counted
from aem_strands.trace.checks.context import TraceJudge
from aem_strands.trace.types import Trace, TraceGold, TraceStatus
from aem_strands.types import JsonValue

EXIT_OK, EXIT_FAILURES, EXIT_BAD_INPUT, EXIT_INCONCLUSIVE = 0, 1, 2, 4
INPUT_CHOICES = ("trace", "dialog", "spans")
CHUNK = 32
"""Traces a worker process judges at a time."""


def add_trace_parser(commands: Any) -> None:
    """The ``trace`` subcommand's flags (the judging options come from ``EvalOptions``' own flags)."""
    from aem_strands.options import add_option_flags

    trace = commands.add_parser("trace", help="judge how agents got there: trace files, with or without gold")
    trace.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="trace, dialog or span files; - for stdin")
    trace.add_argument("--input", choices=INPUT_CHOICES, default="trace", help="what PATH holds (default: trace)")
    trace.add_argument("--gold", type=Path, help="expected tools / final state / final reply per trace or case id")
    trace.add_argument("--format", choices=("json", "jsonl", "table"), help="default: table on a terminal, else jsonl")
    trace.add_argument("--out", type=Path, help="write records to this file instead of stdout")
    trace.add_argument("--keep-pii", action="store_true", help="write personal data as it is (default: redacted)")
    trace.add_argument(
        "--strict", action="store_true", help="refuse trace fields the schema does not know (default: kept, warned)"
    )
    trace.add_argument(
        "--html", type=Path, help="also write the HTML report (step strips, vetoes, first critical steps)"
    )
    add_option_flags(trace, scoring=True, traces=True)


def _read_json_documents(path: Path, stdin: IO[Any] | None) -> Iterator[JsonValue | InputError]:
    from aem_strands.decode import format_of, read_records
    from aem_strands.load import read_lines

    for record in read_records(read_lines(path, stdin), str(path), format_of(str(path))):
        if record.error is not None:
            yield InputError(record.error, Location(str(path), line=record.line, index=record.index))
        else:
            yield record.value


def read_inputs(
    paths: Sequence[Path],
    kind: str,
    stdin: IO[Any] | None = None,
    *,
    strict: bool = False,
    warn: Callable[[str], None] | None = None,
) -> Iterator[Trace | InputError]:
    """Every trace of ``paths`` read as ``kind`` (see the module docstring), or the error of one that cannot be;
    ``strict`` and ``warn``: unknown trace fields (``aem_strands.trace.load.iter_traces``)."""
    if kind == "trace":
        from aem_strands.trace.load import iter_traces

        if any(str(p) == "-" for p in paths):
            raise ConfigError("trace files are read from paths; use --input dialog or spans for stdin")
        yield from iter_traces(paths, strict=strict, warn=warn)
        return
    for path in paths:
        if kind == "dialog":
            from aem_strands.load import records_or_error
            from aem_strands.trace.convert import trace_from_dialog
            from aem_strands.trace.types import TraceSource

            for record in records_or_error(path, stdin=stdin):
                if record.error is not None:
                    yield record.error
                    continue
                assert record.dialog is not None  # a record holds its dialog or its error
                source = TraceSource(record.where.file, record.where.line, record.where.index)
                yield dataclasses.replace(trace_from_dialog(record.dialog), source=source)
            continue
        from aem_strands.strands.trace_adapter import traces_from_spans

        documents: list[JsonValue] = []
        for item in _read_json_documents(path, stdin):
            if isinstance(item, InputError):
                yield item
            else:
                documents.append(item)
        try:
            yield from traces_from_spans(documents, str(path))
        except InputError as error:
            yield error


@functools.lru_cache(maxsize=4)
def _gold(gold_path: str) -> Mapping[str, TraceGold]:
    """The gold file, read once per process (every batch of a run judges against it)."""
    from aem_strands.trace.load import load_trace_gold

    return load_trace_gold(gold_path)


@functools.lru_cache(maxsize=4)
def _judge(timeout: float | None) -> TraceJudge:
    """One trace judge per process and timeout (its model is created once, on first use)."""
    from aem_strands.compare.trace_questions import TraceQuestionJudge

    return TraceQuestionJudge(timeout=timeout)


def _records_of(traces: list[Trace], options: EvalOptions, gold_path: str | None) -> list[dict[str, JsonValue]]:
    """Unredacted records of a batch of traces (run in a worker process, or here)."""
    from aem_strands.trace.evaluate import asks_judge, evaluate_traces
    from aem_strands.trace.record import trace_record

    gold = _gold(gold_path) if gold_path else None
    # the judge answers only what no rule decides, and only when the run asks for it
    judge = _judge(options.judge_timeout) if asks_judge(options) else None
    return [trace_record(r, None) for r in evaluate_traces(traces, options, gold=gold, judge=judge)]  # type: ignore[arg-type]


def _judged(
    items: Iterable[Trace | InputError], options: EvalOptions, gold_path: str | None
) -> Iterator[dict[str, JsonValue] | InputError]:
    """Each trace's record (unredacted) or error, in input order; ``options.workers`` processes judge batches."""
    if options.workers <= 1:
        batch: list[Trace] = []
        for item in items:
            if isinstance(item, InputError):
                yield from _records_of(batch, options, gold_path)
                batch = []
                yield item
            else:
                batch.append(item)
                if len(batch) >= CHUNK:
                    yield from _records_of(batch, options, gold_path)
                    batch = []
        yield from _records_of(batch, options, gold_path)
        return
    with ProcessPoolExecutor(max_workers=options.workers - 1) as pool:
        pending: list[Future[list[dict[str, JsonValue]]] | InputError] = []
        batch = []

        def flush() -> None:
            nonlocal batch
            if batch:
                pending.append(pool.submit(_records_of, batch, options, gold_path))
                batch = []

        for item in items:
            if isinstance(item, InputError):
                flush()
                pending.append(item)
            else:
                batch.append(item)
                if len(batch) >= CHUNK:
                    flush()
            while len(pending) > 2 * options.workers:
                head = pending.pop(0)
                yield from [head] if isinstance(head, InputError) else head.result()
        flush()
        for head in pending:
            yield from [head] if isinstance(head, InputError) else head.result()


def _table_block(record: dict[str, JsonValue]) -> str:
    status = str(record.get("status", "")).upper()
    veto = " (veto)" if record.get("veto") else ""
    lines = [f"trace {printable(str(record.get('trace_id')))}: {status}{veto}"]
    step = record.get("first_critical_failure_step")
    if step is not None:
        lines.append(f"  first critical failure step: {printable(str(step))} ({record.get('critical_rule', '')})")
        hypothesis = record.get("root_cause_hypothesis")
        if hypothesis:
            lines.append(f"  root cause: {printable(str(hypothesis))}")
    dimensions = record.get("dimensions")
    for name, verdict in (dimensions or {}).items() if isinstance(dimensions, dict) else []:
        passed = verdict.get("pass") if isinstance(verdict, dict) else None
        mark = "n/a " if passed is None else "pass" if passed else "FAIL"
        lines.append(f"  {name:<15}{mark}")
        for finding in verdict.get("findings", []) if isinstance(verdict, dict) else []:
            where = f"step {finding.get('step_id')}: " if finding.get("step_id") else ""
            lines.append(f"      {printable(where + str(finding.get('rule')) + ': ' + str(finding.get('message')))}")
    return "\n".join(lines) + "\n\n"


def _error_record(
    error: InputError, redact: Callable[[JsonValue], JsonValue] | None
) -> tuple[dict[str, JsonValue], str]:
    """The error's record and its stderr line, redacted as the records are unless ``--keep-pii`` (a message quotes
    the value it refused: ``got '4111 1111 1111 1111'``); the file, line and index stay, they join it to its input."""
    if redact is not None:
        from dataclasses import replace

        where = error.location

        def hidden(value: str | None) -> str | None:
            return None if value is None else str(redact(value))

        hidden_where = replace(
            where,
            dialog_id=hidden(where.dialog_id),
            field=hidden(where.field),
            trace_id=hidden(where.trace_id),
            step_id=hidden(where.step_id),
        )
        error = InputError(str(redact(error.message)), hidden_where)
    from aem_strands.trace.record import error_record

    return error_record(error), f"aem-strands: {printable(str(error))}"


def _kept(count: int, out: Path | None, html: Path | None, target: AtomicFile | None) -> str:
    """What an interrupted run kept: its records (each whole) and where, and the outputs not written."""
    if out is None:
        kept = f"{counted(count, 'record')} written to stdout"
    elif target is not None and target.committed:
        kept = f"{counted(count, 'record')} kept in {printable(str(out))}"
    else:
        kept = f"no record written; {printable(str(out))} not written (an earlier file there is left as it was)"
    return kept + ("; --html not written (it is rendered when the run ends)" if html is not None else "")


def run_trace(args: argparse.Namespace, stdout: IO[str], stderr: IO[str], stdin: IO[Any] | None) -> int:
    """Run ``aem-strands trace`` (see the module docstring); returns the exit code."""
    from aem_strands.trace.record import with_source

    options = options_from_args(args)
    gold_path = str(args.gold) if args.gold is not None else None
    if gold_path is not None:
        _gold(gold_path)  # a bad gold file stops the run before any work (ConfigError: exit 2)
    redact: Callable[[JsonValue], JsonValue] | None = None
    if not args.keep_pii:
        from aem_strands.trace.pii import Redactor

        redact = Redactor().redact_json
    inputs = [*args.paths, args.gold, getattr(args, "policy", None), getattr(args, "tools", None),
              getattr(args, "thresholds_file", None)]  # fmt: skip
    target: AtomicFile | None = None
    html: AtomicFile | None = None
    if args.html is not None:
        check_target(args.html, [*inputs, args.out], "--html")
        html = AtomicFile(args.html, "--html")
    if args.out is not None:
        check_target(args.out, inputs, "--out")
        target = AtomicFile(args.out, "--out")
    stream = target.stream if target is not None else stdout
    fmt = args.format or ("table" if stream.isatty() else "jsonl")
    judged = passed = failed = inconclusive = 0
    errors: list[InputError] = []
    count = 0
    shown: list[dict[str, JsonValue]] = []
    strips: dict[str, list[dict[str, JsonValue]]] = {}

    def noted(items: Iterable[Trace | InputError]) -> Iterator[Trace | InputError]:
        for item in items:
            if html is not None and isinstance(item, Trace):
                strips[item.trace_id] = [
                    {"step_id": s.step_id, "action_type": s.action_type.value, "tool_name": s.tool_name}
                    for s in item.steps
                ]
            yield item

    try:

        def warned(text: str) -> None:
            print(f"aem-strands: warning: {text}", file=stderr)

        inputs_read = read_inputs(args.paths, args.input, stdin, strict=getattr(args, "strict", False), warn=warned)
        for item in _judged(noted(inputs_read), options, gold_path):
            if isinstance(item, InputError):
                errors.append(item)
                record, line = _error_record(item, redact)
                print(line, file=stderr)
            else:
                record = with_source(item, redact) if redact is not None else item  # source: never redacted
                judged += 1
                status = record.get("status")
                passed += status == TraceStatus.PASS.value
                failed += status == TraceStatus.FAIL.value
                inconclusive += status == TraceStatus.INCONCLUSIVE.value
            if html is not None:
                shown.append(record)
            if fmt == "table":
                if "error" not in record:
                    stream.write(_table_block(record))
            else:
                text = json.dumps(record, ensure_ascii=False, indent=2 if fmt == "json" else None, allow_nan=False)
                stream.write(("[\n" if count == 0 else ",\n") + text if fmt == "json" else text + "\n")
            count += 1
            stream.flush()
            raise_if_stopped()  # a stop whose exception a __del__ swallowed
        raise_if_stopped()
        if fmt == "json":
            stream.write("[]\n" if count == 0 else "\n]\n")
        if fmt == "table":
            tail = [f"{inconclusive} inconclusive"] if inconclusive else []
            tail += [counted(len(errors), "error")] if errors else []
            stream.write(", ".join([f"{counted(judged, 'trace')} judged: {passed} pass, {failed} fail", *tail]) + "\n")
        if html is not None:
            from aem_strands.trace.html import render_traces_html

            html.write(render_traces_html(shown, strips, redact))
            html.commit()
        if target is not None:
            target.commit()
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM: the records judged so far are kept, each whole
        if fmt == "json" and count:
            stream.write("\n]\n")
        if target is not None and count:
            target.commit()
        raise Stopped(_kept(count, args.out, args.html, target), isinstance(stop, Terminated)) from None
    finally:
        for written in (target, html):
            if written is not None:
                written.discard()
    if errors:
        return EXIT_BAD_INPUT
    if failed:
        return EXIT_FAILURES
    return EXIT_INCONCLUSIVE if inconclusive else EXIT_OK
