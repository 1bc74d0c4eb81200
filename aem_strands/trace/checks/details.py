"""The details a text states, against a call's argument values: which action a proposal or a request is about.

A *detail* is a value with a digit (an identifier, an amount, a count, a clock time, a date), read from the text
as a span and typed: ``clock`` (``11:30``, ``4:30 pm``, ``7 pm``: minutes after midnight), ``date``
(``2019-03-07``), ``number`` (``250``, ``$1,250.00``, ``2``), ``identifier`` (letters and digits: ``ORDER_789``,
``CHK-1001``, ``UA100``). A call's argument values are typed the same way (a JSON number is a ``number``), and
may also be a ``datetime`` (``2023-09-11 16:40:00``), stated by a text that states its date and its clock time.

- A call value is *stated* in a text when a span of the text has its type and the same value, or, for an
  identifier or a digit string, when its separator-free form (``identifier_key``) is a whole run of the text's
  separator-free letters and digits, bounded by non-digits: ``4111111111111111`` is stated by
  ``4111 1111 1111 1111``, ``ORDER_111`` is not stated by ``ORDER_1112``.
- A text states *other details* than the call's when a call value is not stated and the text has a span of the
  same type that equals no value of that type of the call: ``cancel ORDER_111?`` for ``cancel_order(ORDER_789)``,
  ``transfer 250 EUR`` for ``amount: 300``. A value the text does not state at all (the date of "today") is no
  conflict: a proposal need not spell every argument. The call's values are its nested ones too (each flight of
  ``flights: [{flight_number, date}]``, each payment's ``amount``), and those a caller knows to be its object's
  (what a lookup of the reservation it changes reported). A count of zero unstated is no conflict (a text says it
  in words: "Baggage: None"), so a text stating every other number of the call states no other number ("$299 ...
  $201 remaining"). Beside a stated identifier of the call (or of its object), another identifier is another
  detail only in the form of one the call holds unstated (``HAT006`` beside the call's ``HAT005``): other objects
  for other actions ("upgrade XEHM4B, and cancel 59XX6W") have other forms.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from aem_strands.compare.identifiers import identifier_key
from aem_strands.compare.walk import json_leaves
from aem_strands.types import JsonValue

_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?|\b(\d{1,2}):(\d{2})\b", re.IGNORECASE)
_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_DATETIME = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?")
_NUMBER = re.compile(r"(?<![\w.])[$€£]?\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\w])")
_IDENTIFIER = re.compile(r"\b(?=[\w#/-]*[A-Za-z])(?=[\w#/-]*\d)[A-Za-z0-9][\w#/-]*[A-Za-z0-9]\b")
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$", re.IGNORECASE)
_ALNUM = re.compile(r"[^0-9a-z]+")


@dataclass(frozen=True)
class Detail:
    """One typed value: its type (``clock``, ``date``, ``number``, ``identifier``) and its normal form."""

    kind: str
    value: str


def _clock(match: re.Match[str]) -> Detail | None:
    if match.group(4) is not None:
        hour, minute = int(match.group(4)), int(match.group(5))
    else:
        hour, minute = int(match.group(1)), int(match.group(2) or 0)
        if hour > 12:
            return None
        hour = hour % 12 + (12 if match.group(3).casefold() == "p" else 0)
    return Detail("clock", f"{hour:02d}:{minute:02d}") if hour < 24 and minute < 60 else None


def _number(whole: str, decimals: str | None) -> Detail:
    value = Fraction(whole.replace(",", "")) + (Fraction(f"0.{decimals}") if decimals else 0)
    return Detail("number", str(value))


@functools.lru_cache(maxsize=4096)
def text_details(text: str) -> frozenset[Detail]:
    """The typed details a text states (see the module docstring); spans are read clock, date, then number and
    identifier on what is left."""
    found: set[Detail] = set()
    rest = text
    for pattern, read in ((_CLOCK, _clock), (_DATE, _date)):
        for match in pattern.finditer(rest):
            detail = read(match)
            if detail is not None:
                found.add(detail)
        rest = pattern.sub(" ", rest)
    for match in _IDENTIFIER.finditer(rest):
        if not _ORDINAL.match(match.group(0)):
            found.add(Detail("identifier", identifier_key(match.group(0))))
    for match in _NUMBER.finditer(_IDENTIFIER.sub(" ", rest)):
        found.add(_number(match.group(1), match.group(2)))
    return frozenset(found)


def _date(match: re.Match[str]) -> Detail:
    return Detail("date", f"{int(match.group(1)):04d}-{int(match.group(2)):02d}-{int(match.group(3)):02d}")


def value_detail(value: JsonValue) -> Detail | None:
    """The typed detail of one argument value, or ``None`` when it has no digit (names, free text)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return Detail("number", str(Fraction(str(value))))
    if not isinstance(value, str) or not any(c.isdigit() for c in value):
        return None
    moment = _DATETIME.fullmatch(value.strip())
    if moment is not None and int(moment.group(4)) < 24 and int(moment.group(5)) < 60:
        day, hour, minute = _date(moment).value, int(moment.group(4)), int(moment.group(5))
        return Detail("datetime", f"{day}T{hour:02d}:{minute:02d}")
    details = text_details(value)
    if len(details) == 1:
        return next(iter(details))
    return Detail("identifier", identifier_key(value))


