"""The grounding index, by value: does a value appear, under the product's typed equivalence, in what came before it?

Earlier texts and values are indexed as they arrive, each kind by a key, so a lookup reads a few dictionaries
and never compares the value with every earlier one (a trace of 2,000 steps costs about 16 times one of 125):

- ``exact``: the same JSON value;
- ``normalised``: the value's tokens (``value_tokens``: numbers as numbers, identifiers as whole tokens, other
  words normalised) as a run of an earlier text's tokens, found through a positional index of its rarest token
  (``San Francisco``, ``jane@example.com``, ``40`` in "I paid $40.00"; never ``4000``, nor ``3003`` in
  ``C-3003``);
- ``identifier``: an identifier by its separator-free key, from an earlier identifier or from adjacent words
  that spell it (``order 123`` for ``ORDER_123``, ``c 3003`` for ``C-3003``; never the digits of ``12, 34``);
- ``typed`` (``grounding_typed``): the value's typed reading (``compare.settle.typed_value``) against the typed
  readings of earlier values and short phrases, by type: the same number (``$12.50`` for ``12.5``, ``two people``
  for ``2``, ``50%`` for ``0.5``), duration (``five days``), measurement, phone, e-mail, identifier digits,
  quarter, and dates and times by ``grounding_dates`` (``March 13th``, ``tomorrow`` against a known today);
- ``place``: a place by any of its names in the gazetteer (``grounding_places``: ``SF`` for ``San Francisco``);
- ``initials``: a name of two to five words by its initials written in capitals (``SD`` for ``San Diego``).

Typed readings and place names are computed only when a lookup first needs them, once per text. What a value of
words may stand for in part (names and wording) is ``grounding_names``'s; what may be worked out, ``grounding``'s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from aem_strands.compare.normalise import display, normalise_text
from aem_strands.compare.parse_numbers import currency_code
from aem_strands.compare.settle import typed_value
from aem_strands.compare.values import (
    Identifier,
    ParseContext,
    Quantity,
    Text,
)
from aem_strands.compare.walk import json_key
from aem_strands.trace.grounding_keys import EDGE, Grounding, SameFn, compact
from aem_strands.trace.grounding_places import PlaceIndex
from aem_strands.trace.grounding_typed import TypedIndex
from aem_strands.trace.value_tokens import (
    CACHED_TEXT,
    Token,
    read_text,
    reading,
    tokens,
)
from aem_strands.types import JsonValue

_RANGE = re.compile(r"(?<=\d)\s*[-\u2013]\s*(?=\d{1,2}[/:]\d)")
"""The dash of a range of dates or times (``9/15-9/21``, ``10:00-11:30``): its ends are read apart."""
_INDEX = re.compile(r"\[\d+\]")
"""A list index in a leaf's path (``events[0]``)."""
_APART = "|"
"""What stands for a word with a digit when numbers in words are read: no number word joins across it."""
LONG_PHRASE = 6
SHORT_FORM = 3
"""The fewest letters a short form of a word keeps (``Pop`` for "Popular")."""
_KEPT_PER_KEY = 4
_FLOAT_DIGITS = 12
"""Significant digits a float argument is read to: past them is binary rounding, not the amount meant."""
_SHORT_PHRASE = 3


@dataclass(frozen=True)
class IndexedText:
    """An earlier text: its token keys in order, where it came from, and the text itself."""

    keys: tuple[str, ...]
    source: str
    original: str


