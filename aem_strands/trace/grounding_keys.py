"""What a grounding is, and the keys values are found by: a value's separator-free key (``compact``) and the
buckets typed values that may agree share (a phone by its last seven digits, a duration by its seconds)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from aem_strands.compare.normalise import normalise_text
from aem_strands.compare.values import Duration, Email, Identifier, Measure, Phone, Quantity, Quarter, Typed
from aem_strands.types import JsonValue

SameFn = Callable[[JsonValue, JsonValue, str], bool | None]
"""Typed equivalence of two values, given the argument or key name: a ``ValueJudge``'s ``same``."""

_SEPARATORS = re.compile(r"[\W_]+", re.UNICODE)
EDGE = "\"'.,;:!?()[]{}<>"
"""The punctuation stripped from the ends of a word before it is read."""


@dataclass(frozen=True)
class Grounding:
    """Where a value was found: the ``source`` that held it (``user message (step u1)``, ``observation of step
    t2``...), the earlier value or phrase that matched, and how (``exact``, ``normalised``, ``identifier``,
    ``typed`` or ``place``)."""

    source: str
    matched: JsonValue
    method: str


def compact(text: str) -> str:
    """``text`` case-folded without spaces or separators: what ``order 123``, ``ORDER_123`` and ``order-123``
    share."""
    return _SEPARATORS.sub("", normalise_text(text))


# Types whose values ``compare.values.agree`` may find equal to a value of another type, by the same bucket.
PARTNERS: Mapping[type, tuple[type, ...]] = {
    Phone: (Identifier,),
    Identifier: (Phone,),
}


def bucket(typed: Typed) -> object:
    """The key typed values that may agree share (a phone by its last seven digits, a duration by its seconds)."""
    if isinstance(typed, Phone):
        return typed.number[-7:]
    if isinstance(typed, Identifier):
        return typed.key[-7:] if typed.key.isdigit() else typed.key
    if isinstance(typed, Duration):
        return typed.seconds
    if isinstance(typed, Measure):
        return "[time]" if typed.dimension == "[time]" else typed.dimension
    if isinstance(typed, Email):
        return typed.address
    if isinstance(typed, Quarter):
        return typed.quarter
    return None


def as_numbers(typed: Typed) -> list[Quantity]:
    """The numbers a typed value may be written as: itself, an identifier's or a phone's digits."""
    if isinstance(typed, Quantity):
        return [typed]
    digits = (
        typed.key if isinstance(typed, Identifier) else typed.number.lstrip("+") if isinstance(typed, Phone) else ""
    )
    if not digits.isdigit() or digits.startswith("0"):
        return []
    found = [Quantity(Fraction(int(digits)))]
    if isinstance(typed, Phone) and len(digits) > 10:
        found.append(Quantity(Fraction(int(digits[-10:]))))  # without its country code
    return found


__all__ = ["EDGE", "PARTNERS", "Grounding", "SameFn", "as_numbers", "bucket", "compact"]
