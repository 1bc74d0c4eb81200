"""Reading results for the report, one record at a time: ``aem-strands score`` output and Strands Evals report files.

Accepted, per file:

- ``score --format json`` (an array of dialog records) or ``--format jsonl`` (one per line); error
  records (``{"dialog_id", "error"}``) are kept as input errors;
- ``aem-strands trace`` output (JSONL, or a JSON array with ``--format json``): trace records (``trace_id``,
  ``dimensions``...), read as ``TraceRecord``; its error records are input errors as above;
- a Strands Evals report (``EvaluationReport.to_file``, ``strands-evals run -o``): the session rows of one
  AEM evaluator and the rows of one ``AemTraceEvaluator`` (``evaluator`` names one of either kind; default the
  first of each kind, named in ``notes`` when there are several), so each case counts once per kind; the case's
  metadata (``version``, ``model``...) is merged into the record's ``metadata``, without the ``aem`` and
  ``trace_gold`` gold entries, and ``metadata["evaluator"]`` names the evaluator. A trace row keeps the host's
  ``score`` and ``test_pass``; a case the trace evaluator could not judge is an input error naming the case;
- a labels file for ``--labels``: JSONL of ``{"dialog_id", "turn_no"?, "label"}`` where ``label`` is
  ``true``/``false``, ``"pass"``/``"fail"`` or a number in [0, 1].

Results are read as ``score`` reads dialogs (``aem_strands.decode``: the same limits on nesting, numbers
and strings), and each record is checked against ``ResultRecord`` before the report uses it: a record that
breaks a limit or has a field of the wrong type (``turns: [1, 2]``, a count given as text, list metadata, a
score outside [0, 1]) is an ``InputError`` naming the file, line, dialog and field, and the others are read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from aem_strands.decode import Record, find_flaw, format_of, jsonl_records, read_records
from aem_strands.errors import InputError, Location, printable
from aem_strands.load import read_lines
from aem_strands.report.trace_words import is_trace_record

ProgressFn = Callable[[Iterable[Any]], Iterable[Any]]
NoteFn = Callable[[str], None]
MAX_COUNT = 2**53
"""The largest count or turn number a record may hold (the largest integer a JSON reader keeps exactly)."""
MAX_LATENCY_MS = 1e12

Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
_STRICT = ConfigDict(strict=True, extra="allow", allow_inf_nan=False)


class _Tally(BaseModel):
    """A ``chains`` bucket or a ``sub_metrics`` rate: counts that agree with each other."""

    model_config = _STRICT
    turns: Count = 0
    passed: Count = 0
    total: Count = 0
    rate: Annotated[float, Field(ge=0.0, le=1.0)] | None = None

    @model_validator(mode="after")
    def _passed_within(self) -> _Tally:
        bound = max(self.turns, self.total)
        if self.passed > bound:
            raise ValueError(f"passed ({self.passed}) is more than the count it is part of ({bound})")
        return self


class _Turn(BaseModel):
    model_config = _STRICT
    turn_no: Count
    kind: str | None = None
    verdict: str | None = None
    role: str | None = None
    own_reason: str | None = None
    failure_reason: str | None = None
    caused_by: Count | None = None
    evidence: str | None = None
    note: str | None = None
    latency_ms: Annotated[float, Field(ge=0.0, le=MAX_LATENCY_MS)] | None = None
    sub_scores: dict[str, float | None] = {}
    problems: list[dict[str, Any]] = []


class _Dimension(BaseModel):
    model_config = _STRICT
    passed: bool | None = Field(default=None, alias="pass")
    applicable: bool = False


class TraceRecord(BaseModel):
    """The fields of a trace record (``aem_strands.trace.record``) the report reads, with their types; other fields
    are allowed and left alone."""

    model_config = _STRICT
    trace_id: str
    status: Literal["pass", "fail", "inconclusive"]
    test_pass: bool
    veto: bool = False
    dimensions: dict[str, _Dimension]
    score: Annotated[float, Field(ge=0.0, le=1.0)] | None = None
    first_critical_failure_step: str | None = None
    critical_rule: str | None = None
    root_cause_hypothesis: str | None = None
    metadata: dict[str, Any] | None = None


class ResultRecord(BaseModel):
    """The fields of a dialog result (``DialogResult.to_dict()``) the report reads, with their types; other
    fields are allowed and left alone."""

    model_config = _STRICT
    dialog_id: str
    turns: list[_Turn]
    test_pass: bool = False
    score: Annotated[float, Field(ge=0.0, le=1.0)] | None = None
    root_cause_count: Count = 0
    cascading_count: Count = 0
    total_failures: Count = 0
    first_failure_turn: Count | None = None
    root_cause: str | None = None
    metadata: dict[str, Any] | None = None
    chains: dict[str, _Tally] | None = None
    sub_metrics: dict[str, _Tally] | None = None


@dataclass(frozen=True)
class LoadedResults:
    """Dialog records from one or more files, and the records or files that could not be read."""

    records: tuple[dict[str, Any], ...]
    errors: tuple[InputError, ...]


def _field_name(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _found(value: Any) -> str:
    text = repr(value)
    return printable(text if len(text) <= 60 else text[:57] + "...")


def _check_trace(value: dict[str, Any], where: Location) -> dict[str, Any] | InputError:
    trace_id = value.get("trace_id")
    place = Location(where.file, line=where.line, index=where.index, trace_id=trace_id if isinstance(trace_id, str)
                     else None)  # fmt: skip
    flaw = find_flaw(value)
    if flaw is not None:
        return InputError(flaw.message, replace(place, field=flaw.path or None))
    try:
        TraceRecord.model_validate(value)
    except ValidationError as error:
        first = error.errors()[0]
        loc = list(first["loc"])
        message = f"{first['msg']}, found {_found(first['input'])}" if loc else first["msg"]
        return InputError(message, replace(place, field=_field_name(loc) or None))
    return value


def check_record(value: Any, where: Location) -> dict[str, Any] | InputError:
    """``value`` when it is a dialog result or a trace record the report can read, else an ``InputError`` naming
    ``where`` (file, line), the dialog or trace and the field."""
    dialog_id = value.get("dialog_id") if isinstance(value, dict) else None
    dialog = dialog_id if isinstance(dialog_id, str) else None
    place = Location(where.file, dialog, None, None, where.line, where.index)
    if isinstance(value, dict) and "error" in value and "turns" not in value:
        detail = value["error"] if isinstance(value["error"], dict) else {"message": value["error"]}
        what = "not judged" if "source" in value else "scored with an error"  # trace output's error record
        return InputError(f"{what}: {printable(str(detail.get('message')))}", place)
    if isinstance(value, dict) and is_trace_record(value):
        return _check_trace(value, where)
    if not isinstance(value, dict) or "turns" not in value or "dialog_id" not in value:
        return InputError("not a dialog result ('dialog_id', 'turns') nor a trace record ('trace_id', 'dimensions')",
                          place)  # fmt: skip
    flaw = find_flaw(value)
    if flaw is not None:
        return InputError(flaw.message, Location(place.file, dialog, None, flaw.path or None, place.line, place.index))
    try:
        ResultRecord.model_validate(value)
    except ValidationError as error:
        first = error.errors()[0]
        loc = list(first["loc"])
        turn_no = None
        if len(loc) > 1 and loc[0] == "turns" and isinstance(loc[1], int):
            turn = value["turns"][loc[1]]
            number = turn.get("turn_no") if isinstance(turn, dict) else None
            turn_no = number if type(number) is int else None
        message = f"{first['msg']}, found {_found(first['input'])}" if loc else first["msg"]
        return InputError(
            message, Location(place.file, dialog, turn_no, _field_name(loc) or None, place.line, place.index)
        )
    return value


def _chosen(names: list[str], evaluator: str | None, kind: str, file: str, note: NoteFn) -> str | None:
    """The evaluator of one kind to report: ``evaluator`` when it is one of ``names``, else (none asked) the first,
    named in a note when there are several."""
    if evaluator is not None:
        return evaluator if evaluator in names else None
    if len(names) > 1:
        note(f"{file}: {len(names)} {kind} evaluators ({', '.join(names)}); reporting {names[0]} (choose with "
             "--evaluator)")  # fmt: skip
    return names[0] if names else None


def _case_metadata(case: dict[str, Any], own: Any, evaluator: str) -> dict[str, Any]:
    """The case's metadata without its gold entries, under the record's own, with the evaluator's name."""
    found = {k: v for k, v in (case.get("metadata") or {}).items() if k not in ("aem", "trace_gold")}
    merged = {**found, **(own if isinstance(own, dict) else {})}
    if evaluator:
        merged.setdefault("evaluator", evaluator)
    return merged


