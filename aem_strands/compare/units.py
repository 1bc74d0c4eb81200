"""Measurements with units, converted by ``pint``: ``5 kg`` is ``5000 g`` and not ``5 lb``.

``MeasureParser`` reads an amount followed by a unit (``5 kg``, ``5kg``, ``68 °F``, ``3.5 km/h``,
``five kilograms``) or a unit alone (``celsius``, ``°C``, ``lbs``). The amount is converted to SI
base units (temperatures to kelvin, so ``20 °C`` is ``68 °F``); amounts in different units agree within the
rounding of the coarser one (``72 °F`` / ``22.2 °C``). Units without a dimension
(``percent``, ``count``) are left to the number parser. Durations (``2 hours``) are read by the
time parser first; a measured time still agrees with a duration of the same length.

Whether a word is a unit at all is read from ``data/unit_words.json``, the names, symbols, aliases and
prefixes of pint's default registry, derived by ``benchmarks/build_tables.py`` (``unit_words`` here; a
test regenerates it and compares). The registry itself, about a second to build, is built once, on the first
string whose words are all unit words.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from dataclasses import dataclass
from importlib import metadata, resources
from typing import Any

from text_to_num import alpha2digit  # type: ignore[import-untyped]  # text2num ships no types

from aem_strands.compare.parse_numbers import parse_amount
from aem_strands.compare.values import Measure, ParseContext, Typed

_AMOUNT_UNIT = re.compile(r"(?P<amount>[+-]?\d[\d,]*(?:\.\d+)?|[+-]?\.\d+)\s*(?P<unit>[^\d\s].{0,40})")
_UNIT_TEXT = re.compile(r"(?=.*[^\W\d_])(?:[^\W\d_]|[°/*.\-²³ ]|\^[23])+")
_DEGREES = re.compile(r"\b(?:degrees?|deg)\.?\s+(celsius|centigrade|fahrenheit)\b", re.IGNORECASE)
_WORDS_LIMIT = 3
_DIMENSIONS = frozenset(
    {
        "[length]", "[mass]", "[time]", "[temperature]", "[length] ** 2", "[length] ** 3", "[length] / [time]",
        "[length] / [time] ** 2", "[mass] / [length] ** 3", "[length] ** 2 * [mass] / [time] ** 2",
        "[length] ** 2 * [mass] / [time] ** 3", "[mass] / [length] / [time] ** 2", "[information]",
        "[information] / [time]", "1 / [time]", "[length] * [mass] / [time] ** 2", "[current]",
        "[length] ** 2 * [mass] / [current] / [time] ** 3",
    }
)  # fmt: skip
"""Everyday dimensions (length, mass, time, temperature, area, volume, speed, density, energy, power,
pressure, data, frequency, force, current, voltage): pint also reads "EU" as exa-enzyme-units."""
_RARE_PREFIXES = ("exa", "peta", "zetta", "yotta", "atto", "femto", "zepto", "yocto", "ronna", "quetta", "ronto")
_NOT_UNITS = frozenset({"a", "an", "at", "in", "pi", "and", "or", "per", "to", "of"})
"""Words ``pint`` knows as units that, standing alone in a value, are never meant as one."""


_TOKENS = re.compile(r"[^\s/*^.\-²³\d]+")
_CONNECTORS = frozenset({"per", "square", "cubic", "sq"})


UNIT_WORDS_FILE = "unit_words.json"
"""The shipped table of unit words, in ``aem_strands/compare/data``."""


@dataclass(frozen=True)
class UnitWords:
    """What the unit-word check reads: every unit name, symbol and alias pint's default registry defines, and its
    non-empty prefixes (``kilo``, ``k``), with the pint version they come from."""

    units: frozenset[str]
    prefixes: frozenset[str]
    pint_version: str

    def to_json(self) -> dict[str, Any]:
        """The table as written to ``UNIT_WORDS_FILE`` (sorted lists, so regenerating it gives the same text)."""
        return {"pint": self.pint_version, "units": sorted(self.units), "prefixes": sorted(self.prefixes)}


def unit_words() -> UnitWords:
    """The unit words of the installed pint, read from a fresh registry (about a second; not ``_registry()``, whose
    tables grow with the prefixed units it has parsed): what ``benchmarks/build_tables.py`` ships and what the test
    compares the shipped table with."""
    import pint

    registry: Any = pint.UnitRegistry()  # generic over its quantity classes
    units, prefixes = registry._units, registry._prefixes  # pint keeps its definitions in these tables
    return UnitWords(frozenset(units), frozenset(p for p in prefixes if p), metadata.version("pint"))


def shipped_unit_words() -> UnitWords:
    """The unit words shipped with the package (``UNIT_WORDS_FILE``)."""
    table = json.loads(resources.files("aem_strands.compare").joinpath("data").joinpath(UNIT_WORDS_FILE).read_bytes())
    return UnitWords(frozenset(table["units"]), frozenset(table["prefixes"]), table["pint"])


def current_unit_words(shipped: UnitWords, installed: str) -> UnitWords:
    """``shipped`` while it comes from the ``installed`` pint version, else the installed pint's own words."""
    return shipped if shipped.pint_version == installed else unit_words()


