"""Deterministic settlement of one scalar pair: typed parsing, then the text rules.

``typed_value`` runs the parsers in order (booleans, quantities, times/dates/durations) and returns
the first typed value recognised, else the normalised ``Text``. ``settle`` decides a pair without a
model when it can and returns ``None`` when only a semantic scorer can tell.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from aem_strands.compare.normalise import display, normalise_text
from aem_strands.compare.parse_numbers import QuantityParser, TruthParser
from aem_strands.compare.parse_time import TimeParser
from aem_strands.compare.text_rules import relate
from aem_strands.compare.values import (
    Null,
    ParseContext,
    Quantity,
    Text,
    Truth,
    Typed,
    ValueParser,
    agree,
    scalar_value,
)
from aem_strands.types import JsonValue, ValueKind

PARSERS: Sequence[ValueParser] = (TruthParser(), QuantityParser(), TimeParser())
"""The parsers ``typed_value`` tries, first match wins. Any ``ValueParser`` may replace one."""

_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class Settlement:
    """A decision reached without a model, with the rule that reached it."""

    equivalent: bool
    detail: str


@functools.lru_cache(maxsize=1 << 16)
def _parse(text: str, reference_date: date | None) -> Typed:
    context = ParseContext(reference_date)
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
    reference = context.reference_date if context is not None else None
    return _parse(value if isinstance(value, str) else str(value), reference)


def _type_name(value: Typed) -> str:
    names = {
        "Quantity": "number",
        "Truth": "boolean",
        "CalendarDate": "date",
        "ClockTime": "time",
        "Moment": "date-time",
    }
    return names.get(type(value).__name__, type(value).__name__.lower())


def settle(gold: JsonValue, predicted: JsonValue, kind: ValueKind, context: ParseContext) -> Settlement | None:
    """Decide a scalar pair deterministically, or ``None`` when a semantic scorer must."""
    g, p = typed_value(gold, context), typed_value(predicted, context)
    verdict = agree(g, p)
    shown = f"{display(predicted)!r} {{}} {display(gold)!r}"
    plain = isinstance(g, (Quantity, Truth, Text, Null)) and type(g) is type(p)
    if verdict is True:
        if isinstance(g, Text) or plain:
            return Settlement(True, "")
        return Settlement(True, shown.format("is the same as") + f" ({_type_name(g)} {g.describe()})")
    if verdict is False:
        if plain:
            return Settlement(False, shown.format("differs from"))
        return Settlement(
            False, shown.format("differs from") + f" ({_type_name(p)} {p.describe()} vs {_type_name(g)} {g.describe()})"
        )
    if kind is not ValueKind.ARGUMENT or not (isinstance(g, Text) and isinstance(p, Text)):
        return None
    gold_digits, predicted_digits = sorted(_DIGITS.findall(g.value)), sorted(_DIGITS.findall(p.value))
    if gold_digits and predicted_digits and gold_digits != predicted_digits:
        # Identifiers and quantities inside an argument ("ds-7731", "room 101") must agree digit for digit.
        return Settlement(False, f"numbers in {display(predicted)!r} differ from {display(gold)!r}")
    relation = relate(display(gold), display(predicted))
    if relation is None:
        return None
    verb = "is the same as" if relation.equivalent else "differs from"
    return Settlement(relation.equivalent, shown.format(verb) + f" ({relation.rule})")