def _strands_records(data: dict[str, Any], file: str, evaluator: str | None, note: NoteFn) -> Iterator[Any]:
    """The records (or errors) of a Strands Evals report: the session rows of one AEM evaluator and the rows of one
    trace evaluator."""
    from aem_strands.strands.report import AemReport  # the host package is only needed for its reports

    try:
        report = AemReport.model_validate(data)
    except ValueError as error:
        yield InputError(f"not a Strands Evals report: {printable(str(error))}", Location(file))
        return
    names = list(dict.fromkeys(row.evaluator for row in report.aem_rows()))
    traces = report.trace_evaluators()
    if evaluator is not None and evaluator not in names and evaluator not in traces:
        known = ", ".join([*names, *traces]) or "none"
        yield InputError(
            f"no AEM evaluator {printable(repr(evaluator))} (the report has: {known})",
            Location(file, field="--evaluator"),
        )
        return
    chosen = _chosen(names, evaluator, "AEM", file, note)
    for index, row in enumerate(report.aem_rows(chosen) if chosen is not None else ()):
        record = dict(row.result)
        record["metadata"] = _case_metadata(row.case, record.get("metadata"), row.evaluator)
        record.setdefault("dialog_id", row.case.get("name"))
        yield check_record(record, Location(file, index=index))
    chosen = _chosen(traces, evaluator, "trace", file, note)
    for index, trace in enumerate(report.trace_rows(chosen) if chosen is not None else ()):
        name = trace.case.get("name")
        where = Location(file, index=index, trace_id=name if isinstance(name, str) else None)
        if not trace.record:
            yield InputError(f"not judged: {printable(trace.reason)}", where)
            continue
        record = {**trace.record, "score": trace.score, "test_pass": trace.test_pass}
        record["metadata"] = _case_metadata(trace.case, record.get("metadata"), trace.evaluator)
        record.setdefault("trace_id", name)
        yield check_record(record, where)


