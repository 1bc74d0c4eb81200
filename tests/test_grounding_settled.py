"""Which values found nowhere are settled ungrounded and which are left to the judge (issue 28, the precision
contract): a city by its own name, a name of capitalised words none of which was said, a word where the argument
takes typed values or cities; against words that may have been said otherwise (``Drama`` after "the Play genre").
And names composed of said words, one-word values by the typed equivalence of an earlier word, currencies by an
amount, codes in running text; each on traces of both outcomes."""

from __future__ import annotations

from typing import Any

import pytest

from aem_strands.tools import tools_from_json
from aem_strands.trace.checks.argument_names import key_word, named_kind, names_place
from aem_strands.trace.checks.arguments import check_arguments
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.types import ActionType, DimensionVerdict, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues

CTX = TraceContext(ComparatorValues())


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def call(tool: str, observation: Any = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments, "observation": observation}


def judged(*steps: dict[str, Any], env: Environment | None = None, **fields: Any) -> DimensionVerdict:
    trace = Trace("t", tuple(Step(step_id=f"s{i}", index=i, **step) for i, step in enumerate(steps)), **fields)
    return check_arguments(trace, env or Environment(), CTX)


def outcome(verdict: DimensionVerdict) -> str:
    """``finding``, ``undecided`` or ``grounded``."""
    return "finding" if verdict.findings else "undecided" if verdict.undecided else "grounded"


def described(tool: str, **descriptions: str) -> Environment:
    properties = {name: {"type": "string", "description": text} for name, text in descriptions.items()}
    return Environment(tools=tools_from_json([{"name": tool, "inputSchema": {"properties": properties}}]))


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("San Francisco", "grounded"),
        ("Sydney", "finding"),  # a city by its own name, not said by any of its names
        ("Philadelphia", "finding"),
        ("Drama", "undecided"),  # a word that may be "the Play genre" in other words: the judge's
    ],
)
def test_a_city_by_its_own_name_is_settled_and_a_word_is_not(value: str, expected: str) -> None:
    # ``where``: a name that says no kind (``city`` settles any word none of which was said, tested below)
    verdict = judged(user("Find me something to do in San Francisco, in the Play genre."), call("find", where=value))
    assert outcome(verdict) == expected


@pytest.mark.parametrize(
    ("said", "expected"),
    [("a flight to O'Hare", "grounded"), ("a flight to ORD", "grounded"), ("a flight to Midway", "undecided")],
)
def test_an_airport_code_is_no_city_said_by_its_own_name(said: str, expected: str) -> None:
    # "O'Hare" names ORD by a word of its airport's name (grounding_places); "Midway" names Chicago's other
    # airport, yet a code is not settled the way a city's own name is: it may have been said in other words.
    assert outcome(judged(user(f"Book {said}."), call("search_flights", destination="ORD"))) == expected


@pytest.mark.parametrize(
    ("said", "value", "expected"),
    [
        ("I like Popular music.", "Pop", "grounded"),  # the typed equivalence finds "Popular" the same as Pop
        ("A movie with a Dramatic Story.", "Drama", "grounded"),
        ("A movie with a Dramatic Story.", "Comedy", "undecided"),
    ],
)
def test_one_word_is_grounded_by_an_earlier_word_the_typed_equivalence_finds_equal(
    said: str, value: str, expected: str
) -> None:
    assert outcome(judged(user(said), call("find", genre=value))) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Union Station", "finding"),  # two capitalised words, neither said
        ("Die Young", "finding"),
        ("Grocery Store", "undecided"),  # "grocery" was said: perhaps a name completed from it
    ],
)
def test_a_name_none_of_whose_words_was_said_is_settled(value: str, expected: str) -> None:
    verdict = judged(user("Set an alarm called grocery run for 6 pm."), call("add_alarm", name=value))
    assert outcome(verdict) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1 on 1 with Olivie", "grounded"),  # "one on one" and "Olivie", each said
        ("1 on 1 with Oliver", "finding"),  # Oliver was never said
        ("Pay electricity bill", "grounded"),  # "pay my electricity bill"
    ],
)
def test_a_name_composed_of_said_words_is_grounded(value: str, expected: str) -> None:
    verdict = judged(
        user("Set up one on one meetings with my manager. Her name is Olivie."),
        user("And a reminder to pay my electricity bill."),
        call("create_event", name=value),
    )
    assert outcome(verdict) == expected


