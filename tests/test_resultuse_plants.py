"""The planted faults of result use and recovery are fair (issue 28, "Planted faults"): a contradiction writes a
clock time as the reply writes it; a hidden error is planted only where the reply reports success."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from aem_bench.trace_faults import contradiction, hidden_error


def _trace(reply: str, acts: list[str] | None, observation: Any) -> dict[str, Any]:
    response: dict[str, Any] = {"step_id": "s3", "action_type": "response", "content": reply}
    if acts is not None:
        response["metadata"] = {"sgd_acts": acts}
    return {
        "trace_id": "t1",
        "environment": {"tools": [{"name": "ReserveCar", "annotations": {"destructiveHint": True}}]},
        "steps": [
            {"step_id": "s1", "action_type": "user", "content": "Book it"},
            {"step_id": "s2", "action_type": "tool_call", "tool_name": "ReserveCar", "arguments": {},
             "observation": observation},
            response,
        ],
    }  # fmt: skip


def test_a_planted_clock_time_is_written_in_the_replys_twelve_hour_form() -> None:
    trace = _trace("The car is ready at 12:15 pm.", None, [{"pickup_time": "12:15"}])
    planted = contradiction(trace, {"pickup_time": ["18:00"]})
    assert planted is not None
    assert planted.trace["steps"][2]["content"] == "The car is ready at 6:00 pm."


def test_a_hidden_error_is_planted_only_where_the_reply_reports_success() -> None:
    observed = [{"car_name": "Audi A8"}]
    assert hidden_error(_trace("Your car is booked.", ["NOTIFY_SUCCESS"], observed)) is not None
    assert hidden_error(_trace("Sorry, I could not book it.", ["NOTIFY_FAILURE", "REQUEST"], observed)) is None
    assert hidden_error(_trace("Your car is booked.", None, observed)) is not None  # no labels: every write's reply
