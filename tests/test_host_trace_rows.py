"""Issue 29, host paths: trace rows (``AemTraceEvaluator``) get the report and the regression export dialog rows get.

Two offline cases (the order id the user gave: passes; one nobody gave: fails arguments), versions v1 and v2.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from strands_evals import Case, Experiment
from strands_evals.cli.main import main as strands_evals

from aem_strands.cli import main as aem_strands
from aem_strands.strands import AemReport, AemTraceEvaluator, offline_case, offline_task
from aem_strands.strands.report import main as report_main
from aem_strands.strands.session import offline_session
from tests.conftest import EXAMPLES
from tests.test_host_offline_trace import ORDER, _dialog

POLICY = str(EXAMPLES / "data" / "traces" / "policy.yaml")
USER = {"goal": f"Track order {ORDER}", "user_messages": [f"Where is my order {ORDER}?"]}


def _report(tmp_path: Path) -> Path:
    cases = [offline_case(_dialog(ORDER, **USER), name="good", metadata={"version": "v1"}),
             offline_case(_dialog("ORD-9999", **USER), name="bad", metadata={"version": "v2"})]  # fmt: skip
    report = Experiment(cases=cases, evaluators=[AemTraceEvaluator(policy=POLICY)]).run_evaluations(offline_task)
    path = tmp_path / "report.json"
    report.to_file(str(path))
    return path


def test_trace_rows_roll_up_like_dialog_rows(tmp_path: Path) -> None:
    report = AemReport.from_file(str(_report(tmp_path)))
    rollups = report.trace_rollups(group_by="version")
    assert rollups["cases"] == 2
    assert rollups["pass_rate"] == 0.5  # good passes, bad fails
    assert rollups["veto_rate"] == 0.0
    assert rollups["dimensions"]["arguments"] == {"applicable": 2, "passed": 1, "failed": 1, "rate": 0.5}
    assert rollups["critical_rules"] == {"earliest_failure": 1}
    assert rollups["first_critical_steps"][0]["step"] == "lookup_order#2"
    groups = rollups["by_metadata"]["groups"]
    assert groups["v1"]["pass_rate"] == 1.0
    assert groups["v2"]["pass_rate"] == 0.0
    summary = report.summary(group_by="version")
    assert summary.startswith("aem_trace: 2 traces")  # before: "AEM: 0 cases"
    assert "arguments: 1 of 2 pass" in summary


def test_the_report_printer_names_the_first_critical_step(tmp_path: Path) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert report_main([str(_report(tmp_path))]) == 0
    printed = out.getvalue()
    assert "0 cases" not in printed
    assert "bad: fail first critical step lookup_order#2 (earliest_failure)" in printed
    assert "good:" not in printed  # a passing trace is not listed


def test_failing_trace_rows_export_and_fail_again(tmp_path: Path) -> None:
    out = tmp_path / "regression.json"
    code = aem_strands(["export-regression", str(_report(tmp_path)), "--out", str(out)],
                       stdout=io.StringIO(), stderr=io.StringIO())  # fmt: skip
    assert code == 0
    experiment = json.loads(out.read_text(encoding="utf-8"))
    assert [c["name"] for c in experiment["cases"]] == ["bad"]  # before: "no AEM session rows", no case
    assert experiment["evaluators"][0]["evaluator_type"] == "AemTraceEvaluator"
    assert experiment["evaluators"][0]["policy"] == POLICY  # the policy the row was judged under
    regression = experiment["cases"][0]["metadata"]["regression"]
    assert regression["first_critical_failure_step"] == "lookup_order#2"
    rerun = tmp_path / "rerun.json"
    code = strands_evals(["run", str(out), "--task", "aem_strands:offline_task",
                          "--custom-evaluator", "aem_strands:AemTraceEvaluator", "-o", str(rerun)])  # fmt: skip
    assert code == 1  # the failure is reproduced
    again = json.loads(rerun.read_text(encoding="utf-8"))
    assert again["detailed_results"][0][0]["metadata"]["first_critical_failure_step"] == "lookup_order#2"


def _live_report(tmp_path: Path, order: str) -> Path:
    """A case with host gold only, whose task returns a Session (no metadata.aem): what a live run gives."""
    call = {"tool_id": "lookup_order", "action": "lookup_order", "args": {"order_id": order},
            "observation": {"order_id": order, "status": "shipped"}}  # fmt: skip
    turns = [{"turn_no": 1, "turn": "Tool", "predict_turn": call},
             {"turn_no": 2, "turn": "Agent", "predict_turn": {"response": f"Order {order} has shipped."}}]  # fmt: skip

    def task(case: Case[Any, Any]) -> dict[str, Any]:
        return {"output": f"Order {order} has shipped.",
                "trajectory": offline_session(turns, case.session_id, [f"Where is my order {ORDER}?"])}  # fmt: skip

    case = Case(name="live", input=f"Where is my order {ORDER}?", expected_trajectory=["lookup_order"])
    report = Experiment(cases=[case], evaluators=[AemTraceEvaluator()]).run_evaluations(task)
    path = tmp_path / "live.json"
    report.to_file(str(path))
    return path


@pytest.mark.parametrize(("order", "fails"), [("ORD-9999", True), (ORDER, False)])
def test_a_live_trace_row_exports_its_recorded_session(tmp_path: Path, order: str, fails: bool) -> None:
    out = tmp_path / "regression.json"
    assert aem_strands(["export-regression", str(_live_report(tmp_path, order)), "--out", str(out)],
                       stdout=io.StringIO(), stderr=io.StringIO()) == 0  # fmt: skip
    cases = json.loads(out.read_text(encoding="utf-8"))["cases"]
    assert len(cases) == (1 if fails else 0)  # only a failing row is exported
    if fails:
        assert "session" in cases[0]["metadata"]["aem"]
        rerun = tmp_path / "rerun.json"
        run = ["run", str(out), "--task", "aem_strands:offline_task", "--custom-evaluator",
               "aem_strands:AemTraceEvaluator", "-o", str(rerun)]  # fmt: skip
        assert strands_evals(run) == 1
