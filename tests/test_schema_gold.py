"""With gold, one engine (issue 28): ``trace --gold`` judges the calls against the expected calls with ``score``'s
engine (alignment, typed equivalence of the expected arguments, ``compare_args``, read-only tolerance both ways,
failed calls, side effects), and the same run as a dialog and as a trace gets the same verdict on its calls.
Each rule with a trace that must pass and one that must fail."""

from __future__ import annotations

import gzip
import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from aem_strands import evaluate_dialogs
from aem_strands.cli import main
from aem_strands.compare.chain import Comparator
from aem_strands.compare.scorers import TableScorer
from aem_strands.load import parse_dialog
from aem_strands.options import EvalOptions
from aem_strands.tools import load_tools, tools_from_json
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.tool_selection import check_tool_selection
from aem_strands.trace.convert import trace_from_dialog
from aem_strands.trace.evaluate import evaluate_trace
from aem_strands.trace.types import (
    ActionType,
    Dimension,
    DimensionVerdict,
    Environment,
    ExpectedCall,
    Step,
    Trace,
    TraceGold,
    TraceStatus,
)
from aem_strands.trace.values import ComparatorValues
from tests.conftest import ROOT

CTX = TraceContext(ComparatorValues())
OUTCOMES = ROOT / "data" / "outcomes" / "tau2_outcomes.jsonl.gz"
TAU2_TOOLS = ROOT / "data" / "outcomes" / "tau2_tools.mcp.json"
SHOP = Environment(
    tools=tools_from_json([
        {"name": "get_order", "annotations": {"readOnlyHint": True}},
        {"name": "cancel_order", "annotations": {"readOnlyHint": False, "destructiveHint": True}},
        {"name": "issue_refund", "annotations": {"readOnlyHint": False}},
    ])
)  # fmt: skip


def call(tool: str, observation: Any = None, *, error: str | None = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments,
            "observation": observation, "error": error}  # fmt: skip


def trace(*steps: dict[str, Any], gold: tuple[ExpectedCall, ...]) -> Trace:
    built = tuple(Step(step_id=f"s{i + 1}", index=i, **step) for i, step in enumerate(steps))
    return Trace(trace_id="t", steps=built, gold=TraceGold(tuple(c.tool for c in gold), expected_calls=gold))


def rules(verdict: DimensionVerdict) -> list[tuple[str | None, str]]:
    return [(f.step_id, f.rule) for f in verdict.findings]


CANCEL = ExpectedCall("cancel_order", {"order_id": "ORDER_789"})


# --- expected arguments are compared ----------------------------------------------------------------------------------


def test_the_expected_arguments_are_compared() -> None:
    right = check_tool_selection(trace(call("cancel_order", {"ok": True}, order_id="ORDER_789"), gold=(CANCEL,)),
                                 SHOP, CTX)  # fmt: skip
    assert right.passed is True
    wrong = check_tool_selection(trace(call("cancel_order", {"ok": True}, order_id="ORDER_111"), gold=(CANCEL,)),
                                 SHOP, CTX)  # fmt: skip
    assert rules(wrong) == [("s1", "tool_selection.wrong_arguments")]
    message = wrong.findings[0].message
    assert "args.order_id" in message
    assert '"ORDER_111"' in message
    assert '"ORDER_789"' in message
    assert "score: inconsistent_parameter_values" in message


def test_arguments_are_compared_under_typed_equivalence_not_as_text() -> None:
    gold = (ExpectedCall("issue_refund", {"order_id": "ORDER_789", "amount": 40}),)
    same = trace(call("issue_refund", {"ok": True}, order_id="ORDER_789", amount=40.0), gold=gold)
    assert check_tool_selection(same, SHOP, CTX).passed is True  # 40 and 40.0 are one number
    other = trace(call("issue_refund", {"ok": True}, order_id="ORDER_789", amount=4000), gold=gold)
    assert rules(check_tool_selection(other, SHOP, CTX)) == [("s1", "tool_selection.wrong_arguments")]


