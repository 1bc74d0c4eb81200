"""AemReport rollups across cases, from an Experiment and after a JSON round trip."""

from __future__ import annotations

from pathlib import Path

from strands_evals import Experiment
from strands_evals.evaluators import ToolCalled

from aem_strands.strands import AemReport, AemSessionEvaluator, offline_case, offline_task
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
        "AEM: 2 case(s), mean score 0.875, pass rate 0.5",
        "  inconsistent_parameter_values: 1 root cause(s), 0 cascade(s)",
        "  version=v1: mean 0.75, pass rate 0.0",
        "  version=v2: mean 1.0, pass rate 1.0",
    ]
    path = tmp_path / "report.json"
    report.to_file(str(path))
    assert AemReport.from_file(str(path)).rollups(group_by="version") == expected
    assert AemReport.from_file(str(path)).rollups(evaluator="ToolCalled")["cases"] == 0
