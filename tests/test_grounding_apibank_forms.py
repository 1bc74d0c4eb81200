"""Grounding of values a tool takes in its own form (issue 28, "Grounding", as API-Bank's dialogues write them),
each on traces of both outcomes: a yearless date in the format its description gives (``12-10`` under ``%m-%d``),
the numbers of an arithmetic expression said apart, a boolean written as text, search keywords, a field's key of
words joined by underscores, and a language code by the language's name."""

from __future__ import annotations

from typing import Any

import pytest

from aem_strands.tools import tools_from_json
from aem_strands.trace.checks.arguments import check_arguments
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.grounding_dates import yearless_reading
from aem_strands.trace.grounding_names import language_name
from aem_strands.trace.types import DimensionVerdict, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues
from tests.consent_traces import call, user

CTX = TraceContext(ComparatorValues())


def _tool(name: str, **properties: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object", "properties": properties}}


ENV = Environment(
    tools=tools_from_json(
        [
            _tool("QueryHistoryToday", date={"type": "string", "description": "The date. Format: %m-%d"}),
            _tool("Calculator", formula={"type": "string", "description": "The formula to calculate."}),
            _tool("TimedSwitch", on={"type": "boolean", "description": "Whether to switch the device on or off."}),
            _tool("ToolSearcher", keywords={"type": "string", "description": "The keyword to search for."}),
            _tool("RecordHealthData", health_data={"type": "array", "description": "The health data."}),
            _tool("Translate", tgt_lang={"type": "string", "description": "The target language to translate to."}),
            _tool("upload_document", doc_type={"type": "string"}),
        ]
    )
)


def outcome(said: str, tool: str, **arguments: Any) -> str:
    """``finding``, ``undecided`` or ``grounded`` for one user message and one call (no known today)."""
    steps = (user(said), call(tool, **arguments))
    trace = Trace("t", tuple(Step(step_id=f"s{i}", index=i, **step) for i, step in enumerate(steps)))
    verdict: DimensionVerdict = check_arguments(trace, ENV, CTX)
    return "finding" if verdict.findings else "undecided" if verdict.undecided else "grounded"


@pytest.mark.parametrize(
    ("said", "value", "expected"),
    [
        ("Show me the events of December 10th.", "12-10", "grounded"),  # %m-%d: month 12, day 10
        ("Show me the events of October 12th.", "12-10", "finding"),  # the format says 12 is the month
        ("What happened on April 21?", "04-21", "grounded"),
        ("What happened on April 21?", "04-22", "finding"),
    ],
)
def test_a_yearless_date_in_the_format_its_description_gives(said: str, value: str, expected: str) -> None:
    assert outcome(said, "QueryHistoryToday", date=value) == expected


def test_yearless_reading_needs_a_month_and_day_format_without_a_year() -> None:
    assert yearless_reading("02-29", "Format: %m-%d") == "February 29"  # parsed in a leap year
    assert yearless_reading("10/12", "written %d/%m") == "December 10"
    assert yearless_reading("13-10", "Format: %m-%d") is None  # no 13th month
    assert yearless_reading("2023-10-12", "Format: %Y-%m-%d") is None  # a year: the typed reading settles it
    assert yearless_reading("12-10", "The date of the history.") is None  # no format given


@pytest.mark.parametrize(
    ("said", "formula", "expected"),
    [
        ("The length is 5 and the width is 10. What is the area?", "5*10", "grounded"),
        ("The length is 5 and the width is 10. What is the area?", "5*12", "finding"),  # 12 was never said
        ("Can you calculate (5+6)*3?", "(5+6)*3", "grounded"),  # said whole
        ("Can you calculate (5+6)*3?", "(5+7)*3", "finding"),
    ],
)
def test_the_numbers_of_an_expression_are_said_apart(said: str, formula: str, expected: str) -> None:
    assert outcome(said, "Calculator", formula=formula) == expected


@pytest.mark.parametrize(
    ("on", "expected"),
    [("True", "grounded"), ("False", "grounded"), ("yes please", "undecided")],  # not a boolean: words looked up
)
def test_a_boolean_written_as_text_is_exempt_as_a_boolean_is(on: str, expected: str) -> None:
    assert outcome("Turn on the living room light.", "TimedSwitch", on=on) == expected


@pytest.mark.parametrize(
    ("keywords", "expected"),
    [("hotel booking", "grounded"), ("hotel booking ORDER-4411", "finding")],  # an identifier inside is checked
)
def test_search_keywords_are_the_agents_wording(keywords: str, expected: str) -> None:
    assert outcome("Can you help me book a hotel room?", "ToolSearcher", keywords=keywords) == expected


@pytest.mark.parametrize(
    ("said", "name", "expected"),
    [
        ("Please record my blood pressure, 120/80.", "blood_pressure", "grounded"),
        ("Please record my heart rate, 120.", "blood_pressure", "finding"),  # no word of it said
        ("Please record my blood sugar and my pressure, 120/80.", "blood_pressure", "finding"),  # not together
    ],
)
def test_a_fields_key_is_its_words_joined(said: str, name: str, expected: str) -> None:
    data = [{"name": name, "value": "120/80"}]
    assert outcome(said, "RecordHealthData", health_data=data) == expected


def test_a_category_of_words_joined_stays_undecided() -> None:
    # Under a field's name the key is the words; a document type may or may not be what "police report" meant.
    assert outcome("Sending the police report now.", "upload_document", doc_type="police_report") == "undecided"


@pytest.mark.parametrize(
    ("said", "code", "expected"),
    [
        ('Can you translate "Hello" to French?', "fr", "grounded"),
        ('Can you translate "Hello" to Spanish?', "es", "grounded"),
        ('Can you translate "Hello" to Spanish?', "fr", "undecided"),  # another language: the judge is asked
        ('Can you translate "Hello" to Portuguese?', "pt-BR", "grounded"),  # by its language part
    ],
)
def test_a_language_code_by_the_language_named(said: str, code: str, expected: str) -> None:
    assert outcome(said, "Translate", tgt_lang=code) == expected


def test_language_name_reads_codes_only() -> None:
    assert language_name("fr") == "French"
    assert language_name("French") is None  # a name, not a code
    assert language_name("qqq") is None  # no language has it
