"""AemReport rollups across cases, from an Experiment and after a JSON round trip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from strands_evals import Experiment
from strands_evals.evaluators import ToolCalled

from aem_strands.strands import AemReport, AemSessionEvaluator, AemTurnEvaluator, offline_case, offline_task
from aem_strands.strands.report import main
from aem_strands.strands.tasks import telemetry
from tests.conftest import action, paired, reply


def dialog(metric: str) -> list[dict[str, object]]:
    return [
        paired(1, reply("Which region?"), reply("Which region?")),
        paired(2, action("reports", "FilterData", metric="revenue"), action("reports", "FilterData", metric=metric)),
        paired(3, action("reports", "CreateChart", id="c"), action("reports", "CreateChart", id="c")),
        paired(4, reply("Ready."), reply("Ready.")),
    ]


def test_rollups_by_reason_sub_metric_chain_and_version(tmp_path: Path) -> None:
    cases = [
        offline_case(dialog("profit"), name="wrong", metadata={"version": "v1"}),  # 3/4: turn 2 root cause
        offline_case(dialog("revenue"), name="right", metadata={"version": "v2"}),  # 4/4
    ]
    evaluators = [AemSessionEvaluator(scorer="exact"), ToolCalled(tool_name="FilterData")]
    report = Experiment(cases=cases, evaluators=evaluators, report_cls=AemReport).run_evaluations(offline_task)
    assert isinstance(report, AemReport)
    expected = {
        "cases": 2,  # the ToolCalled rows carry no AEM result and are left out
        "mean_score": 0.875,  # (0.75 + 1.0) / 2
        "pass_rate": 0.5,
        "evaluators": ["AemSessionEvaluator"],
        "failure_reasons": {"inconsistent_parameter_values": {"root_cause": 1, "cascade": 0}},
        "sub_metrics": {
            "structure": {"passed": 4, "total": 4, "rate": 1.0},  # action turns 2, 3 of both cases
            "completeness": {"passed": 8, "total": 8, "rate": 1.0},
            "truthfulness": {"passed": 7, "total": 8, "rate": 0.875},  # only turn 2 of 'wrong' fails
        },
        "chains": {
            "single": {"turns": 0, "passed": 0, "pass_rate": None},
            "two_step": {"turns": 4, "passed": 3, "pass_rate": 0.75},  # turns 2-3 form one chain per case
            "three_plus": {"turns": 0, "passed": 0, "pass_rate": None},
        },
        "by_metadata": {
            "key": "version",
            "groups": {
                "v1": {"cases": 1, "mean_score": 0.75, "pass_rate": 0.0},
                "v2": {"cases": 1, "mean_score": 1.0, "pass_rate": 1.0},
            },
        },
    }
    assert report.rollups(group_by="version") == expected
    assert report.summary(group_by="version").splitlines() == [
        "AemSessionEvaluator: 2 cases, mean score 0.875, pass rate 0.5",
        "  inconsistent_parameter_values: 1 root cause, 0 cascades",
        "  version=v1: mean 0.75, pass rate 0.0",
        "  version=v2: mean 1.0, pass rate 1.0",
    ]
    path = tmp_path / "report.json"
    report.to_file(str(path))
    assert AemReport.from_file(str(path)).rollups(group_by="version") == expected
    assert AemReport.from_file(str(path)).rollups(evaluator="ToolCalled")["cases"] == 0


def run(cases: list[Any], evaluators: list[Any]) -> AemReport:
    report = Experiment(cases=cases, evaluators=evaluators, report_cls=AemReport).run_evaluations(offline_task)
    assert isinstance(report, AemReport)
    return report


def test_means_agree_with_the_host_when_a_case_could_not_be_judged() -> None:
    no_gold = offline_case(dialog("revenue"), name="no_gold")
    no_gold.metadata = {}
    report = run([offline_case(dialog("revenue"), name="right"), no_gold], [AemSessionEvaluator(scorer="exact")])
    # the unjudged case is a failure row (score 0, test_pass False) that the host averages in: (1.0 + 0) / 2
    assert report.overall_score == 0.5
    rollups = report.rollups()
    assert (rollups["cases"], rollups["mean_score"], rollups["pass_rate"]) == (2, 0.5, 0.5)


def test_cases_are_counted_once_with_several_aem_evaluators_and_turn_rows_roll_up() -> None:
    cases = [offline_case(dialog("profit"), name="wrong"), offline_case(dialog("revenue"), name="right")]
    both = run(cases, [AemSessionEvaluator(scorer="exact"), AemTurnEvaluator(scorer="exact")])
    assert both.rollups()["cases"] == 2  # not 4
    assert both.summary().splitlines() == [
        "AemSessionEvaluator: 2 cases, mean score 0.875, pass rate 0.5",
        "  inconsistent_parameter_values: 1 root cause, 0 cascades",
        "AemTurnEvaluator: 2 cases, mean score 0.875, pass rate 0.5",
        "  inconsistent_parameter_values: 1 root cause, 0 cascades",
    ]
    turns_only = run(cases, [AemTurnEvaluator(scorer="exact")])
    session = {k: v for k, v in both.rollups(evaluator="AemSessionEvaluator").items() if k != "evaluators"}
    assert {k: v for k, v in turns_only.rollups().items() if k != "evaluators"} == session
    assert turns_only.overall_score == 0.875  # the host's mean of the composed case scores (0.75 + 1.0) / 2


def test_failing_turns_and_the_report_printer_show_per_turn_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = dialog("profit")
    hostile[3]["predict_turn"] = reply("All set.")
    report = run([offline_case(hostile, name="wrong\rFAKE: PASS")], [AemSessionEvaluator(scorer="exact")])
    failing = report.failing_turns()
    assert [(t["turn_no"], t["failure_reason"], t["role"]) for t in failing] == [
        (2, "inconsistent_parameter_values", "root_cause"),
        (4, "inconsistent_response", "root_cause"),
    ]
    path = tmp_path / "report.json"
    report.to_file(str(path))
    assert main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "\r" not in out
    # the case name is escaped, so it cannot rewrite the line
    assert (
        "wrong\\rFAKE: PASS turn 2: fail inconsistent_parameter_values [root_cause]: args.metric: exact 0.000 <" in out
    )


def test_failure_labels_reach_telemetry() -> None:
    spans = telemetry().in_memory_exporter
    spans.clear()
    cases = [offline_case(dialog("profit"), name="wrong"), offline_case(dialog("revenue"), name="right")]
    evaluators = [
        AemSessionEvaluator(name="aem_session", scorer="exact"),
        AemTurnEvaluator(name="aem_turns", scorer="exact"),
    ]
    Experiment(cases=cases, evaluators=evaluators).run_evaluations(offline_task)
    labels = {
        (s.attributes["gen_ai.evaluation.name"], s.attributes["gen_ai.evaluation.case.name"]): s.attributes[
            "gen_ai.evaluation.score.label"
        ]
        for s in spans.get_finished_spans()
        if s.attributes and "gen_ai.evaluation.score.label" in s.attributes
    }
    assert labels == {
        ("aem_session", "wrong"): "inconsistent_parameter_values",  # not "YES" for a 0.75 that fails
        ("aem_session", "right"): "pass",
        ("aem_turns", "wrong"): "inconsistent_parameter_values",
        ("aem_turns", "right"): "pass",
    }
