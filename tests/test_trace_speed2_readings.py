"""Readings the speed work of issue 29 must keep, and the unit misreadings it removes.

The cheap pre-checks in ``reply_signals`` (word-set gate of the weekday/month reader, gated substitutions of
``with_digits``, the negation loop's skip of inert words) and ``parse_time.may_be_time`` only skip work that finds
nothing: each test below reads a text on both sides of a gate. The unit change does move readings: words side by
side with one never meant as a unit (``5 pm in``, ``3rd in``) are text, not an area; real products stay read.
"""

from __future__ import annotations

from aem_strands.compare import units
from aem_strands.compare.parse_time import may_be_time
from aem_strands.compare.reply_signals import facts_in, with_digits
from aem_strands.compare.settle import typed_value
from aem_strands.compare.values import Duration, Measure, Text


def _facts(text: str) -> set[tuple[str, str]]:
    return {(fact.group, fact.key) for fact in facts_in(text)}


def test_weekdays_and_months_read_in_every_written_form() -> None:
    assert ("weekday", "mon") in _facts("We are closed on Mondays.")
    assert ("weekday", "fri") in _facts("Friday's slot is taken.")
    assert ("weekday", "weekends") in _facts("Open at weekends only.")
    assert ("month", "6") in _facts("It ships in June.")
    # a month's short form alone is no month fact, nor is a word that only holds a day's name
    assert not {group for group, _ in _facts("It ships in Jun or maybe mondayish.")} & {"month", "weekday"}


def test_scale_words_and_spoken_times_still_rewritten() -> None:
    assert with_digits("about 4.2 million people") == "about 4.2 million people"
    assert ("number", "4200000") in _facts("about 4.2 million people")
    assert ("time", "7:05") in _facts("see you at five-past-seven morning")
    assert ("time", "19:30") in _facts("the show is at 7 30 pm")
    assert with_digits("order 7 30 shipped") == "order 7 30 shipped"  # no am/pm: no clock time


def test_negations_and_states_still_read_past_inert_words() -> None:
    assert ("state:outcome", "failed") in _facts("I couldn't book the table for you.")
    assert ("state:outcome", "confirmed") in _facts("The table for two is booked for you.")
    # "or" carries the negation on to the verb after it; an inert word between cue and verb is still governed
    denied = _facts("The shop does not sell firewood or allow dogs.")
    assert {("negation", "sell"), ("state:permission", "forbidden")} <= denied
    assert {("negation", "deliver"), ("weekday", "weekends")} <= _facts("We do not deliver on weekends.")
    assert ("state:openness", "closed") in _facts("The pool is not open.")
    assert not any(group == "negation" for group, _ in _facts("The pool is open and the shop sells firewood."))


def test_may_be_time_tries_only_texts_a_reader_can_take() -> None:
    assert may_be_time("an hour")
    assert may_be_time("half an hour and a day")
    assert may_be_time("tomorrow")
    assert not may_be_time("she has it")  # the "as" of "has" is no duration
    assert isinstance(typed_value("half an hour"), Duration)
    assert isinstance(typed_value("she has it"), Text)


def test_words_beside_a_unit_that_is_never_one_are_text() -> None:
    for text in ("5 pm in", "pm in", "3rd in", "10th in", "7 am in", "6 ft in"):
        assert isinstance(typed_value(text), Text), text


def test_real_unit_products_still_read() -> None:
    area = typed_value("3 sq ft")
    speed = typed_value("60 miles per hour")
    rate = typed_value("2 in per s")
    assert isinstance(area, Measure)
    assert area.dimension == "[length] ** 2"
    assert isinstance(speed, Measure)
    assert speed.dimension == "[length] / [time]"
    assert isinstance(rate, Measure)
    assert rate.dimension == "[length] / [time]"
    assert units._unit("degree Celsius") is not None
    assert units._unit("foot pound") is not None


def test_dates_in_every_branch_pass_the_date_gate() -> None:
    assert ("date", "?-5-3") in _facts("It arrives May 3 at the latest.")
    assert ("date", "?-5-3") in _facts("It arrives on the 3rd of May.")
    assert ("date", "2019-3-1") in _facts("Booked for 2019-03-01.")
    assert any(group == "date" for group, _ in _facts("Paid on 12/11/2020."))
    assert any(group == "date" for group, _ in _facts("We check out on the 6th at the hotel."))
    # hints of a date (a month's letters, "the", a hyphen) but none: no date fact
    assert not any(group == "date" for group, _ in _facts("You may see the refund in 3 days, ref RF-77."))
