"""Issue 21, wrong verdicts: long numbers and day/month-swapped slash dates must not pass.

Each case runs through the public API (``evaluate_dialogs``) and the CLI (``aem-strands score`` on a file: exit
1 and the reason), with and without ``--tools`` typing the argument as a string; property tests cover the class.
"""

from __future__ import annotations

import io
import json
import string
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands import evaluate_dialogs
from aem_strands.cli import main
from aem_strands.compare.settle import settle
from aem_strands.compare.values import ParseContext, decimal_text
from aem_strands.decode import _DECODER
from aem_strands.types import JsonValue, ValueKind
from tests.conftest import action, paired, reply

LONG_NUMBERS: list[tuple[JsonValue, JsonValue]] = [
    ("+15551234567", "+15551234568"),  # a phone number: differs in the last digit
    ("4111111111111111", "4111111111111112"),  # a card number
    (1234567890123456789, 1234567890123456700),  # JSON integers a float cannot tell apart
    (1000000001, 1000000000),  # within the old relative tolerance of 1e-9
    ("1000000001", "1000000000"),
    ("1234567890123456789.5", "1234567890123456789.6"),
    ("0012", "12"),  # a code with a leading zero is not the number 12
    ("4111 1111 1111 1111", "4111 1111 1111 1112"),  # a formatted card number
    ("5000000001 g", "5000000000 g"),  # a measurement in one unit: its amount, exactly
    ("1000000001 seconds", "1000000000 seconds"),
]
SWAPPED_DATES: list[tuple[JsonValue, JsonValue]] = [
    ("12/11/2020", "11/12/2020"),
    ("1/3/2019", "2019-03-01"),  # 1 March read day-first, 3 January month-first
    ("12.11.2020", "11.12.2020"),
]
SAME: list[tuple[JsonValue, JsonValue]] = [
    ("4111 1111 1111 1111", "4111-1111-1111-1111"),  # formatting removed, digit for digit
    ("4111.1111.1111.1111", "4111111111111111"),
    ("0012", "00-12"),
    ("4111 1111 1111 1111", 4111111111111111),
    ("+1 (555) 123-4567", "+15551234567"),
    (1234567890123456789, "1234567890123456789"),
    ("$4.2 million", "4200000 USD"),
    ("50%", 0.5),
    ("5 kg", "5000 g"),  # a conversion between units keeps the documented measurement tolerance
    ("1/3/2019", "01/03/2019"),  # the same reading either way
]


def _dialog(gold: JsonValue, predicted: JsonValue, **metadata: JsonValue) -> dict[str, Any]:
    turns = [paired(1, action("crm", "lookup", value=gold), action("crm", "lookup", value=predicted))]
    return {"dialog_id": "d1", "metadata": metadata, "turns": turns}


def _passes(gold: JsonValue, predicted: JsonValue, **metadata: JsonValue) -> bool:
    (result,) = evaluate_dialogs([_dialog(gold, predicted, **metadata)], scorer="exact")
    return result.test_pass


def _score(tmp_path: Path, dialog: dict[str, Any], *options: str) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "dialogs.json"
    path.write_text(json.dumps([dialog]), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["score", str(path), *options], stdout=out, stderr=err)
    (line,) = out.getvalue().splitlines()
    return code, json.loads(line)


def _string_tools(tmp_path: Path) -> str:
    path = tmp_path / "tools.json"
    schema = {"type": "object", "properties": {"value": {"type": "string"}}}
    path.write_text(json.dumps([{"name": "lookup", "inputSchema": schema}]), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("gold", "predicted"), LONG_NUMBERS + SWAPPED_DATES)
def test_different_values_fail_through_the_api(gold: JsonValue, predicted: JsonValue) -> None:
    assert not _passes(gold, predicted)


@pytest.mark.parametrize(("gold", "predicted"), SAME)
def test_the_same_value_written_differently_passes(gold: JsonValue, predicted: JsonValue) -> None:
    assert _passes(gold, predicted)


@pytest.mark.parametrize("typed", [False, True], ids=["untyped", "tools-string"])
@pytest.mark.parametrize(("gold", "predicted"), LONG_NUMBERS[:4] + SWAPPED_DATES[:1])
def test_cli_score_exits_1_and_names_the_values(
    tmp_path: Path, gold: JsonValue, predicted: JsonValue, typed: bool
) -> None:
    options = ["--tools", _string_tools(tmp_path)] if typed else []
    code, record = _score(tmp_path, _dialog(gold, predicted), *options)
    assert code == 1
    assert record["root_cause"] == "inconsistent_parameter_values"
    (problem,) = record["turns"][0]["problems"]
    assert problem["field"] == "args.value"
    assert problem["method"] == "normalised"
    assert f"{predicted!r} differs from {gold!r}".replace("'", "") in problem["detail"].replace("'", "")


