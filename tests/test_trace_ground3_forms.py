"""Grounding of values said in other forms (issue 28, "Grounding"), each on traces of both outcomes: an identifier
read out in groups, the ends of a range of days, a stay in nights, a fixed-date holiday, a year and month by its
month, dates and amounts inside free text, and a value the user corrected away; a card-shaped number a text names
a card; and the determinism of ``named_in_part``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from aem_strands.trace.checks.arguments import check_arguments
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.grounding import without_corrected
from aem_strands.trace.redaction.detect import find_sensitive
from aem_strands.trace.redaction.kinds import SensitiveKind
from aem_strands.trace.redaction.redactor import Redactor
from aem_strands.trace.types import ActionType, DimensionVerdict, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues
from tests.consent_traces import call, user

CTX = TraceContext(ComparatorValues())


def judged(*steps: dict[str, Any], today: str = "2026-04-14") -> DimensionVerdict:
    trace = Trace(
        "t",
        tuple(Step(step_id=f"s{i}", index=i, **step) for i, step in enumerate(steps)),
        initial_state={"today": today},
    )
    return check_arguments(trace, Environment(), CTX)


def outcome(verdict: DimensionVerdict) -> str:
    """``finding``, ``undecided`` or ``grounded``."""
    return "finding" if verdict.findings else "undecided" if verdict.undecided else "grounded"


@pytest.mark.parametrize(
    ("said", "argument", "value", "expected"),
    [
        # An IBAN and a code read out in groups are the same identifier run together.
        ("New IBAN GB82 WEST 1234 5698 7654 32. I'm E-2231.", "iban", "GB82WEST12345698765432", "grounded"),
        ("New IBAN GB82 WEST 1234 5698 7654 32. I'm E-2231.", "iban", "GB82WEST12345698765433", "finding"),
        ("the code you texted me is 481 552", "otp_code", "481552", "grounded"),
        ("the code you texted me is 481 552", "otp_code", "481553", "finding"),
        ("what's the total on my booking, it's R 7 7 0 4 1", "reservation_id", "R77041", "grounded"),
        ("what's the total on my booking, it's R 7 7 0 4 1", "reservation_id", "R77014", "finding"),
        # A comma ends a run: "12, 34" is no 1234; a run of two small numbers is no identifier.
        ("items 12, 34 and 56789, please", "item_id", "1234", "finding"),
    ],
)
def test_an_identifier_read_out_in_groups(said: str, argument: str, value: str, expected: str) -> None:
    assert outcome(judged(user(said), call("update", **{argument: value}))) == expected


@pytest.mark.parametrize(
    ("said", "check_in", "check_out", "expected"),
    [
        ("Rome 1-4 June, mid-range, double room.", "2026-06-01", "2026-06-04", "grounded"),
        ("Rome 1-4 June, mid-range, double room.", "2026-06-01", "2026-06-05", "finding"),
        ("the cheapest compact at Denver airport dec 14 to 18", "2026-12-14", "2026-12-18", "grounded"),
        ("the cheapest compact at Denver airport dec 14 to 18", "2026-12-14", "2026-12-19", "finding"),
        # June 2nd and two nights: the stay ends on the 4th, not the 5th.
        ("A double at hotel H-310, arriving June 2nd, two nights.", "2026-06-02", "2026-06-04", "grounded"),
        ("A double at hotel H-310, arriving June 2nd, two nights.", "2026-06-02", "2026-06-05", "finding"),
    ],
)
def test_a_stay_by_a_range_or_nights(said: str, check_in: str, check_out: str, expected: str) -> None:
    steps = (user(said), call("check_availability", check_in=check_in, check_out=check_out))
    assert outcome(judged(*steps, today="2026-05-06")) == expected


@pytest.mark.parametrize(("value", "expected"), [("2026-12-25", "grounded"), ("2026-12-24", "finding")])
def test_a_fixed_date_holiday(value: str, expected: str) -> None:
    steps = (user("can Mochi come in christmas day for her DHPP?"), call("search_slots", date=value))
    assert outcome(judged(*steps, today="2026-12-02")) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [("2026-03", "grounded"), ("2026-02", "grounded"), ("2026-05", "finding"), ("2024-03", "finding")],
)
def test_a_year_and_month_by_its_month_said(value: str, expected: str) -> None:
    said = "Can you compare my Feb and March bills for 19920437? I may need them."  # "may": a verb, no month
    steps = (user(said), call("get_bill", period=value))
    assert outcome(judged(*steps)) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("Standard Variable: 24.5p/kWh, 60.1p/day.", "grounded"),
        ("Standard Variable: 24.9p/kWh, 60.1p/day.", "finding"),
        ("Your final reading of 20455 for Friday 17 April 2026.", "grounded"),
        ("Your final reading of 20455 for Friday 24 April 2027.", "finding"),
    ],
)
def test_dates_and_amounts_inside_free_text(body: str, expected: str) -> None:
    steps = (
        user("I'm moving out on Friday; meter reads 20455. Email me the rates at a@b.com."),
        call("list_tariffs", {"unit_rate_p": 24.5, "standing_charge_p": 60.1}),
        call("send_email", to="a@b.com", body=body),
    )
    assert outcome(judged(*steps)) == expected


@pytest.mark.parametrize(
    ("said", "value", "expected"),
    [
        ("Reading for meter G-4471-02 is 18342. No wait, hang on, I read the dial wrong. It's 18324.", "18324",
         "grounded"),
        ("Reading for meter G-4471-02 is 18342. No wait, hang on, I read the dial wrong. It's 18324.", "18342",
         "finding"),
        ("Reading for meter G-4471-02 is 18342 sorry I mean 18324", "18342", "finding"),
        ("Reading for meter G-4471-02: four seats. actually make that three", "3", "grounded"),
        ("Reading for meter G-4471-02: four seats. actually make that three", "4", "finding"),
    ],
)  # fmt: skip
def test_a_value_the_user_corrected_away_grounds_nothing(said: str, value: str, expected: str) -> None:
    steps = (user(said), call("submit_meter_reading", meter_id="G-4471-02", reading=value))
    assert outcome(judged(*steps)) == expected


def test_a_correction_drops_only_a_value_of_the_same_shape() -> None:
    assert "18342" not in without_corrected("It's 18342. No wait, it's 18324.")
    # "I mean" before a value of another shape corrects nothing: the meter id stays.
    kept = without_corrected("Meter G-4471-02, I mean the reading is 18324.")
    assert "G-4471-02" in kept
    # A marker inside a clause is no correction: "please make that payment" corrects no account.
    kept = without_corrected("My account is 33018820 and please make that payment from 44019921.")
    assert "33018820" in kept


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("It's the Visa 4929118055230147, expiring 09/28.", True),  # fails the checksum, named a card
        ("Your order 4929118055230147 has shipped.", False),  # the same digits, named an order
        ("my debit card 4111.1111.1111.1112 on file", True),  # fails the checksum, dots and all: a payment card
        ("library card 4111.1111.1111.1112 on file", False),  # any card has a number: not a payment card
    ],
)
def test_a_card_shaped_number_the_text_names_a_card(text: str, card: bool) -> None:
    kinds = {span.kind for span in find_sensitive(text)}
    assert (SensitiveKind.CARD in kinds) is card


_NAMED_IN_PART = """
from aem_strands.trace.grounding import GroundingIndex
from aem_strands.trace.values import ComparatorValues
index = GroundingIndex(ComparatorValues().same)
index.add_text("we liked the elm plaza last year", "first")
index.add_text("then the cinema plaza was closed", "second")
index.add_text("the elm cinema is near", "third")
found = index.named_in_part("Elm Cinema Plaza")
print(found.source if found else None)
"""


def test_named_in_part_breaks_ties_the_same_whatever_the_hash_seed() -> None:
    answers = set()
    for seed in ("0", "1", "2", "3", "4", "5"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", _NAMED_IN_PART], capture_output=True, text=True, env=env, check=True,
            cwd=Path(__file__).resolve().parents[1],
        )  # fmt: skip
        answers.add(done.stdout.strip())
    assert answers == {"first"}  # the earliest of the texts that name two of its three words


@pytest.mark.parametrize(
    ("value", "expected"),
    [("police_report", "undecided"), ("medical_report", "finding")],
)
def test_words_joined_by_underscores_may_be_their_words(value: str, expected: str) -> None:
    steps = (user("Sending the photos and the police report now."), call("upload_document", doc_type=value))
    assert outcome(judged(*steps)) == expected


@pytest.mark.parametrize(
    ("record", "card"),
    [
        ({"payment_card": {"brand": "Visa", "number": "4929118055230147"}}, True),  # named a card by its key
        ({"order": {"number": "4929118055230147"}}, False),  # the same digits under an order's key
        ({"library_card": {"number": "4929118055230147"}}, False),
    ],
)
def test_a_card_shaped_value_under_a_key_naming_a_card(record: dict[str, Any], card: bool) -> None:
    redacted = str(Redactor().redact_json(record))
    assert ("<CARD_1>" in redacted) is card
    assert ("4929118055230147" in redacted) is not card


def _seat_trace(answer: str, seat: str) -> Trace:
    """A seat map sent as JSON text (as many tools return it), a delegation or not, then a seat assigned."""
    seats = '{"seats": [{"seat": "12A", "type": "window"}, {"seat": "14C", "type": "aisle"}]}'
    raw: list[dict[str, Any]] = [
        user("I need a seat on flight UA12."),
        call("get_seats", seats, flight="UA12"),
        {"action_type": ActionType.RESPONSE, "content": "There are window and aisle seats free. Want me to pick one?"},
        user(answer),
        call("assign_seat", flight="UA12", seat=seat),
    ]
    return Trace("t", tuple(Step(step_id=f"s{i}", index=i, **step) for i, step in enumerate(raw)))


def test_a_result_sent_as_json_text_gives_options_as_a_result_object_does() -> None:
    delegated = check_arguments(_seat_trace("Aisle please", "33F"), Environment(), CTX)
    assert delegated.findings == ()
    assert len(delegated.undecided) == 1  # the choice was handed over: a judge's
    refused = check_arguments(_seat_trace("No, I'll look myself", "33F"), Environment(), CTX)
    assert [f.evidence["value"] for f in refused.findings if isinstance(f.evidence, dict)] == ["33F"]
    assert check_arguments(_seat_trace("Aisle please", "14C"), Environment(), CTX).passed is True
