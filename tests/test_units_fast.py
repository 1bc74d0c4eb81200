"""The shipped unit table reads and converts every single unit word as pint's registry does, float for float."""

from __future__ import annotations

import functools
import keyword
from typing import Any

import pint
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.compare.unit_table import (
    EVERYDAY_DIMENSIONS,
    Answer,
    TableUnit,
    UnitTable,
    build_unit_table,
    shipped_unit_table,
)
from aem_strands.compare.units import parse_measure

Reading = tuple[str, str, float, float] | None
"""What a word reads as: canonical name, dimensionality, one unit and 37.5 units in base units; ``None``: no
unit of an everyday dimension."""

_AMOUNT = 37.5


@functools.cache
def _pint() -> Any:
    return pint.UnitRegistry()


@functools.cache
def _table() -> UnitTable:
    return shipped_unit_table()


def pint_reading(word: str, amount: float = _AMOUNT) -> Reading:
    registry = _pint()
    try:
        unit = registry.parse_units(word)
        dimension = str(unit.dimensionality)  # raises on a logarithmic unit in a product
    except Exception:  # pint raises many types on a word it cannot read: each means "not a unit"
        return None
    if dimension not in EVERYDAY_DIMENSIONS:
        return None
    one = float(registry.Quantity(1.0, unit).to_base_units().magnitude)
    return str(unit), dimension, one, float(registry.Quantity(amount, unit).to_base_units().magnitude)


def table_reading(word: str, amount: float = _AMOUNT) -> Reading | Answer:
    found = _table().lookup(word)
    if found is Answer.NOT_A_UNIT:
        return None
    if isinstance(found, Answer):
        return found
    return found.name, found.dimension, found.base(1.0), found.base(amount)


def _words() -> list[str]:
    units = _table().units
    return sorted({form for word in units for form in (word, word + "s", word.casefold(), word.upper())})


def test_the_shipped_table_is_what_pint_gives() -> None:
    assert shipped_unit_table() == build_unit_table()  # stale after a pint upgrade: run benchmarks/build_tables.py


def test_every_unit_word_reads_as_pint_reads_it() -> None:
    # Every name, symbol and alias, plural, lower- and upper-cased: the same unit, dimension and base-unit floats.
    asked_pint, compared = [], 0
    for word in _words():
        mine = table_reading(word)
        if mine is Answer.ASK_PINT:
            asked_pint.append(word)
            continue
        assert mine == pint_reading(word), word
        compared += 1
    print(f"{compared} words compared, {len(asked_pint)} left to pint")
    assert compared > 3000  # 1,037 words in four forms, less repeats
    # Left to pint: operators (``%``), symbols beyond identifiers (``R_∞``) and Python keywords (``in``, ``as``).
    plain = [word for word in asked_pint if word.replace("°", "degree").isidentifier() and not keyword.iskeyword(word)]
    assert plain == []


@pytest.mark.parametrize(
    ("word", "name", "one"),
    [
        ("kg", "kilogram", 1.0),  # the base unit of mass
        ("miles", "mile", 1609.344),  # 5280 ft x 0.3048 m
        ("°F", "degree_Fahrenheit", 255.92777777777778),  # 1 x 5/9 + 255.372... K
        ("milligrams", "milligram", 1e-06),  # 10^-3 g in kilograms
        ("km", "kilometer", 1000.0),
    ],
)
def test_everyday_units_come_from_the_table(word: str, name: str, one: float) -> None:
    found = _table().lookup(word)
    assert isinstance(found, TableUnit)
    assert (found.name, found.base(1.0)) == (name, one)


def test_words_beyond_one_unit_are_left_to_pint() -> None:
    assert _table().lookup("km/h") is Answer.ASK_PINT
    assert _table().lookup("miles per hour") is Answer.ASK_PINT
    assert _table().lookup("in") is Answer.ASK_PINT  # a Python keyword: pint's expression parser reads it its own way
    assert _table().lookup("window") is Answer.NOT_A_UNIT


@pytest.mark.parametrize("word", ["nan", "NaN", "inf", "infinity", "dimensionless", "e", "pi", "°C", "°K", "degC"])
def test_words_pint_reads_specially(word: str) -> None:
    mine = table_reading(word)
    assert mine is Answer.ASK_PINT or mine == pint_reading(word)


def test_a_product_pint_cannot_give_a_dimension_is_no_unit() -> None:
    # pint parses "Np.footpound" (neper times foot-pound) but raises on its dimensionality: not a measurement.
    assert parse_measure("Np.footpound") is None
    assert parse_measure("3 decade.hbar") is None


_prefixes = st.sampled_from(sorted({key for key, _, _ in shipped_unit_table().prefixes}))
_units = st.sampled_from(sorted(shipped_unit_table().units))
_amounts = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False) | st.integers(-(10**6), 10**6).map(float)


@settings(max_examples=400, deadline=None)
@given(prefix=_prefixes, unit=_units, plural=st.booleans(), amount=_amounts)
def test_prefixed_words_and_any_amount_read_as_pint_reads_them(
    prefix: str, unit: str, plural: bool, amount: float
) -> None:
    word = prefix + unit + ("s" if plural else "")
    mine = table_reading(word, amount)
    if mine is not Answer.ASK_PINT:
        assert mine == pint_reading(word, amount)


_words_in_products = st.sampled_from([*sorted(shipped_unit_table().units), "Cha", "es", "dimensionless", "nan", "x"])


@settings(max_examples=500, deadline=None)
@given(words=st.lists(_words_in_products, min_size=2, max_size=3))
def test_words_joined_by_spaces_read_as_pint_reads_them(words: list[str]) -> None:
    # pint multiplies them: the table says "no unit" only where pint finds none of an everyday dimension.
    text = " ".join(words)
    mine = table_reading(text)
    if mine is not Answer.ASK_PINT:
        assert mine is None
        assert pint_reading(text) is None


def test_products_of_words_the_table_decides() -> None:
    assert _table().lookup("Cha Cha Cha") is Answer.NOT_A_UNIT  # "Cha" is no unit to pint
    assert _table().lookup("window seat") is Answer.NOT_A_UNIT
    assert _table().lookup("kg kg") is Answer.NOT_A_UNIT  # kilogram squared: no everyday dimension
    assert _table().lookup("newton meter") is Answer.ASK_PINT  # an energy: pint names and converts it
    assert _table().lookup("square feet") is Answer.ASK_PINT  # pint rewrites "square"


@settings(max_examples=200, deadline=None)
@given(word=st.text(st.sampled_from("abcdegiklmnorstxyzABCDEGKLMNPRST_°µ"), min_size=1, max_size=8), amount=_amounts)
def test_arbitrary_words_read_as_pint_reads_them(word: str, amount: float) -> None:
    mine = table_reading(word, amount)
    if mine is not Answer.ASK_PINT:
        assert mine == pint_reading(word, amount)
