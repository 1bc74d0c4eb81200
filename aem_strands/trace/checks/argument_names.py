"""What an argument's name says of the values it takes, for a value found nowhere earlier (``arguments``).

The last word of an argument's last key names what it holds (``new_end_time``, ``newEndTime``: a time;
``pickup_location``, ``to_city``: a place; ``time_zone``: a zone, no kind here; ``email_subject``: a subject).
Such a value is no word the user may have said in other words, so the arguments check settles it (a finding)
instead of asking:

- a password, passcode, PIN, one-time code, secret, e-mail address or phone number is said exactly or not at all;
- a date or time argument whose value has no date or time reading (``Economy``, ``Music practice``) is no time said
  otherwise;
- a place argument whose value is words (not a code in capitals: ``ORD`` may name a place said by another of its
  names) none of which was said or seen (``names_place``; the check asks the index which words were).
"""

from __future__ import annotations

import re

from aem_strands.compare.settle import typed_value
from aem_strands.compare.values import CalendarDate, ClockTime, Duration, Moment
from aem_strands.types import JsonValue

_EXACT_KEYS = frozenset({"password", "passcode", "pin", "otp", "secret", "email", "phone"})
"""Last words of an argument's name that make its value one said exactly, never in other words."""
_TIME_KEYS = frozenset({"time", "date", "datetime", "timestamp", "deadline"})
"""Last words of an argument's name that make its value a date or a time."""
_PLACE_KEYS = frozenset({"city", "town", "location", "destination", "origin", "address"})
"""Last words of an argument's name that make its value a place, said by one of its names."""
_KEY_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def key_word(path: str) -> str:
    """The last word of an argument's last key (``passengers[0].new_end_time``: ``time``), case folded."""
    last = path.rsplit(".", 1)[-1].split("[")[0]
    words = _KEY_WORDS.findall(last)
    return words[-1].casefold() if words else ""


def named_kind(path: str, value: JsonValue) -> str | None:
    """Why an argument's name settles a value found nowhere (one said exactly; a date or time with no such reading;
    see the module docstring), else ``None``."""
    word = key_word(path)
    if word in _EXACT_KEYS:
        return f"{path!r} is a {word}, said exactly or not at all"
    dated = isinstance(typed_value(value), (CalendarDate, ClockTime, Moment, Duration))
    if word in _TIME_KEYS and not dated:
        return f"{path!r} is a date or time by its name and {value!r} has no date or time reading"
    return None


def names_place(path: str, value: JsonValue) -> bool:
    """Whether the argument is a place by its name and its value is words, not a code in capitals; the caller
    settles it when none of those words was said."""
    return key_word(path) in _PLACE_KEYS and str(value) != str(value).upper()


__all__ = ["key_word", "named_kind", "names_place"]
