"""Argument values in the form their tool takes, for ``arguments``: what settles a value written as the tool
writes it, not as the user said it (issue 28, "Grounding"; the forms API-Bank's tools take).

- ``boolean_text``: a boolean written as text (``"True"``) where the schema types the argument boolean is exempt
  as a boolean is: a flag is no value anyone says; whether it is the one the user asked for ("turn it on") is a
  matter of the request, not of where the value came from.
- ``said_in_form``: the value is grounded when read in its tool's form it was said: a yearless date in the format
  its description gives (``12-10`` under ``Format: %m-%d`` is December 10, ``grounding_dates.yearless_reading``),
  a field's key of lower-case words joined by underscores whose words were said together (``health_data[0].name:
  blood_pressure`` after "my blood pressure"; a category such as ``doc_type: police_report`` is not a field's key
  and stays open, ``GroundingIndex.named_in_part``), or a language code of an argument about a language whose
  language was said by name (``tgt_lang: fr`` after "to French", ``grounding_names.language_name``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from aem_strands.trace.grounding import GroundingIndex
from aem_strands.trace.grounding_dates import yearless_reading
from aem_strands.trace.grounding_names import language_name
from aem_strands.types import JsonValue

_KEY_WORDS = re.compile(r"[a-z]+(?:_[a-z]+)+")
_NAME_KEYS = frozenset({"name", "key", "field"})
"""Last keys of an argument that names a field (the name of a name-value pair)."""
_LANGUAGE = re.compile(r"lang", re.IGNORECASE)


def boolean_text(value: JsonValue, schema: Mapping[str, Any] | None) -> bool:
    """Whether the value is a boolean written as text (``'True'``, ``'false'``) where the schema types the argument
    boolean (see the module docstring)."""
    boolean = schema is not None and schema.get("type") == "boolean"
    return boolean and isinstance(value, str) and value.strip().casefold() in ("true", "false")


def _last_key(path: str) -> str:
    return path.rsplit(".", 1)[-1].split("[")[0]


def _key_said(index: GroundingIndex, path: str, value: JsonValue) -> bool:
    if _last_key(path).casefold() not in _NAME_KEYS or not isinstance(value, str):
        return False
    return _KEY_WORDS.fullmatch(value.strip()) is not None and index.find(value.strip().replace("_", " ")) is not None


def _said_in_format(index: GroundingIndex, value: JsonValue, description: object) -> bool:
    reading = yearless_reading(value, description)
    return reading is not None and index.find(reading) is not None


def _language_said(index: GroundingIndex, path: str, value: JsonValue, description: object) -> bool:
    about = _LANGUAGE.search(_last_key(path)) or (isinstance(description, str) and _LANGUAGE.search(description))
    name = language_name(value) if about else None
    return name is not None and index.find(name) is not None


def said_in_form(index: GroundingIndex, path: str, value: JsonValue, schema: Mapping[str, Any] | None) -> bool:
    """Whether the value of argument ``path`` (its ``schema``, if any) was said, read in its tool's form: a yearless
    date in its description's format, a field's key, a language code (see the module docstring)."""
    description = schema.get("description") if schema is not None else None
    return (
        _said_in_format(index, value, description)
        or _key_said(index, path, value)
        or _language_said(index, path, value, description)
    )


__all__ = ["boolean_text", "said_in_form"]
