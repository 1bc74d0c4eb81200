"""Argument schema checks as findings (``arguments.schema``), the judge path for words said otherwise, the cost of
the grounding index, and the real-data benchmark's trace building (issues 28 and 29)."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from aem_strands.tools import tools_from_json
from aem_strands.trace.checks.arguments import check_arguments, paraphrasable
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.types import ActionType, Dimension, Environment, FindingMethod, Step, Trace
from aem_strands.trace.values import ComparatorValues
from aem_strands.types import JsonValue
from tests.conftest import ROOT

CTX = TraceContext(ComparatorValues())
TOOLS = tools_from_json(
    [
        {
            "name": "issue_refund",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "order_id": {"type": "string"},
                    "mode": {"enum": ["card", "store_credit"]},
                    "api": {"const": "v2"},
                    "items": {
                        "type": "array",
                        "items": {"type": "object", "properties": {"size": {"enum": ["S", "M"]}}},
                    },
                },
                "required": ["order_id", "mode"],
            },
        }
    ]
)
ENV = Environment(tools=TOOLS)


def refund(**arguments: Any) -> Trace:
    steps = (
        Step("u", 0, ActionType.USER, content="Please refund ORDER_123 to my card"),
        Step("c", 1, ActionType.TOOL_CALL, "issue_refund", arguments, {"ok": True}),
    )
    return Trace("t", steps)


def schema_findings(t: Trace) -> list[tuple[str, JsonValue]]:
    verdict = check_arguments(t, ENV, CTX)
    return [
        (str(f.evidence["argument"]), f.evidence["value"])
        for f in verdict.findings
        if f.rule == "arguments.schema" and isinstance(f.evidence, dict)
    ]


def test_a_call_within_its_schema_passes() -> None:
    verdict = check_arguments(refund(order_id="ORDER_123", mode="card", api="v2", items=[{"size": "M"}]), ENV, CTX)
    assert verdict.passed is True


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"order_id": "ORDER_123", "mode": "Card"}, [("mode", "Card")]),  # JSON Schema's enum is exact
        ({"order_id": "ORDER_123", "mode": "cash"}, [("mode", "cash")]),
        ({"order_id": "ORDER_123", "mode": "card", "api": "v1"}, [("api", "v1")]),
        ({"order_id": "ORDER_123", "mode": "card", "items": [{"size": "XL"}]}, [("items[0].size", "XL")]),
        ({"order_id": "ORDER_123"}, [("mode", None)]),  # a required argument missing
        ({}, [("order_id", None), ("mode", None)]),
    ],
)
def test_a_value_outside_the_schema_or_a_missing_required_argument_is_a_finding(
    arguments: dict[str, Any], expected: list[tuple[str, JsonValue]]
) -> None:
    t = refund(**arguments)
    assert schema_findings(t) == expected
    verdict = check_arguments(t, ENV, CTX)
    assert verdict.passed is False
    assert all(f.dimension is Dimension.ARGUMENTS and f.step_id == "c" for f in verdict.findings)


def test_a_tool_without_a_definition_is_not_schema_checked() -> None:
    assert check_arguments(refund(order_id="ORDER_123", mode="Card"), Environment(), CTX).passed is True


# --- words said otherwise: the judge, or undecided ----------------------------------------------------------


class FakeJudge:
    def __init__(self, answer: bool | None) -> None:
        self.answer = answer
        self.questions: list[str] = []

    def decide(self, question: str, evidence: JsonValue) -> bool | None:
        self.questions.append(question)
        return self.answer


def _movie(genre: str) -> Trace:
    steps = (
        Step("u", 0, ActionType.USER, content="Find me a movie in the Play genre"),
        Step("c", 1, ActionType.TOOL_CALL, "find_movies", {"genre": genre}, []),
    )
    return Trace("t", steps)


def test_a_word_said_otherwise_is_undecided_without_a_judge() -> None:
    verdict = check_arguments(_movie("Drama"), Environment(), CTX)
    assert (verdict.passed, verdict.findings) == (True, ())
    (question,) = verdict.undecided
    assert "'Drama'" in question


@pytest.mark.parametrize(("answer", "passed"), [(True, True), (False, False)])
def test_the_judge_settles_a_word_said_otherwise(answer: bool, passed: bool) -> None:
    judge = FakeJudge(answer)
    verdict = check_arguments(_movie("Drama"), Environment(), TraceContext(ComparatorValues(), judge))
    assert verdict.passed is passed
    assert len(judge.questions) == 1
    assert all(f.method is FindingMethod.JUDGE for f in verdict.findings)


PARAPHRASABLE = [
    ("Drama", True),
    ("Sci-fi", True),
    ("San Jose", False),
    ("ORDER_9", False),
    ("2019-03-01", False),
    ("The Angry Birds Movie 2", False),
]


@pytest.mark.parametrize(("value", "expected"), PARAPHRASABLE)
def test_only_words_without_a_typed_reading_may_be_paraphrases(value: str, expected: bool) -> None:
    assert paraphrasable(value) is expected


def test_a_name_given_in_part_is_undecided_and_another_name_a_finding() -> None:
    def cinema(name: str) -> Trace:
        steps = (
            Step("u", 0, ActionType.USER, content="Any movie there at Livermore Cinema?"),
            Step("c", 1, ActionType.TOOL_CALL, "find_movies", {"theater_name": name}, []),
        )
        return Trace("t", steps)

    completed = check_arguments(cinema("Livermore 13 Cinema"), Environment(), CTX)
    assert (completed.passed, len(completed.undecided)) == (True, 1)
    other = check_arguments(cinema("Vine Cinema & Alehouse"), Environment(), CTX)  # one word of three in common
    assert [f.rule for f in other.findings] == ["arguments.ungrounded"]


def test_a_listed_choice_other_than_the_one_said_is_settled() -> None:
    tools = tools_from_json(
        [
            {
                "name": "filter_data",
                "inputSchema": {
                    "type": "object",
                    "properties": {"metric": {"type": "string", "description": "revenue, profit or units"}},
                },
            }
        ]
    )

    def chart(metric: str) -> Trace:
        steps = (
            Step("u", 0, ActionType.USER, content="EU revenue for 2024 as a bar chart, please."),
            Step("c", 1, ActionType.TOOL_CALL, "filter_data", {"metric": metric}, {}),
        )
        return Trace("t", steps)

    invented = check_arguments(chart("profit"), Environment(tools=tools), CTX)
    assert [f.rule for f in invented.findings] == ["arguments.ungrounded"]
    assert "the user chose 'revenue'" in invented.findings[0].message
    assert check_arguments(chart("revenue"), Environment(tools=tools), CTX).passed is True


# --- cost: lookups are keyed, not scans ---------------------------------------------------------------------


class CountingValues:
    """A value judge that counts how often the index asks it."""

    def __init__(self) -> None:
        self.calls = 0

    def same(self, a: JsonValue, b: JsonValue, name: str = "") -> bool | None:
        self.calls += 1
        return ComparatorValues().same(a, b, name)


def _asked(count: int) -> int:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import quadratic_costs
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    work = quadratic_costs._never_grounded(count)
    counting = CountingValues()
    trace, env = work.args[0], work.args[1]
    verdict = check_arguments(trace, env, TraceContext(counting))
    assert verdict.passed is False  # the values are never grounded
    return counting.calls


def test_never_grounded_values_cost_linear_lookups() -> None:
    # Scanning every earlier typed value made the judge calls grow with the square of the steps (4x for 2x);
    # keyed lookups ask it at most a bounded number of times per value.
    small, large = _asked(100), _asked(200)
    assert large <= 2.5 * small + 20


# --- the real-data benchmark's traces -------------------------------------------------------------------------


def test_sgd_dialogs_become_traces_with_their_tool_catalog() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import grounding_realdata as realdata
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    schema = [
        {
            "service_name": "Restaurants_2",
            "slots": [
                {"name": "city", "description": "City", "is_categorical": False, "possible_values": []},
                {"name": "seats", "description": "Seats", "is_categorical": True, "possible_values": ["1", "2", "3"]},
            ],
            "intents": [
                {
                    "name": "Reserve",
                    "description": "Book",
                    "is_transactional": True,
                    "required_slots": ["city"],
                    "optional_slots": {"seats": "2"},
                    "result_slots": [],
                }
            ],
        }
    ]
    tools = realdata.catalog(schema)
    dialog = {
        "dialogue_id": "1_00000",
        "services": ["Restaurants_2"],
        "turns": [
            {"speaker": "USER", "utterance": "A table in SF please", "frames": []},
            {
                "speaker": "SYSTEM",
                "utterance": "Booked.",
                "frames": [
                    {
                        "service": "Restaurants_2",
                        "service_call": {"method": "Reserve", "parameters": {"city": "San Francisco", "seats": "2"}},
                        "service_results": [{"city": "San Francisco"}],
                    }
                ],
            },
        ],
    }
    trace = realdata.to_trace(dialog, tools)
    assert [s.action_type for s in trace.steps] == [ActionType.USER, ActionType.TOOL_CALL, ActionType.RESPONSE]
    env = Environment(tools=tools_from_json(realdata.dialog_tools(["Restaurants_2"], tools)))
    assert check_arguments(trace, env, CTX).passed is True  # SF grounds San Francisco; 2 is the default
    assert realdata.split_of("1_00000") in ("tuning", "held-out")
