"""Pairing gold's facts with the prediction's, in time near linear in the number of facts.

``match_facts`` answers what this loop answers (the contract; ``tests/test_integrity_costs.py`` checks
the two agree on random fact lists)::

    for same_group in (True, False):
        for each gold fact not yet matched, in gold's order:
            take the first predicted fact not yet taken, in the prediction's order, whose group is
            (same_group) or is not (not same_group) the gold fact's, and that ``agree``s with it

That loop compares every gold fact with every predicted one (a reply of a million characters holds
tens of thousands of facts). Here facts that agree alike (the same group, key and looseness: a *kind*)
are handled once: the kinds a gold kind may agree with are looked up in an index built for its group
(a superset, each then checked with ``agree``), and each predicted kind keeps its facts in reading
order, taken first to last, so "the first free agreeing fact" is the least head among the agreeing
kinds (a heap per gold kind).
"""

from __future__ import annotations

import functools
import heapq
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal

from aem_strands.compare.aliases import country_key
from aem_strands.compare.gazetteer import places
from aem_strands.compare.reply_signals import Fact

Kind = tuple[str, str, bool]
_UNIT_GROUPS = frozenset(["money", "percent", "measure"])
_AMOUNT = re.compile(r"-?\d+(?:\.\d+)?")
ADDED_FAILS = ("money", "identifier")
"""Groups of facts a prediction may not add: an amount of money or a code gold does not state (``a $12 fee was
charged``, ``in room 4B``) is a claim gold does not make. A prediction may add facts of other groups: faithful
paraphrases add a city, a date or a name from the dialog (SGD replies do; failing an added name cost 19 SGD
paraphrases), but in the SGD development and calibration pairs and STS-B no paraphrase adds money or a code."""
_MAX_NAME_WORDS = 8
"""Names of at most this many distinct words are indexed by every subset and acronym of their words
(2**8 keys); a longer name is a candidate for every gold name (checked with ``agree``)."""


def amount(fact: Fact) -> Decimal | None:
    """The one number a fact's key holds, exactly (``USD 1250`` → 1250); ``None`` for a duration or a key
    with none or several."""
    found = _AMOUNT.findall(fact.key)
    return Decimal(found[0]) if fact.group != "duration" and len(found) == 1 else None


def agree(gold: Fact, predicted: Fact) -> bool:
    """Whether two facts state the same thing: ``Fact.agrees``, or, across groups, the same amount with
    a unit on one side only (``$1,250`` / ``1,250``), or a whole hour and its number (``7 pm`` / ``7``)."""
    if gold.agrees(predicted):
        return True
    bare = {gold.group, predicted.group} - _UNIT_GROUPS
    if bare == {"number"} and gold.group != predicted.group:
        # "$1,250" and "1,250": a unit on one side only does not make the amounts differ
        return amount(gold) is not None and amount(gold) == amount(predicted)
    if {gold.group, predicted.group} == {"number", "time"}:
        number, time = (gold, predicted) if gold.group == "number" else (predicted, gold)
        _, minute = time.key.split(":")
        return minute == "00" and amount(number) in _hours(time.key)
    return False


def _kind(fact: Fact) -> Kind:
    return fact.group, fact.key, fact.loose


def _hours(key: str) -> tuple[Decimal, ...]:
    """The numbers a clock time's hour is said with (``19:00``: 19 and 7)."""
    hour = key.split(":")[0]
    return (Decimal(hour), Decimal(int(hour) % 12)) if hour.isdigit() else ()


def _readings(key: str) -> Iterator[tuple[str | None, ...]]:
    """Each reading of a date key (``2019-3-1``, ``?-3-1``; an ambiguous one's readings joined by ``|``)."""
    for reading in key.split("|"):
        yield tuple(None if p == "?" else str(int(p)) if p.isdigit() else p for p in reading.split("-"))