def test_a_swapped_date_says_what_each_reading_gives(tmp_path: Path) -> None:
    code, record = _score(tmp_path, _dialog("1/3/2019", "2019-03-01"))
    assert code == 1
    detail = record["turns"][0]["problems"][0]["detail"]
    # day-first 1/3/2019 is 1 March (= 2019-03-01); month-first it is 3 January (!= 2019-03-01)
    assert "day-first 2019-03-01 vs 2019-03-01" in detail
    assert "month-first 2019-03-01 vs 2019-01-03" in detail
    assert "locale" in detail


@pytest.mark.parametrize(("locale", "same"), [("en_GB", True), ("en-GB", True), ("de_DE", True), ("en_US", False)])
def test_a_locale_in_the_metadata_settles_the_order(locale: str, same: bool) -> None:
    # 1/3/2019 is 1 March day-first (en_GB, de_DE), 3 January month-first (en_US)
    assert _passes("1/3/2019", "2019-03-01", locale=locale) is same


def test_an_unknown_locale_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "dialogs.json"
    path.write_text(json.dumps([_dialog("1/3/2019", "2019-03-01", locale="xx_NOWHERE")]), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["score", str(path)], stdout=out, stderr=err)
    assert code == 2
    assert "metadata.locale" in err.getvalue()
    assert "xx_NOWHERE" in err.getvalue()


def test_replies_compare_numbers_and_dates_the_same_way() -> None:
    def reply_passes(gold: str, predicted: str) -> bool:
        (result,) = evaluate_dialogs([[paired(1, reply(gold), reply(predicted))]], scorer="exact")
        return result.test_pass

    # "12345.67 dollars" was keyed "USD 12345.7" (6 significant digits) on both sides
    assert not reply_passes("The total comes to 12345.67 dollars.", "The total comes to 12345.68 dollars.")
    assert not reply_passes("Your reference is 1234567890123456789.", "Your reference is 1234567890123456700.")
    # an ambiguous date was no fact: its numbers 12, 11, 2020 agreed as a multiset
    assert not reply_passes("The visit is on 12/11/2020.", "The visit is on 11/12/2020.")
    assert reply_passes("The visit is on 1/3/2019.", "The visit is on 01/03/2019.")


def test_json_floats_are_decoded_exactly_or_refused() -> None:
    assert _DECODER.decode("1234567890123456789.0") == 1234567890123456789  # an int, not a rounded float
    assert type(_DECODER.decode("1234567890123456789.0")) is int
    assert _DECODER.decode("0.5") == 0.5
    refused = _DECODER.decode("0.12345678901234567891")
    assert "more digits than a float keeps" in refused.why


def _differs(gold: JsonValue, predicted: JsonValue) -> bool:
    settled = settle(gold, predicted, ValueKind.ARGUMENT, ParseContext())
    return settled is not None and settled.equivalent is False


def _agrees(gold: JsonValue, predicted: JsonValue) -> bool:
    settled = settle(gold, predicted, ValueKind.ARGUMENT, ParseContext())
    return settled is not None and settled.equivalent is True


long_integers = st.integers(min_value=10**9, max_value=10**25 - 1)


@settings(max_examples=200, deadline=None)
@given(long_integers, long_integers, st.booleans())
def test_two_distinct_long_integers_never_agree(a: int, b: int, as_strings: bool) -> None:
    if a == b:
        b = a + 1
    gold, predicted = (str(a), str(b)) if as_strings else (a, b)
    assert _differs(gold, predicted)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=10**25 - 1), st.booleans())
def test_a_decimal_differs_from_one_a_hundred_millionth_away(numerator: int, up: bool) -> None:
    number = Fraction(numerator, 10**4)
    other = number + Fraction(1 if up else -1, 10**8)
    assert _differs(decimal_text(number), decimal_text(other))
    assert _agrees(decimal_text(number), decimal_text(number))


_SEPARATORS = st.sampled_from([" ", "-", " - "])  # a single "." is a decimal point: see SAME for dotted groups


@settings(max_examples=200, deadline=None)
@given(st.text(string.digits, min_size=10, max_size=20), st.data())
def test_a_digit_string_equals_itself_with_formatting_inserted(digits: str, data: st.DataObject) -> None:
    cuts = sorted(data.draw(st.sets(st.integers(1, len(digits) - 1), max_size=4)))
    pieces = [digits[i:j] for i, j in zip([0, *cuts], [*cuts, len(digits)], strict=True)]
    formatted = data.draw(_SEPARATORS).join(pieces)
    if data.draw(st.booleans()):
        formatted = f"({pieces[0]}) " + " ".join(pieces[1:]) if len(pieces) > 1 else formatted
    assert _agrees(digits, formatted)
    changed = digits[:-1] + str((int(digits[-1]) + 1) % 10)
    assert _differs(formatted, changed)


@settings(max_examples=100, deadline=None)
@given(st.dates(), st.dates())
def test_slash_dates_agree_only_when_every_reading_agrees(a: Any, b: Any) -> None:
    first, second = f"{a.day}/{a.month}/{a.year:04d}", f"{b.day}/{b.month}/{b.year:04d}"
    # Both written day-first: read day-first they are a and b, so different dates never agree under every reading
    # (day and month swapped, 12/11 and 11/12, included).
    assert _agrees(first, second) if a == b else _differs(first, second)
