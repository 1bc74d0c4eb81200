"""Counterfactual replay with real Strands agents: the diagnosed step replaced by gold, the agent run on.

The agents' model answers from the conversation so far (``testing.PolicyModel``): it calls ``filter_data`` for the
user's question, charts whatever data set the last tool result names, and confirms the chart; so what happens
after the replaced step depends on the observation the replay gives it, as with a real model.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from strands import Agent, tool
from strands_evals import Case, Experiment

from aem_strands.errors import ConfigError
from aem_strands.strands import (
    AemSessionEvaluator,
    AemTraceEvaluator,
    live_case,
    make_live_task,
    offline_case,
    run_live,
)
from aem_strands.strands.counterfactual import Outcome, counterfactual_replay, with_counterfactuals
from aem_strands.strands.regression import FailingCase, failing_rows, regression_experiment
from aem_strands.testing import PolicyModel, ToolUse
from tests.conftest import EXAMPLES, ROOT

DATA = {"revenue": {"dataset_id": "ds-7731", "total": 4200000}, "profit": {"dataset_id": "ds-7732", "total": 1150000}}
CHARTS = {"ds-7731": "ch-301", "ds-7732": "ch-302"}
QUESTION = "EU revenue for 2024 as a bar chart, please."
READY = "Your chart is ready."


def gold(observations: bool = True) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = [
        {"turn": "Tool", "tool_id": "filter_data", "action": "filter_data",
         "args": {"metric": "revenue", "region": "EU", "year": 2024},
         "observation": {"dataset_id": "ds-7731", "total": 4200000}},
        {"turn": "Tool", "tool_id": "create_chart", "action": "create_chart",
         "args": {"dataset_id": "ds-7731", "chart_type": "bar"}, "observation": {"chart_id": "ch-301"}},
        {"turn": "Agent", "response": READY},
    ]  # fmt: skip
    if not observations:
        for turn in turns:
            turn.pop("observation", None)
    return turns


Policy = Callable[[list[dict[str, Any]]], str | ToolUse]


def chart_policy(metric: str = "profit", chart_type: str = "bar", large: str | None = None) -> Policy:
    """Ask for ``metric``; chart the last result's data set as ``chart_type`` (or say ``large`` above 4M)."""

    def policy(messages: list[dict[str, Any]]) -> str | ToolUse:
        result = next((b["toolResult"] for b in messages[-1]["content"] if "toolResult" in b), None)
        if result is None:
            return ToolUse("filter_data", {"metric": metric, "region": "EU", "year": 2024})
        if result["status"] == "error":
            return "Sorry, that failed."
        seen = json.loads(result["content"][0]["text"])
        if "chart_id" in seen:
            return READY
        if large is not None and seen["total"] > 4_000_000:
            return large
        return ToolUse("create_chart", {"dataset_id": seen["dataset_id"], "chart_type": chart_type})

    return policy


class Factory:
    """Builds agents on ``policy`` whose real tools log every call they really make."""

    def __init__(self, policy: Callable[..., Any]) -> None:
        self.policy = policy
        self.calls: list[str] = []

    def __call__(self) -> Agent:
        calls = self.calls

        @tool
        def filter_data(metric: str, region: str, year: int) -> dict[str, Any]:
            """Select the sales data of one metric, region and year."""
            calls.append(f"filter_data {metric}")
            return dict(DATA[metric])

        @tool
        def create_chart(dataset_id: str, chart_type: str) -> dict[str, Any]:
            """Draw a chart of a data set."""
            calls.append(f"create_chart {dataset_id} {chart_type}")
            return {"chart_id": CHARTS[dataset_id]}

        model = PolicyModel(self.policy)
        return Agent(model=model, tools=[filter_data, create_chart], callback_handler=None)


EXACT = AemSessionEvaluator(scorer="exact")


def replay(factory: Factory, *, observations: bool = True, **kw: Any) -> Any:
    case = live_case(gold(observations), [QUESTION], name="wrong_metric")
    run = run_live(factory, case)
    return counterfactual_replay(factory, case, run, evaluator=EXACT, **kw)