def test_missing_and_extra_arguments_are_reported() -> None:
    run = trace(call("cancel_order", {"ok": True}, reason="changed my mind"), gold=(CANCEL,))
    verdict = check_tool_selection(run, SHOP, CTX)
    assert rules(verdict) == [("s1", "tool_selection.wrong_arguments")]
    assert "args.order_id missing" in verdict.findings[0].message
    assert "args.reason not expected" in verdict.findings[0].message


def test_compare_args_limits_the_comparison_to_the_named_arguments() -> None:
    gold = (ExpectedCall("cancel_order", {"order_id": "ORDER_789", "reason": "other"}, ("order_id",)),)
    named_only = trace(call("cancel_order", {"ok": True}, order_id="ORDER_789", reason="moved"), gold=gold)
    assert check_tool_selection(named_only, SHOP, CTX).passed is True
    named_wrong = trace(call("cancel_order", {"ok": True}, order_id="ORDER_1", reason="other"), gold=gold)
    assert rules(check_tool_selection(named_wrong, SHOP, CTX)) == [("s1", "tool_selection.wrong_arguments")]


def test_a_gold_tool_without_arguments_checks_the_tool_alone() -> None:
    gold = (ExpectedCall("cancel_order"),)
    assert check_tool_selection(trace(call("cancel_order", {}, order_id="X"), gold=gold), SHOP, CTX).passed is True
    verdict = check_tool_selection(trace(call("issue_refund", {}, order_id="X"), gold=gold), SHOP, CTX)
    assert rules(verdict) == [(None, "tool_selection.missing_tool"), ("s1", "tool_selection.unexpected_tool")]


# --- read-only tolerance both ways, side effects, failed calls -------------------------------------------------------


def test_read_only_calls_are_tolerated_both_ways_and_an_extra_write_is_not() -> None:
    gold = (ExpectedCall("get_order", {"order_id": "ORDER_789"}), CANCEL)
    skipped_lookup = trace(call("cancel_order", {"ok": True}, order_id="ORDER_789"), gold=gold)
    assert check_tool_selection(skipped_lookup, SHOP, CTX).passed is True  # the expected read was skipped
    extra_lookups = trace(call("get_order", {}, order_id="ORDER_1"), call("get_order", {}, order_id="ORDER_789"),
                          call("cancel_order", {"ok": True}, order_id="ORDER_789"), gold=gold)  # fmt: skip
    verdict = check_tool_selection(extra_lookups, SHOP, CTX)
    assert verdict.passed is True
    assert "read-only tools tolerated though not expected: get_order" in verdict.checked
    extra_write = trace(call("cancel_order", {"ok": True}, order_id="ORDER_789"),
                        call("issue_refund", {"ok": True}, order_id="ORDER_789"), gold=gold)  # fmt: skip
    verdict = check_tool_selection(extra_write, SHOP, CTX)
    assert rules(verdict) == [("s2", "tool_selection.unexpected_tool")]
    assert "a write" in verdict.findings[0].message
    assert "score: extra_turn" in verdict.findings[0].message


def test_a_failed_extra_call_changed_nothing_but_a_failed_required_call_did_not_happen() -> None:
    retried = trace(call("cancel_order", error="timeout", order_id="ORDER_789"),
                    call("cancel_order", {"ok": True}, order_id="ORDER_789"), gold=(CANCEL,))  # fmt: skip
    assert check_tool_selection(retried, SHOP, CTX).passed is True
    assert check_tool_selection(retried, Environment(), CTX).passed is True  # no catalog: side effects still decide
    never_done = trace(call("cancel_order", error="timeout", order_id="ORDER_789"), gold=(CANCEL,))
    verdict = check_tool_selection(never_done, SHOP, CTX)
    assert rules(verdict) == [("s1", "tool_selection.call_failed")]
    # a gold call that failed too is fulfilled by a failed call (the outcome data's retail tasks 12 and 13)
    failed_gold = (ExpectedCall("cancel_order", {"order_id": "ORDER_789"}, observation={"error": "not pending"}),)
    assert check_tool_selection(trace(call("cancel_order", error="not pending", order_id="ORDER_789"),
                                      gold=failed_gold), SHOP, CTX).passed is True  # fmt: skip


