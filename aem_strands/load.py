"""Loading and validating annotated dialogs (SPEC §3).

Accepted inputs (a file path, or ``-`` for stdin):

- a JSON bare list of paired turns: one dialog, whose id is the file's stem;
- a JSON object ``{"dialog_id", "metadata", "turns"}``: one dialog;
- a JSON array of such objects, or JSONL with one per line: a dataset.

How the text is read (format by suffix or by content, JSONL split on ``\\n`` only, the limits on depth, number
and string size, lone surrogates rejected) is ``aem_strands.decode``. Every validation error names the file, the
line, the dialog id, the turn number and the field. A problem that spoils the whole file (unreadable, empty,
malformed before its first record) raises ``InputError``; a bad dialog (or a malformed JSONL line or array
element) is an error record and is skipped: any exception while loading one dialog becomes that dialog's error,
and every good dialog is still returned. ``iter_records`` yields them lazily, one record at a time.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from aem_strands.align import AlignOptions
from aem_strands.decode import Record, format_of, read_records
from aem_strands.errors import InputError, Location, printable
from aem_strands.metadata import check_metadata
from aem_strands.types import ActionCall, Dialog, JsonValue, Reply, Turn, TurnContent, TurnKind
from aem_strands.unpaired import is_unpaired, limit_error, parse_unpaired

_STRICT = ConfigDict(extra="forbid", strict=True)


class ActionModel(BaseModel):
    model_config = _STRICT
    tool_id: str
    action: str
    args: dict[str, Any] = Field(default_factory=dict)
    observation: Any = None
    compare_args: list[str] | None = None


class ReplyModel(BaseModel):
    model_config = _STRICT
    response: str
    observation: Any = None


class TurnModel(BaseModel):
    """One paired turn as it appears in a file."""

    model_config = _STRICT
    turn_no: int
    turn: Literal["Agent", "Tool"]
    gold_turn: dict[str, Any]
    predict_turn: dict[str, Any]
    tags: list[str] = Field(default_factory=list)
    depends_on: list[int] = Field(default_factory=list)
    critical: bool = False
    weight: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 1.0
    latency_ms: Annotated[float, Field(ge=0, allow_inf_nan=False)] | None = None


@dataclass(frozen=True)
class DialogSet(Sequence[Dialog]):
    """The valid dialogs of one or more files, and the errors of the invalid ones."""

    dialogs: tuple[Dialog, ...]
    errors: tuple[InputError, ...] = ()

    def __len__(self) -> int:
        return len(self.dialogs)

    def __getitem__(self, index: int) -> Dialog:  # type: ignore[override]  # slices are not needed
        return self.dialogs[index]

    def __iter__(self) -> Iterator[Dialog]:
        return iter(self.dialogs)


def _field_name(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _first_error(error: ValidationError, prefix: str, where: Location) -> InputError:
    detail = error.errors()[0]
    field = _field_name([prefix, *detail["loc"]] if prefix else list(detail["loc"]))
    return InputError(detail["msg"], Location(where.file, where.dialog_id, where.turn_no, field or None))


def _non_finite(value: JsonValue, path: str) -> str | None:
    """Path of the first NaN or infinity inside a decoded JSON value."""
    if isinstance(value, float) and not math.isfinite(value):
        return path
    if isinstance(value, dict):
        for key, item in value.items():
            found = _non_finite(item, f"{path}.{key}")
            if found:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _non_finite(item, f"{path}[{index}]")
            if found:
                return found
    return None


def _content(kind: TurnKind, raw: dict[str, Any], side: str, where: Location) -> TurnContent:
    try:
        if kind is TurnKind.ACTION:
            action = ActionModel.model_validate(raw)
            if action.compare_args is not None and side != "gold_turn":
                raise InputError("compare_args belongs to the gold turn", Location(where.file, where.dialog_id,
                                 where.turn_no, f"{side}.compare_args"))  # fmt: skip
            compare = None if action.compare_args is None else tuple(action.compare_args)
            return ActionCall(action.tool_id, action.action, action.args, action.observation, compare)
        reply = ReplyModel.model_validate(raw)
        return Reply(reply.response)
    except ValidationError as error:
        raise _first_error(error, side, where) from None


def parse_turn(raw: object, where: Location) -> Turn:
    """Validate one paired turn; ``where`` names the file and dialog for error messages."""
    if not isinstance(raw, dict):
        raise InputError(f"a turn must be a JSON object, got {type(raw).__name__}", where)
    turn_no = raw.get("turn_no")
    here = Location(where.file, where.dialog_id, turn_no if isinstance(turn_no, int) else None)
    bad = _non_finite(raw, "")
    if bad:
        raise InputError(
            "NaN or infinite number is not allowed", Location(here.file, here.dialog_id, here.turn_no, bad[1:])
        )
    try:
        model = TurnModel.model_validate(raw)
    except ValidationError as error:
        raise _first_error(error, "", here) from None
    kind = TurnKind.ACTION if model.turn == "Tool" else TurnKind.RESPONSE
    return Turn(
        turn_no=model.turn_no,
        kind=kind,
        gold=_content(kind, model.gold_turn, "gold_turn", here),
        predicted=_content(kind, model.predict_turn, "predict_turn", here),
        tags=tuple(model.tags),
        depends_on=tuple(model.depends_on),
        critical=model.critical,
        weight=model.weight,
        latency_ms=model.latency_ms,
    )


def parse_dialog(
    raw: object, *, file: str | None = None, default_id: str | None = None, align: AlignOptions | None = None
) -> Dialog:
    """Validate one dialog: a ``{"dialog_id", "metadata", "turns"}`` object or a bare list of turns.

    An unpaired ``{"dialog_id", "metadata", "gold", "predicted"}`` object is validated by
    ``aem_strands.unpaired`` and aligned with ``align`` (see ``aem_strands.align``).
    """
    if is_unpaired(raw):  # parse_unpaired checks the limits first, as below
        return parse_unpaired(raw, file=file, default_id=default_id).align(align)
    problem = limit_error(raw, file, default_id)
    if problem is not None:
        raise problem
    if isinstance(raw, list):
        raw = {"dialog_id": default_id or "dialog", "turns": raw}
    if not isinstance(raw, dict):
        raise InputError(f"a dialog must be a JSON object or a list of turns, got {type(raw).__name__}", Location(file))
    dialog_id = raw.get("dialog_id", default_id)
    where = Location(file, dialog_id if isinstance(dialog_id, str) else None)
    if not isinstance(dialog_id, str) or not dialog_id:
        raise InputError(
            f"dialog_id must be a non-empty string, got {dialog_id!r}", Location(file, None, None, "dialog_id")
        )
    unknown = sorted(set(raw) - {"dialog_id", "metadata", "turns"})
    if unknown:
        raise InputError(f"unknown field(s) {', '.join(unknown)}", Location(file, dialog_id, None, unknown[0]))
    metadata = check_metadata(raw.get("metadata"), Location(file, dialog_id))
    turns_raw = raw.get("turns")
    if not isinstance(turns_raw, list):
        raise InputError(
            f"turns must be a list, got {type(turns_raw).__name__}", Location(file, dialog_id, None, "turns")
        )
    if not turns_raw:
        raise InputError("dialog has no turns", Location(file, dialog_id, None, "turns"))
    turns = sorted((parse_turn(t, where) for t in turns_raw), key=lambda t: t.turn_no)
    seen: set[int] = set()
    for turn in turns:
        if turn.turn_no in seen:
            raise InputError("duplicate turn_no", Location(file, dialog_id, turn.turn_no, "turn_no"))
        seen.add(turn.turn_no)
        for dep in turn.depends_on:
            if dep not in seen or dep == turn.turn_no:
                raise InputError(
                    f"depends_on names turn {dep}, which is not an earlier turn of this dialog",
                    Location(file, dialog_id, turn.turn_no, "depends_on"),
                )
    return Dialog(dialog_id=dialog_id, turns=tuple(turns), metadata=metadata)


def _is_bare_turn_list(data: list[Any]) -> bool:
    return bool(data) and isinstance(data[0], dict) and "turns" not in data[0] and not is_unpaired(data[0])


@dataclass(frozen=True)
class LoadedRecord:
    """One record of an input, in input order: its dialog, or the error that kept it from loading.

    ``where`` names the file, line and array index (and the dialog id when it is known).
    """

    where: Location
    dialog: Dialog | None = None
    error: InputError | None = None


def read_lines(path: str | Path, stdin: IO[Any] | None = None) -> Iterator[bytes]:
    """The binary lines of a file (``-``: ``stdin``, default ``sys.stdin``), read lazily.

    Raises ``InputError`` naming the file when it cannot be read.
    """
    if str(path) == "-":
        stream = stdin if stdin is not None else sys.stdin
        binary = getattr(stream, "buffer", None)
        if binary is not None:
            yield from binary
        else:  # an in-memory text stream: its lines, split on "\n" only
            for line in iter(stream.readline, ""):
                yield line.encode("utf-8", "surrogatepass")
        return
    try:
        with Path(path).open("rb") as handle:
            yield from handle
    except OSError as error:
        raise InputError(f"cannot read file: {error.strerror or error}", Location(str(path))) from None


def _placed(error: InputError, where: Location) -> InputError:
    location = replace(error.location, file=error.location.file or where.file, line=where.line, index=where.index)
    return InputError(error.message, location)


def _units(records: Iterable[Record], stem: str) -> Iterator[tuple[str, Location, Any, str | None]]:
    """(default id, place, value, decoding error) per dialog: a bare list of turns is one dialog, and a JSONL line
    holding an array of dialogs is one per element."""
    source = iter(records)
    for record in source:
        place = Location(line=record.line, index=record.index)
        value = record.value
        if record.kind == "element" and record.index == 0 and isinstance(value, dict) and _is_bare_turn_list([value]):
            rest = [record, *source]
            problems = [r for r in rest if r.error is not None]
            if problems:
                yield stem, Location(line=problems[0].line, index=problems[0].index), None, problems[0].error
            else:
                yield stem, Location(line=record.line), [r.value for r in rest], None
            return
        if record.kind == "line" and isinstance(value, list) and value and not _is_bare_turn_list(value):
            for i, item in enumerate(value):
                yield f"{stem}:{record.line}[{i}]", Location(line=record.line, index=i), item, None
            continue
        default = {"line": f"{stem}:{record.line}", "element": f"{stem}[{record.index}]", "document": stem}
        yield default[record.kind], place, value, record.error


def iter_records(
    path: str | Path, *, align: AlignOptions | None = None, stdin: IO[Any] | None = None
) -> Iterator[LoadedRecord]:
    """Every record of a file (``-``: stdin, or ``stdin`` when given), lazily and in order.

    ``align`` applies to dialogs in the unpaired format (see ``aem_strands.unpaired``). Raises ``InputError``
    when the file itself cannot be read (see the module docstring); records read before that were yielded.
    """
    file = str(path)
    records = read_records(read_lines(path, stdin), file, format_of(path))
    yield from checked_ids(loaded_records(records, file, align=align), file)


def records_or_error(
    path: str | Path, *, align: AlignOptions | None = None, stdin: IO[Any] | None = None
) -> Iterator[LoadedRecord]:
    """``iter_records``, with an input that cannot be read (or read on) given as one more record holding that
    error, after the records read before it: what a batch run reports and goes on from."""
    try:
        yield from iter_records(path, align=align, stdin=stdin)
    except InputError as error:
        yield LoadedRecord(error.location, error=error)


def file_stem(file: str) -> str:
    """What default dialog ids of a file start with: its stem (``stdin`` for ``-``)."""
    return "stdin" if file == "-" else Path(file).stem


def loaded_records(
    records: Iterable[Record], file: str, *, align: AlignOptions | None = None
) -> Iterator[LoadedRecord]:
    """Each dialog of decoded ``records`` of ``file``, or its error, in order; ids are not checked across records
    (``checked_ids`` does that), so a file's records can be loaded in parts."""
    for default_id, place, value, problem in _units(records, file_stem(file)):
        where = Location(file, line=place.line, index=place.index)
        if problem is not None:
            yield LoadedRecord(where, error=InputError(problem, where))
            continue
        yield loaded_record(value, where, default_id=default_id, file=file, align=align)