def test_gold_step_that_explains_the_later_failures_gives_fixed() -> None:
    factory = Factory(chart_policy())
    found = replay(factory)
    # recorded run: filter_data(profit) (root cause, turn 1) -> create_chart(ds-7732) (cascade, turn 2) -> reply
    assert factory.calls == ["filter_data profit", "create_chart ds-7732 bar"]  # the replay ran no tool
    assert found.outcome is Outcome.FIXED
    assert (found.step, found.later_failures_before, found.later_failures_after, found.runs) == (1, 1, 0, 1)
    assert found.replaced_with == {
        "turn": "Tool", "tool_id": "filter_data", "action": "filter_data",
        "args": {"metric": "revenue", "region": "EU", "year": 2024},
        "observation": {"dataset_id": "ds-7731", "total": 4200000}, "observation_source": "gold",
    }  # fmt: skip
    # the agent charted the data set gold's observation named, answered from gold's recorded observation
    assert [t.get("args") or t.get("response") for t in found.turns_after[1:]] == [
        {"dataset_id": "ds-7731", "chart_type": "bar"},
        READY,
    ]
    assert found.turns_after[1]["observation"] == {"chart_id": "ch-301"}
    assert found.score_after == 1.0
    assert found.tools == "recorded"
    assert found.unrecorded_calls == ()
    assert found.to_dict()["outcome"] == "fixed"


def test_agent_failing_again_later_gives_still_fails_with_sandboxed_tools() -> None:
    factory = Factory(chart_policy(chart_type="line"))
    found = replay(factory, tools="sandboxed")
    # create_chart(ds-7731, line) after gold is turn 2 failing again: args.chart_type 'line' vs 'bar'
    assert found.outcome is Outcome.STILL_FAILS
    assert (
        found.reason == "turn 1 replaced with gold: fails again as before: gold turn 2: inconsistent_parameter_values"
    )
    assert (found.later_failures_before, found.later_failures_after) == (1, 1)
    # sandboxed: the continuation's call ran the factory's tool (gold's own call took gold's observation)
    assert factory.calls == ["filter_data profit", "create_chart ds-7732 line", "create_chart ds-7731 line"]
    assert found.tools == "sandboxed"


def test_a_different_later_failure_gives_other_failure() -> None:
    factory = Factory(chart_policy(large="That is too much data to chart."))
    found = replay(factory)
    # recorded: profit (1.15M) is charted, turn 2 a cascade; with gold's 4.2M the agent stops and says so:
    # turn 2 is now missing and the reply differs, neither failed that way before
    assert found.outcome is Outcome.OTHER_FAILURE
    assert (found.later_failures_before, found.later_failures_after) == (1, 2)
    assert factory.calls == ["filter_data profit", "create_chart ds-7732 bar"]


def test_a_step_the_agent_never_made_is_inserted_before_the_next_turn() -> None:
    def policy(messages: list[dict[str, Any]]) -> str | ToolUse:
        result = next((b["toolResult"] for b in messages[-1]["content"] if "toolResult" in b), None)
        return READY if result is not None else chart_policy(metric="revenue")(messages)  # never charts

    factory = Factory(policy)
    found = replay(factory)
    # recorded run: filter_data(revenue), then the reply: gold turn 2, create_chart, is missing (the root cause)
    assert found.step == 2
    assert (found.replaced_with or {}).get("action") == "create_chart"
    assert found.outcome is Outcome.FIXED
    assert [t.get("action") or t.get("response") for t in found.turns_after] == ["filter_data", "create_chart", READY]
    assert (found.later_failures_before, found.later_failures_after) == (0, 0)  # the reply passed before too


def test_recorded_tools_never_call_a_real_tool_again_and_name_what_was_not_recorded() -> None:
    factory = Factory(chart_policy())
    found = replay(factory, observations=False)
    # gold's filter_data(revenue) has no observation and the run never made that call: an error observation
    assert factory.calls == ["filter_data profit", "create_chart ds-7732 bar"]
    key = 'filter_data({"metric": "revenue", "region": "EU", "year": 2024})'
    assert found.unrecorded_calls == (key,)
    assert (found.replaced_with or {}).get("observation_source") == "unrecorded"
    assert "1 unrecorded tool call(s) answered with an error" in found.reason
    assert found.turns_after[-1]["response"] == "Sorry, that failed."