def call_details(arguments: Mapping[str, JsonValue]) -> dict[str, Detail]:
    """Argument name → the typed detail of its value, for the values with a digit (nested values left out)."""
    return {name: d for name, value in arguments.items() if (d := value_detail(value)) is not None}


def stated(detail: Detail, text: str, details: frozenset[Detail] | None = None) -> bool:
    """Whether ``text`` states ``detail`` (see the module docstring)."""
    found = details if details is not None else text_details(text)
    if detail in found:
        return True
    if detail.kind == "datetime":
        day, clock = detail.value.split("T")
        return Detail("date", day) in found and Detail("clock", clock) in found
    if detail.kind not in ("identifier", "number") or "." in detail.value or "/" in detail.value:
        return False
    key = _ALNUM.sub("", detail.value.casefold())
    squashed = _ALNUM.sub("", text.casefold())
    start = squashed.find(key)
    while start >= 0 and key:
        before = squashed[start - 1] if start else ""
        after = squashed[start + len(key) : start + len(key) + 1]
        if not (before.isdigit() and key[0].isdigit()) and not (after.isdigit() and key[-1].isdigit()):
            return True
        start = squashed.find(key, start + 1)
    return False


def nested_details(arguments: Mapping[str, JsonValue]) -> list[Detail]:
    """The typed details of every leaf value with a digit, nested ones included (a booking's ``flights[0].date``,
    ``payment_methods[1].amount``)."""
    return [d for _, value in json_leaves(dict(arguments)) if (d := value_detail(value)) is not None]


def value_details(value: JsonValue) -> frozenset[Detail]:
    """The typed details of every leaf with a digit of any JSON value (a tool's answer)."""
    return frozenset(d for _, leaf in json_leaves(value) if (d := value_detail(leaf)) is not None)


def other_details(arguments: Mapping[str, JsonValue], text: str, known: frozenset[Detail] = frozenset()) -> list[str]:
    """The details of ``text`` that are another value than the call's of the same type, when the call's is not
    stated (see the module docstring; a call's nested values count as its own: the flights and payments of a
    booking): empty when the text agrees with the call or says nothing of its values. ``known``: more values that
    are the call's own (those a lookup of its object reported)."""
    details = text_details(text)
    call = nested_details(arguments)
    unstated = [d for d in call if d != _ZERO and not stated(d, text, details)]
    kinds = {d.kind for d in unstated}
    own = set(call) | known
    # A text that states one of the call's identifiers may name other objects for other actions ("upgrade XEHM4B,
    # and cancel 59XX6W"): there an identifier is another detail only in the form of one the call holds unstated
    # (``HAT006`` for the call's flight ``HAT005``, ``gift_card_9`` for its ``credit_card_2``).
    ids_stated = any(d.kind == "identifier" and stated(d, text, details) for d in own)
    shapes = {_shape(d.value) for d in unstated if d.kind == "identifier"}
    return sorted(
        d.value
        for d in details
        if d.kind in kinds
        and d not in own
        and not (d.kind == "identifier" and ids_stated and _shape(d.value) not in shapes)
    )


_ZERO = Detail("number", "0")
"""A count of zero: a text says it in words ("Baggage: None", "no bags"), so its digit unstated is no sign of
another value."""


def _shape(key: str) -> str:
    """An identifier's form: its runs of letters and of digits (``hat005`` and ``order789``: ``LD``)."""
    return re.sub(r"[a-z]+", "L", re.sub(r"[0-9]+", "D", key))
