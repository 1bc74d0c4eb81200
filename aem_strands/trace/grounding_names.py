"""Names and wording for grounding: what a value of words found nowhere whole may still stand for.

A name the agent composed from words each said (``composed``), a name an earlier text gives in part
(``named_in_part``), whether the words of a value were said at all, or a short form of them (``any_word_said``,
``mostly_said``), and when a name found nowhere is settled as not said in other words either (``unsaid_name``).
``language_name`` gives the English name of a language code (``fr``: French, from CLDR through ``babel``), so that
a code is grounded by the language said.
"""

from __future__ import annotations

import re
from functools import cache

from aem_strands.compare.gazetteer import places
from aem_strands.compare.normalise import display, normalise_text
from aem_strands.trace.grounding_index import SHORT_FORM, ValueIndex
from aem_strands.trace.grounding_keys import EDGE, Grounding
from aem_strands.trace.value_tokens import tokens
from aem_strands.types import JsonValue

_SMALL_WORDS = frozenset(
    ["the", "a", "an", "of", "and", "at", "in", "on", "for", "to", "s", "by", "with", "my", "your", "our", "their",
     "his", "her", "its", "i", "me", "you", "we"]
)  # fmt: skip
_NAME_WORD = 4


class NameIndex(ValueIndex):
    """The index (``ValueIndex``) with the lookups of names and wording (see the module docstring)."""

    def unsaid_name(self, value: JsonValue) -> str | None:
        """Why a value of words found nowhere is settled as not said in other words either, or ``None`` when it
        may have been (``paraphrasable`` values otherwise go to the judge). Settled: no word of it was said or
        seen earlier, nor a word it is a short form of or that is a short form of it (``Pop`` for "Popular",
        "sci-fi" for ``Science Fiction``), and it is a city by its own name (``Sydney``: a city is said by one
        of its names, which the gazetteer knows) or a name of two capitalised words or more (``Union Station``)."""
        if not isinstance(value, str):
            return None
        self._read_texts()
        words = [t.key for t in tokens(value) if t.kind == "word" and t.key not in _SMALL_WORDS]
        if not words or any(self._said_in_part(word) for word in words):
            return None
        if not value.isupper() and any(p.startswith("city:") for p in places(value).primary):
            return "a city by its own name"  # codes (``ORD``) aside: an airport is said by names no gazetteer has
        names = [w for w in value.split() if normalise_text(w) not in _SMALL_WORDS]
        if len(value.split()) >= 2 and all(w[:1].isupper() for w in names):
            return "a name none of whose words was said"
        return None

    def _said_in_part(self, word: str) -> bool:
        """Whether ``word``, or a word it is a short form of or that is a short form of it (a prefix of three
        letters or more and at least two fifths of the longer), was said or seen earlier."""
        if word in self._postings:
            return True
        if len(word) < SHORT_FORM:
            return False
        for key in self._postings:
            if key[:1] != word[:1] or len(key) < SHORT_FORM:
                continue
            short, long = (key, word) if len(key) < len(word) else (word, key)
            if long.startswith(short) and len(short) * 5 >= len(long) * 2:
                return True
        return False

    def any_word_said(self, value: str) -> bool:
        """Whether any word of ``value`` (small words aside), or a short form of it, was said or seen earlier."""
        self._read_texts()
        return any(self._said_in_part(t.key) for t in tokens(value) if t.kind == "word" and t.key not in _SMALL_WORDS)

    def mostly_said(self, value: str) -> bool:
        """Whether at least half the words of ``value`` (small words aside) were said or seen earlier."""
        self._read_texts()
        words = [t.key for t in tokens(value) if t.kind == "word" and t.key not in _SMALL_WORDS]
        return bool(words) and 2 * sum(w in self._postings for w in words) >= len(words)

    def composed(self, value: JsonValue) -> Grounding | None:
        """For a name of two words or more found nowhere whole: whether every word of it (small words aside) and
        every number was said or seen earlier, each somewhere (``1 on 1 with Olivie`` after "one on one" and "Her
        name is Olivie"; ``Pay electricity bill`` after "pay my electricity bill"): a name the agent composed
        from what it was given, not a value it invented. A proper name (every word capitalised, no small word:
        ``Bob Jones``) is not composed: a first name said of one person and a last name of another name nobody."""
        if not isinstance(value, str) or len(value.split()) < 2 or _proper_name(value):
            return None
        self._read_texts()
        found = [t for t in tokens(value) if t.key not in _SMALL_WORDS]
        if not found:
            return None
        numbers = [t for t in found if t.number is not None]
        if numbers:
            self._parse_pending()
        for token in found:
            known = token.key in self._postings or (token.number is not None and token.number in self._numbers)
            if not known:
                return None
        return Grounding("earlier texts, word by word", value, "composed")

    def named_in_part(self, value: JsonValue) -> Grounding | None:
        """An earlier text that names ``value`` in part: at least two of its words, and at least half of them (its
        numbers and small words aside), in one text ("Livermore Cinema" for ``Livermore 13 Cinema``, "AMC
        NewPark" for ``AMC NewPark 12``), or its first word of four letters or more written as a name within a
        sentence ("at Lavier" for ``Lavier Latin Fusion Restaurant``). Such a value may be the one the user meant,
        completed from elsewhere; no rule here can settle that."""
        self._read_texts()
        ordered = [t.key for t in tokens(display(value)) if t.kind == "word" and t.key not in _SMALL_WORDS]
        words = set(ordered)
        if len(words) < 2:
            return None
        first = self._postings.get(ordered[0], ()) if len(ordered[0]) >= _NAME_WORD else ()
        for position in dict.fromkeys(p for p, _ in first):
            text = self._texts[position]
            if _named_within(text.original, ordered[0]):
                # "Lavier" for ``Lavier Latin Fusion Restaurant``: a name completed from its first word
                return Grounding(text.source, text.original, "in part")
        counts: dict[int, int] = {}
        for word in dict.fromkeys(ordered):
            for position in dict.fromkeys(p for p, _ in self._postings.get(word, ())):
                counts[position] = counts.get(position, 0) + 1
        # The earliest of the texts naming most of its words: the same answer whatever the hash seed.
        best = max(sorted(counts), key=lambda p: counts[p], default=None)
        if best is None or counts[best] < max(2, (len(words) + 1) // 2):
            return None
        text = self._texts[best]
        return Grounding(text.source, text.original, "in part")


def _proper_name(value: str) -> bool:
    """Whether ``value`` reads as a proper name: every word capitalised and none a small word (``Bob Jones``, not
    ``Flight to Paris`` nor ``Pay rent``)."""
    words = value.split()
    return all(w[:1].isupper() and normalise_text(w) not in _SMALL_WORDS for w in words)


def _named_within(text: str, word: str) -> bool:
    """Whether ``text`` writes ``word`` as a name: with a capital, and not first in a sentence (``at Lavier``, not
    "Best of all")."""
    words = text.split()
    for i, raw in enumerate(words):
        shown = raw.strip(EDGE)
        if i and shown[:1].isupper() and normalise_text(shown) == word and not words[i - 1].endswith((".", "!", "?")):
            return True
    return False


_LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?")
"""A language code as an argument gives one: ``fr``, ``es``, ``zh-CN``, ``pt_BR``."""


@cache
def _language_names() -> dict[str, str]:
    from babel import Locale  # imported on first use: most traces name no language

    return dict(Locale("en").languages)


def language_name(code: JsonValue) -> str | None:
    """The English name CLDR gives a language code's language (``fr``: ``French``; ``pt-BR``: ``Portuguese``, a
    region being the agent's choice of variant), else ``None`` (not a code, or no language has it)."""
    if not isinstance(code, str) or _LANGUAGE_CODE.fullmatch(code.strip()) is None:
        return None
    return _language_names().get(re.split(r"[-_]", code.strip())[0])


__all__ = ["NameIndex", "language_name"]