def test_later_user_turns_are_sent_and_a_call_the_run_made_is_answered_from_the_run() -> None:
    def policy(messages: list[dict[str, Any]]) -> str | ToolUse:
        asked = [b["text"] for m in messages if m["role"] == "user" for b in m["content"] if "text" in b]
        if asked[-1] != "And profit?":
            return chart_policy()(messages)
        result = next((b["toolResult"] for b in messages[-1]["content"] if "toolResult" in b), None)
        if result is None:
            return ToolUse("filter_data", {"metric": "profit", "region": "EU", "year": 2024})
        return f"Profit was {json.loads(result['content'][0]['text'])['total']}."

    factory = Factory(policy)
    profit = {"turn": "Tool", "tool_id": "filter_data", "action": "filter_data",
              "args": {"metric": "profit", "region": "EU", "year": 2024}}  # fmt: skip
    case = live_case([*gold(), profit, {"turn": "Agent", "response": "Profit was 1150000."}],
                     [QUESTION, "And profit?"], name="two_questions")  # fmt: skip
    run = run_live(factory, case)
    found = counterfactual_replay(factory, case, run, evaluator=EXACT)
    assert found.outcome is Outcome.FIXED
    # the second question's filter_data(profit) was made in the run: its recorded observation answers it
    assert found.turns_after[3:] == (
        {**profit, "observation": {"dataset_id": "ds-7732", "total": 1150000}},
        {"turn": "Agent", "response": "Profit was 1150000."},
    )
    assert found.unrecorded_calls == ()
    assert factory.calls == ["filter_data profit", "create_chart ds-7732 bar", "filter_data profit"]  # the run's


def test_sandboxed_gold_call_without_an_observation_runs_the_tool_once() -> None:
    factory = Factory(chart_policy())
    found = replay(factory, observations=False, tools="sandboxed")
    assert factory.calls[2:] == ["filter_data revenue", "create_chart ds-7731 bar"]
    assert (found.replaced_with or {}).get("observation_source") == "sandboxed"
    assert found.outcome is Outcome.FIXED


def test_trace_evaluator_replaces_the_first_critical_failure_step() -> None:
    def policy(messages: list[dict[str, Any]]) -> str | ToolUse:
        if messages[-1]["role"] == "user" and "text" in messages[-1]["content"][0]:
            return ToolUse("search_data", {"query": "EU revenue 2024"})  # a tool the agent does not have
        return chart_policy()(messages)

    factory = Factory(policy)
    expected = [{"name": "filter_data", "arguments": {"metric": "revenue", "region": "EU", "year": 2024}},
                {"name": "create_chart", "arguments": {"dataset_id": "ds-7731", "chart_type": "bar"}}]  # fmt: skip
    case: Case[Any, Any] = Case(
        name="no_such_tool", input=QUESTION, expected_trajectory=expected, expected_output=READY
    )
    run = run_live(factory, case)
    evaluator = AemTraceEvaluator()
    found = counterfactual_replay(factory, case, run, evaluator=evaluator, tools="sandboxed")
    # the step is named by its tool and position (user-1, then search_data at step 2); it used to be the span id
    assert found.step == "search_data#2"
    assert found.outcome is Outcome.FIXED
    # before: filter_data and create_chart never called (trace-level, after every step); after: none
    assert (found.later_failures_before, found.later_failures_after) == (2, 0)
    assert (found.replaced_with or {}).get("args") == {"metric": "revenue", "region": "EU", "year": 2024}
    # the run called no real tool (search_data does not exist); the sandboxed replay ran gold's call and the chart
    assert factory.calls == ["filter_data revenue", "create_chart ds-7731 bar"]


