"""Agents as tools: a nested agent's invocation is part of the outer user turn, not a user turn of its own.

A real outer ``Agent`` uses a real inner ``Agent`` through ``Agent.as_tool()``; both run on scripted
models with real ``@tool``s, inside a real ``Experiment`` with the live task.
"""

from __future__ import annotations

from typing import Any

from strands import Agent, tool
from strands_evals import Case, Experiment
from strands_evals.types.trace import InferenceSpan, Session, ToolExecutionSpan

from aem_strands.strands import AemSessionEvaluator, AemTurnEvaluator, live_case, make_live_task
from aem_strands.strands.detectors import detector_agreement
from aem_strands.testing import ScriptedModel, ToolUse


@tool
def search(query: str) -> str:
    """Search the sales archive."""
    return f"3M for {query}"


@tool
def lookup(region: str) -> str:
    """Look a region up."""
    return f"{region}: known region"


def factory(sub_agent_query: str) -> Any:
    def build() -> Agent:
        researcher = Agent(
            name="researcher",
            description="Finds sales figures",
            model=ScriptedModel([ToolUse("search", {"query": sub_agent_query}), "Sales were 3M."]),
            tools=[search],
            callback_handler=None,
        )
        script = [ToolUse("lookup", {"region": "EU"}), ToolUse("researcher", {"input": "EU sales 2024"}),
                  "EU sales were 3M in 2024.", "You're welcome."]  # fmt: skip
        return Agent(name="writer", model=ScriptedModel(script), tools=[lookup, researcher.as_tool()],
                     callback_handler=None)  # fmt: skip

    return build


GOLD = [
    {"turn": "Tool", "tool_id": "lookup", "action": "lookup", "args": {"region": "EU"}},
    {"turn": "Tool", "tool_id": "researcher", "action": "researcher", "args": {"input": "EU sales 2024"}},
    {"turn": "Tool", "tool_id": "search", "action": "search", "args": {"query": "EU sales 2024"}},
    {"turn": "Agent", "response": "EU sales were 3M in 2024."},
    {"turn": "Agent", "response": "You're welcome."},
]


def run(sub_agent_query: str, **options: Any) -> tuple[Any, Any]:
    case: Case[Any, Any] = live_case(GOLD, ["EU sales for 2024?", "Thanks!"], name="nested")
    evaluators = [AemSessionEvaluator(scorer="exact", **options), AemTurnEvaluator(scorer="exact", **options)]
    report = Experiment(cases=[case], evaluators=evaluators).run_evaluations(make_live_task(factory(sub_agent_query)))
    session_row = report.detailed_results[0][0]
    return session_row, report


def test_a_correct_run_with_a_sub_agent_scores_one() -> None:
    row, report = run("EU sales 2024")
    assert (row.score, row.test_pass) == (1.0, True)
    predicted = row.metadata["predicted_turns"]
    assert [(t["user_turn"], t["agent"], t.get("tool_id") or t["response"]) for t in predicted] == [
        (1, None, "lookup"),
        (1, None, "researcher"),
        (1, "researcher", "search"),  # the sub-agent's call, inside the outer user turn
        (1, None, "EU sales were 3M in 2024."),
        (2, None, "You're welcome."),  # the second user message is user turn 2, not the sub-agent's reply
    ]
    assert report.test_passes == [True, True]


def test_a_wrong_call_by_the_sub_agent_is_found_as_the_root_cause() -> None:
    row, report = run("US sales 2024")
    assert (row.score, row.test_pass) == (0.8, False)  # 4 of 5 turns pass
    assert (row.metadata["root_cause_turn"], row.label) == (3, "inconsistent_parameter_values")
    turn_rows = report.detailed_results[1]
    assert turn_rows[2].metadata["agent"] == "researcher"  # which agent made the failing call
    assert turn_rows[2].metadata["span_id"] is not None


def test_opaque_sub_agents_are_seen_as_their_one_call() -> None:
    row, _ = run("US sales 2024", sub_agents="opaque")
    # the sub-agent's search is not a turn: gold's search turn is missing, the rest pass
    assert [t.get("tool_id") for t in row.metadata["predicted_turns"]] == ["lookup", "researcher", None, None]
    assert row.metadata["root_cause"] == "missing_turn"


def test_a_detector_naming_the_inference_span_that_asked_for_the_wrong_call_agrees_with_aem() -> None:
    row, report = run("US sales 2024")
    session = Session.model_validate(report.cases[0]["actual_trajectory"])
    spans = [span for trace in session.traces for span in trace.spans]
    search = next(s for s in spans if isinstance(s, ToolExecutionSpan) and s.tool_call.name == "search")
    asked = next(
        s
        for s in spans
        if isinstance(s, InferenceSpan)
        and any(getattr(c, "tool_call_id", None) == search.tool_call.tool_call_id for c in s.messages[-1].content)
    )
    diagnosis = {"root_causes": [{"location": asked.span_info.span_id, "causality": "PRIMARY_FAILURE"}]}
    joined = detector_agreement(row.metadata, diagnosis, session)
    assert (joined.match, joined.detector_span_id, joined.aem_span_id) == ("span", search.span_info.span_id,
                                                                           search.span_info.span_id)  # fmt: skip
    assert (joined.aem_user_turn, joined.detector_user_turn) == (1, 1)