class ValueIndex(TypedIndex):
    """What has been said or seen so far in a trace, indexed for ``find`` (see the module docstring); its typed
    readings are ``TypedIndex``'s (``same`` and ``context`` as there). ``add_text`` takes free text (a user
    message, the goal); ``add_json`` takes structured values (a state, an observation, earlier arguments): every
    scalar leaf, every object key, and every string leaf as text too."""

    def __init__(self, same: SameFn, context: ParseContext | None = None) -> None:
        super().__init__(same, context)
        self._exact: dict[str, tuple[str, JsonValue]] = {}
        self._texts: list[IndexedText] = []
        self._postings: dict[str, list[tuple[int, int]]] = {}
        self._places = PlaceIndex()
        self._acronyms: dict[str, tuple[str, str]] = {}
        self._unread: list[tuple[str, str]] = []
        self._squeezed: dict[str, tuple[str, str]] = {}
        self._by_key: dict[str, list[JsonValue]] = {}
        self._seen: set[str] = set()
        self._seen_phrases: set[tuple[str, int]] = set()
        self._scalars: set[str] = set()

    def add_text(self, text: str, source: str, phrase_words: int = LONG_PHRASE) -> None:
        """Index a text: its tokens for containment and identifiers; its phrases of up to ``phrase_words`` words
        for typed readings and places. All are read when a lookup first needs more than an exact value. A text
        indexed before is not read again: every reading keeps the first source of what it finds, so the same text
        from a later source would add nothing (a city or a status repeated in every result of a list)."""
        if not text.strip():
            return
        if text not in self._seen:
            self._seen.add(text)
            self._unread.append((text, source))
            self._places.add(text, source)
        self._add_pending(text, source, phrase_words)

    def _add_pending(self, text: str, source: str, phrase_words: int) -> None:
        if (text, phrase_words) not in self._seen_phrases:
            self._seen_phrases.add((text, phrase_words))
            self._pending.append((text, source, phrase_words))

    def _read_texts(self) -> None:
        """Tokenise the texts added since the last lookup that needed them (see ``add_text``)."""
        for text, source in self._unread:
            found, joined, acronyms = read_text(text) if len(text) <= CACHED_TEXT else reading(text)
            position = len(self._texts)
            self._texts.append(IndexedText(tuple(t.key for t in found), source, text))
            postings = self._postings
            for i, token in enumerate(found):
                key = token.key
                posted = postings.get(key)
                if posted is None:
                    postings[key] = [(position, i)]
                else:
                    posted.append((position, i))
                if token.number is not None:
                    self._add_number(token.number, _unit(token), source, token.shown)
                elif key.startswith("~"):  # an identifier (``Token.kind``)
                    self._identifiers.setdefault(key[1:], (source, token.shown))
            for word in acronyms:
                self._acronyms.setdefault(word.casefold(), (source, word))
            for raw in text.split():
                if raw.isalnum():
                    continue  # letters and digits only: nothing to squeeze (``EDGE`` holds neither)
                word = raw.strip(EDGE)
                if len(word) > 2 and not word.isalnum() and not any(ch.isdigit() for ch in word):
                    self._squeezed.setdefault(compact(word), (source, word))  # "McDonald's", "P.F."
            for key, shown in joined:
                self._identifiers.setdefault(key, (source, shown))
        self._unread.clear()

    def add_json(self, value: JsonValue, source: str) -> None:
        """Index a structured value: its scalar leaves and object keys (strings also as text)."""
        leaves: list[tuple[JsonValue, str]] = []
        keys: list[str] = []
        _walk(value, "", "", leaves, keys)
        for leaf, last in leaves:
            self._add_scalar(leaf, source)
            kept = self._by_key.setdefault(last, [])
            if len(kept) < _KEPT_PER_KEY and leaf is not None and not isinstance(leaf, bool):
                kept.append(leaf)
        for key in keys:
            self._add_scalar(key, source)

    def _add_scalar(self, value: JsonValue, source: str) -> None:
        if value is None or isinstance(value, bool):
            return
        if isinstance(value, str):
            # Adding a string again adds nothing (every reading keeps its first source): the keys and values that
            # repeat in every result of a list are read once.
            if value in self._scalars:
                return
            self._scalars.add(value)
        self._exact.setdefault(json_key(value), (source, value))
        if isinstance(value, str):
            self.add_text(value, source, _SHORT_PHRASE)
            self._add_pending(value, source, 0)  # the whole string too, whatever its length
        elif isinstance(value, (int, float)):
            typed = typed_value(value)
            if isinstance(typed, Quantity):
                self._add_number(typed.amount, None, source, display(value))

    def find(self, value: JsonValue, name: str = "") -> Grounding | None:
        """Where ``value`` appears in what was indexed, or ``None`` (see the module docstring for the order). A float
        is read as the decimal it stands for (``2 + 0.53`` is ``2.53``, not ``2.5300000000000002``)."""
        if isinstance(value, float) and value == value and abs(value) != float("inf"):
            value = float(f"{value:.{_FLOAT_DIGITS}g}")
        found = self._exact.get(json_key(value))
        if found is not None:
            return Grounding(found[0], found[1], "exact")
        self._read_texts()
        shown = display(value)
        wanted = tokens(shown)
        contained = self._contained(tuple(t.key for t in wanted))
        if contained is not None:
            return Grounding(contained.source, shown if len(contained.original) > len(shown) else contained.original,
                             "normalised")  # fmt: skip
        squeezed = self._find_squeezed(shown)
        if squeezed is not None:
            return squeezed
        typed = typed_value(value, self._context)
        if isinstance(typed, Identifier) or (len(wanted) > 1 and any(t.kind != "word" for t in wanted)):
            key = typed.key if isinstance(typed, Identifier) else "".join(_spelled(t) for t in wanted)
            hit = self._identifiers.get(key)
            if hit is not None:
                return Grounding(hit[0], hit[1], "identifier")
        if isinstance(typed, Text):
            return self._find_place(shown) or self._find_currency(shown) or self._find_same_word(shown, value, name)
        return self._find_typed(typed, value, name)

    def _find_same_word(self, shown: str, value: JsonValue, name: str) -> Grounding | None:
        """A one-word value by an earlier word ``same`` (the typed equivalence) finds equal to it, among the words
        that start with its first three letters (``Drama`` by "dramatic", ``Pop`` by "Popular")."""
        key = normalise_text(shown)
        if " " in key or len(key) < SHORT_FORM or any(ch.isdigit() for ch in key):
            return None
        for word, posted in self._postings.items():
            if word[:SHORT_FORM] == key[:SHORT_FORM] and word != key and self._same(word, value, name) is True:
                text = self._texts[posted[0][0]]
                return Grounding(text.source, word, "typed")
        return None

    def _find_currency(self, shown: str) -> Grounding | None:
        """A currency (``USD``, ``dollars``) by an earlier amount in it (``$40``, ``forty bucks``)."""
        code = currency_code(shown)
        if code is None:
            return None
        self._parse_pending()
        for units in self._numbers.values():
            hit = units.get(code)
            if hit is not None:
                return Grounding(hit[0], hit[1], "typed")
        return None

    def _find_squeezed(self, shown: str) -> Grounding | None:
        """A one-word value by its letters alone, apostrophes and dots aside (``Mcdonald's`` and "Mcdonalds",
        ``P.F.`` and "PF"): one word either way, never several words run together."""
        if len(shown.split()) != 1 or any(ch.isdigit() for ch in shown):
            return None
        key = compact(shown)
        if len(key) < 3:
            return None
        hit = self._squeezed.get(key)
        if hit is not None:
            return Grounding(hit[0], hit[1], "normalised")
        if not shown.isalnum() and key in self._postings:
            text = self._texts[self._postings[key][0][0]]
            return Grounding(text.source, key, "normalised")
        return None

    def typed_key(self, name: str) -> JsonValue | None:
        """An earlier value under the key ``name`` (in a state, an observation or arguments) when every such value
        has a typed reading or a digit (``session_token: "98a5a87a-7714-b404"``, ``time: "09:00:00"``): a value of
        that key is no word that could have been said in other words. ``None`` when none was seen or one was a
        word."""
        kept = self._by_key.get(name.rsplit(".", 1)[-1], [])
        if not kept or any(_worded(value) for value in kept):
            return None
        return kept[0]

    def _contained(self, keys: tuple[str, ...]) -> IndexedText | None:
        """The first earlier text whose tokens hold ``keys`` as a run, through the postings of the rarest key."""
        if not keys or any(key not in self._postings for key in keys):
            return None
        rarest = min(range(len(keys)), key=lambda i: len(self._postings[keys[i]]))
        for position, at in self._postings[keys[rarest]]:
            text = self._texts[position]
            start = at - rarest
            if start >= 0 and text.keys[start : start + len(keys)] == keys:
                return text
        return None

    def _find_place(self, shown: str) -> Grounding | None:
        """A name of several words by its initials written in capitals (``SD`` for ``San Diego``, ``BofA``
        excluded: capitals only), or a place by another of its names (``grounding_places``)."""
        words = normalise_text(shown).split()
        if 2 <= len(words) <= 5:
            short = self._acronyms.get("".join(w[0] for w in words))
            if short is not None:
                return Grounding(short[0], short[1], "initials")
        return self._places.find(shown)


