"""Attribution: root causes and cascades via depends_on, data flow and the action chain."""

from __future__ import annotations

from typing import Any

from aem_strands import TableScorer, evaluate_dialog, load_dialogs
from tests.conftest import EXAMPLES, action, paired, reply


def roles(dialog: list[dict[str, Any]]) -> list[tuple[int, str | None, int | None, str | None]]:
    result = evaluate_dialog(dialog, scorer="exact").to_dict()
    return [(t["turn_no"], t["failure_reason"], t["caused_by"], t["link"]) for t in result["turns"]]


def test_cascade_via_data_flow_of_a_wrong_argument_into_a_reply() -> None:
    dialog = [
        paired(1, action("db", "Filter", metric="revenue"), action("db", "Filter", metric="profit")),
        paired(2, reply("Here is the revenue chart."), reply("Here is the profit chart.")),
    ]
    assert roles(dialog) == [
        (1, "inconsistent_parameter_values", None, None),
        (2, "prior_action_failed", 1, "data_flow"),
    ]


def test_cascade_via_data_flow_of_a_failed_turns_observation() -> None:
    gold_filter = {**action("db", "Filter", region="EU"), "observation": {"dataset": "ds-1"}}
    wrong_filter = {**action("db", "Filter", region="US"), "observation": {"dataset": "ds-2"}}
    dialog = [
        paired(1, gold_filter, wrong_filter),
        paired(2, reply("Filtered."), reply("Filtered.")),
        paired(3, action("db", "Export", dataset="ds-1"), action("db", "Export", dataset="ds-2")),
    ]
    assert roles(dialog) == [
        (1, "inconsistent_parameter_values", None, None),
        (2, None, None, None),
        (3, "prior_action_failed", 1, "data_flow"),
    ]


def test_cascade_via_depends_on_even_without_shared_values() -> None:
    dialog = [
        paired(1, action("db", "Filter", region="EU"), action("db", "Filter", region="US")),
        paired(2, reply("Done."), reply("Done.")),
        paired(3, action("mail", "Send", to="ann"), action("mail", "Send", to="bob"), depends_on=[1]),
    ]
    assert roles(dialog)[2] == (3, "prior_action_failed", 1, "depends_on")


def test_explicit_depends_on_without_failed_dependency_makes_a_root_cause() -> None:
    # Turn 3 is in the same action chain as failed turn 2, but its annotation says it only uses turn 1.
    dialog = [
        paired(1, action("db", "Get", id=1), action("db", "Get", id=1)),
        paired(2, action("db", "Filter", region="EU"), action("db", "Filter", region="US")),
        paired(3, action("db", "Sort", by="date"), action("db", "Sort", by="name"), depends_on=[1]),
    ]
    assert roles(dialog)[2] == (3, "inconsistent_parameter_values", None, None)


def test_cascade_via_action_chain_of_a_structural_failure() -> None:
    # After the wrong filter the agent calls Group instead of Sort: structural derailment.
    dialog = [
        paired(1, action("db", "Filter", region="EU"), action("db", "Filter", region="US")),
        paired(2, action("db", "Sort", by="date"), action("db", "Group", by="date")),
    ]
    assert roles(dialog)[1] == (2, "prior_action_failed", 1, "action_chain")


def test_cascade_via_action_chain_of_a_skipped_step_or_argument() -> None:
    dialog = [
        paired(1, action("db", "Filter", region="EU"), action("db", "Filter", region="US")),
        paired(2, action("db", "Sort", by="date", order="asc"), action("db", "Sort", by="date")),
    ]
    assert roles(dialog)[1] == (2, "prior_action_failed", 1, "action_chain")


def test_an_untraced_wrong_value_in_the_same_chain_is_a_second_root_cause() -> None:
    # "name" comes from nowhere in turn 1: the sort key was simply wrong.
    dialog = [
        paired(1, action("db", "Filter", region="EU"), action("db", "Filter", region="US")),
        paired(2, action("db", "Sort", by="date"), action("db", "Sort", by="name")),
    ]
    assert roles(dialog)[1] == (2, "inconsistent_parameter_values", None, None)


def test_a_skipped_argument_with_an_untraced_wrong_value_is_a_root_cause() -> None:
    # The missing "order" alone would be derailment, but "name" is a wrong value with no trace.
    dialog = [
        paired(1, action("db", "Filter", region="EU"), action("db", "Filter", region="US")),
        paired(2, action("db", "Sort", by="date", order="asc"), action("db", "Sort", by="name")),
    ]
    assert roles(dialog)[1] == (2, "missing_parameters", None, None)


