"""Reading the documents of trajectory evaluation (trace, policy and gold files): the shared pydantic settings and
value types, JSON or YAML documents read whole (``read_document``), YAML values as JSON would give them
(``plain_yaml``), and the first validation error of a model as an ``InputError`` naming the field
(``first_error``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import ConfigDict, Field, ValidationError

from aem_strands.decode import find_flaw, read_records
from aem_strands.errors import ConfigError, InputError, Location, printable

STRICT = ConfigDict(extra="forbid", strict=True)
YAML_SUFFIXES = (".yaml", ".yml")
Count = Annotated[int, Field(ge=0)]
Amount = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Name = Annotated[str, Field(min_length=1)]


def _field_name(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _model_loc(loc: Sequence[int | str]) -> list[int | str]:
    # pydantic names the member of a union it tried ("str", "_ExpectedToolModel", "constrained-str"...): not a field.
    return [p for p in loc if not (isinstance(p, str) and (p[:1].isupper() or p[:1] == "_" or "-" in p or p in {
        "str", "int", "float", "bool", "list", "dict"}))]  # fmt: skip


def first_error(error: ValidationError, prefix: str, where: Location) -> InputError:
    detail = error.errors()[0]
    path = _field_name([prefix, *_model_loc(detail["loc"])] if prefix else _model_loc(detail["loc"]))
    found = detail.get("input")
    shown = "" if isinstance(found, (dict, list)) or "missing" in detail["type"] else f", got {found!r}"
    return InputError(printable(f"{detail['msg']}{shown}"), replace(where, field=path or None))


def plain_yaml(value: Any) -> Any:
    """A YAML value as JSON would give it: dates and times as ISO text (YAML reads ``2024-05-01`` as a date)."""
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(k): plain_yaml(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_yaml(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    return value


def read_document(path: Path, what: str) -> object:
    """The one JSON or YAML document of a policy or gold file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{what} {path}: cannot read: {error}") from None
    try:
        data = yaml.safe_load(text) if path.suffix.lower() in YAML_SUFFIXES else json_document(text)
    except InputError as error:  # the JSON reader's whole-document problems (malformed, empty) carry no file name
        raise ConfigError(f"{what} {path}: not JSON: {printable(error.message)}") from None
    except (yaml.YAMLError, ValueError) as error:
        raise ConfigError(f"{what} {path}: not {'YAML' if path.suffix.lower() in YAML_SUFFIXES else 'JSON'}: "
                          f"{printable(str(error))}") from None  # fmt: skip
    data = plain_yaml(data)
    flaw = find_flaw(data)
    if flaw is not None:
        raise ConfigError(f"{what} {path}: field {flaw.path!r}: {flaw.message}")
    return data


def json_document(text: str) -> object:
    records = list(read_records([line.encode() for line in text.splitlines(keepends=True)], "", "json"))
    if len(records) == 1 and records[0].kind == "document":
        return records[0].value
    bad = next((r for r in records if r.error is not None), None)
    if bad is not None:
        raise ValueError(f"line {bad.line}: {bad.error}")
    return [r.value for r in records]
