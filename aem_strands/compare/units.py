"""Measurements with units, converted by ``pint``: ``5 kg`` is ``5000 g`` and not ``5 lb``.

``MeasureParser`` reads an amount followed by a unit (``5 kg``, ``5kg``, ``68 °F``, ``3.5 km/h``,
``five kilograms``) or a unit alone (``celsius``, ``°C``, ``lbs``). The amount is converted to SI
base units (temperatures to kelvin, so ``20 °C`` is ``68 °F``); amounts in different units agree within the
rounding of the coarser one (``72 °F`` / ``22.2 °C``). Units without a dimension
(``percent``, ``count``) are left to the number parser. Durations (``2 hours``) are read by the
time parser first; a measured time still agrees with a duration of the same length.

Whether a word is a unit at all, and what a single unit word (``kg``, ``miles``, ``°F``) converts to, is read
from the shipped table (``unit_table``, ``data/unit_words.json``, derived from pint's default registry by
``benchmarks/build_tables.py``), which gives the floats pint gives; so is "no unit" for words pint would multiply
(``Cha Cha Cha``). Only a unit of several words or operators (``km/h``, ``square feet``) builds pint's registry
(about a second), once, on the first such string.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Protocol

from text_to_num import alpha2digit  # type: ignore[import-untyped]  # text2num ships no types

from aem_strands.compare.parse_numbers import has_digit, has_letter, parse_amount
from aem_strands.compare.unit_table import (
    EVERYDAY_DIMENSIONS,
    Answer,
    UnitTable,
    current_unit_table,
    shipped_unit_table,
)
from aem_strands.compare.values import Measure, ParseContext, Typed

_AMOUNT_UNIT = re.compile(r"(?P<amount>[+-]?\d[\d,]*(?:\.\d+)?|[+-]?\.\d+)\s*(?P<unit>[^\d\s].{0,40})")
_UNIT_TEXT = re.compile(r"(?=.*[^\W\d_])(?:[^\W\d_]|[°/*.\-²³ ]|\^[23])+")
_DEGREES = re.compile(r"\b(?:degrees?|deg)\.?\s+(celsius|centigrade|fahrenheit)\b", re.IGNORECASE)
_WORDS_LIMIT = 3
_RARE_PREFIXES = ("exa", "peta", "zetta", "yotta", "atto", "femto", "zepto", "yocto", "ronna", "quetta", "ronto")
_NOT_UNITS = frozenset({"a", "an", "as", "at", "in", "pi", "and", "or", "per", "to", "of"})
"""Words ``pint`` knows as units that, standing alone in a value, are never meant as one."""


_TOKENS = re.compile(r"[^\s/*^.\-²³\d]+")
_CONNECTORS = frozenset({"per", "square", "cubic", "sq"})


class _Unit(Protocol):
    """A unit a measurement is read in: pint's canonical name and dimensionality, and the conversion to base units."""

    @property
    def name(self) -> str: ...

    @property
    def dimension(self) -> str: ...

    def base(self, amount: float) -> float: ...


@dataclass(frozen=True)
class _PintUnit:
    """A unit pint's registry parsed (one the table does not follow)."""

    unit: Any  # pint's Unit, generic over its registry

    @property
    def name(self) -> str:
        return str(self.unit)

    @property
    def dimension(self) -> str:
        return str(self.unit.dimensionality)

    def base(self, amount: float) -> float:
        return float(_registry().Quantity(amount, self.unit).to_base_units().magnitude)


@functools.cache
def _table() -> UnitTable:
    return current_unit_table(shipped_unit_table(), metadata.version("pint"))


@functools.lru_cache(maxsize=1 << 14)
def _known(token: str) -> bool:
    """Whether ``token`` is a unit name, symbol or alias pint defines, maybe prefixed or plural."""
    if token in _CONNECTORS:
        return True
    table = _table()
    units, prefixes = table.units, table.prefix_words
    for stem in dict.fromkeys((token, token.removesuffix("s"), token.removesuffix("es"))):
        if stem in units or any(stem.startswith(p) and stem[len(p) :] in units for p in prefixes):
            return True
    return False


