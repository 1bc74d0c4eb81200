"""Closed vocabularies and single words: when two short values are the same word, or opposite words.

Cosine similarity cannot tell a synonym from an opposite: ``ascending``/``descending`` (0.82),
``Monday``/``Tuesday`` (0.87) and ``Psychologist``/``Psychiatrist`` (0.78) score as high as
``Football``/``Soccer`` (0.85). So a single word is never passed on similarity (see ``settle``);
``word_relation`` decides the pairs it can from what the words are:

- ``STATES``: curated groups of state and enum words with their opposites (``enable`` = ``turn on``
  = ``on``; ``on`` ≠ ``off``; ``ascending`` = ``asc`` = ``low to high`` ≠ ``descending``). No
  installed package carries such a table (WordNet needs a separate data download).
- contraction: ``'re``/``are``, ``'s``/``is`` (``they're made`` / ``they are made``);
- inflection: the same word but for a plural or possessive ending (``meters``/``meter``,
  ``McDonald's``/``McDonalds``);
- abbreviation: one word is a prefix of at least three letters of the other, which is at least two
  letters longer (``Dec``/``December``, ``Fran``/``Francisco``, ``gas``/``gasoline``);
- number words (``four``/``4``), currency names (``dollars``/``USD``), units (``kg``/``kilograms``,
  via ``units``) and places (``CA``/``California``, via ``gazetteer``).
"""

from __future__ import annotations

from dataclasses import dataclass

from text_to_num import alpha2digit  # type: ignore[import-untyped]  # text2num ships no types

from aem_strands.compare.gazetteer import place_relation
from aem_strands.compare.normalise import normalise_text
from aem_strands.compare.parse_numbers import currency_code
from aem_strands.compare.units import parse_measure
from aem_strands.compare.values import agree

_OPPOSED = [
    ({"on", "enable", "enabled", "turn on", "turned on", "switch on", "switched on", "activate", "activated",
      "active"},
     {"off", "disable", "disabled", "turn off", "turned off", "switch off", "switched off", "deactivate",
      "deactivated", "inactive"}),
    ({"ascending", "asc", "increasing", "low to high", "lowest first", "smallest first"},
     {"descending", "desc", "decreasing", "high to low", "highest first", "largest first"}),
    ({"open", "opened", "opening"}, {"closed", "close", "shut", "closing"}),
    ({"lock", "locked"}, {"unlock", "unlocked"}),
    ({"include", "included", "including", "inclusive"}, {"exclude", "excluded", "excluding", "exclusive"}),
    ({"buy", "purchase", "bought"}, {"sell", "sold"}),
    ({"min", "minimum", "lowest"}, {"max", "maximum", "highest"}),
    ({"increase", "raise", "up", "higher"}, {"decrease", "reduce", "down", "lower"}),
    ({"allow", "allowed", "permit", "approve", "approved", "accept", "accepted", "grant", "granted"},
     {"deny", "denied", "reject", "rejected", "refuse", "refused", "decline", "declined"}),
    ({"public"}, {"private"}),
    ({"arrival", "arrive", "arriving", "inbound"}, {"departure", "depart", "departing", "outbound"}),
    ({"upload"}, {"download"}),
    ({"import"}, {"export"}),
    ({"show", "visible", "display"}, {"hide", "hidden", "invisible"}),
    ({"add", "insert", "create"}, {"remove", "delete"}),
    ({"confirm", "confirmed"}, {"cancel", "cancelled", "canceled"}),
    ({"start", "begin"}, {"stop", "end", "halt"}),
    ({"first", "earliest", "oldest"}, {"last", "latest", "newest"}),
    ({"credit"}, {"debit"}),
    ({"input"}, {"output"}),
    ({"before"}, {"after"}),
    ({"above"}, {"below"}),
    ({"win", "won"}, {"lose", "lost"}),
]  # fmt: skip
STATES: dict[str, tuple[int, int]] = {
    word: (pair, side) for pair, sides in enumerate(_OPPOSED) for side, words in enumerate(sides) for word in words
}
"""Each state word's (opposed pair, side): same pair and side is the same state, other side the opposite."""

_ENDINGS = ("'s", "s", "es")
_CONTRACTIONS = {"re": "are", "s": "is", "m": "am", "ve": "have", "ll": "will", "d": "would", "t": "not"}
"""What the tail of a contraction stands for once punctuation splits it off (``they're`` → ``they re``)."""


@dataclass(frozen=True)
class WordRelation:
    """A decision on two short values, and the rule that reached it (with what it found)."""

    equivalent: bool
    rule: str


def state_relation(gold: str, predicted: str) -> WordRelation | None:
    """Same state word, opposite state words, or ``None`` when either is not a state word."""
    gold_state, predicted_state = STATES.get(normalise_text(gold)), STATES.get(normalise_text(predicted))
    if gold_state is None or predicted_state is None or gold_state[0] != predicted_state[0]:
        return None
    if gold_state == predicted_state:
        return WordRelation(True, "same state")
    return WordRelation(False, "opposite states")


def _stem(word: str) -> str:
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def _inflected(a: str, b: str) -> bool:
    a, b = a.replace("'", ""), b.replace("'", "")
    return a == b or _stem(a) == b or _stem(b) == a or _stem(a) == _stem(b)


def _abbreviated(a: str, b: str) -> bool:
    short, long = sorted((a.rstrip("."), b.rstrip(".")), key=len)
    return len(short) >= 3 and short.isalpha() and len(long) - len(short) >= 2 and long.startswith(short)


def word_relation(gold: str, predicted: str) -> WordRelation | None:
    """Decide two single words (or short state phrases) by what they are; ``None`` when nothing here can.

    See the module docstring for the rules, tried in order: states, inflection, abbreviation, number
    words, currency names, units, places.
    """
    state = state_relation(gold, predicted)
    if state is not None:
        return state
    a, b = normalise_text(gold).replace(" s ", "s "), normalise_text(predicted).replace(" s ", "s ")
    folded_a, folded_b = gold.casefold().strip(), predicted.casefold().strip()
    if _inflected(folded_a, folded_b) or _inflected(a, b):
        return WordRelation(True, "same word but for its ending")
    if _CONTRACTIONS.get(a, a) == _CONTRACTIONS.get(b, b):
        return WordRelation(True, "contraction")
    if _abbreviated(a, b):
        return WordRelation(True, "abbreviation")
    digits_a, digits_b = alpha2digit(a, "en", threshold=0), alpha2digit(b, "en", threshold=0)
    if (digits_a != a or digits_b != b) and any(c.isdigit() for c in digits_a + digits_b):
        return WordRelation(digits_a == digits_b, "number words")
    gold_currency, predicted_currency = currency_code(a), currency_code(b)
    if gold_currency is not None and predicted_currency is not None:
        return WordRelation(gold_currency == predicted_currency, f"currency {predicted_currency} vs {gold_currency}")
    gold_unit, predicted_unit = parse_measure(gold), parse_measure(predicted)
    if gold_unit is not None and predicted_unit is not None:
        same = agree(gold_unit, predicted_unit) is True
        return WordRelation(same, f"unit {predicted_unit.describe()} vs {gold_unit.describe()}")
    place = place_relation(gold, predicted)
    if place is not None:
        return WordRelation(place.equivalent, place.rule)
    return None