def test_a_traced_wrong_value_in_the_same_chain_is_a_data_flow_cascade() -> None:
    dialog = [
        paired(1, action("db", "Filter", region="EU"), action("db", "Filter", region="US")),
        paired(2, action("db", "Sort", by="EU"), action("db", "Sort", by="US")),
    ]
    assert roles(dialog)[1] == (2, "prior_action_failed", 1, "data_flow")


def test_unrelated_later_error_is_a_second_root_cause() -> None:
    dialog = [
        paired(1, action("db", "Filter", region="EU"), action("db", "Filter", region="US")),
        paired(2, reply("Anything else?"), reply("Anything else?")),
        paired(3, action("mail", "Send", to="ann"), action("mail", "Send", to="bob")),
    ]
    result = evaluate_dialog(dialog, scorer="exact").to_dict()
    assert result["root_cause_count"] == 2
    assert result["cascading_count"] == 0
    assert [r["turn_no"] for r in result["root_causes"]] == [1, 3]


def test_cascade_of_a_cascade_points_to_the_root() -> None:
    # Turn 2 cascades from turn 1 (chain, wrong action); turn 3 repeats turn 2's wrong value "name".
    dialog = [
        paired(1, action("db", "Filter", region="EU"), action("db", "Filter", region="US")),
        paired(2, action("db", "Sort", by="date"), action("db", "Sort", by="name"), depends_on=[1]),
        paired(3, reply("Sorted by date."), reply("Sorted by name.")),
    ]
    assert roles(dialog)[1:] == [
        (2, "prior_action_failed", 1, "depends_on"),
        (3, "prior_action_failed", 1, "data_flow"),
    ]


def test_correct_value_that_also_appears_in_gold_is_not_taint() -> None:
    # "EU" is right in turn 1 (only the metric is wrong); turn 3 fails on its own while using "EU".
    dialog = [
        paired(
            1,
            action("db", "Filter", metric="revenue", region="EU"),
            action("db", "Filter", metric="profit", region="EU"),
        ),
        paired(2, reply("Done."), reply("Done.")),
        paired(3, action("mail", "Send", subject="EU", to="ann"), action("mail", "Send", subject="EU", to="bob")),
    ]
    assert roles(dialog)[2] == (3, "inconsistent_parameter_values", None, None)


REFERENCE_TABLE = TableScorer(
    {
        ("revenue", "profit"): 0.73,
        ("Which region should the report cover?", "Which region should the sales report cover?"): 0.95,
    }
)


def test_reference_dialog_reports_the_spec_values() -> None:
    (dialog,) = load_dialogs(EXAMPLES / "data" / "sales_report.json")
    result = evaluate_dialog(dialog, scorer=REFERENCE_TABLE).to_dict()
    assert {k: result[k] for k in ("success_rate", "test_pass", "first_failure_turn", "root_cause")} == {
        "success_rate": 0.2,  # 1 of 5 turns passes
        "test_pass": False,
        "first_failure_turn": 2,
        "root_cause": "inconsistent_parameter_values",
    }
    assert (result["root_cause_count"], result["cascading_count"], result["total_failures"]) == (1, 3, 4)
    assert [t["caused_by"] for t in result["turns"]] == [None, None, 2, 2, 2]


def test_second_fixture_reports_two_root_causes() -> None:
    (dialog,) = load_dialogs(EXAMPLES / "data" / "sales_report_two_roots.json")
    result = evaluate_dialog(dialog, scorer=REFERENCE_TABLE).to_dict()
    assert [(r["turn_no"], r["reason"]) for r in result["root_causes"]] == [
        (2, "inconsistent_parameter_values"),
        (4, "inconsistent_response"),
    ]
    assert result["cascading_count"] == 2
    assert [t["failure_reason"] for t in result["turns"]] == [
        None,
        "inconsistent_parameter_values",
        "prior_action_failed",
        "inconsistent_response",
        "prior_action_failed",
    ]


def test_a_wrong_single_digit_value_traces_into_a_reply() -> None:
    # SGD-like: the search asked for 3 stars instead of 4, and the reply offers a 3 star hotel.
    dialog = [
        paired(1, action("hotels", "Search", stars="4"), action("hotels", "Search", stars="3")),
        paired(
            2,
            reply("How about the Ace Hotel, a nice 4 star hotel?"),
            reply("How about the Ace Hotel, a nice 3 star hotel?"),
        ),
    ]
    assert roles(dialog)[1] == (2, "prior_action_failed", 1, "data_flow")


def test_single_letters_are_not_traced() -> None:
    dialog = [
        paired(1, action("db", "Get", grade="a"), action("db", "Get", grade="b")),
        paired(2, reply("Done."), reply("Done.")),
        paired(3, action("db", "Put", note="x"), action("db", "Put", note="b")),
    ]
    assert roles(dialog)[2] == (3, "inconsistent_parameter_values", None, None)
