"""Places for grounding: a place argument by another of its names said or seen earlier (``SF`` for
``San Francisco``, ``NYC``), by the gazetteer (``compare.gazetteer``).

Earlier texts are read for place names only when a lookup first asks for a place, once per text: their phrases
of up to three words, each by the places it names.
"""

from __future__ import annotations

from aem_strands.compare.gazetteer import places
from aem_strands.trace.grounding_keys import EDGE, Grounding
from aem_strands.trace.value_tokens import phrases

_PLACE_PHRASE = 3


class PlaceIndex:
    """The places earlier texts name, read when ``find`` first needs them."""

    def __init__(self) -> None:
        self._pending: list[tuple[str, str]] = []
        self._places: dict[str, tuple[str, str]] = {}

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
        self._pending.clear()
        for place in named:
            hit = self._places.get(place)
            if hit is not None:
                return Grounding(hit[0], hit[1], "place")
        return None


def _code_in_title_case(phrase: str) -> frozenset[str]:
    """The places a three-letter word written with a capital first (``Lax``) names as a code (``LAX``): a code
    in running text is often written so; lower case (``lax``) stays a word."""
    if len(phrase) == 3 and phrase.isalpha() and phrase[0].isupper() and phrase[1:].islower():
        return places(phrase.upper()).any
    return frozenset()


__all__ = ["PlaceIndex"]
