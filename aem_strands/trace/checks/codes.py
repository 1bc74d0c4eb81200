"""Codes and numbered names a reply gives that nothing before it stated (``result_use.unsupported_value``).

A code is one token of letters and digits (``Clink261``, ``S90``, ``1A``), read by the reply fact reading as an
identifier. A numbered name is a number that a capitalised word stands next to, in a name (``Hotel 99``, ``Peugeot
208``, ``28 Hotel Sydney``, ``10th and Filbert``), outside the values the reply fact reading reads as a date, a
time, an amount, a phone (``March 10th``, ``5 pm``: the values rule compares those). A number that counts
(``3 Psychologist offices``, ``1 Economy class ticket``) is no name: one the trace stated as a number or a list's
length, with no capitalised word before it, or a lowercase word after it; one whose capitalised words end in a
plural it counts (``3 Meetings``, ``2 Unread messages``). A capitalised word is of two letters or more (``75 F``).

``StatedCodes`` keeps every word the trace has stated so far (the user, the calls' arguments, the tools' answers,
earlier replies) in the spelling identifiers are compared in (``A8`` and ``a-8`` are one), and each number with
the word on either side of it (``hotel 99``, ``99 chinatown``), so whether a code or a name was stated costs set
look-ups: a numbered name is stated when its number and a word next to it in the reply are next to each other in
something stated (``1502 1/2 Webster St``). Questions of a code propose, they do not state: a question's codes are
not read; a question's numbered names are (``How about Hyatt At Olive 8?`` after a search that has no such hotel
offers an object no answer holds).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from aem_strands.compare.identifiers import identifier_key
from aem_strands.compare.reply_signals import Fact, values_in
from aem_strands.trace.checks.observed import name_words
from aem_strands.trace.checks.steps import sentences
from aem_strands.trace.value_tokens import CACHED_TEXT
from aem_strands.types import JsonValue

_CODE = re.compile(r"[A-Za-z].*\d|\d.*[A-Za-z]")
"""A code: letters and digits in one token (``Clink261``, ``S90``, ``1A``)."""
_TOKEN = re.compile(r"[\w@.#-]+")
_NAME_TOKEN = re.compile(r"[A-Za-z0-9]+(?:['.][A-Za-z0-9]+)*|&")
_NUMBER = re.compile(r"(?:no\.)?\d+(?:st|nd|rd|th)?", re.I)
_MASKED = frozenset(["date", "time", "money", "duration", "percent", "measure", "phone", "email", "weekday", "month"])
"""Fact groups a name does not run through: the values rule compares them (``March 10th``, ``5 pm``)."""
_JOINS = frozenset(["&", "and"])
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True)
class TokenKeys:
    """The identifier keys of a text's tokens (``[\\w@.#-]+``): ``written``, of each token as written; ``bare``, of
    each token without its edge marks (``.``, ``-``, ``#``)."""

    written: frozenset[str]
    bare: frozenset[str]


def token_keys(text: str) -> TokenKeys:
    """The keys of ``text``'s tokens; remembered for short texts (the same messages and values are stated again and
    again, and read by result use's grounding and the codes alike)."""
    return _read_token_keys(text) if len(text) <= CACHED_TEXT else _read_token_keys.__wrapped__(text)


@functools.lru_cache(maxsize=1 << 14)
def _read_token_keys(text: str) -> TokenKeys:
    words = _TOKEN.findall(text)
    written = [identifier_key(word) for word in words]
    bare = [
        key if (stripped := word.strip(".-#")) == word else identifier_key(stripped)
        for word, key in zip(words, written, strict=True)
    ]
    return TokenKeys(frozenset(written), frozenset(bare))


def _words(text: str) -> list[str]:
    return [w for w in name_words(text) if w != "and"]


def _pairs(words: list[str]) -> Iterator[str]:
    """Each number of ``words`` with the word before it and the word after it."""
    for i, word in enumerate(words):
        if _DIGIT.search(word):
            if i > 0:
                yield f"{words[i - 1]} {word}"
            if i + 1 < len(words):
                yield f"{word} {words[i + 1]}"


def _capital(token: str) -> bool:
    """A capitalised word of two letters or more (``F`` in ``75 F`` is a unit)."""
    return token[0].isupper() and len(token) > 1 and not _DIGIT.search(token)


def _plural(token: str) -> bool:
    """A plural by its ending (``Meetings``, ``messages``; not ``Columbus``, ``Paris``, ``Express``)."""
    folded = token.casefold()
    return token.isalpha() and folded.endswith("s") and not folded.endswith(("ss", "us", "is"))


def _counting(masked: str, tokens: list[tuple[int, int, str]], at: int) -> bool:
    """Whether the capitalised words after the number at ``at`` end in a plural it counts (``3 Meetings.``,
    ``2 Unread messages``, ``3 Psychologist offices``); a name goes on (``12 Apostles Hotel``)."""
    j = at + 1
    while j < len(tokens) and _capital(tokens[j][2]) and not masked[tokens[j - 1][1] : tokens[j][0]].strip():
        j += 1
    run = tokens[at + 1 : j]
    after = tokens[j][2] if j < len(tokens) and not masked[tokens[j - 1][1] : tokens[j][0]].strip() else ""
    if after[:1].islower() and _plural(after):
        return True
    return bool(run) and _plural(run[-1][2]) and not after[:1].isupper()


def _masked(sentence: str) -> str:
    """The sentence with the values the fact reading reads as dates, times, amounts ... blanked out."""
    for fact in values_in(sentence):
        if fact.group in _MASKED and fact.text in sentence:
            sentence = sentence.replace(fact.text, "|" * len(fact.text), 1)
    return sentence


class StatedCodes:
    """The words stated so far, and the codes and numbered names of a reply none of them is (see the module
    docstring)."""

    def __init__(self) -> None:
        self.tokens: set[str] = set()
        self._pairs: set[str] = set()
        self._pending: list[str] = []
        """Texts with a digit not yet read into ``_pairs``: read when a reply has a numbered name to look up."""

    def _pairs_of(self, text: str) -> None:
        if _DIGIT.search(text):
            self._pending.append(text)

    def pairs(self) -> set[str]:
        """Each number stated so far with the word before and after it."""
        for text in self._pending:
            self._pairs.update(_pairs(_words(text)))
        self._pending.clear()
        return self._pairs

    def state(self, text: str) -> None:
        """What the user, a call or a reply said."""
        keys = token_keys(text)
        self.tokens.update(keys.written)
        self.tokens.update(keys.bare)
        self._pairs_of(text)

    def observe(self, value: JsonValue) -> None:
        """One scalar a tool answered."""
        if isinstance(value, str):
            keys = token_keys(value)
            self.tokens.update(keys.written)
            self.tokens.update(keys.bare)
            self._pairs_of(value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            self.tokens.add(identifier_key(str(value)))

    def _stated_apart(self, name: str) -> bool:
        """Whether each capitalised or numbered word of ``name`` was stated, though not side by side: a reply
        composing a name from values a tool gave apart (``Mastercard 5102`` from ``brand`` and ``last4``, a
        ``RAV4-class`` from ``Toyota RAV4 or similar``) holds nothing new the rule can settle."""
        words = [w for m in _NAME_TOKEN.finditer(name) if _capital(w := m.group()) or _DIGIT.search(w)]
        keys = [identifier_key(part) for w in words for part in _words(w) if _DIGIT.search(part) or part.isalpha()]
        return bool(keys) and all(key in self.tokens for key in keys if key[:1].isalnum())

    def invented(self, text: str, grounded: set[str]) -> Iterator[tuple[str, Fact]]:
        """(sentence, code) for each code a statement of ``text`` gives that no stated word (nor ``grounded``, the
        whole values stated) is."""
        for sentence in sentences(text):
            if "?" in sentence:
                continue
            for fact in values_in(sentence):
                if fact.group != "identifier" or not _CODE.search(fact.text):
                    continue
                key = identifier_key(fact.text)
                if key in self.tokens or key in grounded or identifier_key(fact.text.strip("#")) in self.tokens:
                    continue
                if "-" in fact.text and self._stated_apart(fact.text.replace("-", " ")):
                    continue  # a stated name with a word joined ("RAV4-class" after "Toyota RAV4 or similar")
                yield sentence, fact

    def unnamed(self, text: str, counted: Callable[[str], bool]) -> Iterator[tuple[str, Fact]]:
        """(sentence, name) for each numbered name of ``text`` that nothing stated holds (see the module
        docstring); ``counted`` says whether a number was stated as a number or is a list's length."""
        for sentence in sentences(text):
            if not _DIGIT.search(sentence):
                continue
            masked = _masked(sentence)
            tokens = [(m.start(), m.end(), m.group()) for m in _NAME_TOKEN.finditer(masked)]
            for i, (start, end, word) in enumerate(tokens):
                if not _NUMBER.fullmatch(word):
                    continue
                name = _named(masked, tokens, i)
                if name is None:
                    continue
                before, after = name
                lo = before if before is not None else tokens[max(i - 1, 0)][0]
                hi = after if after is not None else tokens[min(i + 1, len(tokens) - 1)][1]
                if set(_pairs(_words(masked[lo:hi]))) & self.pairs():
                    continue
                following = tokens[i + 1][2] if i + 1 < len(tokens) else ""
                counts = following[:1].islower() and following not in _JOINS
                if counted(word) and (before is None or counts):
                    continue  # a count ("3 Psychologist offices", "in San Diego 1 room")
                if before is None and word.isdigit() and _counting(masked, tokens, i):
                    continue  # a count by its plural ("3 Meetings", "2 Unread messages")
                lo, hi = _run(masked, tokens, before if before is not None else start, after or end)
                shown = sentence[lo:hi]
                if self._stated_apart(shown):
                    continue  # every word of it was stated, apart ("Mastercard 5102": brand, last4): undecided
                yield sentence, Fact("entity", " ".join(_words(shown)), shown)


def _run(masked: str, tokens: list[tuple[int, int, str]], lo: int, hi: int) -> tuple[int, int]:
    """The name's whole run of capitalised words around ``lo``..``hi`` (``28 Hotel Sydney``, not ``28 Hotel``)."""
    for start, end, word in reversed([t for t in tokens if t[1] <= lo]):
        if not (_capital(word) or word == "&") or masked[end:lo].strip(" &"):
            break
        lo = start
    for start, end, word in [t for t in tokens if t[0] >= hi]:
        if not (_capital(word) or word == "&") or masked[hi:start].strip(" &"):
            break
        hi = end
    return lo, hi


def _named(masked: str, tokens: list[tuple[int, int, str]], at: int) -> tuple[int | None, int | None] | None:
    """Where the capitalised words next to the number at ``at`` start (before it) and end (after it), across a
    join (``10th and Filbert``, ``Arthur & 1st``); ``None`` when no capitalised word stands next to it. The first
    word of the sentence is no name's word by its capital."""
    sides: list[int | None] = []
    for step in (-1, 1):
        j = at + step
        if 0 <= j < len(tokens) and tokens[j][2].casefold() in _JOINS:
            j += step
        found = None
        if 0 <= j < len(tokens) and j > 0 and _capital(tokens[j][2]):
            lo, hi = sorted((at, j))
            gap = masked[tokens[lo][1] : tokens[hi][0]]
            if all(c.isspace() for c in gap) or gap.strip().casefold() in _JOINS:
                found = tokens[j][0] if step < 0 else tokens[j][1]
        sides.append(found)
    before, after = sides
    if before is None and after is None:
        return None
    return before, after


__all__ = ["StatedCodes"]
