"""The diagnosis's reuse test (``_AnyOf``: does a text hold any of a set of values?) answers as a value-by-value
search does, with few values and with many (issue 29: a 20,000-step trace's values made it quadratic)."""

from __future__ import annotations

import random

import pytest

from aem_strands.trace.diagnose import _AnyOf

_ALPHABET = "ab1-\n"


def _value(rng: random.Random) -> str:
    return "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 6)))


@pytest.mark.parametrize("count", [0, 5, 40, 3000])
def test_any_of_answers_as_a_search_value_by_value(count: int) -> None:
    rng = random.Random(count)
    values = {_value(rng) for _ in range(count)}
    held = _AnyOf()
    listed = sorted(values)
    held.update(set(listed[: len(listed) // 2]))  # grown in two parts, as the diagnosis grows it
    held.update(set(listed[len(listed) // 2 :]))
    answers = set()
    for _ in range(400):
        letters = "xyz" if rng.random() < 0.3 else _ALPHABET + "xyz"  # some texts hold no value at all
        text = "".join(rng.choice(letters) for _ in range(rng.randint(0, 40)))
        expected = any(v in text for v in values)
        assert held.in_text(text) == expected, text
        answers.add(expected)
    assert answers == ({False} if count == 0 else {True, False})  # both outcomes seen


def test_the_empty_value_is_in_every_text() -> None:
    many = _AnyOf({f"v{i:05d}" for i in range(2000)} | {""})
    assert many.in_text("")
    assert many.in_text("no value here")
    assert not _AnyOf({f"v{i:05d}" for i in range(2000)}).in_text("no value here")
    assert _AnyOf({f"v{i:05d}" for i in range(2000)}).in_text("step v01234 reused")
