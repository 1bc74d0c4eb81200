"""Deterministic settlement of one scalar pair: typed parsing, then the rules for what values are.

``typed_value`` runs the parsers in order (booleans, quantities, times/dates/durations/quarters,
measurements, phone numbers, e-mail addresses, identifiers) and returns the first typed value
recognised, else the normalised ``Text``. ``settle`` decides a pair without a model when it can:

1. typed values agree or disagree (``values.agree``): numbers, dates, units, phones, identifiers...
2. for argument text: numbers inside must agree digit for digit; then the text rules (acronym,
   place qualifier, word order), places (``gazetteer``), state words (``vocabulary``);
3. short values are judged by their words, not by similarity: two single words, or two values that
   differ in exactly one word (``EU profit Q3 2024`` / ``EU revenue Q3 2024``), are decided by
   ``vocabulary.word_relation`` when it can (inflection, abbreviation, units, places...), and
   otherwise *held*: a ``Settlement`` with ``equivalent`` ``None`` says that similarity may not pass
   the pair (only an escalation scorer may; without one it fails, conservatively).

``None`` means the semantic scorer decides.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from aem_strands.compare.gazetteer import place_relation
from aem_strands.compare.identifiers import EmailParser, IdentifierParser, PhoneParser
from aem_strands.compare.normalise import display, normalise_text
from aem_strands.compare.parse_numbers import QuantityParser, TruthParser
from aem_strands.compare.parse_time import TimeParser
from aem_strands.compare.text_rules import relate
from aem_strands.compare.units import MeasureParser
from aem_strands.compare.values import (
    Identifier,
    Measure,
    Null,
    ParseContext,
    Quantity,
    Text,
    Truth,
    Typed,
    ValueParser,
    agree,
    date_orders,
    scalar_value,
)
from aem_strands.compare.vocabulary import state_relation, word_relation
from aem_strands.types import JsonValue, ValueKind

PARSERS: Sequence[ValueParser] = (
    TruthParser(),
    QuantityParser(),
    TimeParser(),
    MeasureParser(),
    PhoneParser(),
    EmailParser(),
    IdentifierParser(),
)
"""The parsers ``typed_value`` tries, first match wins. Any ``ValueParser`` may replace one."""

_DIGITS = re.compile(r"\d+")
_JOINERS = re.compile(r"[_\-./:]+")
_HELD = "similarity does not decide {what}"
_VERB = "\x00"
"""Where a detail's verb goes: ``repr`` escapes a NUL, so no value can contain it (values may hold braces)."""


@dataclass(frozen=True)
class Settlement:
    """A decision reached without a model, with the rule that reached it.

    ``equivalent`` is ``None`` for a *held* pair: no rule decided it, and similarity may not pass it
    (``detail`` says why); only an escalation scorer may.
    """

    equivalent: bool | None
    detail: str


@functools.lru_cache(maxsize=1 << 16)
def _parse(text: str, reference_date: date | None, day_first: bool | None) -> Typed:
    context = ParseContext(reference_date, day_first)
    for parser in PARSERS:
        value = parser.parse(text, context)
        if value is not None:
            return value
    return Text(normalise_text(text))


def typed_value(value: JsonValue, context: ParseContext | None = None) -> Typed:
    """The typed meaning of a JSON scalar (see the module docstring)."""
    scalar = scalar_value(value)
    if scalar is not None:
        return scalar
    context = context or ParseContext()
    return _parse(value if isinstance(value, str) else str(value), context.reference_date, context.day_first)


def _type_name(value: Typed) -> str:
    names = {
        "Quantity": "number",
        "Truth": "boolean",
        "CalendarDate": "date",
        "ClockTime": "time",
        "Moment": "date-time",
        "Measure": "measurement",
        "Email": "e-mail address",
        "Unreadable": "number",
    }
    return names.get(type(value).__name__, type(value).__name__.lower())


def _unjoined(value: Typed, other: Typed, context: ParseContext) -> Typed:
    """An identifier read with its separators as spaces, when that is a typed value and the other side
    is one too: ``five_years`` against ``5 years`` is a measurement, ``ORDER_123`` stays an identifier."""
    if not isinstance(value, Identifier) or _textual(other):
        return value
    spaced = typed_value(_JOINERS.sub(" ", value.shown), context)
    return value if isinstance(spaced, (Text, Identifier)) else spaced


