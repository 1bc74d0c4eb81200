"""Dialog metadata: free-form, except for the few keys the engine reads, validated at load time.

- ``reference_date`` (or ``date``): ISO date (or date-time) that is "today" in the dialog, so
  relative dates ("tomorrow", "next Friday") can be compared; without it they are not guessed.
- ``unordered_args``: ``{"<tool_id>.<action>" or "<tool_id>": ["arg", ...]}``, list arguments whose
  order does not matter (compared as multisets).
- ``locale``: a CLDR locale (``"en_US"``, ``"en-GB"``, ``"de"``) whose short date form says whether numeric
  dates put the day or the month first; without it, ``12/11/2020`` and ``11/12/2020`` are read both ways and
  a pair is the same only when it is the same read either way.
"""

from __future__ import annotations

from datetime import date

from aem_strands.compare.values import LOCALE_KEY, day_first_in
from aem_strands.errors import InputError, Location
from aem_strands.types import JsonValue

UNORDERED_ARGS_KEY = "unordered_args"
DATE_KEYS = ("reference_date", "date")


def check_metadata(metadata: JsonValue, where: Location) -> dict[str, JsonValue]:
    """The metadata object of a dialog (``{}`` when absent), after checking the keys the engine reads."""
    metadata = {} if metadata is None else metadata
    if not isinstance(metadata, dict):
        raise InputError(
            f"metadata must be an object, got {type(metadata).__name__}",
            Location(where.file, where.dialog_id, None, "metadata"),
        )
    key = DATE_KEYS[0]
    if key in metadata and not _is_iso_date(metadata[key]):
        raise InputError(
            f"expected an ISO date such as '2019-03-01', got {metadata[key]!r}",
            Location(where.file, where.dialog_id, None, f"metadata.{key}"),
        )
    locale = metadata.get(LOCALE_KEY)
    if locale is not None and not _is_locale(locale):
        raise InputError(
            f"expected a locale such as 'en_US' or 'en-GB', got {locale!r}",
            Location(where.file, where.dialog_id, None, f"metadata.{LOCALE_KEY}"),
        )
    unordered = metadata.get(UNORDERED_ARGS_KEY)
    if unordered is not None and not (
        isinstance(unordered, dict)
        and all(isinstance(v, list) and all(isinstance(a, str) for a in v) for v in unordered.values())
    ):
        raise InputError(
            'expected {"<tool_id>.<action>": ["arg", ...]}, got ' + repr(unordered),
            Location(where.file, where.dialog_id, None, f"metadata.{UNORDERED_ARGS_KEY}"),
        )
    return metadata


def _is_iso_date(value: JsonValue) -> bool:
    if not isinstance(value, str):
        return False
    try:
        date.fromisoformat(value[:10])
    except ValueError:
        return False
    return True


def _is_locale(value: JsonValue) -> bool:
    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        day_first_in(value)
    except ValueError:
        return False
    return True
