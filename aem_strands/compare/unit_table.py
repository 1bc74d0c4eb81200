"""The shipped unit table: pint's unit words, prefixes and each everyday unit's conversion to SI base units.

A measurement whose unit is one word (``kg``, ``miles``, ``°F``, ``milligrams``) is read and converted from this
table alone, without pint's registry (about a second to build). ``UnitTable.lookup`` answers what
``pint.UnitRegistry().parse_units(word)`` followed by ``to_base_units`` gives for such a word, number for number:
the table keeps each unit's conversion as the scale terms pint multiplies (its numerator and denominator of
scales, in pint's order) and multiplies them the way pint does, so the magnitudes are the same floats. Words
joined by spaces, which pint multiplies (``Cha Cha Cha``, ``window seat``), are answered ``NOT_A_UNIT`` from the
table when one is no unit or their product has no everyday dimension. Anything else (``km/h``, ``square feet``,
``newton meter``, a word pint would parse with a rule this table does not follow) is answered ``ASK_PINT``, and
the caller asks pint. ``benchmarks/build_tables.py`` derives the table from pint
(``build_unit_table``) and ``tests/test_units_fast.py`` compares every unit word's answer with pint's.
"""

from __future__ import annotations

import functools
import json
import keyword
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from importlib import metadata, resources
from typing import Any

