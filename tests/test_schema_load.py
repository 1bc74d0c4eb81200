"""The trace schema as real traces need it (issue 28): the method write-up's own trace (SPEC §9) loads verbatim,
``metadata`` on traces and steps is kept in the record, an unknown field is kept and named once in a warning,
``--strict`` refuses it. Each with a trace that must load (or pass) and one that must not."""

from __future__ import annotations

import copy
import io
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from aem_strands.cli import main
from aem_strands.errors import InputError
from aem_strands.trace.evaluate import evaluate_trace
from aem_strands.trace.load import UnknownFieldWarning, error_text, iter_traces, load_traces, parse_trace
from aem_strands.trace.record import trace_record
from aem_strands.trace.types import ActionType, Dimension, StepCost, Trace, TraceStatus
from tests.conftest import EXAMPLES

WRITEUP = EXAMPLES / "data" / "traces" / "method_writeup.json"


def writeup() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(WRITEUP.read_text(encoding="utf-8"))
    return loaded


def run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def write_jsonl(path: Path, *items: Any) -> Path:
    path.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    return path


# --- the write-up's trace ---------------------------------------------------------------------------------------------


def test_the_writeup_trace_loads_verbatim_with_every_field_kept() -> None:
    loaded = load_traces(WRITEUP)
    assert not loaded.errors
    assert loaded.warnings == ()  # every field of the write-up is a known one
    (trace,) = loaded
    steps = {s.step_id: s for s in trace.steps}
    assert steps["s2"].state_change == {"identity_verified": {"from": False, "to": True}}
    assert steps["s7"].state_change == "refund_status: none -> issued"  # a state_change may be text
    assert steps["s1"].thought_summary == "A refund needs a verified identity first."
    assert steps["s1"].timestamp == "2025-08-10T02:44:01Z"
    assert trace.timestamp == "2025-08-10T02:44:00Z"
    assert steps["s5"].evaluator_notes == "transient failure, retried below"
    assert trace.evaluator_notes.startswith("Recovered from the refund timeout")
    # final_response is a reply: the checks read it as one, and the step says how it was written
    assert steps["s8"].action_type is ActionType.RESPONSE
    assert steps["s8"].final is True
    assert steps["s8"].content == trace.final_response
    # an error given as an object: its message where text is needed, the object kept
    assert steps["s5"].error == "refund service timed out after 30000 ms"
    assert steps["s5"].error_detail == {
        "type": "timeout",
        "message": "refund service timed out after 30000 ms",
        "retryable": True,
    }
    assert steps["s2"].cost == StepCost(812, 40, 0.003)
    assert trace.metadata == {"agent": "support-orchestrator", "team": "billing", "labels": ["refund", "multi-agent"]}
    assert steps["s4"].metadata == {"agent": "refund-agent"}


def test_the_writeup_trace_is_judged_and_its_metadata_reaches_the_record() -> None:
    (trace,) = load_traces(WRITEUP)
    result = evaluate_trace(trace)
    assert result.status is TraceStatus.PASS
    # the object error is a failed call the recovery check reads (retried once, then succeeded)
    assert "1 failed call(s) at 's5'" in result.dimensions[Dimension.RECOVERY].checked
    record = trace_record(result, None)
    assert record["metadata"] == trace.metadata
    assert record["step_metadata"]["s3"] == {"agent": "triage-agent"}  # type: ignore[index,call-overload]
    assert "s7" not in record["step_metadata"]  # type: ignore[operator]  # a step without metadata is left out


def test_the_writeup_trace_fails_when_its_retry_is_dropped() -> None:
    # the other outcome: without the successful retry the expected issue_refund never happened
    raw = writeup()
    raw["steps"] = [s for s in raw["steps"] if s["step_id"] != "s6"]
    result = evaluate_trace(parse_trace(raw))
    assert result.status is TraceStatus.FAIL
    rules = [(f.step_id, f.rule) for f in result.dimensions[Dimension.TOOL_SELECTION].findings]
    assert rules == [("s5", "tool_selection.call_failed")]


def test_the_writeup_trace_with_an_unknown_action_type_is_still_refused() -> None:
    raw = writeup()
    raw["steps"][0]["action_type"] = "final_answer"
    with pytest.raises(InputError) as caught:
        parse_trace(raw)
    assert caught.value.location.field == "steps[0].action_type"


