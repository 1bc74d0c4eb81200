"""Which way a named place faces (``compare.directions``): the start of a trip in one reply, its end in the other."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aem_strands.compare.directions import Direction, direction_findings, directions_of
from aem_strands.compare.facts import check_reply_facts

SOURCES = ["This bus leaves from {}.", "From {}.", "It departs {} at noon.", "{} is the station of origin."]
TARGETS = ["You'll be travelling to {}.", "The destination is {}.", "The bus will be reaching {}.", "It arrives at {}."]
PLACES = ["Union Station", "Fresno Station", "Anaheim Intermodal Center", "Port Authority"]


@pytest.mark.parametrize(
    ("gold", "predicted", "finding"),
    [
        (
            "This bus leaves from the Anaheim Intermodal Center.",
            "You'll be travelling to Anaheim Intermodal Center.",
            "'Anaheim Intermodal Center' is the source in gold, the target in the prediction",
        ),
        (
            "The destination is Union Station.",
            "Union Station is the station of origin.",
            "'Union Station' is the target in gold, the source in the prediction",
        ),
    ],
)
def test_one_place_at_the_two_ends_of_a_trip_is_inconsistent(gold: str, predicted: str, finding: str) -> None:
    assert [f.detail for f in direction_findings(gold, predicted)] == [finding]
    check = check_reply_facts(gold, predicted)
    assert [f.detail for f in check.findings] == [finding]
    assert check.findings[0].reason.value == "inconsistent_response"


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("This bus leaves from Union Station.", "It departs from Union Station."),  # one direction, other words
        ("The destination is Union Station.", "You will arrive at Union Station."),
        ("You are going from Fresno Station to Union Station.", "From Fresno Station, to Union Station."),
        ("Have you listened to Where We Come From?", "How about a song from the Where We Come From album?"),
        ("The hotel is next to Union Station.", "It leaves from Union Station."),  # "next to" points nowhere
        ("Union Station.", "To Union Station."),  # no direction on one side: the semantic stage decides
    ],
)
def test_the_same_direction_or_none_on_one_side_is_no_finding(gold: str, predicted: str) -> None:
    assert direction_findings(gold, predicted) == []


def test_a_place_told_both_ways_in_one_reply_is_no_finding() -> None:
    # "from X ... back to X": a round trip names X as both ends, so it opposes neither reading
    round_trip = "You leave from Union Station and come back to Union Station."
    assert directions_of(round_trip, "Union Station") == {Direction.SOURCE, Direction.TARGET}
    assert direction_findings(round_trip, "It departs from Union Station.") == []


@given(
    st.sampled_from(SOURCES),
    st.sampled_from(TARGETS),
    st.sampled_from(PLACES),
    st.booleans(),
)
def test_a_source_phrase_against_a_target_phrase_always_finds_the_place(
    source: str, target: str, place: str, swap: bool
) -> None:
    gold, predicted = source.format(place), target.format(place)
    if swap:
        gold, predicted = predicted, gold
    found = direction_findings(gold, predicted)
    assert [f.gold.split(": ", 1)[1] for f in found] == [place]
    assert direction_findings(gold, gold) == []


@pytest.mark.parametrize(
    ("gold", "predicted", "finding"),
    [
        (
            "A cold front is moving in from the south-east tonight.",
            "Tonight a cold front heads towards the south-east.",
            "'south-east' is the source in gold, the target in the prediction",
        ),
        (
            "The smoke is drifting toward the east.",
            "The smoke is drifting in from the east.",
            "'east' is the target in gold, the source in the prediction",
        ),
    ],
)
def test_a_compass_point_faces_one_way_like_a_named_place(gold: str, predicted: str, finding: str) -> None:
    assert [f.detail for f in direction_findings(gold, predicted)] == [finding]


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Winds out of the north this evening.", "This evening the wind comes from the north."),
        ("The storm is heading north.", "The storm moves to the north."),  # no direction read on one side
        ("Winds from the north.", "Winds from the northwest."),  # two points: the facts compare them
    ],
)
def test_a_compass_point_facing_one_way_on_both_sides_is_no_finding(gold: str, predicted: str) -> None:
    assert direction_findings(gold, predicted) == []
