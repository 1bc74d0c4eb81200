"""Airports by the words of their names (``airportsdata``): "O'Hare" grounds ``ORD``, "Heathrow" ``LHR``,
"Kennedy" ``JFK``; a code whose airport nobody named stays ungrounded. Each on traces of both outcomes."""

from __future__ import annotations

from typing import Any

import pytest

from aem_strands.trace.checks.arguments import check_arguments
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.grounding import GroundingIndex
from aem_strands.trace.grounding_places import airport_words
from aem_strands.trace.types import ActionType, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues
from aem_strands.types import JsonValue

VALUES = ComparatorValues()


def trace(said: str, **arguments: Any) -> Trace:
    steps = (
        Step(step_id="u", index=0, action_type=ActionType.USER, content=said),
        Step(step_id="t", index=1, action_type=ActionType.TOOL_CALL, tool_name="search_flights", arguments=arguments),
    )
    return Trace("t", steps)


def open_values(t: Trace) -> list[JsonValue]:
    """The values the argument check found ungrounded or could not settle."""
    verdict = check_arguments(t, Environment(), TraceContext(VALUES))
    found = [f.evidence["value"] for f in verdict.findings if isinstance(f.evidence, dict)]
    return found + [q.split("value ", 1)[1].split(" of argument")[0].strip("'") for q in verdict.undecided]


@pytest.mark.parametrize(
    ("said", "code"),
    [
        ("I'm flying out of O'Hare on Friday", "ORD"),
        ("land at Heathrow please", "LHR"),
        ("from Kennedy to Los Angeles", "JFK"),
        ("from JFK to Los Angeles", "JFK"),
        ("Dulles is closest to my office", "IAD"),
    ],
)
def test_an_airport_by_a_word_of_its_name_grounds_its_code(said: str, code: str) -> None:
    index = GroundingIndex(VALUES.same)
    index.add_text(said, "user")
    found = index.find(code, "origin")
    assert found is not None
    assert found.source == "user"
    assert open_values(trace(said, origin=code)) == []  # on main: undecided


@pytest.mark.parametrize(
    ("said", "code"),
    [
        ("I'm flying out of Midway on Friday", "ORD"),  # Chicago's other airport: MDW
        ("land at Gatwick please", "LHR"),  # London's other airport: LGW
        ("my friend John is coming", "JFK"),  # "John" is in many airports' names: it names none
        ("an international flight", "SFO"),
    ],
)
def test_a_code_whose_airport_nobody_named_stays_ungrounded(said: str, code: str) -> None:
    index = GroundingIndex(VALUES.same)
    index.add_text(said, "user")
    assert index.find(code, "origin") is None
    # a code may still have been said in other words ("Chicago's downtown airport"): undecided, not a finding
    assert open_values(trace(said, origin=code)) == [code]


def test_the_words_naming_an_airport_are_its_own() -> None:
    words = airport_words()
    # "Chicago O'Hare International Airport": the city's word and the words many airports share are no name
    assert words["ORD"] == frozenset({"hare"})
    assert "john" not in words["JFK"]
    assert "kennedy" in words["JFK"]