@functools.cache
def _unit_words() -> UnitWords:
    return current_unit_words(shipped_unit_words(), metadata.version("pint"))


@functools.lru_cache(maxsize=1 << 14)
def _known(token: str) -> bool:
    """Whether ``token`` is a unit name, symbol or alias pint defines, maybe prefixed or plural."""
    if token in _CONNECTORS:
        return True
    words = _unit_words()
    units, prefixes = words.units, words.prefixes
    for stem in dict.fromkeys((token, token.removesuffix("s"), token.removesuffix("es"))):
        if stem in units or any(stem.startswith(p) and stem[len(p) :] in units for p in prefixes):
            return True
    return False


@functools.cache
def _registry() -> Any:  # pint's registry type is generic over its quantity classes; Any keeps callers simple
    import pint  # imported on first use: it takes a second, and most runs never meet a unit

    return pint.UnitRegistry()


def _unit(text: str) -> Any | None:
    """The pint unit ``text`` names, trying it as written and then lower-cased; ``None`` if none."""
    words = text.split()
    if not words or len(words) > _WORDS_LIMIT or text.casefold() in _NOT_UNITS or not _UNIT_TEXT.fullmatch(text):
        return None
    if not all(_known(token) for token in _TOKENS.findall(text)) and not all(
        _known(token) for token in _TOKENS.findall(text.casefold())
    ):
        return None  # pint tries every prefix and suffix of an unknown word: a thousand times slower
    registry = _registry()
    # Lower-casing is tried only beyond two letters: "MB" is not "mb" (millibarn), "KGS" is "kgs".
    forms = (text, text.casefold()) if len(text) > 2 else (text,)
    for candidate in dict.fromkeys(form.replace(" ", "_") if i else form for form in forms for i in (0, 1)):
        try:
            unit = registry.parse_units(candidate)
        except Exception:  # pint's parser raises many unrelated types on non-units; each means "not a unit"
            continue
        if str(unit.dimensionality) in _DIMENSIONS and not str(unit).startswith(_RARE_PREFIXES):
            return unit
    return None


def parse_measure(text: str) -> Measure | None:
    """The measurement ``text`` states (see the module docstring), or ``None``."""
    folded = _DEGREES.sub(lambda m: "°" + m[1][0].upper(), " ".join(unicodedata.normalize("NFKC", text).split()))
    if not folded or len(folded) > 60:
        return None
    if any(c.isalpha() for c in folded) and not any(c.isdigit() for c in folded):
        spelled = alpha2digit(folded, "en", threshold=0)
        if spelled != folded and any(c.isdigit() for c in spelled):
            folded = spelled
        else:
            unit = _unit(folded)
            if unit is None:
                return None
            # A unit alone keeps the size of one unit in base units: "mph" and "miles per hour" agree.
            one = float(_registry().Quantity(1.0, unit).to_base_units().magnitude)
            return Measure(None, str(unit), one, str(unit.dimensionality))
    match = _AMOUNT_UNIT.fullmatch(folded)
    if not match:
        return None
    amount = parse_amount(match["amount"])
    unit = _unit(match["unit"].strip())
    if amount is None or unit is None:
        return None
    written = match["amount"].replace(",", "")
    half = 0.5 * 10.0 ** -(len(written.partition(".")[2]))
    base, rounded = _base(amount, unit), _base(amount + half, unit)
    return Measure(amount, str(unit), base, str(unit.dimensionality), abs(rounded - base))


def _base(amount: float, unit: Any) -> float:
    return float(_registry().Quantity(amount, unit).to_base_units().magnitude)


class MeasureParser:
    """Measurements with units (see the module docstring)."""

    name = "measure"

    def parse(self, text: str, context: ParseContext) -> Typed | None:
        return parse_measure(text)
