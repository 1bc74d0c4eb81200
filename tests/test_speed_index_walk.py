"""Issue 29: the grounding index's one walk of a JSON value and its quicker joining of tokens give what the plain
readings give (json_leaves with ``_last_key``, a walk of the keys, the joining of every run read anew)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.compare.identifiers import identifier_key
from aem_strands.compare.walk import json_leaves
from aem_strands.trace.grounding_index import _last_key, _walk
from aem_strands.trace.value_tokens import ANCHORS, Token, anchored_phrases, joined_keys, reading, tokens
from aem_strands.types import JsonValue

_KEYS = st.sampled_from(["a", "b.c", "x[1]", "]", "[2]", "[", "d[0].e", "5", "", "city"])
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["San Jose", "C-3003", "", "4.5"]))
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=3)),
    max_leaves=12,
)


def _keys(value: JsonValue) -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _keys(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _keys(item)


@settings(max_examples=300, deadline=None)
@given(_JSON)
def test_one_walk_gives_the_leaves_their_last_keys_and_the_keys(value: JsonValue) -> None:
    leaves: list[tuple[JsonValue, str]] = []
    keys: list[str] = []
    _walk(value, "", "", leaves, keys)
    assert leaves == [(leaf, _last_key(path)) for path, leaf in json_leaves(value)]
    assert keys == list(_keys(value))


def test_a_key_with_a_dot_or_an_index_is_read_from_its_whole_path() -> None:
    leaves: list[tuple[JsonValue, str]] = []
    keys: list[str] = []
    # "b.c" under "a": the path a.b.c, whose last key is "c"; "x[1]" loses its index: "x"; a list's items share
    # their list's key ("d"); a top-level list's items have none.
    _walk({"a": {"b.c": 1, "x[1]": [2, {"d": [3]}]}}, "", "", leaves, keys)
    assert leaves == [(1, "c"), (2, "x"), (3, "d")]
    assert keys == ["a", "b.c", "x[1]", "d"]
    leaves.clear()
    _walk([4, [5]], "", "", leaves, keys)
    assert leaves == [(4, ""), (5, "")]


_DIGIT = re.compile(r"\d")


def _plain_joined_keys(found: list[Token]) -> list[tuple[str, int, int]]:
    """Every run of 2 to 4 tokens read anew, without the shortcuts (the reference of ``joined_keys``)."""

    def compact(token: Token) -> str:
        if token.kind == "identifier":
            return token.key[1:]
        return identifier_key(token.shown.strip("$€£¥₹₩%")) if token.kind == "number" else token.key

    out = []
    for start in range(len(found)):
        key, edges = compact(found[start]), False
        has_digit = bool(_DIGIT.search(key))
        for end in range(start + 1, min(start + 4, len(found))):
            if not found[end - 1].joinable:
                break
            part = compact(found[end])
            edges = edges or (key[-1:].isdigit() and part[:1].isdigit())
            key += part
            has_digit = has_digit or bool(_DIGIT.search(part))
            if edges and not (key.isdigit() and len(key) >= 7):
                continue
            if has_digit:
                out.append((key, start, end + 1))
    return out


_WORDS = st.sampled_from(
    ["order", "ORDER_123", "c", "3003", "555", "123", "2002", "12,", "34", "$40.00", "(", "Elm", ".", "4111"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=9))
def test_joined_keys_are_those_of_every_run_read_anew(words: list[str]) -> None:
    found = tokens(" ".join(words))
    assert list(joined_keys(found)) == _plain_joined_keys(found)


def test_joined_keys_of_a_phone_in_groups_and_of_two_short_numbers() -> None:
    # 555 123 2002: ten digits, one phone number; "12, 34": the comma breaks the run; "12 34": four digits, no join
    assert ("5551232002", 0, 3) in list(joined_keys(tokens("555 123 2002")))
    assert list(joined_keys(tokens("12, 34"))) == []
    assert list(joined_keys(tokens("12 34"))) == []
    assert list(joined_keys(tokens("order 123"))) == [("order123", 0, 2)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aSD bF.\u01c5\u00e9 (3", max_size=24))
def test_words_in_capitals_are_those_of_every_word_read(text: str) -> None:
    words = [w.strip("\"'.,;:!?()[]{}<>*«»“”\u2018\u2019") for w in text.split()]
    assert reading(text)[2] == tuple(w for w in words if 2 <= len(w) <= 5 and w.isalpha() and w.isupper())
    found = tokens(text)
    assert reading(text)[1] == tuple((k, " ".join(t.shown for t in found[s:e])) for k, s, e in joined_keys(found))


def _plain_anchored(words: list[str], longest: int) -> list[str]:
    """Every phrase around every anchor, each place once, remembered in a set (the reference)."""
    seen: set[tuple[int, int]] = set()
    out = []
    for i, word in enumerate(words):
        if not (any(ch.isdigit() for ch in word) or word.casefold() in ANCHORS):
            continue
        for start in range(max(0, i - longest + 1), i + 1):
            for end in range(i + 1, min(len(words), start + longest) + 1):
                if (start, end) not in seen:
                    seen.add((start, end))
                    out.append(" ".join(words[start:end]))
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["two", "people", "March", "3rd", "at", "a", "table", "9", "Friday"]), max_size=14),
       st.integers(0, 7))  # fmt: skip
def test_anchored_phrases_are_every_phrase_around_an_anchor_once(words: list[str], longest: int) -> None:
    assert list(anchored_phrases(words, longest)) == _plain_anchored(words, longest)


def test_anchored_phrases_of_two_anchors_side_by_side() -> None:
    # anchors "two" (word 0) and "9" (word 2), phrases of up to 2 words: around "two", "two" and "two people";
    # around "9", "people 9", "9" and "9 at" ("two people" holds no 9 and is not read again)
    assert list(anchored_phrases(["two", "people", "9", "at"], 2)) == ["two", "two people", "people 9", "9", "9 at"]
