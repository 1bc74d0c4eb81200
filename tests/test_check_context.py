"""Dialog metadata that judging reads: the reference date and unordered list arguments."""

from __future__ import annotations

from aem_strands import evaluate_dialog
from tests.conftest import action, paired


def dialog(metadata: dict[str, object], gold: object, predicted: object, arg: str = "when") -> dict[str, object]:
    return {
        "dialog_id": "d",
        "metadata": metadata,
        "turns": [paired(1, action("cal", "Invite", **{arg: gold}), action("cal", "Invite", **{arg: predicted}))],
    }


def test_relative_date_is_resolved_with_the_dialog_reference_date_only() -> None:
    # 2019-03-01 was a Friday, so "tomorrow" is 2019-03-02.
    with_date = evaluate_dialog(dialog({"reference_date": "2019-03-01"}, "2019-03-02", "tomorrow"), scorer="exact")
    without = evaluate_dialog(dialog({}, "2019-03-02", "tomorrow"), scorer="exact")
    assert with_date.test_pass is True
    assert without.test_pass is False  # no reference date: relative forms are not guessed


def test_unordered_arguments_named_in_metadata_compare_as_multisets() -> None:
    gold, predicted = ["ann", "bob"], ["bob", "ann"]
    by_action = {"unordered_args": {"cal.Invite": ["people"]}}
    by_tool = {"unordered_args": {"cal": ["people"]}}
    assert evaluate_dialog(dialog(by_action, gold, predicted, "people"), scorer="exact").test_pass is True
    assert evaluate_dialog(dialog(by_tool, gold, predicted, "people"), scorer="exact").test_pass is True
    assert evaluate_dialog(dialog({}, gold, predicted, "people"), scorer="exact").test_pass is False
    other_arg = {"unordered_args": {"cal.Invite": ["rooms"]}}
    assert evaluate_dialog(dialog(other_arg, gold, predicted, "people"), scorer="exact").test_pass is False
