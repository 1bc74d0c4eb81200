"""Typed value equivalence for the trace checks, from the product's own comparison, and a grounding index.

``ComparatorValues`` is the ``ValueJudge`` of a run: exact match, then the typed normalisation every
comparison of the product goes through (``compare.walk`` / ``compare.settle``: numbers equal only when they are
the same number, ``5 days`` / ``five days``, ``order 123`` / ``ORDER_123``, dates, units, phones, e-mail, state
words such as ``approved`` / ``denied``), and only then, when one is given, the ``Comparator`` with its semantic
scorer. Without a comparator a pair normalisation cannot settle is undecided (``None``), never a guess.

``GroundingIndex`` answers "does this value appear in what came before" without comparing every pair: earlier
texts and values are indexed as they arrive (exact JSON keys, normalised texts for whole-phrase containment,
separator-free n-grams for identifiers, and typed readings bucketed by type), and a value is looked up in that
order; only values of a compatible type are ever compared.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from aem_strands.compare.chain import Comparator
from aem_strands.compare.identifiers import is_identifier
from aem_strands.compare.normalise import display, normalise_text
from aem_strands.compare.settle import typed_value
from aem_strands.compare.values import (
    CalendarDate,
    Duration,
    Identifier,
    Measure,
    Moment,
    ParseContext,
    Phone,
    Quantity,
    Text,
    Typed,
    Weekday,
)
from aem_strands.compare.walk import json_key, json_leaves, plan_leaves
from aem_strands.types import JsonValue, ValueKind


class ComparatorValues:
    """A ``ValueJudge`` backed by the product's comparison chain (see the module docstring).

    ``comparator`` (optional) decides what normalisation leaves open, with its scorer; ``context`` carries the
    reference date and day-first reading for dates."""

    def __init__(self, comparator: Comparator | None = None, context: ParseContext | None = None) -> None:
        self.comparator = comparator
        self.context = context
        self._parse_context = context or ParseContext()

    def same(self, a: JsonValue, b: JsonValue, name: str = "") -> bool | None:
        if a == b and type(a) is type(b):
            return True
        leaves = plan_leaves(a, b, "", ValueKind.ARGUMENT, self._parse_context, False)
        outcomes = [leaf.settled.equivalent if leaf.settled is not None else None for leaf in leaves]
        if any(outcome is False for outcome in outcomes):
            return False
        if all(outcome is True for outcome in outcomes):
            return True
        if self.comparator is None:
            return None
        return self.comparator.compare(a, b).equivalent


@dataclass(frozen=True)
class Grounding:
    """Where a value was found: the ``source`` that held it (``user step u1``, ``observation of step t2``...),
    the earlier value or phrase that matched, and how (``exact``, ``normalised``, ``identifier`` or ``typed``)."""

    source: str
    matched: JsonValue
    method: str


_SEPARATORS = re.compile(r"[\W_]+", re.UNICODE)
_EDGE_PUNCTUATION = "\"'.,;:!?()[]{}<>"
_MAX_COMPACT_WORDS = 4
_MAX_TYPED_WORDS = 4

# Types whose values ``compare.values.agree`` may find equal to a value of another type.
_PARTNERS: Mapping[type, tuple[type, ...]] = {
    Quantity: (Quantity, Phone, Identifier, Measure),
    Phone: (Phone, Quantity, Identifier),
    Identifier: (Identifier, Phone, Quantity),
    Measure: (Measure, Duration, Quantity),
    Duration: (Duration, Measure),
    Weekday: (Weekday, CalendarDate),
    CalendarDate: (CalendarDate, Weekday),
}


def compact(text: str) -> str:
    """``text`` case-folded without spaces or separators: what ``order 123``, ``ORDER_123`` and ``order-123``
    share."""
    return _SEPARATORS.sub("", normalise_text(text))


def _ngrams(words: list[str], longest: int) -> Iterator[str]:
    for size in range(1, longest + 1):
        for start in range(len(words) - size + 1):
            yield " ".join(words[start : start + size])


SameFn = Callable[[JsonValue, JsonValue, str], bool | None]
"""Typed equivalence of two values, given the argument or key name: a ``ValueJudge``'s ``same``."""


