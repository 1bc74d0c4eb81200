"""What tools reported, indexed for result use: records (the objects an observation describes) and the facts
known so far, looked up in time that does not grow with how many there are.

- A **record** is one object of an observation: the JSON object that holds a scalar directly (the top-level
  object, each item of a result list, each nested object), or the whole text of a text observation. It keeps its
  fields' facts by kind (``fields``), the names that point at it (string values such as ``Benissimo`` or
  ``Corte Madera``: ``names``), its identifiers (``id``-like keys' values: ``identity``), and whether it is an item
  of a list (``listed``).
- A field's facts are what ``compare.reply_signals.facts_in`` reads in its value, of the groups result use
  compares (``COMPARED_GROUPS``), a bare number under a key naming a unit (``processing_days: 5``: 5 days)
  or money (``refund_amount: 40``, ``price_per_night: "150"``) read with it, and a house number and street under
  an address key (``street_address: "191 Queen's Gate"``) read as a street address.
- ``KnownFacts`` holds every fact the trace has stated so far (observations, the user, call arguments, the
  agent's earlier replies) in buckets by a coarse key (a date's month and day, a clock time on twelve hours, an
  amount), so whether a reply fact agrees with any of them (``fact_match.agree``, either way) costs a look-up and a
  check of the few facts in its buckets. A fact can be withdrawn (a later observation of the same record's field).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from aem_strands.compare.fact_match import agree, amount
from aem_strands.compare.identifiers import identifier_key
from aem_strands.compare.reply_signals import Fact, facts_in, values_in
from aem_strands.compare.walk import json_leaves
from aem_strands.trace.types import Step
from aem_strands.trace.value_tokens import CACHED_TEXT
from aem_strands.types import JsonValue

COMPARED_GROUPS = frozenset({"duration", "money", "percent", "measure", "date", "time", "phone", "address"})
"""Groups of reply facts result use compares with what tools reported: quantities, and the contact values a reply
repeats (a phone number and a street address, read by the fact reading as such: ``+1 416-350-2000``, ``2423 1st
Avenue``)."""

_UNIT_KEYS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:^|_)(?:business_|working_)?days?(?:$|_)"), "days"),
    (re.compile(r"(?:^|_)hours?(?:$|_)"), "hours"),
    (re.compile(r"(?:^|_)minutes?(?:$|_)|(?:^|_)mins?(?:$|_)"), "minutes"),
    (re.compile(r"(?:^|_)weeks?(?:$|_)"), "weeks"),
    (re.compile(r"(?:^|_)months?(?:$|_)"), "months"),
)
_MONEY_KEY = re.compile(
    r"(?:^|_)(?:amount|price|cost|total|fee|fees|fare|rent|balance|refund|charge|subtotal|usd|eur|gbp)(?:$|_)"
)
_NUMERIC = re.compile(r"-?\d+(?:\.\d+)?")
_ADDRESS_KEY = re.compile(r"(?:^|_)(?:address|street)(?:$|_)")
_HOUSE = re.compile(r"\s*\d+[a-z]?(?:-\d+)?\s+[A-Za-z]", re.I)
"""A value that opens with a house number and a word (``1433 Taraval``)."""
_PER_UNIT = re.compile(r"_?per_[a-z]+$")
"""A rate's denominator (``price_per_day``, ``fee_per_hour``): the value is counted in the key's first unit."""
_IDENTITY_KEY = re.compile(r"(?:^|_)(?:id|number|no|code|ref|reference|name|title)$|^(?:id|name|title|sku)$")
_NAME_WORDS = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_NOT_NAMES = frozenset(["true", "false", "yes", "no", "none", "null", "n/a", "ok"])
MAX_NAME_WORDS = 8
_UNIT_GROUPS = ("money", "percent", "measure")


def key_name(path: str) -> str:
    """The last key of a leaf's path, case-folded (``[3].order_id`` → ``order_id``)."""
    return re.split(r"[.\[]", path)[-1].rstrip("]").casefold()


def name_words(text: str) -> tuple[str, ...]:
    """The words a name is matched by: case-folded, punctuation dropped (``P.f. Chang's`` → ``p f chang's``);
    remembered per short text (the same values and sentences are read by several rules)."""
    return _name_words(text) if len(text) <= CACHED_TEXT else _name_words.__wrapped__(text)


@functools.lru_cache(maxsize=1 << 14)
def _name_words(text: str) -> tuple[str, ...]:
    return tuple(_NAME_WORDS.findall(text.casefold().replace("\u2019", "'")))


