"""The shipped scripted model drives real Agents and judges offline."""

from __future__ import annotations

import pytest
from pydantic import BaseModel
from strands import Agent, tool
from strands.types.exceptions import StructuredOutputException

from aem_strands.testing import ScriptedModel, ScriptExhaustedError, ToolUse

CALLS: list[tuple[str, int]] = []


@tool
def add(a: int, b: int) -> int:
    """Add two numbers.

    Args:
        a: first
        b: second
    """
    CALLS.append(("add", a + b))
    return a + b


def test_agent_runs_the_scripted_tool_calls_and_replies() -> None:
    CALLS.clear()
    model = ScriptedModel([[ToolUse("add", {"a": 2, "b": 3}), ToolUse("add", {"a": 1, "b": 1})], "2 + 3 = 5", "bye"])
    agent = Agent(model=model, tools=[add], callback_handler=None)
    assert str(agent("add please")).strip() == "2 + 3 = 5"
    assert CALLS == [("add", 5), ("add", 2)]  # both calls of one model turn ran, in order
    assert model.remaining == 1
    assert str(agent("thanks")).strip() == "bye"
    with pytest.raises(ScriptExhaustedError, match="exhausted after 3 model calls"):
        agent("more?")


class Verdict(BaseModel):
    ok: bool


def test_structured_replies_serve_any_number_of_judge_calls() -> None:
    judge = ScriptedModel(structured={"Verdict": {"ok": True}})
    for _ in range(2):
        result = Agent(model=judge, callback_handler=None)("judge this", structured_output_model=Verdict)
        assert result.structured_output == Verdict(ok=True)
    assert judge.remaining == 0
    assert judge.get_config() == {"model_id": "scripted"}


@tool
def explode(reason: str) -> str:
    """Always fails.

    Args:
        reason: why
    """
    raise ValueError(reason)


def test_a_failing_real_tool_does_not_stop_the_script() -> None:
    model = ScriptedModel(
        [ToolUse("explode", {"reason": "no data"}), "Sorry, that failed."], structured={"Verdict": {"ok": True}}
    )
    agent = Agent(model=model, tools=[explode], callback_handler=None)
    assert str(agent("go")).strip() == "Sorry, that failed."
    assert model.remaining == 0


def test_a_rejected_structured_reply_ends_in_a_structured_output_error() -> None:
    judge = ScriptedModel(structured={"Verdict": {"ok": "not a bool"}})
    with pytest.raises(StructuredOutputException):
        Agent(model=judge, callback_handler=None)("judge this", structured_output_model=Verdict)