class GroundingIndex:
    """What has been said or seen so far in a trace, indexed for ``find`` (see the module docstring).

    ``same`` decides typed equivalence (``ComparatorValues().same``, or any ``ValueJudge``'s). ``add_text`` takes
    free text (a user message, the goal); ``add_json`` takes structured values (a state, an observation, earlier
    arguments): every scalar leaf, every object key, and every string leaf as text too."""

    def __init__(self, same: SameFn, context: ParseContext | None = None) -> None:
        self._same = same
        self._context = context or ParseContext()
        self._exact: dict[str, tuple[str, JsonValue]] = {}
        self._texts: list[tuple[str, str, str]] = []  # (padded normalised text, source, original)
        self._compact: dict[str, tuple[str, str]] = {}
        self._typed: dict[type, list[tuple[JsonValue, str]]] = {}
        self._unparsed: list[tuple[JsonValue, str]] = []

    def add_text(self, text: str, source: str) -> None:
        """Index a text: its normalised form for containment, its n-grams for identifiers and typed values."""
        if not text.strip():
            return
        self._texts.append((f" {normalise_text(text)} ", source, text))
        words = [w.strip(_EDGE_PUNCTUATION) for w in text.split()]
        words = [w for w in words if w]
        for phrase in _ngrams(words, _MAX_COMPACT_WORDS):
            key = compact(phrase)
            if key:
                self._compact.setdefault(key, (source, phrase))
        for phrase in _ngrams(words, _MAX_TYPED_WORDS):
            # Phrases of three words or more are read only when they hold a digit ("March 1, 2024",
            # "+1 555 123 4567"): that keeps the typed reading of a long message linear and short.
            if phrase.count(" ") < 2 or any(ch.isdigit() for ch in phrase):
                self._unparsed.append((phrase, source))

    def add_json(self, value: JsonValue, source: str) -> None:
        """Index a structured value: its scalar leaves and object keys (strings also as text)."""
        for _, leaf in json_leaves(value):
            self._add_scalar(leaf, source)
        for key in _keys(value):
            self._add_scalar(key, source)

    def _add_scalar(self, value: JsonValue, source: str) -> None:
        if value is None or isinstance(value, bool):
            return
        self._exact.setdefault(json_key(value), (source, value))
        if isinstance(value, str):
            self.add_text(value, source)
        self._unparsed.append((value, source))

    def find(self, value: JsonValue, name: str = "") -> Grounding | None:
        """Where ``value`` appears in what was indexed, or ``None``: an exact equal value, the value's normalised
        text as a whole phrase of an earlier text, its separator-free form as an identifier of an earlier text
        (``order 123`` for ``ORDER_123``), or an earlier value of a compatible type that the ``ValueJudge``
        finds the same (``five days`` for ``5 days``)."""
        found = self._exact.get(json_key(value))
        if found is not None:
            return Grounding(found[0], found[1], "exact")
        shown = display(value)
        normalised = normalise_text(shown)
        if normalised:
            padded = f" {normalised} "
            for text, source, original in self._texts:
                if padded in text:
                    return Grounding(source, shown if len(original) > len(shown) else original, "normalised")
        if any(ch.isdigit() for ch in shown) or is_identifier(shown):
            key = compact(shown)
            hit = self._compact.get(key) if len(key) >= 2 else None
            if hit is not None:
                return Grounding(hit[0], hit[1], "identifier")
        return self._find_typed(value, name)

    def _find_typed(self, value: JsonValue, name: str) -> Grounding | None:
        wanted = typed_value(value, self._context)
        if isinstance(wanted, Text):
            return None
        self._parse_pending()
        for kind in _PARTNERS.get(type(wanted), (type(wanted),)):
            for candidate, source in self._typed.get(kind, ()):
                if _as_specific(candidate, wanted, self._context) and self._same(candidate, value, name):
                    return Grounding(source, candidate, "typed")
        return None

    def _parse_pending(self) -> None:
        for candidate, source in self._unparsed:
            typed: Typed = typed_value(candidate, self._context)
            if not isinstance(typed, Text):
                self._typed.setdefault(type(typed), []).append((candidate, source))
        self._unparsed.clear()


def _date_parts(value: Typed) -> set[int]:
    day = value.day if isinstance(value, Moment) else value
    if not isinstance(day, CalendarDate):
        return set()
    return {i for reading in day.readings for i, part in enumerate(reading) if part is not None}


def _as_specific(candidate: JsonValue, wanted: Typed, context: ParseContext) -> bool:
    """A partial date agrees with a full one on the parts it gives, but ``March`` does not ground
    ``2024-03-01``: the earlier date must give every part (year, month, day) the value gives."""
    needed = _date_parts(wanted)
    return not needed or needed <= _date_parts(typed_value(candidate, context))


def _keys(value: JsonValue) -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _keys(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _keys(item)


__all__ = ["ComparatorValues", "Grounding", "GroundingIndex", "SameFn", "compact"]