def _unit_read(key: str, value: JsonValue) -> tuple[str, bool] | None:
    """A bare number (or numeric text) read with the unit its key names, and whether it is money."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        if not _NUMERIC.fullmatch(value.strip()):
            return None
    elif not isinstance(value, (int, float)):
        return None
    unit_key = _PER_UNIT.sub("", key)
    for pattern, unit in _UNIT_KEYS:
        if pattern.search(unit_key):
            return f"{value} {unit}", False
    if _MONEY_KEY.search(key):
        return str(value).strip(), True
    return None


def leaf_facts(key: str, value: JsonValue) -> list[tuple[str, Fact]]:
    """(kind, fact) pairs one observed value states (see the module docstring)."""
    read = _unit_read(key, value)
    if read is not None:
        text, money = read
        return [("money" if money else f.group, f) for f in facts_in(text) if money or f.group in COMPARED_GROUPS]
    if isinstance(value, str):
        facts = [(f.group, f) for f in values_in(value) if f.group in COMPARED_GROUPS]
        if _ADDRESS_KEY.search(key) and _HOUSE.match(value) and not any(g == "address" for g, _ in facts):
            # a street address with no street type (``191 Queen's Gate``), read as one by the key that holds it
            facts.append(("address", Fact("address", " ".join(name_words(value)), value)))
        return facts
    return []


@dataclass
class Record:
    """One object an observation describes (see the module docstring)."""

    step: Step
    path: str
    listed: bool
    fields: dict[str, list[tuple[str, str, Fact]]] = field(default_factory=dict)
    """Kind → (key, leaf path, fact) of each field of that kind."""
    names: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    """The names under an identity key (``restaurant_name``, ``title``): what tells this record from the others."""
    identity: frozenset[str] = frozenset()
    values: dict[str, tuple[str, JsonValue]] = field(default_factory=dict)
    """Key → (leaf path, value) of the record's scalars."""
    numbers: list[Fact] = field(default_factory=list)
    """The bare numbers of its scalars (``discount: 6.0``): a fact with a unit agrees with one (``$6.00``)."""

    _index: KnownFacts | None = None

    def holds(self, fact: Fact) -> bool:
        """Whether one of the record's fields agrees with ``fact`` (an index, built on first use)."""
        if self._index is None:
            self._index = KnownFacts()
            for held in self.fields.values():
                for _, _, known in held:
                    self._index.add(known)
            for number in self.numbers:
                self._index.add(number)
        return self._index.agrees(fact)

    def slot(self, key: str) -> tuple[frozenset[str], str] | None:
        """What a later record's same field replaces: (identity, key), for a record that has an identity."""
        return (self.identity, key) if self.identity else None


def _is_name(value: str) -> bool:
    words = name_words(value)
    return (
        0 < len(words) <= MAX_NAME_WORDS
        and any(w.isalpha() and len(w) >= 3 for w in words)
        and (" ".join(words) not in _NOT_NAMES)
    )


def records(step: Step) -> Iterator[Record]:
    """The records of one observation, depth first (an explicit stack: a deep answer costs no recursion)."""
    observation = step.observation
    if isinstance(observation, str):
        record = Record(step, "", False)
        for kind, fact in leaf_facts("", observation):
            record.fields.setdefault(kind, []).append(("", "", fact))
        yield record
        return
    stack: list[tuple[JsonValue, str, bool]] = [(observation, "", False)]
    while stack:
        node, path, listed = stack.pop()
        if isinstance(node, list):
            stack.extend((item, f"{path}[{i}]", True) for i, item in reversed(list(enumerate(node))))
            continue
        if not isinstance(node, dict):
            continue
        record = Record(step, path, listed)
        identity = set()
        for raw_key, value in node.items():
            key = str(raw_key).casefold()
            leaf = f"{path}.{raw_key}" if path else str(raw_key)
            if isinstance(value, (dict, list)):
                stack.append((value, leaf, listed or isinstance(value, list)))
                continue
            record.values[key] = (leaf, value)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                record.numbers.extend(f for f in values_in(str(value)) if f.group == "number")
            for kind, fact in leaf_facts(key, value):
                record.fields.setdefault(kind, []).append((key, leaf, fact))
            if isinstance(value, str) and _is_name(value):
                record.names.append(" ".join(name_words(value)))
            if _IDENTITY_KEY.search(key) and isinstance(value, (str, int)) and not isinstance(value, bool):
                identity.add(f"{key}={identifier_key(str(value))}")
                if isinstance(value, str) and _is_name(value):
                    record.titles.append(" ".join(name_words(value)))
        record.identity = frozenset(identity)
        _twelve_hour_clock(record)
        yield record


_START = re.compile(r"(?:^|_)(?:start|begin|from)")
_END = re.compile(r"(?:^|_)(?:end|until|to)(?:$|_)")


def _twelve_hour_clock(record: Record) -> None:
    """A record whose interval runs backwards on 24 hours (``start_time: 2023-09-11 12:00:00``, ``end_time:
    2023-09-11 01:00:00``: lunch from noon to one, on one date) writes its clock on 12 hours: its clock times are
    read without am/pm (``loose``), so ``1 pm`` agrees with ``01:00``."""
    times = record.fields.get("time", [])
    if len(times) < 2:
        return
    dates = {key: fact.key for key, _, fact in record.fields.get("date", [])}
    starts = [(k, f) for k, _, f in times if _START.search(k) and not _END.search(k)]
    ends = [(k, f) for k, _, f in times if _END.search(k)]
    backwards = any(
        sk in dates and dates[sk] == dates.get(ek) and 0 <= _minutes(end) < _minutes(start)
        for sk, start in starts
        for ek, end in ends
    )
    if backwards:
        record.fields["time"] = [(k, p, Fact(f.group, f.key, f.text, True)) for k, p, f in times]


