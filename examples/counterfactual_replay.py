"""Check a diagnosis by counterfactual replay: correct the root-cause step, let the agent run on, score again.

Two live cases of a small sales agent (a real Strands ``Agent`` with ``@tool`` functions, offline: its model
answers from the conversation so far, as a hosted model would). Both ask for EU revenue; the agent asks
``filter_data`` for profit instead (the root cause, turn 1) and charts what it got (a cascade, turn 2).

- ``wrong_metric``: once turn 1 is gold, the agent charts the right data set: ``fixed``, the diagnosis holds.
- ``line_chart``: the agent also asks for a line chart where gold wants a bar chart: ``still_fails`` (that call
  was never recorded, so the replay answers it with an error observation and says so).

The Experiment runs the cases once; ``with_counterfactuals`` adds ``metadata["counterfactual"]`` to the failing
rows. Tools are ``recorded``: every call is answered from the recorded run or gold's observations, so no tool
runs twice. Run: ``python examples/counterfactual_replay.py`` (exit 0).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from strands import Agent, tool
from strands_evals import Case, Experiment

from aem_strands.strands import AemSessionEvaluator, live_case, make_live_task
from aem_strands.strands.counterfactual import with_counterfactuals
from aem_strands.testing import PolicyModel, ToolUse

DATA = {"revenue": {"dataset_id": "ds-7731", "total": 4200000}, "profit": {"dataset_id": "ds-7732", "total": 1150000}}
REAL_CALLS: list[str] = []


@tool
def filter_data(metric: str, region: str, year: int) -> dict[str, Any]:
    """Select the sales data of one metric, region and year."""
    REAL_CALLS.append(f"filter_data({metric})")
    return dict(DATA[metric])


@tool
def create_chart(dataset_id: str, chart_type: str) -> dict[str, Any]:
    """Draw a chart of a data set."""
    REAL_CALLS.append(f"create_chart({dataset_id}, {chart_type})")
    return {"chart_id": "ch-" + dataset_id[-3:]}


def sales_policy(chart_type: str) -> Callable[[list[dict[str, Any]]], str | ToolUse]:
    """Asks for profit, charts the data set the last tool result names, then says the chart is ready."""

    def next_turn(messages: list[dict[str, Any]]) -> str | ToolUse:
        result = next((b["toolResult"] for b in messages[-1]["content"] if "toolResult" in b), None)
        if result is None:
            return ToolUse("filter_data", {"metric": "profit", "region": "EU", "year": 2024})
        if result["status"] == "error":
            return "Sorry, the chart failed."
        seen = json.loads(result["content"][0]["text"])
        if "chart_id" in seen:
            return "Your chart is ready."
        return ToolUse("create_chart", {"dataset_id": seen["dataset_id"], "chart_type": chart_type})

    return next_turn


def build_agent(case: Case[Any, Any]) -> Agent:
    model = PolicyModel(sales_policy((case.metadata or {}).get("chart_type", "bar")))
    return Agent(model=model, tools=[filter_data, create_chart], callback_handler=None)


GOLD: list[dict[str, Any]] = [
    {"turn": "Tool", "tool_id": "filter_data", "action": "filter_data",
     "args": {"metric": "revenue", "region": "EU", "year": 2024}, "observation": DATA["revenue"]},
    {"turn": "Tool", "tool_id": "create_chart", "action": "create_chart",
     "args": {"dataset_id": "ds-7731", "chart_type": "bar"}, "observation": {"chart_id": "ch-731"}},
    {"turn": "Agent", "response": "Your chart is ready."},
]  # fmt: skip
QUESTION = "EU revenue for 2024 as a bar chart, please."


def main() -> int:
    cases = [
        live_case(GOLD, [QUESTION], name="wrong_metric"),
        live_case(GOLD, [QUESTION], name="line_chart", metadata={"chart_type": "line"}),
    ]
    evaluator = AemSessionEvaluator(scorer="exact")
    report = Experiment(cases=cases, evaluators=[evaluator]).run_evaluations(make_live_task(build_agent))
    calls = len(REAL_CALLS)
    checked = with_counterfactuals(report, build_agent, evaluator=evaluator, tools="recorded")
    for row, outputs in zip(checked.cases, checked.detailed_results, strict=True):
        found = (outputs[0].metadata or {}).get("counterfactual") or {}
        print(f"{row['name']}: {found.get('outcome')} ({found.get('reason')})")
    print(f"real tool calls: {calls} in the runs, {len(REAL_CALLS) - calls} in the replays")
    return 0 if len(REAL_CALLS) == calls else 1


if __name__ == "__main__":
    raise SystemExit(main())
