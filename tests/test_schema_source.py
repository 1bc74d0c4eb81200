"""Every record carries its input's file and line (or element index), so it joins its input whatever redaction
does to an id (issue 29): judged traces of both outcomes, error records, every input format, and ``--input
dialog``."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from aem_strands.cli import main
from aem_strands.errors import InputError, Location
from aem_strands.trace.evaluate import evaluate_trace
from aem_strands.trace.load import load_traces
from aem_strands.trace.record import error_record, trace_record, with_source
from aem_strands.trace.types import TraceSource


def run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def trace(trace_id: str, tool: str = "get_order") -> dict[str, Any]:
    return {"trace_id": trace_id, "steps": [
        {"step_id": "u1", "action_type": "user", "content": "Status of order 123, please."},
        {"step_id": "c1", "action_type": "tool_call", "tool_name": tool, "arguments": {"order_id": "123"},
         "observation": {"status": "shipped"}},
        {"step_id": "r1", "action_type": "response", "content": "Order 123 has shipped."},
    ], "evaluation": {"expected_tools": ["get_order"]}}  # fmt: skip


def test_each_jsonl_record_names_its_file_and_line_whatever_redaction_does_to_the_id(tmp_path: Path) -> None:
    # An id holding a timestamp and one holding a phone number: redaction may rewrite either, never the source.
    path = tmp_path / "runs-2025-08-10.jsonl"
    lines = [trace("2025-08-10T02:44:06.123"), trace("call +1 415 555 2671", tool="cancel_order"), "{bad"]
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines), encoding="utf-8")
    code, out, _ = run("trace", path, "--format", "jsonl")
    assert code == 2  # the unreadable third line
    first, second, bad = records(out)
    assert first["source"] == {"file": str(path), "line": 1, "index": None}
    assert first["status"] == "pass"
    assert second["source"] == {"file": str(path), "line": 2, "index": None}
    assert second["status"] == "fail"  # cancel_order where the gold expects get_order
    assert second["trace_id"] != "call +1 415 555 2671"  # the phone in the id was redacted; the source joins it
    assert bad["source"] == {"file": str(path), "line": 3, "index": None}
    assert bad["error"]["line"] == 3


def test_a_json_array_and_yaml_give_index_and_line(tmp_path: Path) -> None:
    array = tmp_path / "two.json"
    array.write_text(json.dumps([trace("a"), trace("b")], indent=1), encoding="utf-8")
    yaml_file = tmp_path / "two.yaml"
    yaml_file.write_text("- trace_id: y1\n  steps: [{action_type: response, content: hi}]\n"
                         "- trace_id: y2\n  steps: [{action_type: response, content: hello}]\n",
                         encoding="utf-8")  # fmt: skip
    loaded = load_traces([array, yaml_file])
    sources = [t.source for t in loaded]
    assert [s.index for s in sources if s is not None][:2] == [0, 1]
    assert sources[2] == TraceSource(str(yaml_file), 1, 0)
    assert sources[3] == TraceSource(str(yaml_file), 3, 1)  # the second item starts on line 3


def test_the_source_survives_redaction_in_the_api_record(tmp_path: Path) -> None:
    path = tmp_path / "ana@example.com 4155552671.jsonl"  # a name a redactor would rewrite, if it saw it
    path.write_text(json.dumps(trace("t1")) + "\n", encoding="utf-8")
    (loaded,) = load_traces(path)
    redacted = trace_record(evaluate_trace(loaded))
    assert redacted["source"] == {"file": str(path), "line": 1, "index": None}
    assert trace_record(evaluate_trace(loaded), None)["source"] == redacted["source"]


def test_an_error_record_carries_the_source_and_keeps_it_through_redaction() -> None:
    error = InputError("a step must be an object, got int", Location("in.jsonl", line=7, trace_id="t"))
    record = error_record(error)
    assert record["source"] == {"file": "in.jsonl", "line": 7, "index": None}
    assert record["error"]["message"] == "a step must be an object, got int"  # type: ignore[index,call-overload]

    def scrub(value: Any) -> Any:  # a redactor that rewrites every string it sees
        if isinstance(value, dict):
            return {k: scrub(v) for k, v in value.items()}
        return "<X>" if isinstance(value, str) else value

    kept = with_source(record, scrub)
    assert kept["source"] == record["source"]
    assert kept["error"]["message"] == "<X>"  # type: ignore[index,call-overload]


def test_dialog_input_records_carry_the_dialogs_line(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    dialog = {"dialog_id": "d1", "gold": [{"turn": "Tool", "tool_id": "t", "action": "get_order", "args": {"id": "1"}}],
              "predicted": [{"turn": "Tool", "tool_id": "t", "action": "get_order", "args": {"id": "1"}}]}  # fmt: skip
    wrong = {**dialog, "dialog_id": "d2",
             "predicted": [{"turn": "Tool", "tool_id": "t", "action": "get_order", "args": {"id": "2"}}]}  # fmt: skip
    path.write_text(json.dumps(dialog) + "\n" + json.dumps(wrong) + "\n", encoding="utf-8")
    code, out, _ = run("trace", path, "--input", "dialog", "--format", "jsonl")
    first, second = records(out)
    assert code == 1
    selection = [r["dimensions"]["tool_selection"]["pass"] for r in (first, second)]
    assert [first["source"]["line"], second["source"]["line"]] == [1, 2]
    assert selection == [True, False]  # d2 calls get_order with another id than the gold's
