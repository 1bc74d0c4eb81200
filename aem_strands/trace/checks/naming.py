"""Which records a reply sentence names: by an identifier a record holds (``W2291``), by a name among its values
(``United Airlines``, ``Corte Madera``), or by a title no other record of its observation holds (``Kllo`` under
``event_name``).

``RecordNames`` indexes the records of the observations so far by those words; a look-up reads a sentence's runs of
at most ``observed.MAX_NAME_WORDS`` words, so it costs the sentence's length, not the number of records. What a
sentence names is remembered until the next observation adds records.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from aem_strands.compare.identifiers import identifier_key
from aem_strands.compare.reply_signals import facts_in
from aem_strands.trace.checks.observed import MAX_NAME_WORDS, Record, name_words


def ngrams(words: tuple[str, ...]) -> Iterator[str]:
    """Every run of at most ``MAX_NAME_WORDS`` words, joined by spaces; remembered for a sentence of ordinary
    length (its runs are read by several look-ups), read lazily for a longer one."""
    return iter(_cached_runs(words)) if len(words) <= _CACHED_WORDS else _runs(words)


_CACHED_WORDS = 200


def _runs(words: tuple[str, ...]) -> Iterator[str]:
    for start in range(len(words)):
        for end in range(start + 1, min(len(words), start + MAX_NAME_WORDS) + 1):
            yield " ".join(words[start:end])


@functools.lru_cache(maxsize=1 << 12)
def _cached_runs(words: tuple[str, ...]) -> tuple[str, ...]:
    # ``_runs``' runs in its order, each run grown from the one before it by a word (no slice joined anew)
    out: list[str] = []
    for start in range(len(words)):
        run = words[start]
        out.append(run)
        for word in words[start + 1 : start + MAX_NAME_WORDS]:
            run = f"{run} {word}"
            out.append(run)
    return tuple(out)


def title_words(sentence: str) -> tuple[set[str], set[str]]:
    """What a sentence may name a record's title by: its runs of words, and the keys of its identifiers."""
    words = set(ngrams(name_words(sentence)))
    keys = {identifier_key(f.text) for f in facts_in(sentence) if f.group == "identifier"}
    return words, keys


def titled(record: Record, words: tuple[set[str], set[str]]) -> bool:
    """Whether a sentence's ``title_words`` name the record by a title or an identifier."""
    runs, keys = words
    ids = {i.split("=", 1)[1] for i in record.identity}
    return any(t in runs for t in record.titles) or bool(keys & ids)


class RecordNames:
    """The records seen so far, by the words that name them (see the module docstring)."""

    def __init__(self) -> None:
        self.by_name: dict[str, list[Record]] = {}
        self.by_title: dict[str, list[Record]] = {}
        self.by_identifier: dict[str, list[Record]] = {}
        self._named: dict[str, list[Record]] = {}

    def add(self, record: Record) -> None:
        """Index a record by its names and titles (a new observation: what sentences named is read again)."""
        self._named.clear()
        for name in record.names:
            self.by_name.setdefault(name, []).append(record)
        for name in record.titles:
            self.by_title.setdefault(name, []).append(record)

    def add_identifier(self, key: str, record: Record) -> None:
        """Index a record by an identifier it holds (``identifier_key`` of the value)."""
        self._named.clear()
        self.by_identifier.setdefault(key, []).append(record)

    def distinct(self, sentence: str) -> list[Record]:
        """The record a sentence names by a title no other record of its observation holds (``Kllo`` under
        ``event_name``; not a city, which other tasks share), latest first; empty when it names none, or several."""
        found: dict[int, Record] = {}
        words = name_words(sentence) if self.by_title else ()
        for run in ngrams(words):
            held = self.by_title.get(run)
            if not held:
                continue
            latest = max(r.step.index for r in held)
            mine = [r for r in held if r.step.index == latest]
            if len(mine) == 1:
                found[id(mine[0])] = mine[0]
        steps = {r.step.index for r in found.values()}
        if len(found) == 1 or (len(steps) > 1 and len(found) == len(steps)):
            return sorted(found.values(), key=lambda r: -r.step.index)
        return []

    def named(self, sentence: str) -> list[Record]:
        """The records a sentence names, by an identifier or a name, latest first."""
        known = self._named.get(sentence)
        if known is None:
            known = self._named[sentence] = self._find(sentence)
        return list(known)

    def _find(self, sentence: str) -> list[Record]:
        found: dict[int, Record] = {}
        for fact in facts_in(sentence):
            if fact.group == "identifier":
                for record in self.by_identifier.get(identifier_key(fact.text), ()):
                    found[id(record)] = record
        if self.by_name:
            for run in ngrams(name_words(sentence)):
                for record in self.by_name.get(run, ()):
                    found[id(record)] = record
        return sorted(found.values(), key=lambda r: -r.step.index)


__all__ = ["RecordNames", "ngrams", "title_words", "titled"]