def iter_results(
    path: Path, *, evaluator: str | None = None, note: NoteFn | None = None
) -> Iterator[dict[str, Any] | InputError]:
    """Each dialog record of one file, or the error that stands for a record (or the file), one at a time."""
    file = str(path)
    say: NoteFn = note or (lambda text: None)
    try:
        for record in read_records(read_lines(path), file, format_of(path)):
            yield from _items(record, file, evaluator, say)
    except InputError as error:
        yield error


def _items(record: Record, file: str, evaluator: str | None, note: NoteFn) -> Iterator[dict[str, Any] | InputError]:
    where = Location(file, line=record.line, index=record.index)
    if record.error is not None:
        yield InputError(record.error, where)
    elif record.kind == "document" and isinstance(record.value, dict) and "detailed_results" in record.value:
        yield from _strands_records(record.value, file, evaluator, note)
    else:
        yield check_record(record.value, where)


def load_results(
    paths: Sequence[Path], *, progress: ProgressFn | None = None, evaluator: str | None = None
) -> LoadedResults:
    """Every dialog record in ``paths`` held in memory (see the module docstring; ``report`` streams them with
    ``iter_results``); unreadable input becomes errors."""
    records: list[dict[str, Any]] = []
    errors: list[InputError] = []
    for path in progress(paths) if progress else paths:
        for item in iter_results(Path(path), evaluator=evaluator):
            (errors if isinstance(item, InputError) else records).append(item)  # type: ignore[arg-type]
    return LoadedResults(tuple(records), tuple(errors))


@dataclass(frozen=True)
class Label:
    """A person's verdict on a dialog (``turn_no`` is ``None``) or on one turn: pass/fail or a score."""

    dialog_id: str
    turn_no: int | None
    value: float
    binary: bool


def _label_value(raw: Any) -> tuple[float, bool] | None:
    if isinstance(raw, bool):
        return float(raw), True
    if isinstance(raw, str) and raw.strip().lower() in ("pass", "fail"):
        return float(raw.strip().lower() == "pass"), True
    if isinstance(raw, (int, float)) and 0.0 <= float(raw) <= 1.0:
        return float(raw), False
    return None


def load_labels(path: Path, on_error: Callable[[InputError], None] | None = None) -> list[Label]:
    """The labels of a JSONL file. A bad line (not JSON, no string ``dialog_id``, a ``turn_no`` or ``label`` of
    the wrong kind, ``"label": null``) is an ``InputError`` naming the file, line, dialog and field: raised, or,
    with ``on_error``, handed to it and the line skipped (the other labels are read)."""
    out = []
    for record in jsonl_records(read_lines(path)):  # JSONL: "\n" ends a record, not U+2028
        try:
            out.append(_label(record, path))
        except InputError as error:
            if on_error is None:
                raise
            on_error(error)
    return out


def _label(record: Record, path: Path) -> Label:
    where = Location(str(path), line=record.line)
    if record.error is not None:
        raise InputError(record.error, where)
    item = record.value
    if not isinstance(item, dict) or not isinstance(item.get("dialog_id"), str):
        raise InputError(
            "expected an object with a string dialog_id", Location(str(path), field="dialog_id", line=record.line)
        )
    dialog_id = item["dialog_id"]
    turn_no = item.get("turn_no")
    if turn_no is not None and (isinstance(turn_no, bool) or not isinstance(turn_no, int)):
        message = f"turn_no must be an integer, got {_found(turn_no)}"
        raise InputError(message, Location(str(path), dialog_id, None, "turn_no", record.line))
    value = _label_value(item.get("label"))
    if value is None:
        found = _found(item.get("label"))
        message = f"label must be true/false, 'pass'/'fail' or a number in [0, 1], got {found}"
        raise InputError(message, Location(str(path), dialog_id, turn_no, "label", record.line))
    return Label(dialog_id, turn_no, *value)
