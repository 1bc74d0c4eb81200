"""Issue 29: ``json_leaves`` and ``json_scalars`` gather a value's leaves in one list, and ``json_key`` writes a
scalar without an encoder; they give what the plain recursive walks and ``json.dumps`` give, in the same order
(tuples, a ``str`` subclass and other objects as leaves included)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from enum import Enum, IntEnum

from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.compare.walk import json_key, json_leaves, json_scalars
from aem_strands.types import JsonValue


class _Colour(str, Enum):
    RED = "red"


def _plain_leaves(value: JsonValue, path: str = "") -> Iterator[tuple[str, JsonValue]]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _plain_leaves(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _plain_leaves(item, f"{path}[{i}]")
    else:
        yield path, value


def _plain_scalars(value: JsonValue) -> Iterator[JsonValue]:
    if isinstance(value, Mapping):
        for item in value.values():
            yield from _plain_scalars(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _plain_scalars(item)
    else:
        yield value


_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False), st.text(max_size=3),
    st.just(_Colour.RED), st.just(frozenset({1})),
)  # fmt: skip
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=2).map(tuple),
        st.dictionaries(st.one_of(st.text(max_size=2), st.integers(0, 2)), inner, max_size=3),
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(_JSON, st.sampled_from(["", "args", "a[0]"]))
def test_leaves_and_scalars_are_those_of_the_plain_walks(value: JsonValue, path: str) -> None:
    assert list(json_leaves(value, path)) == list(_plain_leaves(value, path))
    assert list(json_scalars(value)) == list(_plain_scalars(value))


def test_leaves_of_a_nested_value() -> None:
    value: JsonValue = {"a": [1, {"b": None}], "c": {}, "d": []}
    # empty objects and lists are no leaves; a list's items by index
    assert list(json_leaves(value)) == [("a[0]", 1), ("a[1].b", None)]
    assert list(json_scalars(value)) == [1, None]


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=4),
        st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=2), st.floats(), max_size=2),
    )
)  # fmt: skip
def test_json_key_of_a_scalar_is_what_json_dumps_writes(value: JsonValue) -> None:
    assert json_key(value) == json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def test_json_key_of_the_special_floats_and_an_int_subclass() -> None:
    # json.dumps writes NaN and the infinities by name; True is a bool, not the int 1; an IntEnum takes json.dumps
    assert [json_key(v) for v in (math.nan, math.inf, -math.inf, -0.0, 1e16, True, 1)] == [
        "NaN", "Infinity", "-Infinity", "-0.0", "1e+16", "true", "1",
    ]  # fmt: skip
    assert json_key(_Level.HIGH) == json.dumps(_Level.HIGH) == "2"


class _Level(IntEnum):
    HIGH = 2
