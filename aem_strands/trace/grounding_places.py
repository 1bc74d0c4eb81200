"""Places for grounding: a place argument by another of its names said or seen earlier (``SF`` for
``San Francisco``, ``NYC``), by the gazetteer (``compare.gazetteer``).

An airport is also named by the words of its name that no other airport's name shares but one, its city's words
aside (``airportsdata``: "O'Hare" for ``ORD``, "Heathrow" for ``LHR``, "Kennedy" for ``JFK``; never "John" nor
"International", which many airports' names hold). A code whose airport nobody named, by a name or by its city,
stays ungrounded.

Earlier texts are read for place names only when a lookup first asks for a place, once per text: their phrases
of up to three words, each by the places it names, and their words.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping

from aem_strands.compare.gazetteer import places
from aem_strands.compare.normalise import normalise_text
from aem_strands.trace.grounding_keys import EDGE, Grounding
from aem_strands.trace.value_tokens import phrases

_PLACE_PHRASE = 3
_AIRPORT = "airport:"
_OWN_WORD = 4
"""The fewest letters of a word that names an airport (``Hare`` of "O'Hare"; not ``F`` of "John F Kennedy")."""
_SHARED_BY = 2
"""The most airports' names a word may be in and still name its airport (``Kennedy``: two)."""


class PlaceIndex:
    """The places earlier texts name, read when ``find`` first needs them."""

    def __init__(self) -> None:
        self._pending: list[tuple[str, str]] = []
        self._places: dict[str, tuple[str, str]] = {}
        self._words: dict[str, tuple[str, str]] = {}

    def add(self, text: str, source: str) -> None:
        """Keep a text to be read for places when a lookup first needs them."""
        self._pending.append((text, source))

    def find(self, shown: str) -> Grounding | None:
        """The first earlier phrase naming a place ``shown`` names, or ``None`` (also when ``shown`` names none)."""
        named = places(shown).any
        if not named:
            return None
        for text, source in self._pending:
            words = [w.strip(EDGE) for w in text.split()]
            for phrase in phrases([w for w in words if w], _PLACE_PHRASE):
                for place in places(phrase).any | _code_in_title_case(phrase):
                    self._places.setdefault(place, (source, phrase))
            for word in words:
                for key in normalise_text(word).split():
                    self._words.setdefault(key, (source, word))
        self._pending.clear()
        for place in named:
            hit = self._places.get(place)
            if hit is not None:
                return Grounding(hit[0], hit[1], "place")
        for place in sorted(named):
            if place.startswith(_AIRPORT):
                for word in sorted(airport_words().get(place[len(_AIRPORT) :], ())):
                    hit = self._words.get(word)
                    if hit is not None:
                        return Grounding(hit[0], hit[1], "airport name")
        return None


@functools.cache
def airport_words() -> Mapping[str, frozenset[str]]:
    """Each IATA code's words that name its airport (see the module docstring): the words of the airport's name,
    normalised, of four letters or more, in at most two airports' names, and not words of its city's name."""
    import airportsdata  # a third of a second: loaded only when an airport is looked up

    airports = airportsdata.load("IATA")
    named = {code: set(normalise_text(airport["name"]).split()) for code, airport in airports.items()}
    shared = Counter(word for words in named.values() for word in words)
    return {
        code: frozenset(
            word
            for word in words - set(normalise_text(airports[code]["city"]).split())
            if len(word) >= _OWN_WORD and shared[word] <= _SHARED_BY
        )
        for code, words in named.items()
    }


def _code_in_title_case(phrase: str) -> frozenset[str]:
    """The places a three-letter word written with a capital first (``Lax``) names as a code (``LAX``): a code
    in running text is often written so; lower case (``lax``) stays a word."""
    if len(phrase) == 3 and phrase.isalpha() and phrase[0].isupper() and phrase[1:].islower():
        return places(phrase.upper()).any
    return frozenset()


__all__ = ["PlaceIndex", "airport_words"]
