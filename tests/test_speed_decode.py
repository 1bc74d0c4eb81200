"""The limit check's fast path: ``find_flaw`` first walks plain JSON values without naming paths, and only
looks closer (the path-naming walk) when that walk is not sure. Proven here against the naming walk alone."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.decode import MAX_DEPTH, _BadNumber, find_flaw, flaw_in

# Text with what the limits catch: lone surrogates, and non-ASCII that is fine.
words = st.text(alphabet=st.sampled_from(["a", "é", "\u2028", "\ud800", "\udfff", "😀", " ", '"']), max_size=6)
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),  # NaN and infinities included
    words,
    st.just(_BadNumber("number literal of 101 characters (the limit is 100)")),
    st.tuples(words),  # not a JSON type: the naming walk ignores it, the fast walk defers to it
)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(words, inner, max_size=3)),
    max_leaves=10,
)


def _nested(value: Any, depth: int) -> Any:
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


@settings(max_examples=400)
@given(value=values, depth=st.sampled_from([0, 1, MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1]))
def test_find_flaw_is_the_naming_walk(value: Any, depth: int) -> None:
    nested = _nested(value, depth)
    assert find_flaw(nested) == flaw_in(nested)


def test_a_flaw_is_named_by_its_path() -> None:
    assert find_flaw({"a": [1, "ok", "\ud800"]}) == flaw_in({"a": [1, "ok", "\ud800"]})
    flaw = find_flaw({"a": [1, "ok", "\ud800"]})
    assert flaw is not None
    assert flaw.path == "a[2]"
    assert find_flaw({"a": [1, "ok", {"b": None}]}) is None