def test_offline_case_or_no_factory_is_not_run() -> None:
    turns = [{"turn_no": 1, "turn": "Agent", "gold_turn": {"response": "a"}, "predict_turn": {"response": "b"}}]
    found = counterfactual_replay(Factory(chart_policy()), offline_case(turns, name="off"), {"output": "b"})
    assert (found.outcome, found.reason, found.runs) == (Outcome.NOT_RUN, "not run: no agent", 0)
    live = live_case(gold(), [QUESTION], name="live")
    assert counterfactual_replay(None, live, {}).reason == "not run: no agent"
    assert found.to_dict()["outcome"] == "not_run"


def test_passing_case_is_not_run_and_unknown_tools_mode_is_refused() -> None:
    factory = Factory(chart_policy(metric="revenue"))
    assert replay(factory).reason == "not run: the case passes"
    with pytest.raises(ConfigError, match="tools must be one of recorded, sandboxed, got 'live'"):
        replay(factory, tools="live")


def test_with_counterfactuals_marks_only_the_failing_rows_of_an_experiment() -> None:
    factory = Factory(chart_policy())
    cases = [live_case(gold(), [QUESTION], name="wrong_metric")]
    right = Factory(chart_policy(metric="revenue"))
    cases.append(live_case(gold(), [QUESTION], name="right", metadata={"right": True}))

    def build(case: Any) -> Agent:
        return right() if (case.metadata or {}).get("right") else factory()

    experiment = Experiment(cases=cases, evaluators=[EXACT])
    report = asyncio.run(experiment.run_evaluations_async(make_live_task(build), max_workers=1))
    before = list(factory.calls)
    marked = with_counterfactuals(report, build, evaluator=EXACT)
    by_name = {
        row["name"]: outputs[0].metadata for row, outputs in zip(marked.cases, marked.detailed_results, strict=True)
    }
    assert by_name["wrong_metric"]["counterfactual"]["outcome"] == "fixed"
    assert by_name["wrong_metric"]["counterfactual"]["tools"] == "recorded"
    assert "counterfactual" not in by_name["right"]
    assert factory.calls == before  # recorded tools: the replay called nothing for real
    assert all("counterfactual" not in (o[0].metadata or {}) for o in report.detailed_results)  # a copy


def test_with_counterfactuals_keeps_going_when_a_replay_raises() -> None:
    builds: list[int] = []

    def failing(messages: list[dict[str, Any]]) -> str | ToolUse:
        raise RuntimeError("model down")

    def build() -> Agent:
        builds.append(1)
        return Factory(chart_policy() if len(builds) == 1 else failing)()  # the run works, the replay's model fails

    report = Experiment(cases=[live_case(gold(), [QUESTION], name="c")], evaluators=[EXACT]).run_evaluations(
        make_live_task(build)
    )
    found = with_counterfactuals(report, build, evaluator=EXACT).detailed_results[0][0].metadata or {}
    assert found["counterfactual"]["outcome"] == "not_run"
    assert found["counterfactual"]["reason"].startswith("not run: the replay raised ")
    assert "model down" in found["counterfactual"]["reason"]


def test_a_fixed_replay_marks_the_exported_regression_case_confirmed(tmp_path: Path) -> None:
    factory = Factory(chart_policy())
    cases = [live_case(gold(), [QUESTION], name="wrong_metric")]
    report = Experiment(cases=cases, evaluators=[EXACT]).run_evaluations(make_live_task(factory))
    path = tmp_path / "report.json"
    with_counterfactuals(report, factory, evaluator=EXACT).to_file(str(path))
    rows = list(failing_rows(path))
    assert [row for row in rows if not isinstance(row, FailingCase)] == []
    exported = regression_experiment([row for row in rows if isinstance(row, FailingCase)], scorer="exact").cases
    assert [c.name for c in exported] == ["wrong_metric"]
    metadata = exported[0].metadata or {}
    assert metadata["confirmed"] is True
    assert metadata["regression"]["counterfactual"] == "fixed"


def test_example_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "counterfactual_replay.py")], cwd=ROOT, capture_output=True, text=True,
        timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "wrong_metric: fixed (turn 1 replaced with gold: no failure after the replaced step (now pass))"
    assert lines[1].startswith("line_chart: still_fails (turn 1 replaced with gold: fails again as before: gold turn 2")
    assert lines[-1] == "real tool calls: 4 in the runs, 0 in the replays"