def test_without_a_catalog_an_unexpected_successful_call_is_reported() -> None:
    run = trace(call("get_order", {"status": "pending"}, order_id="ORDER_789"),
                call("cancel_order", {"ok": True}, order_id="ORDER_789"), gold=(CANCEL,))  # fmt: skip
    assert check_tool_selection(run, SHOP, CTX).passed is True
    assert rules(check_tool_selection(run, Environment(), CTX)) == [("s1", "tool_selection.unexpected_tool")]


def test_an_expected_call_never_made_is_missing() -> None:
    gold = (CANCEL, ExpectedCall("issue_refund", {"order_id": "ORDER_789"}))
    run = trace(call("cancel_order", {"ok": True}, order_id="ORDER_789"), gold=gold)
    verdict = check_tool_selection(run, SHOP, CTX)
    assert rules(verdict) == [(None, "tool_selection.missing_tool")]
    assert "issue_refund was expected" in verdict.findings[0].message
    done = trace(call("cancel_order", {"ok": True}, order_id="ORDER_789"),
                 call("issue_refund", {"ok": True}, order_id="ORDER_789"), gold=gold)  # fmt: skip
    assert check_tool_selection(done, SHOP, CTX).passed is True


# --- what only a semantic scorer could settle -------------------------------------------------------------------------

REASON_GOLD = (ExpectedCall("add_note", {"order_id": "ORDER_789", "note": "the parcel arrived broken"}),)
REASON_RUN = call("add_note", {"ok": True}, order_id="ORDER_789", note="it came damaged")
ASKED = {"action_type": ActionType.USER, "content": "Please note on order ORDER_789 that it came damaged."}


def test_a_pair_no_normalisation_settles_is_undecided_without_a_scorer() -> None:
    run = trace(ASKED, REASON_RUN, gold=REASON_GOLD)
    verdict = check_tool_selection(run, SHOP, CTX)
    assert verdict.passed is True
    assert verdict.undecided
    assert "args.note" in verdict.undecided[0]
    result = evaluate_trace(run, policy=SHOP, values=ComparatorValues())  # values without a comparator
    assert result.status is TraceStatus.INCONCLUSIVE  # never a pass
    assert result.dimensions[Dimension.TOOL_SELECTION].passed is None


@pytest.mark.parametrize(("score", "passed"), [(0.9, True), (0.1, False)])
def test_with_the_runs_scorer_the_pair_is_decided(score: float, passed: bool) -> None:
    scorer = TableScorer({("the parcel arrived broken", "it came damaged"): score})
    values = ComparatorValues(Comparator(scorer))
    verdict = check_tool_selection(trace(ASKED, REASON_RUN, gold=REASON_GOLD), SHOP, TraceContext(values))
    assert verdict.passed is passed
    assert not verdict.undecided


# --- one verdict on the calls, as a dialog and as a trace -------------------------------------------------------------


