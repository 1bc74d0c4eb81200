"""Deterministic relations between two argument strings that no typed parser recognised.

- ``acronym``: one side is the initials of the other (``NYC`` / ``New York City``,
  ``EU`` / ``European Union``, ``USA`` / ``United States of America``); function words may be
  skipped.
- ``place qualifier``: a place with a comma qualifier equals the bare place (``New York`` /
  ``New York, NY``, ``Berkeley`` / ``Berkeley, CA``), also when the bare side is an acronym
  (``NYC`` / ``New York City, NY``). Two different two-letter qualifiers are different places
  (``Portland, OR`` / ``Portland, ME``).
- ``word order``: the same words in another order (``Park Ji Sung`` / ``Ji Sung Park``), for short
  values without ``to``/``from``-like words whose order carries meaning.

Each rule only ever *settles* a pair it recognises; a pair no rule recognises goes on to the
semantic scorer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from aem_strands.compare.normalise import normalise_text

_FUNCTION_WORDS = frozenset({"of", "the", "and", "for", "de", "la", "du", "&"})
_ORDERED_WORDS = frozenset({"to", "from", "before", "after", "into", "than", "vs", "versus", "minus", "not"})
_CODE = re.compile(r"[A-Za-z]{2}")


@dataclass(frozen=True)
class TextRelation:
    """A rule's verdict on two strings: which rule, and whether they are the same value."""

    rule: str
    equivalent: bool


def _initials(words: list[str], skip_function_words: bool) -> str:
    return "".join(w[0] for w in words if not (skip_function_words and w in _FUNCTION_WORDS))


def is_acronym(short: str, long: str) -> bool:
    """Whether ``short`` (one token of 2-6 letters) is the initials of ``long`` (two or more words)."""
    letters = normalise_text(short).replace(" ", "")
    words = normalise_text(long).split()
    if " " in short.strip() or not 2 <= len(letters) <= 6 or not letters.isalpha() or len(words) < 2:
        return False
    return letters in (_initials(words, True), _initials(words, False))


def _same_name(a: str, b: str) -> bool:
    return normalise_text(a) == normalise_text(b) or is_acronym(a, b) or is_acronym(b, a)


def _split_place(text: str) -> tuple[str, str | None]:
    head, comma, qualifier = text.partition(",")
    return (head.strip(), qualifier.strip()) if comma and qualifier.strip() else (text.strip(), None)


def place_relation(gold: str, predicted: str) -> TextRelation | None:
    """The place-qualifier rule (see the module docstring), or ``None`` when it does not apply."""
    (gold_head, gold_qualifier), (predicted_head, predicted_qualifier) = _split_place(gold), _split_place(predicted)
    if gold_qualifier is None and predicted_qualifier is None:
        return None
    if not _same_name(gold_head, predicted_head):
        return None
    if gold_qualifier is not None and predicted_qualifier is not None:
        same = _same_name(gold_qualifier, predicted_qualifier)
        if not same and _CODE.fullmatch(gold_qualifier) and _CODE.fullmatch(predicted_qualifier):
            return TextRelation("place qualifier", False)
        return TextRelation("place qualifier", True) if same else None
    return TextRelation("place qualifier", True)


def relate(gold: str, predicted: str) -> TextRelation | None:
    """The first rule that recognises the pair, or ``None``."""
    if is_acronym(gold, predicted) or is_acronym(predicted, gold):
        return TextRelation("acronym", True)
    place = place_relation(gold, predicted)
    if place is not None:
        return place
    gold_words, predicted_words = normalise_text(gold).split(), normalise_text(predicted).split()
    if (
        1 < len(gold_words) <= 5
        and sorted(gold_words) == sorted(predicted_words)
        and not _ORDERED_WORDS & set(gold_words)
    ):
        return TextRelation("word order", True)
    return None