def loaded_record(
    value: Any, where: Location, *, default_id: str, file: str | None = None, align: AlignOptions | None = None
) -> LoadedRecord:
    """One decoded value read as a dialog at ``where``, or the error that keeps it from loading (an
    ``InputError`` placed at ``where``; any other crash is that dialog's error, never the run's)."""
    try:
        dialog = parse_dialog(value, file=file, default_id=default_id, align=align)
    except InputError as error:
        return LoadedRecord(where, error=_placed(error, where))
    except Exception as error:
        detail = printable(f"{type(error).__name__}: {error}")
        return LoadedRecord(where, error=InputError(f"could not be loaded: {detail}", where))
    return LoadedRecord(replace(where, dialog_id=dialog.dialog_id), dialog=dialog)


def checked_ids(records: Iterable[LoadedRecord], file: str) -> Iterator[LoadedRecord]:
    """``records`` of one file, a dialog whose id an earlier dialog has turned into an error; raises ``InputError``
    when there is no record at all."""
    seen: set[str] = set()
    empty = True
    for record in records:
        empty = False
        if record.dialog is not None:
            repeated = repeated_id(record.where, seen)
            if repeated is not None:
                yield LoadedRecord(record.where, error=repeated)
                continue
        yield record
    if empty:
        raise InputError("the file holds no dialogs (an empty list)", Location(file))


def repeated_id(where: Location, seen: set[str]) -> InputError | None:
    """The error for a loaded dialog (``where`` names its id) whose id is in ``seen``; else ``None``, and ``seen``
    gains the id."""
    dialog_id = where.dialog_id
    assert dialog_id is not None  # a loaded dialog's place names it
    if dialog_id in seen:
        return InputError("dialog_id is used by an earlier dialog", replace(where, field="dialog_id"))
    seen.add(dialog_id)
    return None


def load_dialogs(path: str | Path, *, align: AlignOptions | None = None) -> DialogSet:
    """Load every dialog of a file (JSON or JSONL), keeping the valid ones and the errors of the rest.

    ``align`` applies to dialogs in the unpaired format (see ``aem_strands.unpaired``).

    Raises ``InputError`` when the file itself cannot be read or parsed.
    """
    dialogs: list[Dialog] = []
    errors: list[InputError] = []
    for record in iter_records(path, align=align):
        if record.dialog is not None:
            dialogs.append(record.dialog)
        elif record.error is not None:
            errors.append(record.error)
    return DialogSet(tuple(dialogs), tuple(errors))