@pytest.mark.parametrize(
    ("description", "value", "expected"),
    [
        ("City where the event is taking place", "Korean", "finding"),  # a city argument: no word of it said
        ("The category of food offered", "Korean", "undecided"),  # "some Seoul food" in other words, perhaps
    ],
)
def test_a_word_for_a_city_argument_is_settled(description: str, value: str, expected: str) -> None:
    env = described("find_events", where=description)
    verdict = judged(user("Anything fun in Chicago, with some Seoul food?"), call("find_events", where=value), env=env)
    assert outcome(verdict) == expected


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        ({"session_token": "98a5a87a-7714-b404"}, "finding"),  # the key holds typed values, not words
        ({"session_token": "guest"}, "undecided"),  # it held a word: a word may be said otherwise
        ({"session_token": "guest room 12"}, "undecided"),  # words with a number are still words
    ],
)
def test_a_word_where_the_key_held_typed_values_is_settled(state: dict[str, str], expected: str) -> None:
    verdict = judged(user("Show my reminders."), call("get_reminders", session_token="Belvedere"), initial_state=state)
    assert outcome(verdict) == expected


@pytest.mark.parametrize(
    ("description", "expected"),
    [("Format: %H:%M:%S", "finding"), ("The alarm", "undecided")],
)
def test_a_word_for_an_argument_whose_description_gives_a_format_is_settled(description: str, expected: str) -> None:
    # ``slot``: a name that says no kind (``time`` would settle it by the name, tested below)
    env = described("add_alarm", slot=description)
    assert outcome(judged(user("Wake me up early."), call("add_alarm", slot="Octavia"), env=env)) == expected


@pytest.mark.parametrize(("value", "expected"), [("USD", "grounded"), ("EUR", "undecided")])
def test_a_currency_is_grounded_by_an_amount_in_it(value: str, expected: str) -> None:
    verdict = judged(user("Send forty bucks to account 5521."), call("transfer", amount=40, currency=value))
    assert outcome(verdict) == expected


@pytest.mark.parametrize(("said", "expected"), [("from Lax to SD", "grounded"), ("from lax to SD", "finding")])
def test_a_code_written_with_a_capital_first_names_its_place(said: str, expected: str) -> None:
    # "lax" in lower case is a word; "Lax" is LAX written as running text writes a name.
    assert outcome(judged(user(f"A bus {said}."), call("find_bus", from_city="Los Angeles"))) == expected


@pytest.mark.parametrize(
    ("said", "expected"), [("a table at Mcdonalds", "grounded"), ("a table at Mcdowell", "undecided")]
)
def test_one_word_by_its_letters_apostrophes_aside(said: str, expected: str) -> None:
    verdict = judged(user(f"Book {said} in San Jose."), call("reserve", restaurant_name="Mcdonald's"))
    assert outcome(verdict) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Ac Hotel By Marriott Paris Porte Maillot", "finding"),  # a long name, most of its words never said
        # Wording: most of its words were said in one text; only the identifiers and amounts inside it count.
        ("Hotel Paris near the old station by the lake", "grounded"),
    ],
)
def test_a_long_name_mostly_unsaid_is_a_value_not_wording(value: str, expected: str) -> None:
    said = user("Find me a hotel in Paris near the big station by the river.")
    assert outcome(judged(said, call("reserve_hotel", place_name=value))) == expected


@pytest.mark.parametrize(("value", "expected"), [("event", "grounded"), ("party", "undecided")])
def test_a_choice_the_description_quotes_is_given_by_the_schema(value: str, expected: str) -> None:
    env = described("create_event", event_type="The type of the event, either 'meeting' or 'event'.")
    verdict = judged(user("Put my friend's birthday on the calendar."), call("create_event", event_type=value), env=env)
    assert outcome(verdict) == expected