def _subsets(items: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    return itertools.chain.from_iterable(itertools.combinations(items, n) for n in range(len(items) + 1))


def _acronyms(words: list[str]) -> set[str]:
    """The acronym of every non-empty subsequence of ``words``."""
    return {"".join(w[0] for w in sub) for n in range(1, len(words) + 1) for sub in itertools.combinations(words, n)}


class _Index:
    """Where to look for the predicted kinds a gold fact may agree with; every lookup gives a superset."""

    def __init__(self, kinds: Iterable[Kind]) -> None:
        self.exact: dict[tuple[str, str], list[Kind]] = {}
        self.other: dict[tuple[object, ...], list[Kind]] = {}
        self.names = _Names()
        for kind in kinds:
            group, key, _ = kind
            self.exact.setdefault((group, key), []).append(kind)
            for entry in self._entries(kind):
                self.other.setdefault(entry, []).append(kind)
            if group == "entity":
                self.names.add(kind)

    @staticmethod
    def _entries(kind: Kind) -> Iterator[tuple[object, ...]]:
        group, key, _ = kind
        fact = Fact(group, key, "")
        if group == "time":
            hour, _, minute = key.partition(":")
            yield ("twelve", f"{int(hour) % 12}:{minute}" if hour.isdigit() else key)
            if minute == "00":
                yield from (("hour", h) for h in _hours(key))
        elif group == "date":
            for parts in _readings(key):
                given = tuple(i for i, p in enumerate(parts) if p is not None)
                for subset in _subsets(given):  # see _lookups: the positions both give, and their values
                    yield ("date", len(parts), given, subset, tuple(parts[i] for i in subset))
        elif group == "measure" and key.startswith("temperature"):
            yield ("degrees", key.split()[-1])
        if group == "number" or group in _UNIT_GROUPS:
            value = amount(fact)
            if value is not None:
                yield ("amount", group == "number", value)

    def candidates(self, gold: Fact, same_group: bool) -> Iterator[Kind]:
        """Predicted kinds that may agree with ``gold``: of its group, or (``same_group`` false) of another."""
        for entry in self._lookups(gold, same_group):
            yield from self.other.get(entry, ())
        if same_group:
            yield from self.exact.get((gold.group, gold.key), ())
            if gold.group == "entity":
                yield from self.names.candidates(gold.key)

    @staticmethod
    def _lookups(gold: Fact, same_group: bool) -> Iterator[tuple[object, ...]]:
        group, key = gold.group, gold.key
        if same_group and group == "time":
            hour, _, minute = key.partition(":")
            yield ("twelve", f"{int(hour) % 12}:{minute}" if hour.isdigit() else key)
        elif same_group and group == "date":
            # two readings agree when they are equal where both give a part: for each set of parts the
            # other side may give, the parts both give and gold's values there
            for parts in _readings(key):
                for theirs in _subsets(tuple(range(len(parts)))):
                    both = tuple(i for i in theirs if parts[i] is not None)
                    yield ("date", len(parts), theirs, both, tuple(parts[i] for i in both))
        elif same_group and group == "measure" and key.startswith("temperature"):
            yield ("degrees", key.split()[-1])
        elif not same_group and (group == "number" or group in _UNIT_GROUPS):
            value = amount(gold)
            if value is not None:
                yield ("amount", group != "number", value)
                if group == "number":
                    yield ("hour", value)
        elif not same_group and group == "time":
            yield from (("amount", True, h) for h in _hours(key))


@functools.lru_cache(maxsize=1 << 14)
def _aliases(name: str) -> tuple[tuple[str, str], ...]:
    """``_alias_keys`` of a name, once per name (each name is looked up when indexed and when matched)."""
    return tuple(_alias_keys(name))


def _alias_keys(name: str) -> Iterator[tuple[str, str]]:
    """Keys two names share when they may be one (``reply_signals._entity_overlap``) though their words differ:
    the country they name, a one-word name's first three letters, the places the gazetteer finds for it. Names
    spelled alike but for a vowel (``Taliban`` / ``Taleban``, but also ``Hansen`` / ``Hanson``) are not one: a
    reply may not pass on a guess."""
    if (country := country_key(name)) is not None:
        yield ("country", country)
    if " " not in name and len(name) >= 3:
        yield ("clip", name[:3])
    found = places(name).any | (places(name.upper()).any if name.isalpha() and len(name) <= 4 else frozenset())
    for place in found:  # "SFO" and "San Francisco" (the gazetteer decides in Fact.agrees, on the written names)
        yield ("place", place)


class _Names:
    """Entity names indexed so that each name that may agree with a gold name (``Fact.agrees``: the words
    of one are all in the other, or what differs is an acronym of the other's different words) is found."""

    def __init__(self) -> None:
        self.by_word: dict[str, set[Kind]] = {}
        self.by_words: dict[frozenset[str], set[Kind]] = {}
        self.by_acronym: dict[str, set[Kind]] = {}
        self.by_alias: dict[tuple[str, str], set[Kind]] = {}
        self.long: set[Kind] = set()

    def add(self, kind: Kind) -> None:
        words = list(dict.fromkeys(kind[1].split()))
        for word in words:
            self.by_word.setdefault(word, set()).add(kind)
        self.by_words.setdefault(frozenset(words), set()).add(kind)
        for alias in _aliases(kind[1]):
            self.by_alias.setdefault(alias, set()).add(kind)
        if len(words) > _MAX_NAME_WORDS:
            self.long.add(kind)
            return
        for acronym in _acronyms(words):
            self.by_acronym.setdefault(acronym, set()).add(kind)

    def candidates(self, key: str) -> set[Kind]:
        words = list(dict.fromkeys(key.split()))
        postings = sorted((self.by_word.get(w, set()) for w in words), key=len)
        found = set(postings[0]).intersection(*postings[1:]) if postings else set()  # gold's words all in theirs
        for word in words:  # a word of gold is the acronym of some of theirs
            found |= self.by_acronym.get(word, set())
        for alias in _aliases(key):  # one country's names, a clipped name, one place
            found |= self.by_alias.get(alias, set())
        if len(words) <= _MAX_NAME_WORDS:
            for n in range(1, len(words) + 1):  # their words all in gold's
                for subset in itertools.combinations(words, n):
                    found |= self.by_words.get(frozenset(subset), set())
            for acronym in _acronyms(words):  # a word of theirs is the acronym of some of gold's
                found |= self.by_word.get(acronym, set())
        else:
            initials = {w[0] for w in words}
            for word, kinds in self.by_word.items():
                if word in words or (len(word) <= len(words) and set(word) <= initials):
                    found |= kinds
        return found | self.long


def match_facts(
    gold: list[Fact], predicted: list[Fact], agrees: Callable[[Fact, Fact], bool] = agree
) -> tuple[list[Fact], list[Fact], list[Fact]]:
    """(matched gold facts, unmatched gold, unmatched predicted), each in its side's order: the pairing
    of the module docstring's loop. Facts of one group pair first, across groups after: the "1 pm" of one
    side is the other's "1 pm", not its "one"."""
    if not gold or not predicted:
        return [], list(gold), list(predicted)  # one side states no fact: nothing to pair, no index to build
    positions: dict[Kind, list[int]] = {}
    for at, fact in enumerate(predicted):
        positions.setdefault(_kind(fact), []).append(at)
    head = dict.fromkeys(positions, 0)  # each kind's first fact not yet taken
    shown = {kind: predicted[where[0]] for kind, where in positions.items()}
    index = _Index(positions)
    hits: dict[int, int] = {}
    for same_group in (True, False):
        heaps: dict[Kind, list[tuple[int, Kind]]] = {}
        for at, fact in enumerate(gold):
            if at in hits:
                continue
            kind = _kind(fact)
            heap = heaps.get(kind)
            if heap is None:
                agreeing = {
                    k
                    for k in index.candidates(fact, same_group)
                    if (k[0] == fact.group) == same_group and agrees(fact, shown[k])
                }
                heap = [(positions[k][head[k]], k) for k in agreeing if head[k] < len(positions[k])]
                heapq.heapify(heap)
                heaps[kind] = heap
            taken = _take(heap, positions, head)
            if taken is not None:
                hits[at] = taken
    used = set(hits.values())
    matched = [fact for at, fact in enumerate(gold) if at in hits]
    missing = [fact for at, fact in enumerate(gold) if at not in hits]
    return matched, missing, [fact for at, fact in enumerate(predicted) if at not in used]


def _take(heap: list[tuple[int, Kind]], positions: dict[Kind, list[int]], head: dict[Kind, int]) -> int | None:
    """Take the first untaken fact among the heap's kinds; ``None`` when they have none left. An entry
    whose kind another gold kind has taken from since is brought up to date when it surfaces."""
    while heap:
        where, kind = heap[0]
        first = head[kind]
        if first >= len(positions[kind]):
            heapq.heappop(heap)
        elif positions[kind][first] != where:
            heapq.heapreplace(heap, (positions[kind][first], kind))
        else:
            head[kind] = first + 1
            if first + 1 < len(positions[kind]):
                heapq.heapreplace(heap, (positions[kind][first + 1], kind))
            else:
                heapq.heappop(heap)
            return where
    return None
