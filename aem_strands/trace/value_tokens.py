"""The tokens of a text as grounding reads them: numbers as numbers, identifiers as whole tokens.

A text is split at white space; each word loses the punctuation at its edges (``"$40.00,"`` → ``40.00``) and
becomes one or more ``Token``:

- a word that is a number (``40``, ``40.00``, ``1,250``, ``-3.5``, with or without ``$``, ``€``, ``%``...) is one
  number token whose key is the number written in full (``#40``: ``$40.00`` and ``40`` share it, ``4000`` does
  not); ``12,34`` (no thousands grouping) is two numbers, 12 and 34; an ordinal (``13th``) is its number;
- any other word with a digit is one identifier token keyed by ``identifier_key`` (``C-3003``, ``c3003`` and
  ``C_3003`` share ``~c3003``): the digits inside an identifier are no number of their own, so ``3003`` is not
  in ``C-3003``;
- a word without digits gives its normalised words (``P.F.`` → ``p``, ``f``).

``joinable`` records whether the word ended without punctuation: ``c 3003`` may be read as the identifier
``c3003`` (a letter part and a digit part), but the digits of ``12, 34`` never join into ``1234``
(``joined_keys``).

``reading`` gives what the grounding index keeps of a text (its tokens, the identifiers its adjacent tokens spell,
its words in capitals), remembered per text by ``read_text``; ``anchored_phrases`` the short phrases around a
digit or a number, month, weekday or time word, the only ones that can read as a typed value.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from aem_strands.compare.identifiers import identifier_key
from aem_strands.compare.normalise import normalise_text
from aem_strands.compare.parse_time import MONTHS
from aem_strands.compare.values import decimal_text

_EDGE = "\"'.,;:!?()[]{}<>*«»“”\u2018\u2019"  # the typographic quotes included
_MONEY = "$€£¥₹₩%"
_NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[+-]?\.\d+")
_ORDINAL = re.compile(r"(\d{1,3})(?:st|nd|rd|th)", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_RUN_ON = re.compile(r"(?<=[a-z\d])([.!?])(?=[A-Z])")
"""A sentence run on without a space ("rating 3.9.I want"): the next sentence starts a new word."""
_LIST_COMMA = re.compile(r"(?<=\d),(?=\d)")
_MAX_JOINED_WORDS = 4
_MIN_DIGIT_RUN = 7
"""Digit groups join across spaces only into a digit string this long or longer: a phone, card or account number
written in groups (``555 123 2002``, ``4111 1111 1111 1111``), never two short numbers (``12 34``)."""


@dataclass(frozen=True)
class Token:
    """One token: ``key`` (``#40`` for a number, ``~c3003`` for an identifier, a normalised word otherwise),
    ``shown`` (the word as written, edges stripped), ``number`` (its value for a number token), and whether a
    following token may join it into one identifier (``joinable``: no punctuation after it)."""

    key: str
    shown: str
    number: Fraction | None = None
    joinable: bool = True

    @property
    def kind(self) -> str:
        """``number``, ``identifier`` or ``word``."""
        return "number" if self.key.startswith("#") else "identifier" if self.key.startswith("~") else "word"


def number_key(number: Fraction) -> str:
    """The key of a number token: the number written in full after ``#``."""
    return "#" + decimal_text(number)


def read_number(word: str) -> Fraction | None:
    """``word`` as a number when the whole word is one (``40.00``, ``1,250``, ``$12.50``, ``50%``), else ``None``."""
    core = word.strip(_MONEY)
    if not core or not _NUMBER.fullmatch(core):
        return None
    return Fraction(core.replace(",", ""))


@functools.lru_cache(maxsize=1 << 15)
def _word_tokens(word: str, joinable: bool) -> tuple[Token, ...]:
    """The tokens of one word, remembered: words recur across the texts of a run far more than texts do."""
    return tuple(_read_word(word, joinable))


def _read_word(word: str, joinable: bool) -> Iterator[Token]:
    if not _DIGIT.search(word):
        parts = normalise_text(word).split()
        for i, part in enumerate(parts):
            yield Token(part, part, None, joinable and i == len(parts) - 1)
        return
    number = read_number(word)
    if number is not None:
        yield Token(number_key(number), word, number, joinable)
        return
    ordinal = _ORDINAL.fullmatch(word)
    if ordinal:  # "13th" is the number 13 as a day or a rank is said
        rank = Fraction(int(ordinal[1]))
        yield Token(number_key(rank), word, rank, joinable)
        return
    if _LIST_COMMA.search(word) and all(read_number(p) is not None for p in word.split(",")):
        # "12,34": no thousands grouping, so a list of numbers; they never join.
        for part in word.split(","):
            value = read_number(part)
            if value is not None:
                yield Token(number_key(value), part, value, False)
        return
    yield Token("~" + identifier_key(word), word, None, joinable)


def tokens(text: str) -> list[Token]:
    """The tokens of ``text`` (see the module docstring)."""
    out: list[Token] = []
    if "." in text or "!" in text or "?" in text:
        text = _RUN_ON.sub(r"\1 ", text)
    for raw in text.split():
        found = _raw_tokens(raw)
        if found is None:
            if out:
                out[-1] = Token(out[-1].key, out[-1].shown, out[-1].number, False)
            continue
        out.extend(found)
    return out


@functools.lru_cache(maxsize=1 << 15)
def _raw_tokens(raw: str) -> tuple[Token, ...] | None:
    """The tokens of one word as split from a text, its edges still on; ``None`` when it is edges only (the word
    before it then ends in punctuation)."""
    word = raw.strip(_EDGE)
    if not word:
        return None
    return _word_tokens(word, raw[-1] not in _EDGE)  # a word ending in punctuation joins nothing after it


def _compact(token: Token) -> str:
    if token.kind == "identifier":
        return token.key[1:]
    return identifier_key(token.shown.strip(_MONEY)) if token.kind == "number" else token.key


@functools.lru_cache(maxsize=1 << 15)
def _compact_part(key: str, shown: str) -> tuple[str, bool]:
    """A token's part of a joined identifier (``_compact``, by the token's key and writing) and whether it holds
    a digit; remembered, as the words are."""
    part = _compact(Token(key, shown))
    return part, bool(_DIGIT.search(part))


def joined_keys(found: list[Token]) -> Iterator[tuple[str, int, int]]:
    """``(key, start, end)`` for each run of 2 to 4 adjacent tokens that reads as one identifier once the spaces
    go (``order 123`` → ``order123``, ``c 3003`` → ``c3003``): a run with a digit, unbroken by punctuation. Digits
    join onto digits only into a long digit string (``555 123 2002`` → ``5551232002``, ``_MIN_DIGIT_RUN``), never
    two short numbers (``12 34``). Keys are separator-free and case-folded, as ``identifier_key`` makes them."""
    parts = [_compact_part(token.key, token.shown) for token in found]
    compacts = [part for part, _ in parts]
    digits = [digit for _, digit in parts]
    if True not in digits:
        return  # no run holds a digit (words alone are matched as words)
    after = len(found)  # the first token from each position on that holds a digit (``len(found)``: none)
    next_digit = [after] * len(found)
    for at in range(len(found) - 1, -1, -1):
        if digits[at]:
            after = at
        next_digit[at] = after
    joinable = [token.joinable for token in found]
    for start in range(len(found)):
        stop = min(start + _MAX_JOINED_WORDS, len(found))
        if next_digit[start] >= stop or not joinable[start]:
            continue  # a run without a digit is no identifier to join (words alone are matched as words)
        key, has_digit, digit_edges = compacts[start], digits[start], False
        for end in range(start + 1, stop):
            if not joinable[end - 1]:
                break
            part = compacts[end]
            if not digit_edges and key[-1:].isdigit() and part[:1].isdigit():
                digit_edges = True
            key += part
            has_digit = has_digit or digits[end]
            if digit_edges and not (len(key) >= _MIN_DIGIT_RUN and key.isdigit()):
                continue
            if has_digit:
                yield key, start, end + 1


NUMBER_WORDS = frozenset(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
     "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty", "forty",
     "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "million", "half", "quarter", "dozen",
     "a", "an"]
)  # fmt: skip
TIME_WORDS = frozenset(
    ["today", "tonight", "tomorrow", "yesterday", "noon", "midnight", "monday", "tuesday", "wednesday", "thursday",
     "friday", "saturday", "sunday", "week", "month", "weekend", "morning", "afternoon", "evening", "night", "am",
     "pm"]
)  # fmt: skip
ANCHORS = NUMBER_WORDS | TIME_WORDS | frozenset(MONTHS)
Reading = tuple[tuple[Token, ...], tuple[tuple[str, str], ...], tuple[str, ...]]


