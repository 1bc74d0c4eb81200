"""Loading traces, policies and trace gold: the schema, the three formats, and bad input named and skipped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aem_strands.errors import ConfigError, InputError
from aem_strands.trace.load import iter_traces, load_trace_gold, load_traces, parse_trace
from aem_strands.trace.policy import environment_from_json, environment_to_json, load_policy, merge_environment
from aem_strands.trace.types import ActionType, Budgets, Environment, OrderingRule, StepCost, Trace, TraceGold
from tests.conftest import EXAMPLES

TRACES = EXAMPLES / "data" / "traces"


def trace(trace_id: str = "t1", **extra: Any) -> dict[str, Any]:
    steps = [
        {"step_id": "u1", "action_type": "user", "content": "Where is my refund for ORDER_1?"},
        {"step_id": "c1", "action_type": "tool_call", "tool_name": "get_refund_status",
         "arguments": {"order_id": "ORDER_1"}, "observation": {"status": "approved"}},
        {"step_id": "r1", "action_type": "response", "content": "It is approved."},
    ]  # fmt: skip
    return {"trace_id": trace_id, "steps": steps, **extra}


def write_jsonl(path: Path, *items: Any) -> Path:
    path.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    return path


def only_error(path: Path) -> InputError:
    (error,) = [e for e in iter_traces(path) if isinstance(e, InputError)]
    return error


def test_a_trace_file_loads_into_steps_with_their_fields() -> None:
    (loaded,) = load_traces(TRACES / "refund_status.json")
    assert loaded.trace_id == "refund-status-ok"
    assert loaded.case_id == "refund-status"
    assert [s.step_id for s in loaded.steps] == ["s1", "s2", "s3", "s4"]
    assert [s.index for s in loaded.steps] == [0, 1, 2, 3]
    assert loaded.steps[0].action_type is ActionType.USER
    call = loaded.steps[2]
    assert call.tool_name == "get_refund_status"
    assert call.arguments == {"order_id": "ORDER_123"}
    assert call.observation["refund_status"] == "approved"
    assert call.cost == StepCost(930, 35, 0.004)
    assert call.cost.tokens == 965  # 930 + 35
    assert loaded.final_state == {"identity_verified": True, "refund_status": "approved"}
    assert loaded.gold == TraceGold(("verify_identity", "get_refund_status"), None, {"refund_status": "approved"}, None)


def test_jsonl_json_array_and_yaml_documents_each_give_one_trace_per_record() -> None:
    loaded = load_traces([TRACES / "result_use.jsonl", TRACES / "cancel_consent.json", TRACES / "timeout.yaml"])
    assert not loaded.errors
    assert [t.trace_id for t in loaded] == [
        "ineligible-claimed-refundable", "ineligible-faithful", "delivery-days-wrong", "delivery-days-faithful",
        "cancel-no-consent", "cancel-with-consent", "timeout-hidden", "timeout-retried-explained",
    ]  # fmt: skip
    timeout = loaded[6]
    assert timeout.steps[1].error is not None
    assert timeout.steps[1].latency_ms == 30000.0


def test_a_yaml_list_of_traces_and_yaml_dates_read_as_text(tmp_path: Path) -> None:
    path = tmp_path / "two.yml"
    path.write_text(
        "- trace_id: a\n  steps:\n    - {action_type: user, content: born 1990-01-02}\n"
        "    - {action_type: tool_call, tool_name: verify, arguments: {dob: 1990-01-02}}\n"
        "- trace_id: b\n  steps: [{action_type: response, content: hi}]\n",
        encoding="utf-8",
    )
    first, second = load_traces(path)
    assert first.steps[1].arguments == {"dob": "1990-01-02"}  # a YAML date, read as JSON would give it
    assert [s.step_id for s in first.steps] == ["1", "2"]  # no step_id: its 1-based position
    assert second.trace_id == "b"


@pytest.mark.parametrize(
    ("change", "message", "field", "step_id"),
    [
        ({"steps": "none"}, "valid list", "steps", None),
        ({"steps": []}, "at least 1 item", "steps", None),
        ({"trace_id": 7}, "valid string", "trace_id", None),
        ({"colour": "red"}, "Extra inputs", "colour", None),
    ],
)
def test_a_bad_trace_names_its_field(change: dict[str, Any], message: str, field: str, step_id: str | None) -> None:
    # strict: an unknown field ("colour") is refused; without strict it is kept (tests/test_schema_load.py)
    with pytest.raises(InputError) as caught:
        parse_trace({**trace(), **change}, strict=True)
    assert message in caught.value.message
    assert caught.value.location.field == field


def test_a_missing_steps_field_is_named() -> None:
    raw = trace()
    del raw["steps"]
    with pytest.raises(InputError, match="Field required") as caught:
        parse_trace(raw)
    assert caught.value.location.field == "steps"
    assert caught.value.location.trace_id == "t1"


def test_an_unknown_action_type_names_trace_step_and_field(tmp_path: Path) -> None:
    bad = trace("t2")
    bad["steps"][1]["action_type"] = "tool_use"
    path = write_jsonl(tmp_path / "traces.jsonl", trace("t1"), bad, trace("t3"))
    items = list(iter_traces(path))
    assert [i.trace_id for i in items if isinstance(i, Trace)] == ["t1", "t3"]  # the good ones still load
    (error,) = [i for i in items if isinstance(i, InputError)]
    where = error.location
    assert (where.file, where.line, where.trace_id, where.step_id, where.field) == (
        str(path),
        2,
        "t2",
        "c1",
        "steps[1].action_type",
    )
    assert "'tool_use'" in error.message
    assert str(error).startswith(f"file {path}, line 2, trace 't2', step 'c1', field 'steps[1].action_type': ")


def test_a_wrong_type_inside_a_step_is_named(tmp_path: Path) -> None:
    bad = trace("t1")
    bad["steps"][1]["latency_ms"] = "fast"
    error = only_error(write_jsonl(tmp_path / "t.jsonl", bad))
    assert error.location.field == "steps[1].latency_ms"
    assert "'fast'" in error.message


@pytest.mark.parametrize(
    ("step", "field"),
    [
        ({"action_type": "tool_call", "arguments": {}}, "steps[0].tool_name"),
        ({"action_type": "response"}, "steps[0].content"),
        ({"action_type": "user", "content": "hi", "latency_ms": -1}, "steps[0].latency_ms"),
        ({"action_type": "response", "content": "hi", "cost": {"usd": 1, "tokens": 3}}, "steps[0].cost.tokens"),
    ],
)
def test_a_step_missing_what_its_kind_needs_is_an_error(step: dict[str, Any], field: str) -> None:
    # strict: the unknown cost.tokens is refused; without strict it is kept (tests/test_schema_load.py)
    with pytest.raises(InputError) as caught:
        parse_trace({"trace_id": "t", "steps": [step]}, strict=True)
    assert caught.value.location.field == field


def test_duplicate_step_ids_in_a_trace_are_an_error() -> None:
    raw = trace()
    raw["steps"][2]["step_id"] = "c1"
    with pytest.raises(InputError, match="duplicate step_id") as caught:
        parse_trace(raw)
    assert caught.value.location.step_id == "c1"
    assert caught.value.location.field == "steps[2]"


def test_a_repeated_trace_id_in_a_file_is_an_error_and_the_first_is_kept(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "t.jsonl", trace("t1"), trace("t1", goal="second"), trace("t2"))
    items = list(iter_traces(path))
    assert [type(i).__name__ for i in items] == ["Trace", "InputError", "Trace"]
    assert items[0].goal is None  # type: ignore[union-attr]  # checked to be a Trace above
    error = items[1]
    assert isinstance(error, InputError)
    assert "duplicate trace_id" in error.message
    assert (error.location.line, error.location.trace_id) == (2, "t1")


def test_malformed_yaml_is_one_error_naming_its_line_and_the_next_file_still_loads(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("trace_id: t9\nsteps: [\n  {action_type: user\n", encoding="utf-8")
    good = write_jsonl(tmp_path / "good.jsonl", trace("t1"))
    items = list(iter_traces([bad, good]))
    error, loaded = items
    assert isinstance(error, InputError)
    assert error.message.startswith("malformed YAML")
    assert error.location.file == str(bad)
    assert error.location.line is not None
    assert isinstance(loaded, Trace)
    assert loaded.trace_id == "t1"


def test_malformed_jsonl_line_and_a_missing_file_are_errors_beside_good_traces(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(trace("t1")) + "\n{not json\n" + json.dumps(trace("t2")) + "\n", encoding="utf-8")
    items = list(iter_traces([path, tmp_path / "missing.json"]))
    assert [i.trace_id for i in items if isinstance(i, Trace)] == ["t1", "t2"]
    errors = [i for i in items if isinstance(i, InputError)]
    assert [(e.location.line, e.message.split(":")[0]) for e in errors] == [
        (2, "malformed JSON"), (None, "cannot read file")
    ]  # fmt: skip


def test_a_non_finite_number_is_rejected_with_its_field(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("trace_id: t\nsteps:\n  - {action_type: tool_call, tool_name: x, latency_ms: .inf}\n")
    error = only_error(path)
    assert error.location.field == "steps[0].latency_ms"


def test_the_policy_file_reads_tools_rules_permissions_and_budgets() -> None:
    policy = load_policy(TRACES / "policy.yaml")
    assert OrderingRule("issue_refund", ("verify_identity", "check_refund_eligibility")) in policy.ordering
    assert policy.denied_tools == frozenset({"delete_account"})
    assert {d.name for d in policy.tools.definitions if d.destructive} == {"issue_refund", "cancel_order",
                                                                           "delete_account"}  # fmt: skip
    assert policy.selection[0].forbidden == ("issue_refund",)
    assert policy.sensitive.forbid_to_tools == {"card": ("send_email",)}
    assert policy.budgets == Budgets(30, 20, 1, 3, 60000.0, 20000, 0.5)
    assert environment_from_json(environment_to_json(policy)) == policy  # the JSON form reads back


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"rules": {"ordering": [{"tool": "x", "after": []}]}}, "rules.ordering[0].after"),
        ({"rules": {"sensitive_data": {"forbid_in_reply": ["shoe_size"]}}}, "forbid_in_reply[0]"),
        ({"rules": {"tool_selection": [{"goal_pattern": "refund("}]}}, "goal_pattern"),
        ({"budgets": {"max_steps": -1}}, "budgets.max_steps"),
        ({"permission": {}}, "permission"),
        ({"tools": [{"description": "no name"}]}, "tools"),
    ],
)
def test_a_bad_policy_names_the_field(data: dict[str, Any], named: str) -> None:
    with pytest.raises(ConfigError, match=r"policy") as caught:
        environment_from_json(data)
    assert named in str(caught.value)


def test_a_bad_trace_environment_is_the_trace_error() -> None:
    with pytest.raises(InputError, match=r"budgets\.max_retries") as caught:
        parse_trace(trace(environment={"budgets": {"max_retries": "three"}}))
    assert caught.value.location.field == "environment"


def test_the_traces_own_environment_wins_key_by_key_and_restrictions_add_up() -> None:
    policy = environment_from_json(
        {"permissions": {"denied_tools": ["delete_account"]},
         "rules": {"ordering": [{"tool": "refund", "after": ["verify"]}, {"tool": "cancel", "after": ["verify"]}]},
         "budgets": {"max_steps": 30, "max_tokens": 100}, "expected_final_state": {"a": 1}}
    )  # fmt: skip
    own = environment_from_json(
        {"permissions": {"denied_tools": ["send_email"]},
         "rules": {"ordering": [{"tool": "refund", "after": ["verify", "check"]}]}, "budgets": {"max_steps": 5}}
    )  # fmt: skip
    merged = merge_environment(policy, own)
    assert merged.denied_tools == frozenset({"delete_account", "send_email"})  # a trace cannot lift a denial
    assert {r.tool: r.after for r in merged.ordering} == {"refund": ("verify", "check"), "cancel": ("verify",)}
    assert (merged.budgets.max_steps, merged.budgets.max_tokens) == (5, 100)
    assert merged.expected_final_state == {"a": 1}
    assert merge_environment(None, None) == Environment()
    assert merge_environment(policy, None) is policy


def test_trace_gold_by_trace_or_case_id_from_a_list_or_a_mapping(tmp_path: Path) -> None:
    listed = tmp_path / "gold.json"
    listed.write_text(json.dumps([
        {"trace_id": "t1", "expected_tools": ["a", {"tool": "b", "arguments": {"x": 1}}]},
        {"case_id": "c2", "expected_final_response": "done"},
    ]))  # fmt: skip
    gold = load_trace_gold(listed)
    assert gold["t1"] == TraceGold(("a", "b"), (None, {"x": 1}))
    assert gold["c2"].expected_final_response == "done"
    keyed = tmp_path / "gold.yaml"
    keyed.write_text("t1:\n  expected_final_state: {status: approved}\n")
    assert load_trace_gold(keyed)["t1"].expected_final_state == {"status": "approved"}
    keyed.write_text("t1:\n  expected_tool: [a]\n")
    with pytest.raises(ConfigError, match=r"'t1'.*expected_tool"):
        load_trace_gold(keyed)


@pytest.mark.parametrize("reader", [load_policy, load_trace_gold])
def test_a_malformed_json_policy_or_gold_file_is_named(tmp_path: Path, reader: Any) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        reader(bad)
    assert str(bad) in str(caught.value)
    assert "not JSON" in str(caught.value)
