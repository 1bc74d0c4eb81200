"""Reading results for the report: ``aem-strands score`` output and Strands Evals report files.

Accepted, per file:

- ``score --format json`` (an array of dialog records) or ``--format jsonl`` (one per line); error
  records (``{"dialog_id", "error"}``) are kept as input errors;
- a Strands Evals report (``EvaluationReport.to_file``, ``strands-evals run -o``): its AEM session
  rows (``AemReport.aem_rows``); the case's metadata (``version``, ``model``...) is merged into
  the record's ``metadata``, without the ``aem`` gold entry;
- a labels file for ``--labels``: JSONL of ``{"dialog_id", "turn_no"?, "label"}`` where ``label`` is
  ``true``/``false``, ``"pass"``/``"fail"`` or a number in [0, 1].
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aem_strands.errors import InputError, Location

ProgressFn = Callable[[Iterable[Any]], Iterable[Any]]


@dataclass(frozen=True)
class LoadedResults:
    """Dialog records from one or more files, and the records or files that could not be read."""

    records: tuple[dict[str, Any], ...]
    errors: tuple[InputError, ...]


def _is_record(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("turns"), list) and "dialog_id" in value


def _from_strands(data: dict[str, Any], path: Path) -> list[dict[str, Any]]:
    from aem_strands.strands.report import AemReport  # the host package is only needed for its reports

    try:
        report = AemReport.model_validate(data)
    except ValueError as error:
        raise InputError(f"not a Strands Evals report: {error}", Location(str(path))) from None
    out = []
    for row in report.aem_rows():
        case_metadata = {k: v for k, v in (row.case.get("metadata") or {}).items() if k != "aem"}
        record = dict(row.result)
        record["metadata"] = {**case_metadata, **(record.get("metadata") or {})}
        record.setdefault("dialog_id", row.case.get("name"))
        if row.case.get("evaluator"):
            record["metadata"].setdefault("evaluator", row.case["evaluator"])
        out.append(record)
    return out


def _records_of(value: Any, where: Location, errors: list[InputError]) -> list[dict[str, Any]]:
    if _is_record(value):
        return [value]
    if isinstance(value, dict) and "error" in value:
        detail = value["error"] if isinstance(value["error"], dict) else {"message": value["error"]}
        errors.append(InputError(f"scored with an error: {detail.get('message')}", where))
        return []
    errors.append(InputError("not a dialog result (needs 'dialog_id' and 'turns')", where))
    return []


def _read(path: Path, errors: list[InputError]) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read file: {error}", Location(str(path))) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None  # JSONL (or broken JSON: each line then says where)
    if isinstance(data, dict) and "detailed_results" in data:
        return _from_strands(data, path)
    if isinstance(data, list):
        out: list[dict[str, Any]] = []
        for index, item in enumerate(data):
            out += _records_of(item, Location(f"{path}[{index}]", _id(item)), errors)
        return out
    if isinstance(data, dict):
        return _records_of(data, Location(str(path), _id(data)), errors)
    out = []
    for number, line in enumerate(text.split("\n"), start=1):  # JSONL lines end at "\n" only
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as error:
            errors.append(InputError(f"malformed JSON: {error.msg}", Location(f"{path}:{number}")))
            continue
        out += _records_of(item, Location(f"{path}:{number}", _id(item)), errors)
    return out


def _id(item: Any) -> str | None:
    return str(item["dialog_id"]) if isinstance(item, dict) and item.get("dialog_id") is not None else None


def load_results(paths: Sequence[Path], *, progress: ProgressFn | None = None) -> LoadedResults:
    """Every dialog record in ``paths`` (see the module docstring); unreadable input becomes errors."""
    records: list[dict[str, Any]] = []
    errors: list[InputError] = []
    for path in progress(paths) if progress else paths:
        try:
            records += _read(Path(path), errors)
        except InputError as error:
            errors.append(error)
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


def load_labels(path: Path) -> list[Label]:
    """The labels of a JSONL file; a bad line raises ``InputError`` naming the line and field."""
    try:
        lines = path.read_text(encoding="utf-8").split("\n")  # JSONL: "\n" ends a record, not U+2028
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read file: {error}", Location(str(path))) from None
    out = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError(f"malformed JSON: {error.msg}", Location(where)) from None
        if not isinstance(item, dict) or not isinstance(item.get("dialog_id"), str):
            raise InputError("expected an object with a string dialog_id", Location(where, field="dialog_id"))
        turn_no = item.get("turn_no")
        if turn_no is not None and (isinstance(turn_no, bool) or not isinstance(turn_no, int)):
            raise InputError(f"turn_no must be an integer, got {turn_no!r}", Location(where, field="turn_no"))
        value = _label_value(item.get("label"))
        if value is None:
            found = item.get("label")
            message = f"label must be true/false, 'pass'/'fail' or a number in [0, 1], got {found!r}"
            raise InputError(message, Location(where, item["dialog_id"], turn_no, "label"))
        out.append(Label(item["dialog_id"], turn_no, *value))
    return out