def test_a_final_response_step_without_content_takes_the_traces_final_response() -> None:
    raw = {"trace_id": "t", "final_response": "Done.", "steps": [{"action_type": "final_response"}]}
    assert parse_trace(raw).steps[0].content == "Done."
    del raw["final_response"]
    with pytest.raises(InputError, match="final_response step needs its text") as caught:
        parse_trace(raw)
    assert caught.value.location.field == "steps[0].content"


@pytest.mark.parametrize(
    ("error", "text"),
    [
        ({"code": 504, "message": "Gateway timeout"}, "Gateway timeout"),
        ({"error": {"type": "not_found", "detail": "no order 9"}}, "no order 9"),  # nested, as APIs write them
        ({"code": 500}, '{"code": 500}'),  # no message member: the object as text, still an error
        ({}, None),  # nothing says the step failed
    ],
)
def test_an_error_object_gives_its_message_text(error: dict[str, Any], text: str | None) -> None:
    assert error_text(error) == text
    raw = {"trace_id": "t", "steps": [{"action_type": "tool_call", "tool_name": "x", "error": error}]}
    step = parse_trace(raw).steps[0]
    assert step.error == text
    assert step.error_detail == error


def test_an_error_string_stays_a_string_and_a_number_is_refused() -> None:
    raw = {"trace_id": "t", "steps": [{"action_type": "tool_call", "tool_name": "x", "error": "boom"}]}
    step = parse_trace(raw).steps[0]
    assert (step.error, step.error_detail) == ("boom", None)
    raw["steps"][0]["error"] = 42
    with pytest.raises(InputError) as caught:
        parse_trace(raw)
    assert caught.value.location.field == "steps[0].error"


# --- unknown fields ---------------------------------------------------------------------------------------------------


def with_unknown(trace_id: str) -> dict[str, Any]:
    raw = copy.deepcopy(writeup())
    raw["trace_id"] = trace_id
    raw["run_label"] = "nightly"
    raw["steps"][1]["span_id"] = "0xab12"
    raw["steps"][1]["cost"]["cache_tokens"] = 3
    return raw


def test_unknown_fields_are_kept_and_each_named_once(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "t.jsonl", with_unknown("a"), with_unknown("b"))
    loaded = load_traces(path)
    assert not loaded.errors
    assert [t.trace_id for t in loaded] == ["a", "b"]
    assert loaded[0].extra == {"run_label": "nightly"}
    assert loaded[1].steps[1].extra == {"span_id": "0xab12", "cost.cache_tokens": 3}
    # three fields over two traces: three warnings, each naming its field and where it was first seen
    assert len(loaded.warnings) == 3
    assert "'run_label'" in loaded.warnings[0]
    assert "line 1" in loaded.warnings[0]
    assert "'steps[].span_id'" in loaded.warnings[1]
    assert "'steps[].cost.cache_tokens'" in loaded.warnings[2]


def test_strict_refuses_an_unknown_field_naming_it(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "t.jsonl", writeup(), with_unknown("b"))
    loaded = load_traces(path, strict=True)
    assert [t.trace_id for t in loaded] == [writeup()["trace_id"]]  # the clean trace still loads
    (error,) = loaded.errors
    assert error.location.line == 2
    assert error.location.field == "run_label"
    assert "Extra inputs" in error.message


def test_without_a_callback_the_warning_is_a_python_warning(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "t.jsonl", with_unknown("a"))
    with pytest.warns(UnknownFieldWarning) as caught:
        items = list(iter_traces(path))
    assert isinstance(items[0], Trace)
    assert len(caught) == 3  # run_label, steps[].span_id, steps[].cost.cache_tokens
    assert "'run_label'" in str(caught[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a trace without unknown fields warns about nothing
        assert isinstance(next(iter(iter_traces(WRITEUP))), Trace)


def test_the_cli_warns_once_per_field_on_stderr_and_strict_refuses(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "t.jsonl", with_unknown("a"), with_unknown("b"))
    code, out, err = run("trace", path, "--format", "jsonl")
    assert code == 0
    assert len(out.splitlines()) == 2
    lines = [line for line in err.splitlines() if line.startswith("aem-strands: warning:")]
    assert len(lines) == 3  # run_label, steps[].span_id, steps[].cost.cache_tokens: once each for two traces
    code, out, err = run("trace", path, "--format", "jsonl", "--strict")
    assert code == 2
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["error"]["field"] for r in records] == ["run_label", "run_label"]
    assert "warning" not in err