@functools.cache
def _registry() -> Any:  # pint's registry type is generic over its quantity classes; Any keeps callers simple
    import pint  # imported on first use: it takes a second, and most runs never meet a unit

    return pint.UnitRegistry()


def _unit(text: str) -> _Unit | None:
    """The unit ``text`` names, trying it as written and then lower-cased; ``None`` if none."""
    words = text.split()
    if not words or len(words) > _WORDS_LIMIT or text.casefold() in _NOT_UNITS or not _UNIT_TEXT.fullmatch(text):
        return None
    if not all(_known(token) for token in _TOKENS.findall(text)) and not all(
        _known(token) for token in _TOKENS.findall(text.casefold())
    ):
        return None  # pint tries every prefix and suffix of an unknown word: a thousand times slower
    if len(words) > 1 and _CONNECTORS.isdisjoint(w.casefold() for w in words) and any(map(_never_alone, words)):
        # Words side by side with no "per", "square" ..., one of them never meant as a unit ("7 am in", "week as",
        # "a year in"): text, not the product pint would read (attometer inch, an area).
        return None
    # Lower-casing is tried only beyond two letters: "MB" is not "mb" (millibarn), "KGS" is "kgs".
    forms = (text, text.casefold()) if len(text) > 2 else (text,)
    for candidate in dict.fromkeys(form.replace(" ", "_") if i else form for form in forms for i in (0, 1)):
        found = _table().lookup(candidate)
        unit = _pint_unit(candidate) if found is Answer.ASK_PINT else found
        if isinstance(unit, Answer) or unit is None:
            continue
        if not unit.name.startswith(_RARE_PREFIXES):
            return unit
    return None


def _never_alone(word: str) -> bool:
    """Whether ``word`` is never meant as a unit: a word of ``_NOT_UNITS`` (``in``, ``a``) or, by the table, a unit
    of a rare prefix (``am``, attometer; ``as``, attosecond), which ``_unit`` never reads."""
    if word.casefold() in _NOT_UNITS:
        return True
    found = _table().lookup(word)
    return not isinstance(found, Answer) and found is not None and found.name.startswith(_RARE_PREFIXES)


def _pint_unit(candidate: str) -> _PintUnit | None:
    """The unit of an everyday dimension pint's registry reads in ``candidate``, or ``None``."""
    try:
        unit = _registry().parse_units(candidate)
        dimension = str(unit.dimensionality)  # raises too, on a logarithmic unit in a product ("Np.footpound")
    except Exception:  # pint's parser raises many unrelated types on non-units; each means "not a unit"
        return None
    return _PintUnit(unit) if dimension in EVERYDAY_DIMENSIONS else None


def parse_measure(text: str) -> Measure | None:
    """The measurement ``text`` states (see the module docstring), or ``None``."""
    folded = _DEGREES.sub(lambda m: "°" + m[1][0].upper(), " ".join(unicodedata.normalize("NFKC", text).split()))
    if not folded or len(folded) > 60:
        return None
    if has_letter(folded) and not has_digit(folded):
        spelled = alpha2digit(folded, "en", threshold=0)
        if spelled != folded and has_digit(spelled):
            folded = spelled
        else:
            unit = _unit(folded)
            if unit is None:
                return None
            # A unit alone keeps the size of one unit in base units: "mph" and "miles per hour" agree.
            return Measure(None, unit.name, unit.base(1.0), unit.dimension)
    match = _AMOUNT_UNIT.fullmatch(folded)
    if not match:
        return None
    amount = parse_amount(match["amount"])
    unit = _unit(match["unit"].strip())
    if amount is None or unit is None:
        return None
    written = match["amount"].replace(",", "")
    half = 0.5 * 10.0 ** -(len(written.partition(".")[2]))
    base, rounded = unit.base(float(amount)), unit.base(float(amount) + half)
    return Measure(amount, unit.name, base, unit.dimension, abs(rounded - base))


class MeasureParser:
    """Measurements with units (see the module docstring)."""

    name = "measure"

    def parse(self, text: str, context: ParseContext) -> Typed | None:
        return parse_measure(text)
