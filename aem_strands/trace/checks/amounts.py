"""Amounts a reply computes from a record or rounds (result use, ``result_use``): what is no contradiction though
the record holds no such value.

- **computed**: a product of one of the record's amounts by a count up to ``MAX_FACTOR`` (``3 nights at $150``:
  $450), or a sum or a difference of two of them (a total; ``£43.85 more`` than last month), or one of them (or a
  sum of two) with an amount the user or a call gave added or taken off (a $2 tip on a $22.25 subtotal: $24.25):
  ``derived``; or the total of one key over the items of a list of the observation (``about $51`` in fees:
  23.43 + 6.90 + 20.77): ``list_total``.
- **rounded**: an amount stated with a hedge (``about £44``, ``roughly 3 hours``) agrees with a record's amount,
  or a sum or difference of two, within half of the last digit it is written to (``about £44``: £0.50; ``about
  $1,200``: $50): ``approximates``.
- **counts**: the numbers a reply may count with (``3 Psychologist offices``): a number as the fact reading keys it
  (``number``) and the lengths of an observation's lists (``lengths``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from decimal import Decimal

from aem_strands.compare.fact_match import amount
from aem_strands.compare.reply_signals import Fact, facts_in
from aem_strands.trace.checks.observed import Record
from aem_strands.types import JsonValue

MAX_FACTOR = 31
"""Largest count a record's amount is multiplied by in a derived amount (nights, tickets, people)."""
_NUMERIC_LENGTH = 12


def derived(fact: Fact, record: Record, kind: str, added: Collection[Decimal] = ()) -> bool:
    """Whether a money or duration fact is a product, a sum or a difference of the record's amounts of its kind
    (``3 nights at $150`` is $450), or one of them, or a sum of two, with an amount of ``added`` (what the user or a
    call gave: a $2 tip on a $22.25 subtotal is $24.25) added or taken off: a computed amount, no contradiction."""
    stated = amount(fact)
    if stated is None:
        return False
    amounts = [a for _, _, f in record.fields.get(kind, []) if (a := amount(f)) is not None and a != 0]
    products = any(stated % a == 0 and 1 < stated / a <= MAX_FACTOR for a in amounts)
    combined = _combined(amounts)
    if products or stated in combined:
        return True
    if not added or not amounts:
        return False
    bases = {*amounts, *(a + b for i, a in enumerate(amounts) for b in amounts[i + 1 :])}
    return any(stated - extra in bases or stated + extra in bases for extra in added if extra != 0)


def _combined(amounts: list[Decimal]) -> set[Decimal]:
    """The sums and differences of two amounts (a total, ``£43.85 more`` than last month)."""
    return {v for i, a in enumerate(amounts) for b in amounts[i + 1 :] for v in (a + b, abs(a - b))}


_HEDGE = re.compile(
    r"\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|circa|close to|just (?:under|over)|some)\s*$"
    r"|~\s*$",
    re.I,
)
"""Words that state an amount as a rounding (``about £44``)."""
_WRITTEN = re.compile(r"\d[\d,]*(?:\.\d+)?")


def approximates(sentence: str, fact: Fact, record: Record) -> bool:
    """Whether ``fact`` is hedged (``about £44``) and one of the record's amounts of its kind, or a sum or a
    difference of two (``about £44 more``: £211.87 - £168.02), rounds to it at the precision it is written in
    (``£43.85``: within half of the last digit written, £0.50; ``about $1,200``: $50)."""
    stated = _quantity(fact)
    if stated is None:
        return False
    held = [
        q
        for _, _, known in record.fields.get(fact.group, [])
        if _same_currency(known, fact) and (q := _quantity(known)) is not None
    ]
    return any(_rounds_to(sentence, fact, stated, value) for value in {*held, *_combined(held)})


def list_total(sentence: str, fact: Fact, records: Sequence[Record]) -> bool:
    """Whether ``fact`` is the total of one key over the items of a list of one observation's ``records`` (``about
    $51 in fees and tax``: 23.43 + 6.90 + 20.77 under ``taxes_fees[*].amount``), exactly or, hedged, rounded to the
    precision it is written in (as ``approximates``)."""
    stated = _quantity(fact)
    if stated is None:
        return False
    totals: dict[tuple[str, str], list[Decimal]] = {}
    for record in records:
        parent, bracket, _ = record.path.rpartition("[")
        if not (record.listed and bracket):
            continue
        for key, _, known in record.fields.get(fact.group, []):
            if _same_currency(known, fact) and (q := _quantity(known)) is not None:
                totals.setdefault((parent, key), []).append(q)
    sums = {sum(items, Decimal(0)) for items in totals.values() if len(items) > 1}
    return stated in sums or any(_rounds_to(sentence, fact, stated, value) for value in sums)


def _rounds_to(sentence: str, fact: Fact, stated: Decimal, value: Decimal) -> bool:
    """Whether ``fact`` is hedged (``about $51``) and ``value`` rounds to it at the precision it is written in."""
    at = sentence.find(fact.text)
    written = _WRITTEN.search(fact.text)
    if at < 0 or not _HEDGE.search(sentence[:at]) or written is None:
        return False
    number = Decimal(written.group().replace(",", ""))
    exponent = number.normalize().as_tuple().exponent
    if number == 0 or not isinstance(exponent, int):
        return False
    return abs(value - stated) <= Decimal(1).scaleb(exponent) * stated / number / 2


def _same_currency(one: Fact, other: Fact) -> bool:
    """Whether two amounts are in one currency, or one of them names none (``43.85`` under ``bill_amount``)."""
    if "money" not in (one.group, other.group):
        return True
    mine, theirs = one.key.split(), other.key.split()
    return len(mine) < 2 or len(theirs) < 2 or mine[0] == theirs[0]


def _quantity(fact: Fact) -> Decimal | None:
    """An amount, or a duration in seconds (``3 hours``: 10800)."""
    if fact.group == "duration":
        seconds = fact.key.split()
        return Decimal(seconds[0]) if len(seconds) == 2 and seconds[1] == "s" else None
    return amount(fact)


def number(text: str) -> set[str]:
    """The number a text is, as the fact reading keys it (``4.20`` and ``4.2`` are one); empty for other text."""
    facts = facts_in(text) if len(text) <= _NUMERIC_LENGTH else ()
    return {facts[0].key} if len(facts) == 1 and facts[0].group == "number" and facts[0].text == text.strip() else set()


def lengths(observation: JsonValue) -> Iterator[str]:
    """The lengths of an observation's lists (``10 results``)."""
    stack = [observation]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            yield str(len(node))
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())


__all__ = ["MAX_FACTOR", "approximates", "derived", "lengths", "list_total", "number"]