def outcome_dialogs() -> list[dict[str, Any]]:
    with gzip.open(OUTCOMES, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def test_score_and_the_trace_give_every_outcome_run_the_same_verdict_on_its_calls() -> None:
    # data/outcomes: 1,007 τ²-bench runs whose outcome τ²-bench's own environment decided (docs/OUTCOMES.md).
    dialogs = outcome_dialogs()
    scored = evaluate_dialogs(dialogs, scope="actions", allow_extra="read_only", tools=str(TAU2_TOOLS), scorer="exact")
    env = Environment(tools=load_tools(TAU2_TOOLS))
    differ = []
    for dialog, result in zip(dialogs, scored, strict=True):
        verdict = check_tool_selection(trace_from_dialog(parse_dialog(dialog, default_id="d")), env, CTX)
        assert not verdict.undecided
        if verdict.passed is not result.test_pass:
            differ.append((dialog["dialog_id"], result.test_pass, verdict.passed))
    assert differ == []
    passes = sum(r.test_pass for r in scored)
    assert 0 < passes < len(dialogs)  # both outcomes are in the set (656 + 6 pass, docs/OUTCOMES.md)


def test_the_cli_agrees_with_score_on_the_calls(tmp_path: Path) -> None:
    dialogs = [d for d in outcome_dialogs() if d["metadata"]["task_id"] in ("5", "12")]
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in dialogs), encoding="utf-8")
    scored = evaluate_dialogs(dialogs, scope="actions", allow_extra="read_only", tools=str(TAU2_TOOLS), scorer="exact")
    out, err = io.StringIO(), io.StringIO()
    argv = ["trace", str(path), "--input", "dialog", "--tools", str(TAU2_TOOLS), "--format", "jsonl"]
    main(argv, stdout=out, stderr=err)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["trace_id"] for r in records] == [d["dialog_id"] for d in dialogs]
    verdicts = [r["dimensions"]["tool_selection"]["pass"] for r in records]
    assert verdicts == [r.test_pass for r in scored]
    assert True in verdicts
    assert False in verdicts


def dated(reference_date: str | None, gold_day: str) -> Trace:
    run = trace(call("book", {"ok": True}, day="tomorrow"), gold=(ExpectedCall("book", {"day": gold_day}),))
    return replace(run, metadata={} if reference_date is None else {"reference_date": reference_date})


def test_the_traces_reference_date_settles_relative_dates_as_a_dialogs_does() -> None:
    # "tomorrow" on 2024-01-01 is 2024-01-02: the same, a day off: different, no known today: undecided
    assert check_tool_selection(dated("2024-01-01", "2024-01-02"), Environment(), CTX).passed is True
    wrong = check_tool_selection(dated("2024-01-01", "2024-01-05"), Environment(), CTX)
    assert rules(wrong) == [("s1", "tool_selection.wrong_arguments")]
    unknown = check_tool_selection(dated(None, "2024-01-02"), Environment(), CTX)
    assert unknown.passed is True
    assert unknown.undecided
    result = evaluate_trace(dated(None, "2024-01-02"), values=ComparatorValues())  # no comparator: left open
    assert result.dimensions[Dimension.TOOL_SELECTION].reason.startswith("inconclusive: could not be decided")


def test_a_bad_reference_date_in_the_traces_metadata_is_refused_naming_it() -> None:
    from aem_strands.errors import InputError
    from aem_strands.trace.load import parse_trace

    raw = {"trace_id": "t", "metadata": {"reference_date": "someday"}, "steps": [{"action_type": "response",
                                                                                  "content": "hi"}]}  # fmt: skip
    with pytest.raises(InputError, match="ISO date") as caught:
        parse_trace(raw)
    assert caught.value.location.field == "metadata.reference_date"
    raw["metadata"] = {"reference_date": "2024-01-01", "agent": "planner"}
    assert parse_trace(raw).metadata["agent"] == "planner"


def test_without_values_the_gold_calls_get_the_comparator_score_would_use() -> None:
    # The same call as a dialog: score with the exact scorer fails the note (no typed reading makes them equal).
    run = trace(ASKED, REASON_RUN, gold=REASON_GOLD)
    dialog = {"dialog_id": "d", "gold": [{"turn": "Tool", "tool_id": "add_note", "action": "add_note",
                                          "args": dict(REASON_GOLD[0].arguments or {})}],
              "predicted": [{"turn": "Tool", "tool_id": "add_note", "action": "add_note",
                             "args": dict(REASON_RUN["arguments"]), "observation": {"ok": True}}]}  # fmt: skip
    (scored,) = evaluate_dialogs([dialog], scope="actions", allow_extra="read_only", read_only_tools=["get_order"],
                                 scorer="exact")  # fmt: skip
    assert scored.test_pass is False
    result = evaluate_trace(run, EvalOptions(scorer="exact"), policy=SHOP)
    selection = result.dimensions[Dimension.TOOL_SELECTION]
    assert rules(selection) == [("s2", "tool_selection.wrong_arguments")]
    assert not selection.undecided