def reading(text: str) -> Reading:
    """A text's tokens, the identifiers its adjacent tokens spell (key and words), and its words in capitals."""
    found = tokens(text)
    shown = [token.shown for token in found]
    joined = tuple((key, " ".join(shown[start:end])) for key, start, end in joined_keys(found))
    if text.islower():
        return tuple(found), joined, ()  # no capital letter: no word in capitals
    words = (word.strip(_EDGE) for word in text.split())
    return tuple(found), joined, tuple(w for w in words if 2 <= len(w) <= 5 and w.isalpha() and w.isupper())


read_text = functools.lru_cache(maxsize=1 << 14)(reading)
"""``reading`` remembered: the same observations and messages recur across the traces of a run."""
CACHED_TEXT = 4000


_ORDINAL_DAY = re.compile(r"\d{1,2}(?:st|nd|rd|th)\b", re.IGNORECASE)


def may_be_relative(phrase: str) -> bool:
    """Whether a phrase may be a relative date (a day or time word, or an ordinal day such as ``13th``)."""
    return not TIME_WORDS.isdisjoint(phrase.casefold().split()) or bool(_ORDINAL_DAY.search(phrase))


def phrases(words: list[str], longest: int) -> Iterator[str]:
    for size in range(1, longest + 1):
        for start in range(len(words) - size + 1):
            yield " ".join(words[start : start + size])


def anchored_phrases(words: list[str], longest: int) -> Iterator[str]:
    """Phrases of up to ``longest`` words around each word that can start a typed value (a digit, a number,
    month, weekday or time word): only those can read as a number, date, time or duration. Each phrase once (by
    its place): around an anchor, a phrase that starts at or before the anchor before it was that one's."""
    before = -1
    for i, word in enumerate(words):
        if not (any(ch.isdigit() for ch in word) or word.casefold() in ANCHORS):
            continue
        for start in range(max(0, i - longest + 1, before + 1), i + 1):
            phrase = " ".join(words[start : i + 1])
            yield phrase
            for end in range(i + 2, min(len(words), start + longest) + 1):
                phrase = f"{phrase} {words[end - 1]}"
                yield phrase
        before = i


__all__ = [
    "ANCHORS",
    "CACHED_TEXT",
    "NUMBER_WORDS",
    "TIME_WORDS",
    "Reading",
    "Token",
    "anchored_phrases",
    "joined_keys",
    "may_be_relative",
    "number_key",
    "phrases",
    "read_number",
    "read_text",
    "reading",
    "tokens",
]