def _unit(token: Token) -> str | None:
    for mark, unit in (("$", "USD"), ("€", "EUR"), ("£", "GBP"), ("¥", "JPY"), ("₹", "INR"), ("%", "%")):
        if mark in token.shown:
            return unit
    return None


def _spelled(token: Token) -> str:
    return token.key[1:] if token.kind == "identifier" else compact(token.shown)


def _last_key(path: str) -> str:
    """The last object key of a leaf's path (``events[0].start_time`` → ``start_time``)."""
    return (_INDEX.sub("", path) if "[" in path else path).rsplit(".", 1)[-1]


def _worded(value: JsonValue) -> bool:
    """Whether a value is words (no typed reading, and no digit or several words: ``Room 12``): what may be said
    in other words. ``98a5a87a-7714-b404`` and ``09:00:00`` are not."""
    if not isinstance(value, str):
        return False
    return isinstance(typed_value(value), Text) and (not any(ch.isdigit() for ch in value) or " " in value.strip())


def _walk(value: JsonValue, path: str, last: str, leaves: list[tuple[JsonValue, str]], keys: list[str]) -> None:
    """Each scalar leaf of ``value`` with its ``_last_key`` (``json_leaves``' order, ``path`` its path) into
    ``leaves``, each object key (depth first, a key before the keys within its value) into ``keys``: one walk for
    both. ``last`` is ``_last_key(path)``: a list's items share their list's; an object's item whose key holds no
    ``.``, ``[`` or ``]`` has that key (no index of the path can run into it)."""
    if type(value) is dict or (type(value) is not list and isinstance(value, Mapping)):
        for key, item in value.items():
            name = str(key)
            keys.append(name)
            inner = f"{path}.{key}" if path else name
            simple = "." not in name and "[" not in name and "]" not in name
            _walk(item, inner, name if simple else _last_key(inner), leaves, keys)
    elif type(value) is list or isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _walk(item, f"{path}[{i}]", last, leaves, keys)
    else:
        leaves.append((value, last))


__all__ = ["LONG_PHRASE", "SHORT_FORM", "IndexedText", "ValueIndex"]