EVERYDAY_DIMENSIONS = frozenset(
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

Term = tuple[float, float]
"""One scale pint multiplies into a conversion factor, and its exponent."""


class Answer(str, Enum):
    """What the table says of a word that is not a unit it can convert."""

    NOT_A_UNIT = "not_a_unit"
    """pint reads no unit of an everyday dimension in the word (or raises on it)."""
    ASK_PINT = "ask_pint"
    """The word is beyond what the table follows (several words, operators, exponents): ask pint."""


@dataclass(frozen=True)
class Conversion:
    """How pint converts one unit to SI base units: ``amount * scale + offset`` first for a temperature scale with
    an offset (``offset`` not ``None``), then times the product of ``numerator`` and ``denominator`` terms."""

    dimension: str
    numerator: tuple[Term, ...]
    denominator: tuple[Term, ...]
    offset: Term | None = None

    def to_json(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"dimension": self.dimension, "numerator": self.numerator}
        shown["denominator"] = self.denominator
        return shown if self.offset is None else {**shown, "offset": self.offset}

    @classmethod
    def from_json(cls, shown: Mapping[str, Any]) -> Conversion:
        offset = shown.get("offset")
        return cls(
            shown["dimension"],
            tuple((scale, exponent) for scale, exponent in shown["numerator"]),
            tuple((scale, exponent) for scale, exponent in shown["denominator"]),
            None if offset is None else (offset[0], offset[1]),
        )


@dataclass(frozen=True)
class TableUnit:
    """A unit read from the table: pint's canonical name and dimensionality, and its conversion."""

    name: str
    dimension: str
    factor: float
    offset: Term | None

    def base(self, amount: float) -> float:
        """``amount`` of this unit in SI base units, the float pint's ``to_base_units`` gives."""
        if self.offset is not None:
            amount = amount * self.offset[0] + self.offset[1]
        return float(amount * self.factor)


@dataclass(frozen=True)
class UnitTable:
    """Pint's unit words (``units``: each name, symbol and alias with the canonical name it stands for), its
    prefixes (``prefixes``: key, name and scale, in the order pint tries them, ``""`` first) and plural suffixes,
    and the conversion of every canonical unit of an everyday dimension, from the pint version named."""

    units: Mapping[str, str]
    prefixes: tuple[tuple[str, str, float], ...]
    suffixes: tuple[str, ...]
    conversions: Mapping[str, Conversion]
    pint_version: str
    pint_only: frozenset[str] = frozenset()
    """Canonical units of an everyday dimension the table cannot convert (a scale that is not a number)."""
    dimensions: Mapping[str, Dimension] = field(default_factory=dict)
    """Every canonical unit's dimension as base dimensions and exponents, for products of unit words."""
    everyday: frozenset[Dimension] = frozenset()
    """``EVERYDAY_DIMENSIONS`` as base dimensions and exponents."""
    not_multiplicative: frozenset[str] = frozenset()
    """Canonical units pint refuses a prefix on (temperature scales with an offset, logarithmic units)."""

    @functools.cached_property
    def prefix_words(self) -> frozenset[str]:
        """The non-empty prefixes (``kilo``, ``k``)."""
        return frozenset(key for key, _, _ in self.prefixes if key)

    def to_json(self) -> dict[str, Any]:
        """The table as written to the shipped file (sorted keys, so regenerating it gives the same text)."""
        return {
            "pint": self.pint_version,
            "units": dict(sorted(self.units.items())),
            "prefixes": [list(prefix) for prefix in self.prefixes],
            "suffixes": list(self.suffixes),
            "conversions": {name: self.conversions[name].to_json() for name in sorted(self.conversions)},
            "pint_only": sorted(self.pint_only),
            "dimensions": {name: [list(term) for term in self.dimensions[name]] for name in sorted(self.dimensions)},
            "everyday": sorted([list(term) for term in dimension] for dimension in self.everyday),
            "not_multiplicative": sorted(self.not_multiplicative),
        }

    @classmethod
    def from_json(cls, table: Mapping[str, Any]) -> UnitTable:
        return cls(
            table["units"],
            tuple((key, name, scale) for key, name, scale in table["prefixes"]),
            tuple(table["suffixes"]),
            {name: Conversion.from_json(shown) for name, shown in table["conversions"].items()},
            table["pint"],
            frozenset(table["pint_only"]),
            {name: _dimension(terms) for name, terms in table["dimensions"].items()},
            frozenset(_dimension(terms) for terms in table["everyday"]),
            frozenset(table["not_multiplicative"]),
        )

    def lookup(self, text: str) -> TableUnit | Answer:
        """What pint's registry reads in ``text``: a unit for a single unit word, maybe prefixed or plural (see the
        module docstring); ``NOT_A_UNIT`` also for words joined by spaces (which pint multiplies) when one is no
        unit or their product has no everyday dimension; ``Answer.ASK_PINT`` beyond that."""
        text = text.replace("\N{DEGREE SIGN}", "degree")  # pint's own first rewrite of a unit expression
        if " " in text:
            return self._product(text.split(" "))
        if not _plain(text):
            return Answer.ASK_PINT
        if text.lower() == "nan" or text == "dimensionless":
            return Answer.NOT_A_UNIT  # pint reads these as a scale and as no unit at all
        reading = self._read(text)
        if reading is None:
            return Answer.NOT_A_UNIT
        canonical, prefix = reading
        if canonical in self.pint_only:
            return Answer.ASK_PINT
        conversion = self.conversions.get(canonical)
        if conversion is None:
            return Answer.NOT_A_UNIT  # no unit of an everyday dimension
        if prefix is None:
            factor = _factor(conversion.numerator, conversion.denominator)
            return TableUnit(canonical, conversion.dimension, factor, conversion.offset)
        if conversion.offset is not None:
            return Answer.NOT_A_UNIT  # pint refuses a prefix on a temperature scale with an offset
        name, scale = prefix
        factor = _factor(((scale, 1), *conversion.numerator), conversion.denominator)
        return TableUnit(name + canonical, conversion.dimension, factor, None)

    def _read(self, word: str) -> tuple[str, tuple[str, float] | None] | None:
        """The canonical unit ``word`` names and its prefix (name, scale), as pint reads it; ``None``: no unit."""
        canonical = self.units.get(word)
        if canonical is not None:
            return canonical, None
        candidates = _unit_triplets(word, self)
        if not candidates:
            return None
        prefix_name, canonical, scale = candidates[0]
        return canonical, ((prefix_name, scale) if prefix_name else None)

    def _product(self, words: list[str]) -> Answer:
        """``NOT_A_UNIT`` when pint reads no everyday unit in ``words`` joined by spaces, which it multiplies:
        one word is no unit (or a prefixed temperature scale), or the product's dimension is no everyday one."""
        if not all(_plain(word) and _MULTIPLIED.fullmatch(word) for word in words):
            return Answer.ASK_PINT  # "per", "square", "sq", "cubic", "squared", "cubed": pint rewrites them
        total: dict[str, float] = {}
        for word in words:
            if word.lower() == "nan":
                return Answer.NOT_A_UNIT
            if word == "dimensionless":
                continue
            reading = self._read(word)
            if reading is None or (reading[1] is not None and reading[0] in self.not_multiplicative):
                return Answer.NOT_A_UNIT  # pint raises on the word
            for base, exponent in self.dimensions.get(reading[0], ()):
                total[base] = total.get(base, 0) + exponent
        product = tuple(sorted((base, exponent) for base, exponent in total.items() if exponent != 0))
        return Answer.ASK_PINT if product in self.everyday else Answer.NOT_A_UNIT


Dimension = tuple[tuple[str, float], ...]
"""A dimension as its base dimensions and their exponents, sorted: ``(("[length]", 1), ("[time]", -1))``."""

_MULTIPLIED = re.compile(r"(?!.*(?:square|squared|cubic|cubed|per)|.*sq$)\w+")
"""A word pint multiplies as it is when it stands between spaces (``\\w`` only, none of its rewritten words)."""


def _plain(word: str) -> bool:
    """Whether pint's expression parser reads ``word`` as one name (an identifier, not a Python keyword)."""
    return word.isidentifier() and not keyword.iskeyword(word) and not keyword.issoftkeyword(word)


def _dimension(terms: Iterable[Iterable[Any]]) -> Dimension:
    return tuple(sorted((base, exponent) for base, exponent in terms))


def _unit_triplets(word: str, table: UnitTable) -> list[tuple[str, str, float]]:
    """Pint's readings of ``word`` as prefix + unit + plural suffix, in its order, less those equal to a prefixed
    reading: (prefix name, canonical unit, prefix scale)."""
    found: dict[tuple[str, str], float] = {}
    for suffix in table.suffixes:
        for key, prefix_name, scale in table.prefixes:
            if not (word.startswith(key) and word.endswith(suffix)):
                continue
            stem = word[len(key) :]
            if suffix:
                stem = stem[: -len(suffix)]
                if len(stem) == 1:
                    continue
            canonical = table.units.get(stem)
            if canonical is not None:
                found.setdefault((prefix_name, canonical), scale)
    for prefix_name, canonical in list(found):
        if prefix_name:
            found.pop(("", prefix_name + canonical), None)
    return [(prefix_name, canonical, scale) for (prefix_name, canonical), scale in found.items()]


def _factor(numerator: Iterable[Term], denominator: Iterable[Term]) -> float:
    """The product of scale terms, merged, cancelled and multiplied in pint's order (its ``_get_root_units``),
    so the float is the one pint computes."""
    above: dict[float, float] = {}
    below: dict[float, float] = {}
    for scale, exponent in numerator:
        above[scale] = above.get(scale, 0) + exponent
    for scale, exponent in denominator:
        below[scale] = below.get(scale, 0) + exponent
    while any(scale in below for scale in above):
        for scale, exponent in above.items():
            if scale in below and exponent >= below[scale]:
                above[scale] -= below.pop(scale)
        for scale, exponent in below.items():
            if scale in above and exponent >= above[scale]:
                below[scale] -= above.pop(scale)
    factor: float = 1
    for scale, exponent in above.items():
        if exponent != 0:
            factor *= scale**exponent
    for scale, exponent in below.items():
        if exponent != 0:
            factor *= scale**-exponent
    return factor


def build_unit_table() -> UnitTable:
    """The table of the installed pint, read from a fresh registry (a few seconds; not a registry that has parsed
    prefixed units, whose tables grow): what ``benchmarks/build_tables.py`` ships and the tests compare with."""
    import pint
    from pint.util import ParserHelper, UnitsContainer

    registry: Any = pint.UnitRegistry()  # generic over its quantity classes
    definitions = registry._units  # pint keeps its unit definitions, prefixes and suffixes in these tables
    units = {word: definitions[word].name for word in definitions}
    prefixes = tuple((key, prefix.name, prefix.converter.scale) for key, prefix in registry._prefixes.items())
    conversions, pint_only = {}, set()
    for canonical in sorted(set(units.values())):
        conversion = _conversion(registry, canonical)
        if isinstance(conversion, Conversion):
            conversions[canonical] = conversion
        elif conversion is Answer.ASK_PINT:
            pint_only.add(canonical)
    version = metadata.version("pint")
    dimensions = {name: _dimension(registry._get_dimensionality(UnitsContainer({name: 1})).items())
                  for name in sorted(set(units.values()))}  # fmt: skip
    everyday = frozenset(_dimension(ParserHelper.from_string(text).items()) for text in EVERYDAY_DIMENSIONS)
    not_multiplicative = frozenset(name for name in dimensions if not definitions[name].converter.is_multiplicative)
    suffixes = tuple(registry._suffixes)
    return UnitTable(units, prefixes, suffixes, conversions, version, frozenset(pint_only), dimensions, everyday,
                     not_multiplicative)  # fmt: skip


def _conversion(registry: Any, canonical: str) -> Conversion | Answer:
    """``canonical``'s conversion to base units as pint computes it; ``NOT_A_UNIT`` when its dimension is not an
    everyday one, ``ASK_PINT`` when a scale is not a number (pint's ``NaN`` units) or not a plain or offset scale."""
    from pint.facets.nonmultiplicative.definitions import OffsetConverter
    from pint.facets.plain.definitions import ScaleConverter
    from pint.util import UnitsContainer

    try:
        unit = registry.Unit(canonical)
    except Exception:  # a definition pint cannot build a unit from is no unit to the parser either
        return Answer.NOT_A_UNIT
    dimension = str(unit.dimensionality)
    if dimension not in EVERYDAY_DIMENSIONS:
        return Answer.NOT_A_UNIT
    source = UnitsContainer({canonical: 1})
    _, base = registry._get_base_units(source)
    definition = registry._units[canonical]
    converter, offset = definition.converter, None
    if type(converter) not in (ScaleConverter, OffsetConverter):
        return Answer.ASK_PINT  # a logarithmic scale (decibel-milliwatts, a subclass): pint's own arithmetic
    if not converter.is_multiplicative:
        offset = (converter.scale, converter.offset)
        source = definition.reference  # pint converts a temperature to its reference scale first
    fraction: dict[str, dict[Any, Any]] = {"numerator": {}, "denominator": {}}
    registry._get_root_units_recurse(source / base, 1, defaultdict(int), fraction)
    terms = [*fraction["numerator"], *fraction["denominator"]]
    if any(not isinstance(scale, (int, float)) or math.isnan(scale) for scale in terms):
        return Answer.ASK_PINT
    return Conversion(dimension, tuple(fraction["numerator"].items()), tuple(fraction["denominator"].items()), offset)


UNIT_TABLE_FILE = "unit_words.json"
"""The shipped table, in ``aem_strands/compare/data``."""


def shipped_unit_table() -> UnitTable:
    """The table shipped with the package (``UNIT_TABLE_FILE``)."""
    data = resources.files("aem_strands.compare").joinpath("data").joinpath(UNIT_TABLE_FILE).read_bytes()
    return UnitTable.from_json(json.loads(data))


def current_unit_table(shipped: UnitTable, installed: str) -> UnitTable:
    """``shipped`` while it comes from the ``installed`` pint version, else the installed pint's own table."""
    return shipped if shipped.pint_version == installed else build_unit_table()
