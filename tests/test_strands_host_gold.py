"""Gold from the host's own Case fields, and single-message live cases that `strands-evals run --agent` runs.

The agent is the real sales agent of ``experiments/sales_agent.py`` (real ``@tool``s, scripted model),
run by the host CLI's own ``--agent`` task, in-process.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from strands_evals import Case, Experiment
from strands_evals.cli.main import main as strands_evals
from strands_evals.types import EvaluationData

from aem_strands.errors import InputError
from aem_strands.strands import AemSessionEvaluator, case_dialog, live_case
from experiments.sales_agent import chart_case
from tests.conftest import ROOT

SCRIPT = [
    {"tool": "filter_data", "input": {"metric": "profit", "region": "EU", "year": 2024}},
    {"tool": "create_chart", "input": {"dataset_id": "ds-7732", "chart_type": "bar"}},
    "Your chart is ready.",
]
EXPECTED_TRAJECTORY = [
    {"name": "filter_data", "arguments": {"metric": "revenue", "region": "EU", "year": 2024}},
    "create_chart",  # a bare name: the tool must be called, its arguments are not compared
]


def host_case() -> Case[Any, Any]:
    return Case(
        name="host_gold",
        input="EU revenue for 2024 as a bar chart, please.",
        expected_trajectory=EXPECTED_TRAJECTORY,
        expected_output="Your chart is ready.",
        metadata={"scripted_model": SCRIPT},
    )


def run_with_agent(tmp_path: Path, cases: list[Case[Any, Any]], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    experiment_file, out = tmp_path / "experiment.json", tmp_path / "out.json"
    Experiment(cases=cases, evaluators=[AemSessionEvaluator(scorer="exact")]).to_file(str(experiment_file))
    monkeypatch.chdir(ROOT)
    code = strands_evals(["run", str(experiment_file), "--agent", "experiments.sales_agent:build_agent",
                          "--custom-evaluator", "aem_strands:AemSessionEvaluator", "-o", str(out)])  # fmt: skip
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    report["exit_code"] = code
    return report


def test_expected_trajectory_and_output_are_gold_under_strands_evals_run_agent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = run_with_agent(tmp_path, [host_case()], monkeypatch)
    assert report["exit_code"] == 1  # the agent filtered on profit
    row = report["detailed_results"][0][0]
    # filter_data fails on the metric (root cause); create_chart passes (its tool is all gold asks for);
    # the reply passes: 2/3
    assert (row["score"], row["label"]) == (pytest.approx(2 / 3), "inconsistent_parameter_values")
    turns = {t["turn_no"]: t for t in row["metadata"]["turns"]}
    assert [(turns[n]["success"], turns[n]["role"]) for n in (1, 2, 3)] == [
        (False, "root_cause"), (True, None), (True, None)
    ]  # fmt: skip


def test_a_single_message_live_case_has_a_string_input_that_run_agent_sends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = chart_case("one_message", "revenue", "EU", 2024)
    assert case.input == "EU revenue for 2024 as a bar chart, please."
    assert live_case([], ["a", "b"], name="two").input == ["a", "b"]
    report = run_with_agent(tmp_path, [case], monkeypatch)
    assert (report["exit_code"], report["scores"], report["test_passes"]) == (0, [1.0], [True])


def test_metadata_gold_wins_and_a_malformed_expected_trajectory_names_the_item() -> None:
    data = EvaluationData(name="c", input="x", expected_trajectory=["a", {"arguments": {}}], actual_trajectory=[])
    (row,) = AemSessionEvaluator(scorer="exact").evaluate(data)
    assert row.label == "not_applicable"
    assert "turn 2, field 'expected_trajectory'" in (row.reason or "")
    with pytest.raises(InputError, match="expected a tool name"):
        case_dialog(None, [], name="c", expected_trajectory=[3])
    aem = {"aem": {"gold": [{"turn": "Agent", "response": "hi"}]}}
    found = case_dialog(aem, [{"turn": "Agent", "response": "hi"}], name="c", expected_output="ignored")
    assert len(found.dialog.turns) == 1


def test_a_host_style_trajectory_of_tool_names_is_scored_against_host_gold() -> None:
    data = EvaluationData(name="names", input="x", expected_trajectory=["filter_data", "create_chart"],
                          expected_output="Done.", actual_trajectory=["filter_data", "create_chart"],
                          actual_output="Done.")  # fmt: skip
    (row,) = AemSessionEvaluator(scorer="exact").evaluate(data)
    assert (row.score, row.test_pass) == (1.0, True)


def test_generate_recipe_reattaches_aem_to_generated_cases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from strands_evals.evaluators import Evaluator

    # What `strands-evals generate --experiment` writes: new cases with expected_output, a placeholder evaluator.
    generated = tmp_path / "generated.json"
    case = Case(name="gen_1", input="EU revenue for 2024 as a bar chart, please.",
                expected_output="Your chart is ready.", metadata={"scripted_model": SCRIPT})  # fmt: skip
    Experiment(cases=[case], evaluators=[Evaluator()]).to_file(str(generated))
    # The documented recipe (docs/STRANDS.md, "Generated cases"):
    loaded = Experiment.from_file(str(generated))
    aem = AemSessionEvaluator(scorer="exact", allow_extra="all")  # generated gold has no tool calls: tolerate them
    Experiment(cases=loaded.cases, evaluators=[aem]).to_file(str(tmp_path / "aem.json"))
    monkeypatch.chdir(ROOT)
    out = tmp_path / "out.json"
    code = strands_evals(["run", str(tmp_path / "aem.json"), "--agent", "experiments.sales_agent:build_agent",
                          "--custom-evaluator", "aem_strands:AemSessionEvaluator", "-o", str(out)])  # fmt: skip
    report = json.loads(out.read_text(encoding="utf-8"))
    # gold is the final reply only; the agent's two tool calls are tolerated extras, the reply matches
    row = report["detailed_results"][0][0]
    assert (code, row["score"], len(row["metadata"]["turns"])) == (0, 1.0, 1)


def test_a_task_that_returns_only_its_reply_is_scored_against_expected_output() -> None:
    cases = [Case(name="hello", input="Hi", expected_output="Hello! How can I help?")]
    report = Experiment(cases=cases, evaluators=[AemSessionEvaluator(scorer="exact")]).run_evaluations(
        lambda case: "Hello! How can I help?"
    )
    assert (report.scores, report.test_passes) == ([1.0], [True])