def _minutes(fact: Fact) -> int:
    hour, _, minute = fact.key.partition(":")
    return int(hour) * 60 + int(minute) if hour.isdigit() and minute.isdigit() else -1


def _same_address(one: Fact, other: Fact) -> bool:
    if one.group != "address" or other.group != "address":
        return False
    mine, theirs = one.key.split(), other.key.split()
    shorter, longer = sorted((mine, theirs), key=len)
    return mine[0] == theirs[0] and set(shorter) <= set(longer)


_CLOCK_KEY = re.compile(r"\d+:\d+")


@functools.lru_cache(maxsize=1 << 14)
def _coarse(fact: Fact) -> tuple[str, ...]:
    """The bucket keys a fact is filed under: facts that may agree share one (see ``KnownFacts``); a street address
    under its house number. Remembered: a fact is filed, looked up and removed again and again."""
    if fact.group == "address":
        return (fact.key.split()[0],)
    if fact.group == "date":
        keys = []
        for reading in fact.key.split("|"):
            parts = reading.split("-")
            if len(parts) != 3 or parts[2] == "?":
                keys.append("*")
                continue
            keys.append(f"d{int(parts[2])}")  # a date without its month ("the 12th") is looked up by its day
            if parts[1] != "?":
                keys.append(f"{int(parts[1])}-{int(parts[2])}")
        return tuple(keys)
    if fact.group == "time" and _CLOCK_KEY.fullmatch(fact.key):
        hour, minute = fact.key.split(":")
        return (f"{int(hour) % 12}:{minute}",)
    number = amount(fact)
    return (format(number.normalize(), "f") if number is not None else fact.key,)


def _lookups(fact: Fact) -> tuple[str, ...]:
    """The bucket keys a fact is looked up under: its own, and for a date the bucket of dates without a day."""
    keys = _coarse(fact)
    return (*keys, "*") if fact.group == "date" else keys


def _buckets(fact: Fact) -> Iterator[tuple[str, str]]:
    """The buckets a fact may find an agreeing fact in: its own group's, and across groups where ``agree`` looks
    across them (an amount with a unit on one side only; a whole hour and its number)."""
    coarse = _lookups(fact)
    for key in coarse:
        yield fact.group, key
    if fact.group in _UNIT_GROUPS:
        yield from (("number", key) for key in coarse)
    elif fact.group == "number":
        yield from ((group, key) for group in _UNIT_GROUPS for key in coarse)
        yield from (("time", f"{int(float(key)) % 12}:00") for key in coarse if _NUMERIC.fullmatch(key))
    elif fact.group == "time" and coarse[0].endswith(":00"):
        hour = int(coarse[0].split(":")[0])
        yield from (("number", str(h)) for h in {hour, hour + 12, 12 if hour == 0 else hour})


class KnownFacts:
    """The facts stated so far, by bucket (see the module docstring)."""

    def __init__(self) -> None:
        self._buckets: dict[tuple[str, str], Counter[Fact]] = {}

    def add(self, fact: Fact) -> None:
        for key in _coarse(fact):
            held = self._buckets.get((fact.group, key))
            if held is None:
                held = self._buckets[fact.group, key] = Counter()
            held[fact] += 1

    def remove(self, fact: Fact) -> None:
        for bucket in ((fact.group, key) for key in _coarse(fact)):
            held = self._buckets.get(bucket)
            if held is not None and held[fact] > 0:
                held[fact] -= 1
                if held[fact] == 0:
                    del held[fact]

    def agrees(self, fact: Fact) -> bool:
        """Whether a known fact agrees with ``fact`` (``fact_match.agree``, either way; two street addresses when
        one's words hold the other's, ``135 135 Acalanes Drive`` and ``135 Acalanes Drive``)."""
        for bucket in _buckets(fact):
            for known in self._buckets.get(bucket, ()):
                if agree(known, fact) or agree(fact, known) or _same_address(known, fact):
                    return True
        return False


@dataclass(frozen=True)
class ObservedValue:
    """One value an observation reported: where, under which path, and what it says."""

    step: Step
    path: str
    value: JsonValue


def observed_values(step: Step) -> Iterator[ObservedValue]:
    """Each leaf value of a step's observation (a text observation: the whole text, at path ``""``)."""
    if step.observation is None:
        return
    if isinstance(step.observation, str):
        yield ObservedValue(step, "", step.observation)
        return
    for path, value in json_leaves(step.observation):
        yield ObservedValue(step, path, value)


__all__ = [
    "COMPARED_GROUPS",
    "KnownFacts",
    "ObservedValue",
    "Record",
    "key_name",
    "leaf_facts",
    "name_words",
    "observed_values",
    "records",
]
