"""Two names of one entity: a country by its name, short name, code or demonym, an organisation by its acronym.

``same_entity(a, b)`` says whether two entity names, written differently, name the same thing:

- both are written alike once case, accents, a possessive ``'s`` (either apostrophe), the dots of an abbreviation, a
  leading ``the`` and ``&`` / ``and`` are set aside (``India's`` / ``India``, ``U.S`` / ``US``);
- or one is a word of three letters or more that starts the other, a one-word name of a country, and no other
  country's (``Pak`` / ``Pakistan``, not ``Ind`` / ``India``: Indonesia too);
- or both are names of one country (``country_key``), a compass point's initial read in full (``N. Korea``): its
  name and short names (``United States``,
  ``America``), its ISO 3166 codes where they read as the country in prose (``US``, ``USA``, ``UK``, ``UAE``;
  never a code that is also an English word or abbreviation, a US state's code or a unit: ``IN``, ``IT``,
  ``CA``, ``KG``), and its demonym (``American``, ``British``, ``Syrian``). Only a whole name counts:
  ``Syrian Airlines`` is no name of Syria, ``South Sudan`` none of Sudan;
- or, neither being a country's name, one is a single word made of the initials of the other's words
  (``IAEA`` / ``International Atomic Energy Agency``, ``UN`` / ``United Nations``): the capitalised words
  where the expansion is written with capitals, else every word but a connector (``of``, ``the``, ``and``).

A country's name decides: ``US`` is the United States and never ``Union Station``, and two names of
different countries (``Niger`` / ``Nigeria``, ``Dominica`` / ``Dominican Republic``) never agree. A name that
two countries share (``Dominican``, ``Congolese``) names neither.

The country table is derived from ``countryinfo`` (names, alternative spellings, ISO codes, demonyms) by
``benchmarks/build_country_aliases.py`` and shipped as ``data/country_aliases.json``; a process reads it once,
on first use. ``same_entity`` is pure and safe to call per pair of facts.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Mapping
from importlib import resources

ALIASES_FILE = "country_aliases.json"

CONNECTORS = frozenset(["of", "the", "and", "for", "on", "at", "in", "to", "de", "du", "des", "del", "la", "le"])
"""Words an acronym skips when its expansion is written without capitals (``Bank of America`` is ``BA``)."""

_DOTTED = re.compile(r"(?<=\w)\.")  # "U.S." / "St. Lucia": the dot of an abbreviation
_POSSESSIVE = re.compile(r"(?<=\w)'s\b|(?<=s)'(?=\s|$)")  # "India's", "Philippines'"
_SEPARATORS = re.compile(r"[^\w' ]+|_")
_LEADING_THE = re.compile(r"^the ")
_ACRONYM = re.compile(r"[a-z]{2,10}")


@functools.lru_cache(maxsize=1 << 16)
def entity_form(text: str) -> str:
    """The form two names are compared in: case-folded, accents dropped, a curly apostrophe read as ``'``, a
    possessive ``'s`` and the dots of abbreviations removed, ``&`` read as ``and``, other punctuation and runs of
    spaces read as one space, a leading ``the`` dropped. ``U.S.`` → ``us``, ``Côte d'Ivoire`` → ``cote d'ivoire``."""
    decomposed = unicodedata.normalize("NFKD", text.replace("\u2019", "'").replace("&", " and "))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    plain = _POSSESSIVE.sub("", _DOTTED.sub("", plain))
    spaced = " ".join(_SEPARATORS.sub(" ", plain).split())
    return _LEADING_THE.sub("", spaced)


@functools.cache
def _countries() -> Mapping[str, str]:
    """Each country name's ``entity_form`` and the ISO 3166 alpha-3 code of the country it names."""
    text = resources.files("aem_strands.compare").joinpath("data").joinpath(ALIASES_FILE).read_text(encoding="utf-8")
    aliases: dict[str, str] = json.loads(text)["aliases"]
    return aliases


def country_key(text: str) -> str | None:
    """The ISO 3166 alpha-3 code of the country ``text`` names as a whole (``U.S.`` → ``USA``, ``Afghan``
    → ``AFG``, ``N. Korea`` → ``PRK``), or ``None`` when it names no country or more than one."""
    return _country_of(entity_form(text))


_COMPASS = {"n": "north", "s": "south", "e": "east", "w": "west"}


def _country_of(form: str) -> str | None:
    """The country an ``entity_form`` names, a compass point's initial read in full (``s africa``)."""
    table = _countries()
    if form in table:
        return table[form]
    head, _, rest = form.partition(" ")
    return table.get(f"{_COMPASS[head]} {rest}") if head in _COMPASS and rest else None


@functools.cache
def _clipped(form: str) -> str | None:
    """The one country whose one-word names (name, short name, demonym) all start with ``form``, a word of three
    letters or more shorter than them (``pak`` → ``PAK``; ``ind``, both India and Indonesia, → ``None``)."""
    if len(form) < 3 or not form.isalpha():
        return None
    codes = {code for name, code in _countries().items() if name.startswith(form) and name != form and " " not in name}
    return next(iter(codes)) if len(codes) == 1 else None


def same_entity(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` name the same entity; see the module docstring for what counts. Symmetric, and
    true for any text compared with itself."""
    return _same_forms(a, b) if len(a) <= len(b) else _same_forms(b, a)


def entity_relation(a: str, b: str) -> bool | None:
    """``True`` when ``a`` and ``b`` name the same entity (``same_entity``); ``False`` when they do not and one
    of them is a country's whole name (``Sudan`` / ``South Sudan``, ``Korea`` / ``North Korea``, ``France`` /
    ``Paris, France``, ``US`` / ``US Navy``); ``None`` when these names cannot tell (``Pleasant Hill`` /
    ``Pleasant Hill, CA``), for a caller's own rule to decide."""
    if same_entity(a, b):
        return True
    if country_key(a) is not None or country_key(b) is not None:
        return False
    return None


@functools.lru_cache(maxsize=16384)
def _same_forms(a: str, b: str) -> bool:
    x, y = entity_form(a), entity_form(b)
    if x == y:
        return True
    country_x, country_y = _country_of(x), _country_of(y)
    if country_x is None and country_y is not None and country_y == _clipped(x) and y.startswith(x):
        return True  # "Pak" / "Pakistan": a headline's clipped name
    if country_x is not None or country_y is not None:
        return country_x == country_y
    return _initials(x, b) or _initials(y, a)


def _initials(acronym: str, expansion: str) -> bool:
    """Whether ``acronym`` (an ``entity_form``) is one word made of the initials of ``expansion``'s words."""
    if not _ACRONYM.fullmatch(acronym):
        return False
    words = entity_form(expansion).split()
    written = _SEPARATORS.sub(" ", _DOTTED.sub("", expansion)).split()
    if len(written) == len(words) and any(w[:1].isupper() for w in written) and not expansion.isupper():
        chosen = [form for form, word in zip(words, written, strict=True) if word[:1].isupper()]
    else:
        chosen = [word for word in words if word not in CONNECTORS]
    return len(chosen) >= 2 and "".join(word[0] for word in chosen) == acronym
