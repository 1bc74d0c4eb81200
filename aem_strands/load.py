"""Loading and validating annotated dialogs (SPEC §3).

Accepted files:

- a JSON bare list of paired turns: one dialog, whose id is the file's stem;
- a JSON object ``{"dialog_id", "metadata", "turns"}``: one dialog;
- a JSON array of such objects, or JSONL with one per line: a dataset.

Every validation error names the file, the dialog id, the turn number and the field. A problem
that spoils the whole file (unreadable, malformed JSON array) raises ``InputError``; a bad dialog
inside a dataset (or a malformed JSONL line) is recorded in ``DialogSet.errors`` and skipped, so
every good dialog is still returned.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from aem_strands.align import AlignOptions
from aem_strands.errors import InputError, Location
from aem_strands.metadata import check_metadata
from aem_strands.types import ActionCall, Dialog, JsonValue, Reply, Turn, TurnContent, TurnKind
from aem_strands.unpaired import is_unpaired, parse_unpaired

_STRICT = ConfigDict(extra="forbid", strict=True)


class ActionModel(BaseModel):
    model_config = _STRICT
    tool_id: str
    action: str
    args: dict[str, Any] = Field(default_factory=dict)
    observation: Any = None


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
            return ActionCall(action.tool_id, action.action, action.args, action.observation)
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
    if is_unpaired(raw):
        return parse_unpaired(raw, file=file, default_id=default_id).align(align)
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


def _decode(text: str, where: Location) -> JsonValue:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"malformed JSON: {error.msg} at line {error.lineno} column {error.colno}", where) from None


def _is_bare_turn_list(data: list[Any]) -> bool:
    return bool(data) and isinstance(data[0], dict) and "turns" not in data[0] and not is_unpaired(data[0])


def load_dialogs(path: str | Path, *, align: AlignOptions | None = None) -> DialogSet:
    """Load every dialog of a file (JSON or JSONL), keeping the valid ones and the errors of the rest.

    ``align`` applies to dialogs in the unpaired format (see ``aem_strands.unpaired``).

    Raises ``InputError`` when the file itself cannot be read or parsed.
    """
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read file: {error}", Location(file)) from None
    if not text.strip():
        raise InputError("the file is empty", Location(file))
    stem = Path(path).stem
    dialogs: list[Dialog] = []
    errors: list[InputError] = []
    if Path(path).suffix == ".jsonl":
        lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        records: list[tuple[str, Any]] = []
        for n, line in lines:
            try:
                records.append((f"{stem}:{n}", _decode(line, Location(f"{file}:{n}"))))
            except InputError as error:
                errors.append(error)
    else:
        data = _decode(text, Location(file))
        if data == []:
            raise InputError("the file holds no dialogs (an empty list)", Location(file))
        if isinstance(data, list) and not _is_bare_turn_list(data):
            records = [(f"{stem}[{i}]", item) for i, item in enumerate(data)]
        else:
            records = [(stem, data)]
    seen: set[str] = set()
    for default_id, record in records:
        try:
            dialog = parse_dialog(record, file=file, default_id=default_id, align=align)
        except InputError as error:
            errors.append(error)
            continue
        if dialog.dialog_id in seen:
            errors.append(
                InputError(
                    "dialog_id is used by an earlier dialog", Location(file, dialog.dialog_id, None, "dialog_id")
                )
            )
            continue
        seen.add(dialog.dialog_id)
        dialogs.append(dialog)
    return DialogSet(tuple(dialogs), tuple(errors))
