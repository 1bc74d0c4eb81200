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

from aem_strands.decode import BadValue, find_flaw, json_document
from aem_strands.errors import ConfigError, InputError, Location, printable
from aem_strands.trace.yaml_limits import load_one

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
    """A YAML value as JSON would give it: dates and times as ISO text (YAML reads ``2024-05-01`` as a date), keys
    as text (a key beyond a limit becomes a ``BadValue`` its record's check names)."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if isinstance(key, BadValue):  # a key beyond a limit: the record's check names it, as JSON's would
                out[f"<key {len(out)}>"] = BadValue(f"object key: {key.why}")
            else:
                out[key if isinstance(key, str) else str(key)] = plain_yaml(item)
        return out
    if isinstance(value, list):
        return [plain_yaml(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    return value


def read_document(path: Path, what: str) -> object:
    """The one JSON or YAML document of a policy or gold file (``what``), within the limits of JSON input
    (``aem_strands.decode``; YAML's aliases bounded too, ``aem_strands.trace.yaml_limits``).

    Raises ``ConfigError`` naming ``what``, the file and the line or field of the problem where known.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{what} {path}: cannot read: {error}") from None
    try:
        data = plain_yaml(load_one(text)) if path.suffix.lower() in YAML_SUFFIXES else json_document(text)
    except InputError as error:  # the JSON reader's problems: a malformed or empty text, or a part beyond a limit
        where = error.location
        if where.field is not None:
            raise ConfigError(f"{what} {path}: field {where.field!r}: {printable(error.message)}") from None
        line = "" if where.line is None else f"line {where.line}: "
        raise ConfigError(f"{what} {path}: {line}not JSON: {printable(error.message)}") from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = "" if mark is None else f"line {mark.line + 1}: "
        raise ConfigError(f"{what} {path}: {line}not YAML: {printable(str(error.problem or error))}") from None
    except (yaml.YAMLError, ValueError) as error:
        raise ConfigError(f"{what} {path}: not YAML: {printable(str(error))}") from None
    flaw = find_flaw(data)
    if flaw is not None:
        raise ConfigError(f"{what} {path}: field {flaw.path!r}: {flaw.message}")
    return data