def _textual(value: Typed) -> bool:
    """Text, an identifier, or a unit alone (``m`` may be a size, ``Pa`` a state): the text rules apply."""
    return isinstance(value, (Text, Identifier)) or (isinstance(value, Measure) and value.amount is None)


def _words_differing(gold: str, predicted: str) -> tuple[str, str] | None:
    """The one word pair in which two values of several words differ, if that is their only difference."""
    if "," in gold or "," in predicted:
        return None  # "Austin, Texas" / "Austin, TX": a qualifier, left to the place rules and the scorer
    gold_words, predicted_words = normalise_text(gold).split(), normalise_text(predicted).split()
    if len(gold_words) != len(predicted_words) or len(gold_words) < 2:
        return None
    differing = [(g, p) for g, p in zip(gold_words, predicted_words, strict=True) if g != p]
    return differing[0] if len(differing) == 1 else None


def _settle_text(gold: str, predicted: str, shown: str) -> Settlement | None:
    """Rules for two argument strings no typed parser decided (steps 2 and 3 of the module docstring)."""
    g, p = normalise_text(gold), normalise_text(predicted)
    gold_digits, predicted_digits = sorted(_DIGITS.findall(g)), sorted(_DIGITS.findall(p))
    if gold_digits and predicted_digits and gold_digits != predicted_digits:
        # Identifiers and quantities inside an argument ("ds-7731", "room 101") must agree digit for digit.
        return Settlement(False, f"numbers in {predicted!r} differ from {gold!r}")
    relation = relate(gold, predicted)
    if relation is not None:
        verb = "is the same as" if relation.equivalent else "differs from"
        return Settlement(relation.equivalent, shown.replace(_VERB, verb) + f" ({relation.rule})")
    for decided in (state_relation(gold, predicted), place_relation(gold, predicted)):
        if decided is not None:
            verb = "is the same as" if decided.equivalent else "differs from"
            return Settlement(decided.equivalent, shown.replace(_VERB, verb) + f" ({decided.rule})")
    single = len(g.split()) == 1 and len(p.split()) == 1
    pair = (gold, predicted) if single else _words_differing(gold, predicted)
    if pair is None:
        return None
    words = word_relation(*pair)
    where = "" if single else f" in the one word that differs, {pair[1]!r} vs {pair[0]!r}"
    if words is not None:
        verb = "is the same as" if words.equivalent else "differs from"
        return Settlement(words.equivalent, shown.replace(_VERB, verb) + f" ({words.rule}{where})")
    what = "single words" if single else f"values that differ in one word ({pair[1]!r} vs {pair[0]!r})"
    return Settlement(None, _HELD.format(what=what))


def settle(gold: JsonValue, predicted: JsonValue, kind: ValueKind, context: ParseContext) -> Settlement | None:
    """Decide a scalar pair deterministically, hold it from similarity, or ``None`` when a semantic
    scorer must decide (see the module docstring)."""
    g, p = typed_value(gold, context), typed_value(predicted, context)
    g, p = _unjoined(g, p, context), _unjoined(p, g, context)
    verdict = agree(g, p)
    shown = f"{display(predicted)!r} {_VERB} {display(gold)!r}"
    same, differs = shown.replace(_VERB, "is the same as"), shown.replace(_VERB, "differs from")
    plain = isinstance(g, (Quantity, Truth, Text, Null)) and type(g) is type(p)
    if verdict is True:
        if isinstance(g, Text) and isinstance(p, Text):
            return Settlement(True, same + " (ignoring case, spacing and punctuation)")
        if plain:
            return Settlement(True, same + f" ({_type_name(g)} {g.describe()})")
        typed = g if not isinstance(g, Text) else p
        return Settlement(True, same + f" ({_type_name(typed)} {typed.describe()})")
    if verdict is False:
        if plain:
            return Settlement(False, differs)
        orders = date_orders(p, g)
        if orders is not None:  # a numeric date read both ways: say what each order gives
            return Settlement(False, differs + f" ({orders})")
        return Settlement(False, differs + f" ({_type_name(p)} {p.describe()} vs {_type_name(g)} {g.describe()})")
    if kind is not ValueKind.ARGUMENT or not (_textual(g) and _textual(p)):
        return None
    return _settle_text(display(gold), display(predicted), shown)
