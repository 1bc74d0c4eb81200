"""The agent's system prompt travels into the trace (``Trace.instructions``) from a real Strands run: inside
Strands Evals (``AemTraceEvaluator`` on ``make_live_task``), a fee the system prompt states grounds the argument
that carries it; the same agent without that prompt gets ``arguments.ungrounded`` for the same call."""

from __future__ import annotations

from typing import Any

import pytest
from strands import Agent, tool
from strands_evals import Case, Experiment

from aem_strands.strands import make_live_task
from aem_strands.strands.session import session_instructions
from aem_strands.strands.tasks import run_live
from aem_strands.strands.trace_adapter import session_to_trace
from aem_strands.strands.trace_evaluator import AemTraceEvaluator
from aem_strands.testing import ScriptedModel, ToolUse

PROMPT = "You are an airline agent. Each checked bag costs $50."


@tool
def add_checked_bag(reservation_id: str, fee: float) -> dict[str, Any]:
    """Add one checked bag to a reservation, charging the fee."""
    return {"reservation_id": reservation_id, "bags": 1, "charged": fee}


def _agent(system_prompt: str | None) -> Agent:
    script = [ToolUse("add_checked_bag", {"reservation_id": "ZFA04Y", "fee": 50}), "Added one bag to ZFA04Y."]
    return Agent(model=ScriptedModel(script), tools=[add_checked_bag], system_prompt=system_prompt,
                 callback_handler=None)  # fmt: skip


def test_a_live_runs_system_prompt_is_the_traces_instructions() -> None:
    run = run_live(lambda case: _agent(PROMPT), Case(name="bag", input="Add a bag to ZFA04Y, please."))
    assert session_instructions(run["trajectory"]) == PROMPT
    assert session_to_trace(run["trajectory"]).instructions == PROMPT
    bare = run_live(lambda case: _agent(None), Case(name="bag", input="Add a bag to ZFA04Y, please."))
    assert session_to_trace(bare["trajectory"]).instructions is None


@pytest.mark.parametrize(("prompt", "label"), [(PROMPT, "pass"), (None, "arguments.ungrounded")])
def test_inside_strands_evals_the_system_prompt_grounds_a_fee(prompt: str | None, label: str) -> None:
    cases = [Case(name="bag", input="Add a bag to ZFA04Y, please.")]
    report = Experiment(cases=cases, evaluators=[AemTraceEvaluator()]).run_evaluations(
        make_live_task(lambda case: _agent(prompt))
    )
    assert report.detailed_results[0][0].label == label