@pytest.mark.parametrize(("value", "expected"), [("Alice Smith", "grounded"), ("Bob Jones", "undecided")])
def test_a_proper_name_is_not_composed_of_two_peoples_names(value: str, expected: str) -> None:
    # "Bob Jones" takes Bob's first name and Alice's last: nobody of that name was said, so it is not grounded;
    # its words in one message leave it to the judge (never a pass).
    said = user("Don't send it to Bob Smith. Send it to Alice Jones, no wait, Alice Smith.")
    assert outcome(judged(said, call("transfer", recipient=value))) == expected


@pytest.mark.parametrize(
    ("description", "value", "expected"),
    [
        ("Name of the restaurant", "Neapolitan", "finding"),  # a name is said by its words: this one was not
        ("Name of the restaurant", "Regent", "grounded"),  # a word of "Regent Thai", said
        ("Name of the restaurant", "neapolitan", "undecided"),  # not written as a name
        ("The kind of food", "Neapolitan", "undecided"),  # no name argument: a word said otherwise, perhaps
    ],
)
def test_a_word_for_a_name_argument_is_settled(description: str, value: str, expected: str) -> None:
    env = described("reserve", restaurant=description)
    verdict = judged(user("A table at Regent Thai for two, please."), call("reserve", restaurant=value), env=env)
    assert outcome(verdict) == expected


@pytest.mark.parametrize(
    ("argument", "value", "expected"),
    [
        # a time argument by its name: words with no time reading were no time said otherwise
        ("new_end_time", "Economy", "finding"),
        ("start_time", "Music practice", "finding"),
        ("cabin", "Economy", "undecided"),  # no such name: a word that may have been said otherwise
        ("start_time", "noon", "grounded"),  # said as it is
        # a password or an e-mail address is said exactly or not at all
        ("password", "Chinese", "finding"),
        ("email", "direct", "finding"),
        ("nickname", "Chinese", "undecided"),
    ],
)
def test_an_arguments_name_settles_a_value_found_nowhere(argument: str, value: str, expected: str) -> None:
    said = user("Please set it up for noon.")
    assert outcome(judged(said, call("update", **{argument: value}))) == expected


@pytest.mark.parametrize(
    ("argument", "value", "expected"),
    [
        # a place argument by its name: a place is said by one of its names, and no word of these was
        ("destination", "Economy", "finding"),
        ("pickup_location", "Funtcase", "finding"),
        ("to_city", "cheap", "finding"),
        ("destination", "Lakeside Apartments", "undecided"),  # "the apartments" named it in part
        ("venue", "Economy", "undecided"),  # no place by its name: a word that may have been said otherwise
    ],
)
def test_a_place_argument_by_its_name_settles_a_word_none_of_which_was_said(
    argument: str, value: str, expected: str
) -> None:
    said = user("Get me a cab to the apartments, please.")
    assert outcome(judged(said, call("book_ride", **{argument: value}))) == expected


def test_a_code_in_a_place_argument_stays_open() -> None:
    # "Midway" is no word of ORD, yet a code may name a place said by another of its names: the judge's
    assert outcome(judged(user("Book a flight to Midway."), call("book_ride", destination="ORD"))) == "undecided"


@pytest.mark.parametrize(
    ("argument", "expected"),
    [
        ("newEndTime", "finding"),  # the last word names the kind, in camel case too
        ("time_zone", "undecided"),  # a zone, not a time: "Pacific time" may be said otherwise
        ("email_subject", "undecided"),  # a subject, not an address
        ("location_type", "undecided"),  # a type, not a place
    ],
)
def test_the_last_word_of_an_arguments_name_names_its_kind(argument: str, expected: str) -> None:
    assert outcome(judged(user("Please set it up for noon."), call("update", **{argument: "Economy"}))) == expected


def test_the_kind_word_is_the_last_word_of_the_last_key() -> None:
    assert key_word("passengers[0].newEndTime") == "time"
    assert key_word("legs[1].pickup_location") == "location"
    assert key_word("time_zone") == "zone"
    assert names_place("to_city", "Economy")
    assert not names_place("to_city", "ORD")  # a code in capitals
    assert named_kind("new_end_time", "2023-09-11 17:10:00") is None  # a time: found or not, the rule says nothing
