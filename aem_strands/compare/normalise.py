"""Deterministic normalisation of scalar values, applied before any model is asked.

``canonical(value)`` maps a JSON scalar to a hashable canonical form; two scalars whose canonical
forms are equal are equivalent without a model. Handled: unicode compatibility forms (NFKC), case,
whitespace, punctuation, numbers given as ``2`` / ``2.0`` / ``"2"`` / ``"1,000"`` / ``"two"``, and
booleans given as ``true`` / ``"True"`` / ``"yes"``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from aem_strands.types import JsonValue

_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}  # fmt: skip
_TRUE_WORDS = frozenset({"true", "yes"})
_FALSE_WORDS = frozenset({"false", "no"})
_NUMERIC = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_PUNCTUATION = re.compile(r"[^\w\s]", re.UNICODE)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Number:
    value: float


@dataclass(frozen=True)
class Boolean:
    value: bool


@dataclass(frozen=True)
class Text:
    value: str


@dataclass(frozen=True)
class Null:
    pass


Canonical = Number | Boolean | Text | Null


def normalise_text(text: str) -> str:
    """NFKC, case-folded, punctuation replaced by spaces, whitespace collapsed."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _SPACES.sub(" ", _PUNCTUATION.sub(" ", folded)).strip()


def _number(value: float) -> Number:
    # Integral floats and ints must meet: 2 and 2.0 are the same argument value.
    return Number(float(value) if not float(value).is_integer() else float(int(value)))


def parse_number(text: str) -> float | None:
    """The number a string spells (``"2"``, ``"-1.5"``, ``"1,000"``, ``"two"``), else ``None``."""
    stripped = unicodedata.normalize("NFKC", text).strip().casefold()
    if _NUMERIC.fullmatch(stripped):
        number = float(stripped.replace(",", ""))
        return number if math.isfinite(number) else None
    return float(_NUMBER_WORDS[stripped]) if stripped in _NUMBER_WORDS else None


def canonical(value: JsonValue) -> Canonical:
    """The canonical form of a JSON scalar (lists and dicts are compared element by element elsewhere)."""
    if value is None:
        return Null()
    if isinstance(value, bool):
        return Boolean(value)
    if isinstance(value, (int, float)):
        return _number(value) if math.isfinite(value) else Text(str(value))
    if isinstance(value, str):
        number = parse_number(value)
        if number is not None:
            return _number(number)
        text = normalise_text(value)
        if text in _TRUE_WORDS:
            return Boolean(True)
        if text in _FALSE_WORDS:
            return Boolean(False)
        return Text(text)
    return Text(normalise_text(str(value)))


def display(value: JsonValue) -> str:
    """The string a semantic scorer sees for a scalar."""
    return value if isinstance(value, str) else str(value)
